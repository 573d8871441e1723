// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc --insert_op_conf: CANN's AIPP configuration file (docs/aipp.md). The
// file is protobuf text of CANN's domi.InsertNewOps (graph_metadef/proto/
// insert_op.proto in hicann/ge): `aipp_op { aipp_mode: static
// input_format: RGB888_U8 ... }`, one block per model input. ParseAippConfig
// reads it as protobuf's text parser would (unknown fields, unknown enum
// names and a non-repeated field given twice are errors), CheckAippConfig
// makes CANN's checks of the parsed messages, and ResolveAipp (static) or
// ResolveDynamicAipp fits one block to the model input it pre-processes,
// giving the Aipp kernel's attributes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ascend_emu/tensor.h"

namespace ascend_emu {
namespace atc {

// One aipp_op block: every field that was set, by name, as text (enum and
// bool values as written, numbers as written), repeated fields in order.
struct AippOp {
  std::map<std::string, std::vector<std::string>> fields;
  int line = 0;  // where the block starts, for messages
};

// "" and the blocks, or protobuf's kind of parse error naming the line.
std::string ParseAippConfig(const std::string& text, std::vector<AippOp>* ops);

// Reads `path` and parses it; "" or "--insert_op_conf=<path>: <why>".
std::string ReadAippConfig(const std::string& path, std::vector<AippOp>* ops);

// CANN's checks on the whole file before the graph is touched (ge
// insert_aipp_op_util.cc, aipp_op.cc ValidateParams, the AIPP guide's
// template), and what the emulator does not emulate. `num_inputs` is the
// number of model inputs.
std::string CheckAippConfig(const std::vector<AippOp>& ops, size_t num_inputs);

// The input an aipp_op block pre-processes (related_input_rank, default 0).
int64_t AippInputRank(const AippOp& op);

// Fits a checked block to its model input (float32 or float16 [N, C, H, W]):
// CANN's defaults, the crop and padding against the input's H and W, the
// frame's shape ([N, H, W, 3] RGB888_U8, [N, H, W, 1] YUV400_U8,
// [N, H*3/2, W, 1] YUV420SP_U8) and the Aipp kernel's attributes. "" or why
// the block does not fit.
std::string ResolveAipp(const AippOp& op, DType input_dtype,
                        const Shape& input_shape, Attributes* attrs,
                        Shape* frame_shape);

// Whether a checked block is dynamic AIPP (aipp_mode: dynamic).
bool IsDynamicAipp(const AippOp& op);

// Fits a checked dynamic block to its model input (float32 or float16
// [N, C, H, W]): the frame's shape, uint8 [1, max_src_image_size], the
// parameter input's, uint8 [64 + 96 * N] (docs/aipp.md), and the Aipp
// kernel's attributes (aipp_mode 2, batch, output_hw, channels, to).
std::string ResolveDynamicAipp(const AippOp& op, DType input_dtype,
                               const Shape& input_shape, Attributes* attrs,
                               Shape* frame_shape, Shape* data_shape);

}  // namespace atc
}  // namespace ascend_emu
