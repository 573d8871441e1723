// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc --precision_mode / --precision_mode_v2: what each of CANN's modes does
// to a float32 op, as the emulator emulates it (docs/atc.md, "Precision
// modes"). The graph compiler asks Decide() per op and inserts the rounding
// itself (Cast float32 -> float16|bfloat16 -> float32 pairs), so kernels stay
// plain functions and the .om format does not change.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ascend_emu/tensor.h"

namespace ascend_emu {
namespace atc {

// CANN's nine --precision_mode values (hicann/ge api/atc; CANN's ATC guide,
// "--precision_mode"), in CANN's order: the i-th enumerator is the i-th name
// of --precision_mode's values in atc_options.json. The v2 names map onto
// them (PrecisionModeFromV2, the data's precision_mode_v2).
enum class PrecisionMode {
  kForceFp16,  // CANN's default with no --precision_mode
  kForceFp32,  // same effect as kCubeFp16inFp32out (CANN docs)
  kCubeFp16inFp32out,
  kAllowMixPrecision,  // same effect as kAllowMixPrecisionFp16
  kAllowFp32ToFp16,
  kMustKeepOriginDtype,
  kAllowMixPrecisionFp16,
  kAllowMixPrecisionBf16,
  kAllowFp32ToBf16,
};

// CANN's default when neither --precision_mode nor --precision_mode_v2 is
// given (inference): force_fp16.
constexpr PrecisionMode kDefaultPrecisionMode = PrecisionMode::kForceFp16;

// The nine names, comma-separated, in CANN's order (for messages).
std::string PrecisionModeNames();

// true and *mode for one of the nine names.
bool ParsePrecisionMode(const std::string& name, PrecisionMode* mode);

// --precision_mode_v2: fp16, origin, cube_fp16in_fp32out, mixed_float16,
// mixed_bfloat16 map onto force_fp16, must_keep_origin_dtype,
// cube_fp16in_fp32out, allow_mix_precision_fp16, allow_mix_precision_bf16
// (CANN's ATC guide, "--precision_mode_v2"). "" and *mode, "not emulated"
// (cube_hif8, mixed_hif8: HiFloat8 has no emulator dtype) or "unknown".
std::string PrecisionModeFromV2(const std::string& value, PrecisionMode* mode);

// The CANN v2 names (for messages).
std::string PrecisionModeV2Names();

// The low-precision dtype a mode computes in (float16 or bfloat16);
// float32 for must_keep_origin_dtype.
DType ReducedDType(PrecisionMode mode);

// What a mode does to one op of a float32 graph: its float32 data inputs are
// read rounded to `dtype`, and (round_outputs) its float32 outputs are
// written rounded to `dtype`. `dtype` float32: the op runs as written.
struct OpPrecision {
  DType dtype = DType::kFloat32;
  bool round_outputs = false;
};

// The decision for an op of type `op_type` under `mode`; `reduced_input`:
// one of its float inputs already holds reduced-precision values (the gray
// list of the mixed modes follows its producer). `has_float32` false: the
// chip has no float32 kernel of the op (cann_op_facts.h, OpHasFloat32), so
// any mode but must_keep_origin_dtype (which atc refuses then) runs it in
// float16, as atc picks the dtype the op has; a cube op under force_fp32 /
// cube_fp16in_fp32out keeps its float32 output.
OpPrecision DecidePrecision(PrecisionMode mode, const std::string& op_type,
                            bool reduced_input, bool has_float32 = true);

// Whether input `index` of `op_type` is data the op computes on (rounded
// under a reduced mode) rather than a parameter kept as given (Resize's roi
// and scales).
bool IsRoundedInput(const std::string& op_type, int index);

// Whether a float32 output `index` of `op_type` is rounded after the op
// under a reduced mode: not where CANN's op defines that output float32 only
// (NPUDynamicQuant's per-row scale, which QuantBatchMatMul reads as its
// float32 pertoken_scale).
bool IsRoundedOutput(const std::string& op_type, int index);

// Cube ops (CANN's Cube unit: matrix multiply and convolution).
bool IsCubeOp(const std::string& op_type);

// The mode atc compiles with: --precision_mode, else --precision_mode_v2's
// equivalent, else CANN's default (force_fp16). The options were checked.
struct AtcOptions;
PrecisionMode EffectivePrecisionMode(const AtcOptions& options);

// Rounds float32 values in place to the nearest `low` (float16 or
// bfloat16) value, as a Cast there and back does.
void RoundFloats(std::vector<uint8_t>* bytes, DType low);

// A bfloat16 mode on a chip without bfloat16 (soc_dtypes.h): true and *error.
bool PrecisionModeRefusedForSoc(const AtcOptions& options, std::string* error);

}  // namespace atc
}  // namespace ascend_emu
