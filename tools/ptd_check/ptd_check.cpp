// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "ptd_check.h"

#include <executorch/extension/flat_tensor/serialize/flat_tensor_header.h>
#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <fstream>
#include <vector>

#include "flat_tensor_generated.h"

namespace executorch::backends::ascend::tools {
namespace {

using executorch::extension::FlatTensorHeader;

// Every field ExecuTorch dereferences without a null check, per entry.
std::string check_entries(const ascend_ptd_flatbuffer::FlatTensor& root) {
  if (root.named_data() == nullptr || root.segments() == nullptr) {
    return "its named_data or segments table is missing";
  }
  for (flatbuffers::uoffset_t i = 0; i < root.segments()->size(); ++i) {
    if (root.segments()->Get(i) == nullptr) {
      return "segment " + std::to_string(i) + " is missing";
    }
  }
  for (flatbuffers::uoffset_t i = 0; i < root.named_data()->size(); ++i) {
    const auto* entry = root.named_data()->Get(i);
    if (entry == nullptr || entry->key() == nullptr) {
      return "named data entry " + std::to_string(i) + " has no key";
    }
    const auto* layout = entry->tensor_layout();
    if (layout != nullptr &&
        (layout->sizes() == nullptr || layout->dim_order() == nullptr ||
         layout->sizes()->size() != layout->dim_order()->size())) {
      return "the tensor layout of named data entry " + std::to_string(i) +
             " has sizes and dim_order of different lengths";
    }
  }
  return "";
}

}  // namespace

std::string check_ptd(const void* data, size_t size) {
  auto header = FlatTensorHeader::Parse(data, size);
  if (!header.ok()) return "it has no FlatTensor header (not a .ptd file?)";
  // FlatTensorDataMap::load reads the flatbuffer from offset 0 up to here.
  const uint64_t end = header->flatbuffer_offset + header->flatbuffer_size;
  if (end < header->flatbuffer_offset || end > size) {
    return "its flatbuffer (" + std::to_string(header->flatbuffer_size) +
           " bytes at offset " + std::to_string(header->flatbuffer_offset) +
           ") lies outside the file of " + std::to_string(size) + " bytes";
  }
  const auto* bytes = static_cast<const uint8_t*>(data);
  flatbuffers::Verifier verifier(bytes, static_cast<size_t>(end));
  if (!ascend_ptd_flatbuffer::VerifyFlatTensorBuffer(verifier)) {
    return "its FlatTensor flatbuffer fails verification (corrupted)";
  }
  return check_entries(*ascend_ptd_flatbuffer::GetFlatTensor(bytes));
}

std::string check_ptd_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "it cannot be opened";
  in.seekg(0, std::ios::end);
  const auto file_size = static_cast<uint64_t>(in.tellg());
  in.seekg(0);
  std::vector<uint8_t> head(FlatTensorHeader::kNumHeadBytes);
  if (file_size < head.size() ||
      !in.read(reinterpret_cast<char*>(head.data()), head.size())) {
    return "it is too short for a .ptd file (" + std::to_string(file_size) +
           " bytes)";
  }
  auto header = FlatTensorHeader::Parse(head.data(), head.size());
  if (!header.ok()) return "it has no FlatTensor header (not a .ptd file?)";
  const uint64_t end = header->flatbuffer_offset + header->flatbuffer_size;
  if (end < header->flatbuffer_offset || end > file_size) {
    return "its flatbuffer lies outside the file of " +
           std::to_string(file_size) + " bytes";
  }
  // The verifier wants the buffer aligned; a vector's storage is.
  std::vector<uint8_t> prefix(static_cast<size_t>(end));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(prefix.data()), prefix.size())) {
    return "it cannot be read";
  }
  return check_ptd(prefix.data(), prefix.size());
}

std::string ptd_refusal(const std::string& path) {
  const std::string problem = check_ptd_file(path);
  return problem.empty()
             ? problem
             : "data file '" + path + "' is not a valid .ptd: " + problem;
}

}  // namespace executorch::backends::ascend::tools
