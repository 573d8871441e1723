// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "tensor_files.h"

#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace executorch::backends::ascend::runner {

using executorch::aten::ScalarType;
using executorch::aten::Tensor;

namespace {

template <typename T, typename Value>
void fill_as(uint8_t* bytes, size_t count, Value value) {
  for (size_t i = 0; i < count; ++i) {
    const T v = static_cast<T>(static_cast<float>(value(i)));
    std::memcpy(bytes + i * sizeof(T), &v, sizeof(T));
  }
}

template <typename T>
void print_values(std::ostream& out, const void* data, size_t count) {
  const auto* values = static_cast<const T*>(data);
  for (size_t i = 0; i < count; ++i) {
    out << (i ? ", " : "") << static_cast<double>(values[i]);
  }
}

}  // namespace

InputBuffer make_input(const executorch::runtime::TensorInfo& info) {
  InputBuffer input;
  input.type = info.scalar_type();
  input.sizes.assign(info.sizes().begin(), info.sizes().end());
  input.dim_order.assign(info.dim_order().begin(), info.dim_order().end());
  input.bytes.assign(info.nbytes(), 0);
  return input;
}

bool read_input_file(const std::string& path, InputBuffer* input,
                     std::string* error) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) {
    *error = "cannot open input file '" + path + "'";
    return false;
  }
  const std::streamoff size = file.tellg();
  if (size < 0 || static_cast<size_t>(size) != input->bytes.size()) {
    std::ostringstream message;
    message << "input file '" << path << "' has " << size
            << " bytes; the input is "
            << executorch::runtime::toString(input->type) << " [";
    for (size_t d = 0; d < input->sizes.size(); ++d) {
      message << (d ? ", " : "") << input->sizes[d];
    }
    message << "], " << input->bytes.size() << " bytes";
    *error = message.str();
    return false;
  }
  file.seekg(0);
  file.read(reinterpret_cast<char*>(input->bytes.data()), size);
  if (!file) {
    *error = "cannot read input file '" + path + "'";
    return false;
  }
  return true;
}

void fill_deterministic(size_t input_index, InputBuffer* input) {
  const size_t k = input_index;
  auto floating = [k](size_t i) {
    return (static_cast<double>((i + 3 * k) % 17) - 8.0) / 8.0;
  };
  auto integral = [k](size_t i) { return static_cast<double>((i + k) % 7); };
  auto boolean = [k](size_t i) { return static_cast<double>((i + k) % 2); };
  uint8_t* bytes = input->bytes.data();
  const size_t n = input->bytes.size();
  switch (input->type) {
    case ScalarType::Float:
      fill_as<float>(bytes, n / sizeof(float), floating);
      break;
    case ScalarType::Double:
      fill_as<double>(bytes, n / sizeof(double), floating);
      break;
    case ScalarType::Half:
      fill_as<executorch::aten::Half>(bytes, n / 2, floating);
      break;
    case ScalarType::BFloat16:
      fill_as<executorch::aten::BFloat16>(bytes, n / 2, floating);
      break;
    case ScalarType::Byte:
      fill_as<uint8_t>(bytes, n, integral);
      break;
    case ScalarType::Char:
      fill_as<int8_t>(bytes, n, integral);
      break;
    case ScalarType::Short:
      fill_as<int16_t>(bytes, n / 2, integral);
      break;
    case ScalarType::Int:
      fill_as<int32_t>(bytes, n / 4, integral);
      break;
    case ScalarType::Long:
      fill_as<int64_t>(bytes, n / 8, integral);
      break;
    case ScalarType::Bool:
      fill_as<bool>(bytes, n, boolean);
      break;
    default:
      break;  // left zero
  }
}

std::string describe(const Tensor& tensor, size_t max_values) {
  std::ostringstream out;
  out << executorch::runtime::toString(tensor.scalar_type()) << " [";
  for (ssize_t d = 0; d < tensor.dim(); ++d) {
    out << (d ? ", " : "") << tensor.size(d);
  }
  out << "]";
  const size_t count =
      std::min(static_cast<size_t>(tensor.numel()), max_values);
  const void* data = tensor.const_data_ptr();
  if (data == nullptr) {
    return out.str();
  }
  out << " = [";
  switch (tensor.scalar_type()) {
    case ScalarType::Float:
      print_values<float>(out, data, count);
      break;
    case ScalarType::Double:
      print_values<double>(out, data, count);
      break;
    case ScalarType::Half:
      print_values<executorch::aten::Half>(out, data, count);
      break;
    case ScalarType::BFloat16:
      print_values<executorch::aten::BFloat16>(out, data, count);
      break;
    case ScalarType::Byte:
      print_values<uint8_t>(out, data, count);
      break;
    case ScalarType::Char:
      print_values<int8_t>(out, data, count);
      break;
    case ScalarType::Short:
      print_values<int16_t>(out, data, count);
      break;
    case ScalarType::Int:
      print_values<int32_t>(out, data, count);
      break;
    case ScalarType::Long:
      print_values<int64_t>(out, data, count);
      break;
    case ScalarType::Bool:
      print_values<bool>(out, data, count);
      break;
    default:
      out << "...";
      break;
  }
  if (static_cast<size_t>(tensor.numel()) > count) {
    out << ", ...";
  }
  out << "]";
  return out.str();
}

bool write_raw(const Tensor& tensor, const std::string& path,
               std::string* error) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file && tensor.nbytes() > 0) {
    file.write(static_cast<const char*>(tensor.const_data_ptr()),
               static_cast<std::streamsize>(tensor.nbytes()));
  }
  if (!file) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace executorch::backends::ascend::runner
