// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): a Pad into the Conv after it, also
// through an AscendQuant.
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

// ---- Pad into Conv (docs/atc.md "Fusions"): a constant Pad by zero of
// the spatial dims only, read by nothing but the Conv that follows it,
// adds its pads to the Conv's: the Conv reads the unpadded input and the
// Pad's copy of it goes. transformers' MobileNetV2 and EfficientNet pad
// TF-style ("SAME") before every Conv, by nothing before the 1x1 ones,
// and each Pad between two Convs also kept them from sharing a layout.
// Float32 only and only where the precision mode rounds nothing (as for
// FuseIntoConv). True with *merged the Conv node to compile instead (named
// "<pad>+<conv>"), the Pad op taken back.
bool GraphCompiler::PadIntoConv(const onnx::NodeProto& node, int index,
                                onnx::NodeProto* merged) {
  if (node.op_type() != "Conv" || node.input_size() < 2 || ops_.empty())
    return false;
  const PendingOp& pad = ops_.back();
  if (pad.op_type != "Pad" || pad.outputs.size() != 1 ||
      pad.inputs.size() < 2 || pad.outputs[0] != node.input(0))
    return false;
  const std::string& y = pad.outputs[0];
  auto uses = uses_.find(y);
  if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1) return false;
  const Value& yv = values_.at(y);
  const int32_t rank = yv.shape.rank;
  if (yv.dtype != DType::kFloat32 || yv.rounded_to != DType::kFloat32 ||
      rank < 3)
    return false;
  const OpPrecision precision = DecideOpPrecision(node);
  if (precision.dtype != DType::kFloat32 || precision.round_outputs)
    return false;
  std::vector<int64_t> extra;
  if (!ZeroSpatialPad(pad, yv.dtype, rank, &extra)) return false;
  *merged = node;
  if (!AddConvPads(extra, merged)) return false;
  merged->set_input(0, pad.inputs[0]);
  merged->set_name(
      pad.name + "+" +
      (node.name().empty() ? "#" + std::to_string(index) : node.name()));
  // The Pad was the last op: its output value goes with it, and the Conv
  // takes its index (so its input's last use stays right).
  values_.erase(y);
  ops_.pop_back();
  return true;
}

// `pad` is a constant Pad by +0 (every bit of its fill, of `dtype`, zero:
// the Conv's own padding) of the spatial dims only, by constant pads:
// `*spatial` gets them in a Conv's order (SpatialPads). What both Pad
// fusions require of the Pad.
bool GraphCompiler::ZeroSpatialPad(const PendingOp& pad, DType dtype,
                                   int32_t rank,
                                   std::vector<int64_t>* spatial) const {
  if (pad.attrs.GetString("mode", "constant") != "constant") return false;
  if (pad.inputs.size() > 2 && !pad.inputs[2].empty()) {
    const Value& c = values_.at(pad.inputs[2]);
    if (c.kind != Value::Kind::kConst || c.dtype != dtype ||
        c.shape.numel() != 1)
      return false;
    const uint8_t* bytes = consts_[c.index].infer_data();
    for (size_t b = 0; b < DTypeSize(c.dtype); ++b)
      if (bytes[b] != 0) return false;
  }
  const Value& pv = values_.at(pad.inputs[1]);
  if (pv.kind != Value::Kind::kConst || pv.dtype != DType::kInt64 ||
      pv.shape.numel() != 2 * rank)
    return false;
  std::vector<int64_t> pads(static_cast<size_t>(2 * rank));
  std::memcpy(pads.data(), consts_[pv.index].infer_data(),
              pads.size() * sizeof(int64_t));
  if (!OnlySpatialPads(pads, rank)) return false;
  *spatial = SpatialPads(pads, rank);
  return true;
}

// ONNX Pad's pads (rank begins, rank ends) pad only the spatial dims (2
// on) and crop nothing: a Conv's padding.
bool GraphCompiler::OnlySpatialPads(const std::vector<int64_t>& pads,
                                    int32_t rank) {
  if (pads[0] != 0 || pads[1] != 0 || pads[rank] != 0 || pads[rank + 1] != 0)
    return false;  // batch or channels padded: not a Conv's padding
  for (int32_t d = 2; d < rank; ++d) {
    if (pads[d] < 0 || pads[d + rank] < 0) return false;  // a crop
  }
  return true;
}

// The spatial part of OnlySpatialPads' pads, in a Conv's order: k =
// rank - 2 begins, then k ends.
std::vector<int64_t> GraphCompiler::SpatialPads(
    const std::vector<int64_t>& pads, int32_t rank) {
  std::vector<int64_t> out;
  for (int32_t d = 2; d < rank; ++d) out.push_back(pads[d]);
  for (int32_t d = 2; d < rank; ++d) out.push_back(pads[rank + d]);
  return out;
}

// Adds `extra` (k begins, k ends) to the pads of the Conv `conv` (with
// none, from 0); false, conv unchanged, where the Conv's padding is not
// explicit (auto_pad), its pads are not 2k ints (left to its Infer to
// refuse) or a sum overflows.
bool GraphCompiler::AddConvPads(const std::vector<int64_t>& extra,
                                onnx::NodeProto* conv) {
  const int k = static_cast<int>(extra.size() / 2);
  std::vector<int64_t> sum(extra.size(), 0);
  int where = -1;
  for (int a = 0; a < conv->attribute_size(); ++a) {
    const onnx::AttributeProto& attr = conv->attribute(a);
    if (attr.name() == "auto_pad" && attr.s() != "NOTSET") return false;
    if (attr.name() == "pads") {
      if (attr.type() != onnx::AttributeProto::INTS ||
          attr.ints_size() != 2 * k)
        return false;
      for (int i = 0; i < 2 * k; ++i) sum[i] = attr.ints(i);
      where = a;
    }
  }
  for (size_t i = 0; i < sum.size(); ++i) {
    if (__builtin_add_overflow(sum[i], extra[i], &sum[i])) return false;
  }
  onnx::AttributeProto* conv_pads = nullptr;
  if (where >= 0) {
    conv_pads = conv->mutable_attribute(where);
    conv_pads->clear_ints();
  } else {
    conv_pads = conv->add_attribute();
    conv_pads->set_name("pads");
    conv_pads->set_type(onnx::AttributeProto::INTS);
  }
  for (int64_t v : sum) conv_pads->add_ints(v);
  return true;
}

// ---- Pad into an int8 Conv through its AscendQuant (docs/atc.md
// "Fusions"): AMCT's int8 MobileNetV2 pads before quantizing, Pad ->
// AscendQuant -> int8 Conv. The int8 Conv fills its padding with offset_x,
// the AscendQuant's offset (SetOffsetX); where that is exactly what the
// AscendQuant makes of the Pad's zero, the Pad goes: the AscendQuant reads
// the Pad's input, and each Conv reading it (all its readers must be
// Convs, int8 by the AscendQuant's output) takes the Pad's pads into its
// own. The Pad must be a constant Pad by zero (+0.0) of the spatial dims
// only, read by the AscendQuant alone. Called with the AscendQuant: true
// with *merged the AscendQuant to compile instead (named "<pad>+<quant>",
// writing a private value), the Pad op taken back; the Convs' pads wait in
// quant_pads_ for QuantPadIntoConv.
bool GraphCompiler::PadIntoQuant(const onnx::NodeProto& node, int index,
                                 onnx::NodeProto* merged) {
  if (node.op_type() != "AscendQuant" || node.input_size() != 1 ||
      node.output_size() != 1 || ops_.empty())
    return false;
  const std::string& q = node.output(0);
  if (q.empty() || q[0] == '\x01' || graph_outputs_.count(q)) return false;
  const PendingOp& pad = ops_.back();
  if (pad.op_type != "Pad" || pad.outputs.size() != 1 ||
      pad.inputs.size() < 2 || pad.inputs.size() > 3 ||
      pad.outputs[0] != node.input(0))
    return false;
  const std::string& y = pad.outputs[0];
  auto uses = uses_.find(y);
  if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1 ||
      graph_outputs_.count(y))
    return false;
  const Value& yv = values_.at(y);
  const int32_t rank = yv.shape.rank;
  if ((yv.dtype != DType::kFloat32 && yv.dtype != DType::kFloat16) || rank != 4)
    return false;
  std::vector<int64_t> extra;
  if (!ZeroSpatialPad(pad, yv.dtype, rank, &extra)) return false;
  // Every reader of the AscendQuant's output a Conv reading it as x only,
  // whose pads can take the Pad's.
  auto q_uses = uses_.find(q);
  if (q_uses == uses_.end()) return false;
  int convs = 0;
  for (const onnx::NodeProto& reader : graph_.node()) {
    int reads = 0;
    for (const std::string& in : reader.input()) reads += in == q;
    if (reads == 0) continue;
    if (reader.op_type() != "Conv" || reads != 1 || reader.input(0) != q)
      return false;
    onnx::NodeProto probe = reader;
    if (!AddConvPads(extra, &probe)) return false;
    ++convs;
  }
  if (convs == 0 || convs != q_uses->second) return false;
  // The Conv's fill, offset_x (SetOffsetX: the offset rounded), must be
  // what the AscendQuant computes for the Pad's zero: its own kernel run
  // on one zero of the Pad's dtype.
  Attributes attrs;
  if (!ConvertAttributes(node, &attrs).empty()) return false;
  const float offset = attrs.GetFloat("offset", 0.0f);
  const float rounded = std::nearbyint(offset);
  if (!(rounded >= -128.0f && rounded <= 127.0f)) return false;
  int8_t zero_q = 0;
  if (!QuantOfZero(attrs, yv.dtype, &zero_q) ||
      zero_q != static_cast<int8_t>(rounded))
    return false;
  *merged = node;
  merged->set_input(0, pad.inputs[0]);
  const std::string label =
      node.name().empty() ? "#" + std::to_string(index) : node.name();
  merged->set_name(pad.name + "+" + label);
  // A private name: the value is smaller than ONNX's (unpadded).
  const std::string unpadded = "\x01" + q + "#" + pad.name + ":unpadded";
  merged->set_output(0, unpadded);
  quant_pads_[q] = {unpadded, extra};
  values_.erase(y);
  ops_.pop_back();
  return true;
}

// AscendQuant (attributes `attrs`) of one zero of `dtype` into *out; false
// when the kernel refuses it.
bool GraphCompiler::QuantOfZero(const Attributes& attrs, DType dtype,
                                int8_t* out) {
  const KernelDef* kernel = FindKernel("AscendQuant");
  if (kernel == nullptr) return false;
  uint32_t zero = 0;
  std::vector<TensorRef> inputs(1), outputs;
  inputs[0].dtype = dtype;
  inputs[0].shape.rank = 1;
  inputs[0].shape.dims[0] = 1;
  InferContext ctx{attrs, inputs, outputs};
  try {
    if (!kernel->infer(ctx).empty() || outputs.size() != 1 ||
        outputs[0].dtype != DType::kInt8 || outputs[0].shape.numel() != 1 ||
        ctx.scratch_bytes != 0)
      return false;
    inputs[0].data = &zero;
    outputs[0].data = out;
    RunContext run{attrs, inputs.data(), 1, outputs.data(), 1, nullptr};
    kernel->run(run);
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

// The Conv of PadIntoQuant: reads the AscendQuant's unpadded output and
// takes the Pad's pads. True with *merged the Conv to compile instead.
bool GraphCompiler::QuantPadIntoConv(const onnx::NodeProto& node,
                                     onnx::NodeProto* merged) {
  if (node.op_type() != "Conv" || node.input_size() < 1) return false;
  auto it = quant_pads_.find(node.input(0));
  if (it == quant_pads_.end()) return false;
  *merged = node;
  // PadIntoQuant checked every reader's pads take these.
  if (!AddConvPads(it->second.second, merged)) return false;
  merged->set_input(0, it->second.first);
  return true;
}

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
