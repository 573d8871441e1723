// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ascend_runner's tensor I/O: raw input files, deterministic inputs, raw
// output files and a short printable summary of a tensor.
#pragma once

#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/executor/method_meta.h>

#include <string>
#include <vector>

namespace executorch::backends::ascend::runner {

// Host storage for one method input, shaped as the method meta says.
struct InputBuffer {
  executorch::aten::ScalarType type = executorch::aten::ScalarType::Float;
  std::vector<executorch::aten::SizesType> sizes;
  std::vector<executorch::aten::DimOrderType> dim_order;
  std::vector<uint8_t> bytes;
};

// Shapes `out` after `info` (the method's input meta).
InputBuffer make_input(const executorch::runtime::TensorInfo& info);

// Reads `path` into `input`; the file must hold exactly input.bytes.size()
// bytes. False with `error` set otherwise.
bool read_input_file(const std::string& path, InputBuffer* input,
                     std::string* error);

// Element i of input k is ((i + 3k) % 17 - 8) / 8 for floating types,
// (i + k) % 7 for integer types and (i + k) % 2 for Bool: small, signed,
// reproducible, and safe as indices.
void fill_deterministic(size_t input_index, InputBuffer* input);

// "float32 [2, 3] = [1, 2, 3, 4, 5, 6]" with at most `max_values` values.
std::string describe(const executorch::aten::Tensor& tensor, size_t max_values);

// The tensor's bytes, as laid out in memory, to `path`.
bool write_raw(const executorch::aten::Tensor& tensor, const std::string& path,
               std::string* error);

}  // namespace executorch::backends::ascend::runner
