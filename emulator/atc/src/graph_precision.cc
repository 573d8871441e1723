// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): the precision mode and the chip:
// per-op dtypes, refusals, rounding Casts.
#include "ascend_emu/soc_versions.h"
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

OpPrecision GraphCompiler::DecideOpPrecision(
    const onnx::NodeProto& node) const {
  if (precision_ == PrecisionMode::kMustKeepOriginDtype) return {};
  bool reduced_input = false;
  for (const std::string& name : node.input()) {
    auto it = values_.find(name);
    if (it != values_.end() && it->second.rounded_to != DType::kFloat32)
      reduced_input = true;
  }
  return DecidePrecision(precision_, node.op_type(), reduced_input,
                         OpHasFloat32(node.op_type(), options_.soc_version));
}

// The dtype of the node's first input (its data); false if unknown.
bool GraphCompiler::FirstInputDType(const onnx::NodeProto& node,
                                    DType* dtype) const {
  if (node.input_size() == 0) return false;
  auto it = values_.find(node.input(0));
  if (it == values_.end()) return false;
  *dtype = it->second.dtype;
  return true;
}

// The dtype of input `k` of the node; false if absent or unknown.
bool GraphCompiler::InputDType(const onnx::NodeProto& node, int k,
                               DType* dtype) const {
  if (k >= node.input_size() || node.input(k).empty()) return false;
  auto it = values_.find(node.input(k));
  if (it == values_.end()) return false;
  *dtype = it->second.dtype;
  return true;
}

bool GraphCompiler::IsInt8MatrixOp(const std::string& op) {
  return op == "Conv" || op == "MatMul" || op == "Gemm";
}

// "" or what CANN does not have on --soc_version (cann_op_facts.json's
// unsupported, no_int8, no_int4_weight, deq_scale_float16): the op, its
// int8 form (an int8 Conv, MatMul or Gemm), int4 weights packed in int32,
// AscendDequant's uint64 deq_scale.
std::string GraphCompiler::CheckOpOnSoc(const onnx::NodeProto& node) const {
  const std::string& op = node.op_type();
  DType x = DType::kFloat32, w = DType::kFloat32;
  const bool int8 =
      IsInt8MatrixOp(op) && InputDType(node, 0, &x) && x == DType::kInt8;
  const bool int4 = op == "NPUWeightQuantBatchMatmulV2" &&
                    InputDType(node, 1, &w) && w == DType::kInt32;
  const bool uint64_deq =
      op == "AscendDequant" && InputDType(node, 1, &w) && w == DType::kUInt64;
  std::string err =
      OpUnavailableOnSoc(op, options_.soc_version, int8, int4, uint64_deq);
  if (!err.empty()) return err;
  // Ops the emulator computes as the Ascend910B / Ascend910_93 kernel does;
  // the other chips' kernels round otherwise. DynamicQuant: Ascend310P and
  // Ascend910 multiply in float16, Ascend950 has its own kernel.
  // QuantBatchMatmulV3: Ascend310P dequantizes on its L0C -> UB path and
  // takes transpose_x2 only, Ascend950 has its own (arch35) kernels.
  struct Emulated {
    const char* op;
    const char* kernel;  // what the emulator follows
  };
  static constexpr Emulated kEmulated[] = {
      {"NPUDynamicQuant",
       "ops-nn quant/dynamic_quant/op_kernel/dynamic_quant.h"},
      {"QuantBatchMatMul",
       "ops-nn matmul/quant_batch_matmul_v3/op_kernel, its fixpipe and "
       "vector epilogues"},
  };
  for (const Emulated& e : kEmulated) {
    if (op != e.op) continue;
    const std::string family = SocFamily(options_.soc_version);
    if (family == "Ascend910B" || family == "Ascend910_93") return "";
    return op + " on " + options_.soc_version + " (family " + family +
           ") is not emulated: the emulator computes the Ascend910B kernel's "
           "arithmetic (" +
           e.kernel +
           "), and this chip's kernel computes "
           "otherwise";
  }
  return "";
}

// An int8 Conv, MatMul or Gemm gets CANN's offset_x (the activation's
// quantization offset, which also fills Conv's padding): CANN's ONNX
// plugins do not read one; GE sets it from the AscendQuant that produces
// the int8 input. So here: round(offset) of that AscendQuant, else 0. An
// internal attribute of the .om; a node's own offset_x is replaced.
std::string GraphCompiler::SetOffsetX(const onnx::NodeProto& node,
                                      Attributes* attrs) const {
  DType x = DType::kFloat32;
  if (!IsInt8MatrixOp(node.op_type()) || !InputDType(node, 0, &x) ||
      x != DType::kInt8) {
    return "";
  }
  int64_t offset_x = 0;
  const Value& v = values_.at(node.input(0));
  // The AscendQuant op, or one merged into a FusedConvDequant (its
  // attributes behind "quant_").
  const PendingOp* producer =
      v.kind == Value::Kind::kOpOutput ? &ops_[v.index] : nullptr;
  const bool merged = producer != nullptr &&
                      producer->op_type == "FusedConvDequant" &&
                      producer->attrs.Has("quant_scale");
  if (producer != nullptr && (producer->op_type == "AscendQuant" || merged)) {
    const PendingOp& quant = *producer;
    const float offset =
        quant.attrs.GetFloat(merged ? "quant_offset" : "offset", 0.0f);
    const float rounded = std::nearbyint(offset);
    if (!(rounded >= -128.0f && rounded <= 127.0f)) {
      return "its int8 input comes from AscendQuant '" + quant.name +
             "' with offset " + std::to_string(offset) +
             ", outside CANN's offset_x range [-128, 127]";
    }
    offset_x = static_cast<int64_t>(rounded);
  }
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = offset_x;
  attrs->map()["offset_x"] = a;
  return "";
}

// "" or why CANN cannot compile the node on --soc_version, in the words of
// its op facts (cann_op_facts.h).
std::string GraphCompiler::CheckOpDtypeOnSoc(
    const onnx::NodeProto& node) const {
  const std::string& op = node.op_type();
  DType dtype = DType::kFloat32;
  if (!FirstInputDType(node, &dtype)) return "";
  if (dtype == DType::kBFloat16 && !OpHasBfloat16(op)) {
    return "CANN's " + op + " has no bfloat16 kernel (" + OpFactSource(op) +
           "): cast it to float16 or float32";
  }
  if (dtype == DType::kFloat32 &&
      precision_ == PrecisionMode::kMustKeepOriginDtype &&
      !OpHasFloat32(op, options_.soc_version)) {
    return "float32 " + op +
           " is not supported on --soc_version=" + options_.soc_version +
           " under --precision_mode=must_keep_origin_dtype (" +
           OpFactSource(op) +
           "); use --precision_mode=allow_fp32_to_fp16 (the op runs in "
           "float16, the rest stays float32), force_fp16 or "
           "allow_mix_precision";
  }
  return "";
}

// Appends Cast(to=low) and Cast(to=float32) steps reading float32 value
// `from` and writing float32 value `to`: `from` rounded to float16 or
// bfloat16 (round to nearest even, as the chip's conversion), still
// float32.
void GraphCompiler::AddRoundingCasts(const std::string& from, DType low,
                                     const std::string& to) {
  const std::string mid = "\x01" + to + ":" + DTypeName(low);
  AddCast(from, low, mid);
  AddCast(mid, DType::kFloat32, to);
  values_.at(to).rounded_to = low;
}

void GraphCompiler::AddCast(const std::string& from, DType dtype,
                            const std::string& to) {
  PendingOp op;
  op.op_type = "Cast";
  op.name = to[0] == '\x01' ? to.substr(1) : to;
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  // ONNX TensorProto.DataType: FLOAT 1, FLOAT16 10, BFLOAT16 16.
  a.i = dtype == DType::kFloat16 ? 10 : dtype == DType::kBFloat16 ? 16 : 1;
  op.attrs.map()["to"] = a;
  op.inputs.push_back(from);
  op.outputs.push_back(to);
  const int op_index = static_cast<int>(ops_.size());
  Value& in = values_.at(from);
  in.last_use = op_index;
  Value v;
  v.kind = Value::Kind::kOpOutput;
  v.index = op_index;
  v.dtype = dtype;
  v.shape = in.shape;
  values_[to] = v;
  ops_.push_back(std::move(op));
}

// *name becomes the name of a copy of float32 value *name rounded to
// `low`: the value itself when it holds such numbers already, a rounded
// constant for a constant (rounded here, once), or the output of two Cast
// steps (made once per value, shared by every op that reads it rounded).
std::string GraphCompiler::RoundedValue(const std::string& source, DType low,
                                        std::string* name) {
  if (source.empty()) return "";
  auto it = values_.find(source);
  if (it == values_.end() || it->second.dtype != DType::kFloat32 ||
      it->second.rounded_to == low) {
    return "";  // unknown values are reported by the caller
  }
  auto cached = rounded_.find({source, low});
  if (cached != rounded_.end()) {
    *name = cached->second;
    return "";
  }
  const std::string rounded = "\x01" + source + ":" + DTypeName(low);
  if (it->second.kind == Value::Kind::kConst) {
    const ByteView bytes = consts_[it->second.index].bytes();
    std::vector<uint8_t> owned(bytes.data, bytes.data + bytes.size);
    bytes.Release();
    RoundFloats(&owned, low);
    Value v = it->second;
    v.index = static_cast<int>(consts_.size());
    v.rounded_to = low;
    const bool external = consts_[it->second.index].external;
    consts_.emplace_back();
    ConstBytes& c = consts_.back();
    if (external) {
      // Still a weight file (--external_weight=1|2), of rounded bytes
      // that outlive this compiler (atc writes the files after it).
      auto computed =
          std::make_shared<const std::vector<uint8_t>>(std::move(owned));
      c.external = true;
      c.computed = computed;
      c.view = ByteView{computed->data(), computed->size(), nullptr};
    } else {
      c.owned = std::move(owned);
    }
    values_[rounded] = v;
  } else {
    AddRoundingCasts(source, low, rounded);
  }
  rounded_[{source, low}] = rounded;
  *name = rounded;
  return "";
}

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
