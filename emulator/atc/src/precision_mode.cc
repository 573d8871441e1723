// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's model of CANN's precision modes. Sources for each rule:
// CANN's ATC guide, "--precision_mode" and "--precision_mode_v2", and the
// Graph API guide, "Precision Tuning" (PRECISION_MODE), hiascend.com, CANN
// 8.0: force_fp16 picks float16 for every op that supports both;
// force_fp32 and cube_fp16in_fp32out are the same: a cube op prefers float16
// inputs with a float32 output, a vector op keeps (or raises to) float32;
// allow_fp32_to_fp16 runs cube ops in float16 and keeps vector ops in
// float32; allow_mix_precision(_fp16|_bf16) lowers the ops on the white list
// (precision_reduce=true in opp's aic-<soc>-ops-info.json), keeps the black
// list (precision_reduce=false) and lets the gray list follow the op before.
#include "precision_mode.h"

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "atc_option_table.h"
#include "atc_options.h"
#include "cann_op_facts.h"
#include "soc_dtypes.h"

namespace ascend_emu {
namespace atc {
namespace {

// The emulator's black list for the mixed modes: ops kept in float32 because
// their result is sensitive to the input's precision (exponentials,
// logarithms, powers, accumulating reductions, normalisations, softmax).
// CANN's real lists are per SoC in opp's ops-info files, which are not
// public; this list follows the same principle (and PyTorch autocast's
// float32 list), and is documented in docs/atc.md.
const std::set<std::string>& BlackList() {
  static const std::set<std::string> kBlack = {
      "Exp",
      "Log",
      "Pow",
      "Sqrt",
      "Reciprocal",
      "Div",
      "Erf",
      "Softmax",
      "LogSoftmax",
      "ReduceSum",
      "ReduceMean",
      "CumSum",
      "BatchNormalization",
      "LayerNormalization",
  };
  return kBlack;
}

bool IsBf16(PrecisionMode mode) {
  return mode == PrecisionMode::kAllowMixPrecisionBf16 ||
         mode == PrecisionMode::kAllowFp32ToBf16;
}

std::string Join(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& name : names) {
    if (!s.empty()) s += ", ";
    s += name;
  }
  return s;
}

// The --precision_mode_v2 values with a --precision_mode equivalent.
std::vector<std::string> EmulatedV2Names() {
  std::vector<std::string> names;
  for (const PrecisionModeV2Fact& fact : PrecisionModeV2Facts()) {
    if (fact.as_precision_mode != nullptr) names.emplace_back(fact.name);
  }
  return names;
}

}  // namespace

std::string PrecisionModeNames() { return Join(PrecisionModeNameList()); }

std::string PrecisionModeV2Names() {
  std::vector<std::string> names;
  for (const PrecisionModeV2Fact& fact : PrecisionModeV2Facts()) {
    names.emplace_back(fact.name);
  }
  return Join(names);
}

bool ParsePrecisionMode(const std::string& name, PrecisionMode* mode) {
  // PrecisionMode's enumerators are in CANN's order, the data's.
  const std::vector<std::string>& names = PrecisionModeNameList();
  for (size_t i = 0; i < names.size(); ++i) {
    if (name == names[i]) {
      *mode = static_cast<PrecisionMode>(i);
      return true;
    }
  }
  return false;
}

std::string PrecisionModeFromV2(const std::string& value, PrecisionMode* mode) {
  for (const PrecisionModeV2Fact& fact : PrecisionModeV2Facts()) {
    if (value != fact.name) continue;
    if (fact.as_precision_mode != nullptr &&
        ParsePrecisionMode(fact.as_precision_mode, mode)) {
      return "";
    }
    // HiFloat8 modes: the emulator has no HiFloat8 dtype to round to.
    return "--precision_mode_v2=" + value +
           " is not emulated: the emulator has no HiFloat8 dtype (it "
           "emulates " +
           Join(EmulatedV2Names()) + ")";
  }
  return "--precision_mode_v2='" + value +
         "' is not a CANN precision_mode_v2 (" + PrecisionModeV2Names() + ")";
}

DType ReducedDType(PrecisionMode mode) {
  if (mode == PrecisionMode::kMustKeepOriginDtype) return DType::kFloat32;
  return IsBf16(mode) ? DType::kBFloat16 : DType::kFloat16;
}

bool IsCubeOp(const std::string& op_type) {
  return op_type == "MatMul" || op_type == "Gemm" || op_type == "Conv" ||
         op_type == "ConvTranspose";
}

bool IsRoundedInput(const std::string& op_type, int index) {
  // Resize's roi, scales and sizes are coordinates, not data.
  if (op_type == "Resize") return index == 0;
  // QuantBatchMatMul's float inputs (scale, bias, pertoken_scale) have the
  // dtypes its op definition fixes (a float32 scale and pertoken_scale, no
  // float16 form of them): CANN keeps them whatever the precision mode.
  if (op_type == "QuantBatchMatMul") return false;
  // Shape reads no values, only the input's shape.
  return op_type != "Shape";
}

bool IsRoundedOutput(const std::string& op_type, int index) {
  // DynamicQuant's scale is DT_FLOAT in every config of its op definition
  // (ops-nn quant/dynamic_quant/op_host/dynamic_quant_def.cpp).
  return !(op_type == "NPUDynamicQuant" && index == 1);
}

OpPrecision DecidePrecision(PrecisionMode mode, const std::string& op_type,
                            bool reduced_input, bool has_float32) {
  OpPrecision p;
  const DType low = ReducedDType(mode);
  const bool cube = IsCubeOp(op_type);
  switch (mode) {
    case PrecisionMode::kMustKeepOriginDtype:
      break;
    case PrecisionMode::kForceFp16:
      // Every op: the emulator's kernels all support float16, as CANN's
      // AI Core kernels of these ops do.
      p.dtype = low;
      p.round_outputs = true;
      break;
    case PrecisionMode::kForceFp32:
    case PrecisionMode::kCubeFp16inFp32out:
      // Cube: float16 in, float32 out (the Cube unit accumulates in float32).
      if (cube) p.dtype = low;
      break;
    case PrecisionMode::kAllowFp32ToFp16:
    case PrecisionMode::kAllowFp32ToBf16:
      if (cube) {
        p.dtype = low;
        p.round_outputs = true;
      }
      break;
    case PrecisionMode::kAllowMixPrecision:
    case PrecisionMode::kAllowMixPrecisionFp16:
    case PrecisionMode::kAllowMixPrecisionBf16:
      // White list: the cube ops. Black list: kept float32. Gray: the rest,
      // reduced when an input comes reduced from the op before.
      if (cube || (reduced_input && BlackList().count(op_type) == 0)) {
        p.dtype = low;
        p.round_outputs = true;
      }
      break;
  }
  if (!has_float32 && mode != PrecisionMode::kMustKeepOriginDtype &&
      p.dtype == DType::kFloat32) {
    p.dtype = DType::kFloat16;
    p.round_outputs = true;
  }
  // Shape's output is int64 and reads no values.
  if (op_type == "Shape") p = OpPrecision();
  return p;
}

PrecisionMode EffectivePrecisionMode(const AtcOptions& options) {
  PrecisionMode mode = kDefaultPrecisionMode;
  if (!options.precision_mode.empty()) {
    ParsePrecisionMode(options.precision_mode, &mode);
  } else if (!options.precision_mode_v2.empty()) {
    PrecisionModeFromV2(options.precision_mode_v2, &mode);
  }
  return mode;
}

void RoundFloats(std::vector<uint8_t>* bytes, DType low) {
  // The emulator's own Cast kernel, there and back: the same rounding (to
  // nearest, ties to even) as the Cast steps atc adds for activations.
  const KernelDef* cast = FindKernel("Cast");
  const size_t n = bytes->size() / sizeof(float);
  std::vector<uint16_t> narrow(n);
  TensorRef wide;
  wide.dtype = DType::kFloat32;
  wide.shape.rank = 1;
  wide.shape.dims[0] = static_cast<int64_t>(n);
  wide.data = bytes->data();
  TensorRef half = wide;
  half.dtype = low;
  half.data = narrow.data();
  Attributes to_low;
  Attributes to_float;
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = low == DType::kBFloat16 ? 16 : 10;  // ONNX BFLOAT16, FLOAT16
  to_low.map()["to"] = a;
  a.i = 1;  // ONNX FLOAT
  to_float.map()["to"] = a;
  cast->run(RunContext{to_low, &wide, 1, &half, 1, nullptr});
  cast->run(RunContext{to_float, &half, 1, &wide, 1, nullptr});
}

bool PrecisionModeRefusedForSoc(const AtcOptions& options, std::string* error) {
  if (ReducedDType(EffectivePrecisionMode(options)) != DType::kBFloat16 ||
      SocHasBf16(options.soc_version)) {
    return false;
  }
  const std::string given =
      !options.precision_mode.empty()
          ? "--precision_mode=" + options.precision_mode
          : "--precision_mode_v2=" + options.precision_mode_v2;
  *error = given +
           " computes in bfloat16, which --soc_version=" + options.soc_version +
           " does not support (CANN documents the bf16 modes for Ascend910B "
           "and later, not for Ascend310P)";
  return true;
}

}  // namespace atc
}  // namespace ascend_emu
