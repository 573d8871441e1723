// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The compiled program an .om holds (docs/om-format.md), in memory.
//
// atc builds a Program from an ONNX graph and serializes it (om_format.h);
// Model::Load parses one back, validates it and runs it. Nothing here is
// trusted until ValidateProgram (program_check.h) accepted it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "acl_api.h"
#include "ascend_emu/kernel.h"
#include "ascend_emu/tensor.h"

namespace ascend_emu {

// Where a tensor's bytes live while the program runs.
enum class TensorLocation : uint32_t {
  kArena = 0,   // activation: `offset` bytes into the planned work arena
  kWeight = 1,  // constant: `offset` bytes into the weight section
  kInput = 2,   // graph input number `offset` (caller's input buffer)
  kOutput = 3,  // graph output number `offset` (caller's output buffer)
  // FileConstant (atc --external_weight=1|2): `offset` bytes into external
  // weight file number `file`, memory the loader binds
  // (aclmdlSetExternalWeightAddress) and the model reads in place.
  kExternal = 4,
};

// One weight file the program reads at run time instead of holding the bytes.
struct ExternalWeightDesc {
  std::string name;  // file name atc wrote into weight/, e.g. "weight_<hash>"
  uint64_t size_bytes = 0;  // the file's size
};

struct TensorInfo {
  std::string name;  // ONNX value name, for messages
  DType dtype = DType::kFloat32;
  Shape shape;
  TensorLocation location = TensorLocation::kArena;
  uint64_t offset = 0;  // byte offset, or graph I/O index (see above)
  uint32_t file = 0;    // kExternal: index into Program::external_weights
};

struct IoInfo {
  std::string name;
  DType dtype = DType::kFloat32;
  aclFormat format = ACL_FORMAT_ND;
  Shape shape;
  uint32_t tensor = 0;  // index into Program::tensors
};

// Marks an absent optional input in OpInfo::inputs.
constexpr int32_t kAbsentTensor = -1;

struct OpInfo {
  std::string op_type;  // ONNX op type, the kernel's key
  std::string name;     // ONNX node name, for messages
  Attributes attrs;     // resolved attributes (defaults made explicit by atc)
  std::vector<int32_t> inputs;   // tensor indices or kAbsentTensor
  std::vector<int32_t> outputs;  // tensor indices
  uint64_t scratch_offset = 0;   // arena offset of the kernel's scratch
  uint64_t scratch_size = 0;     // bytes reserved there (>= Infer's request)
};

// Shape gears (atc --dynamic_batch_size / --dynamic_dims): the numbering of
// CANN's dynamic input types (ge DynamicInputType).
enum class DynamicType : uint32_t {
  kStatic = 0,        // no gears
  kDynamicBatch = 1,  // --dynamic_batch_size: one value per gear, dim 0
  kDynamicDims = 3,   // --dynamic_dims: one value per -1, in order
};

// Name of the extra last input of a gear model (ACL_DYNAMIC_TENSOR_NAME):
// int32 [values per gear], the values of the gear to run.
constexpr const char* kGearInputName = "ascend_mbatch_shape_data";

// Where the dynamic dims of a gear model are and which values they take.
struct GearTable {
  DynamicType type = DynamicType::kStatic;
  // The order of the inputs in atc --input_shape (indices into the model's
  // inputs): the order aclmdlSetInputDynamicDims concatenates their dims in.
  std::vector<uint32_t> shape_order;
  // Every dynamic dim (-1 in --input_shape) as (input index, dim index), in
  // shape_order, each input's dims in order.
  std::vector<std::pair<uint32_t, uint32_t>> positions;
  // values[g] = gear g: one value (kDynamicBatch, the dim 0 of every dynamic
  // input) or one per position (kDynamicDims).
  std::vector<std::vector<int64_t>> values;

  size_t values_per_gear() const {
    return type == DynamicType::kDynamicBatch ? 1 : positions.size();
  }
  // The value gear `g` gives position `p`.
  int64_t value(size_t g, size_t p) const {
    return type == DynamicType::kDynamicBatch ? values[g][0] : values[g][p];
  }
};

struct Program {
  std::string soc_version;  // atc --soc_version
  std::string producer;     // e.g. "executorch-ascend atc 1"
  std::vector<IoInfo> inputs;
  std::vector<IoInfo> outputs;
  std::vector<TensorInfo> tensors;
  std::vector<OpInfo> ops;       // in execution order
  uint64_t arena_size = 0;       // bytes of work memory the plan uses
  std::vector<uint8_t> weights;  // the constants held in the .om
  std::vector<ExternalWeightDesc> external_weights;  // the files it reads
  // A gear model: inputs..arena_size above are empty and `gears[g]` holds
  // gear g's compiled program (its inputs, outputs, tensors, ops and
  // arena_size; the last input is kGearInputName), all of them reading the
  // one weight section and weight file list above.
  GearTable gear_table;
  std::vector<Program> gears;
};

// Alignment of every arena and weight offset, and of the memory behind them.
constexpr uint64_t kOmAlignment = 64;

}  // namespace ascend_emu
