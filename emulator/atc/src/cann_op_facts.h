// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What CANN can compute per chip family, for the ONNX ops the lowering
// emits: the chip families without bfloat16, the ops without a float32
// kernel on a family (the inference chips' cube units take float16/int8),
// the ops without bfloat16. The facts are src/executorch_ascend/
// cann_op_facts.json, the file the Python partitioner and preprocess read;
// emulator/atc/CMakeLists.txt turns it into a table at build time, so atc
// refuses what the lowering would not hand it. An op or family the file does
// not name is not restricted.
#pragma once

#include <string>

namespace ascend_emu {
namespace atc {

struct CannOpFact {
  const char* op_type;
  const char* no_float32;  // ",Ascend310P,Ascend310B," (families)
  bool no_bfloat16;
  unsigned constant_inputs;  // bit i: input i must be a constant
  const char* source;        // where the fact was read
  // Families where CANN has no such op, no int8 form (int8 x and weight,
  // int32 out), no int4 (int32-packed) weight; each with its own source.
  const char* unsupported;
  const char* unsupported_source;
  const char* no_int8;
  const char* no_int8_source;
  const char* no_int4_weight;
  const char* no_int4_weight_source;
  const char* deq_scale_float16;  // AscendDequant: no uint64 deq_scale there
  const char* deq_scale_float16_source;
};

// An attribute whose values CANN's plugin handles as ONNX means them are
// `handled` (",0," or ",round_prefer_ceil,"); another value is refused by the
// plugin (`refused`) or ignored (ScatterND's reduction by one of its two
// plugins, Resize's nearest_mode).
struct CannAttrFact {
  const char* op_type;
  const char* attribute;
  const char* handled;
  bool refused;
};

// "" or what CANN does with `node`'s attribute values: *refused true when its
// plugin refuses one, false when it would ignore it (atc then warns and
// compiles the ONNX meaning).
std::string CheckAttributeFacts(const std::string& op_type,
                                const std::string& attribute,
                                const std::string& value, bool* refused);

// false for a SoC of a family CANN documents without bfloat16 (Ascend310P).
bool SocHasBf16(const std::string& soc_version);
// Why that family has no bfloat16 (cann_op_facts.json's words), or "".
std::string NoBf16Reason(const std::string& soc_version);

// false when CANN has no float32 kernel of `op_type` on `soc_version`'s
// family (Conv, MatMul, Gemm, ... on Ascend310P and Ascend310B).
bool OpHasFloat32(const std::string& op_type, const std::string& soc_version);

// false when CANN defines `op_type` without bfloat16 (GlobalAveragePool,
// Resize).
bool OpHasBfloat16(const std::string& op_type);

// true when CANN's parser needs input `index` of `op_type` to be a constant
// (an initializer or a Constant node): Expand's shape, Resize's scales and
// sizes.
bool NeedsConstantInput(const std::string& op_type, int index);

// What CANN cannot run of `op_type` on `soc_version`'s family: the op at all,
// its int8 form (`int8`: int8 inputs), int4 weights (`int4_weight`), or a
// uint64 deq_scale (`uint64_deq_scale`, AscendDequant): "" when it can, else
// the reason with its source, e.g. "CANN has no int8 Conv on Ascend950
// (<source>)".
std::string OpUnavailableOnSoc(const std::string& op_type,
                               const std::string& soc_version, bool int8,
                               bool int4_weight, bool uint64_deq_scale);

// Where the fact about `op_type` comes from ("" when there is none).
std::string OpFactSource(const std::string& op_type);

}  // namespace atc
}  // namespace ascend_emu
