// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ONNX graph -> Program. Shapes come from the emulator's kernels (the same
// Infer that Model::Load re-runs), cross-checked against ONNX's own shape
// inference wherever that produced a static shape.
#include "graph_compiler.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ascend_emu/kernel.h"
#include "cann_op_facts.h"
#include "memory_planner.h"
#include "onnx_loader.h"
#include "onnx_tensor.h"
#include "precision_mode.h"
#include "soc_dtypes.h"
#include "weight_files.h"

namespace ascend_emu {
namespace atc {
namespace {

constexpr const char* kProducer = "executorch-ascend atc 1";

struct Value {
  enum class Kind { kInput, kConst, kOpOutput };
  Kind kind = Kind::kOpOutput;
  int index = 0;  // input number, const number or op number
  DType dtype = DType::kFloat32;
  Shape shape;
  int last_use = -1;     // last op reading it
  int output_slot = -1;  // graph output written straight by its op
  int tensor = -1;       // Program tensor, once emitted
  // float32 values that hold float16/bfloat16-rounded numbers (written by a
  // reduced-precision op or rounded for one, precision_mode.h); else float32.
  DType rounded_to = DType::kFloat32;
};

// A constant's bytes: decoded from the model proto, or (stored as ONNX
// external data) a view into a mapped file.
struct ConstBytes {
  std::vector<uint8_t> owned;
  bool external = false;
  bool folded = false;  // computed by constant folding (may differ per gear)
  ByteView view;        // external: the bytes in their file
  // external and computed by atc (rounded for a precision mode): the bytes
  // `view` points into, shared with the FileConstant that writes them.
  std::shared_ptr<const std::vector<uint8_t>> computed;

  ByteView bytes() const {
    return external ? view : ByteView{owned.data(), owned.size(), nullptr};
  }
  // What a kernel's Infer reads (shape and axes tensors). A view into a file
  // is only as aligned as its ONNX offset; small misaligned ones get an
  // aligned copy in `owned`.
  const uint8_t* infer_data() const {
    return external && owned.empty() ? view.data : owned.data();
  }
};

// The most bytes one folded op may produce (shape arithmetic is tiny).
constexpr uint64_t kMaxFoldBytes = 64 * 1024;

struct PendingOp {
  std::string op_type;
  std::string name;
  Attributes attrs;
  std::vector<std::string> inputs;  // "" = absent
  std::vector<std::string> outputs;
  size_t scratch_bytes = 0;
};

std::string JoinOpTypes() {
  std::string s;
  for (const std::string& op : KernelOpTypes())
    s += (s.empty() ? "" : ", ") + op;
  return s;
}

std::string ConvertAttributes(const onnx::NodeProto& node, Attributes* attrs) {
  for (const onnx::AttributeProto& a : node.attribute()) {
    Attribute out;
    switch (a.type()) {
      case onnx::AttributeProto::INT:
        out.kind = Attribute::Kind::kInt;
        out.i = a.i();
        break;
      case onnx::AttributeProto::FLOAT:
        out.kind = Attribute::Kind::kFloat;
        out.f = a.f();
        break;
      case onnx::AttributeProto::STRING:
        out.kind = Attribute::Kind::kString;
        out.s = a.s();
        break;
      case onnx::AttributeProto::INTS:
        out.kind = Attribute::Kind::kInts;
        out.ints.assign(a.ints().begin(), a.ints().end());
        break;
      case onnx::AttributeProto::FLOATS:
        out.kind = Attribute::Kind::kFloats;
        out.floats.assign(a.floats().begin(), a.floats().end());
        break;
      default:
        return "attribute '" + a.name() + "' of type " +
               onnx::AttributeProto::AttributeType_Name(a.type()) +
               " is not supported by the emulator";
    }
    attrs->map()[a.name()] = std::move(out);
  }
  return "";
}

// Makes opset-dependent defaults explicit, so a kernel (which implements the
// newest semantics) computes what the model's opset means.
std::string ResolveOpsetSemantics(const std::string& op_type, int64_t opset,
                                  const std::vector<TensorRef>& inputs,
                                  Attributes* attrs) {
  if (op_type == "Shape" && opset < 15 &&
      (attrs->Has("start") || attrs->Has("end"))) {
    return "uses start/end, which Shape has only from opset 15 (model opset " +
           std::to_string(opset) + ")";
  }
  if (op_type == "Softmax" || op_type == "LogSoftmax" || op_type == "Hardmax") {
    if (!attrs->Has("axis")) {
      Attribute axis;
      axis.i = opset < 13 ? 1 : -1;
      attrs->map()["axis"] = axis;
    }
    // Before opset 13 the op flattened the input to 2-D at `axis`; that equals
    // the per-axis form only when axis is the last dim.
    if (opset < 13 && !inputs.empty() && inputs[0].present()) {
      const int64_t rank = inputs[0].shape.rank;
      int64_t axis = attrs->GetInt("axis", 1);
      if (axis < 0) axis += rank;
      if (axis != rank - 1) {
        return "at opset " + std::to_string(opset) +
               " coerces its input to 2-D; the emulator supports only axis = "
               "the last dim there (export with opset >= 13)";
      }
    }
  }
  return "";
}

std::string Describe(DType dtype, const Shape& shape) {
  return std::string(DTypeName(dtype)) + " " + shape.ToString();
}

class GraphCompiler {
 public:
  GraphCompiler(const onnx::ModelProto& model, int64_t opset,
                const AtcOptions& options, const ExternalData& external)
      : graph_(model.graph()),
        opset_(opset),
        options_(options),
        external_(external),
        precision_(EffectivePrecisionMode(options)),
        fuse_(FusionsOn(options)) {}

  std::string Compile(Program* program,
                      std::vector<PendingFileConstant>* file_constants) {
    std::string err = AddInitializers();
    if (err.empty()) err = AddInputs();
    if (err.empty()) CollectOnnxTypes();
    for (int i = 0; err.empty() && i < graph_.node_size(); ++i) {
      err = AddNode(graph_.node(i), i);
    }
    if (err.empty()) err = CheckOutputs();
    if (err.empty()) err = Emit(program);
    if (err.empty()) err = CheckSocDtypes(*program, options_.soc_version);
    if (err.empty()) *file_constants = std::move(file_constants_);
    return err;
  }

 private:
  std::string AddInitializers() {
    for (int i = 0; i < graph_.initializer_size(); ++i) {
      const onnx::TensorProto& init = graph_.initializer(i);
      const ByteView* view = external_.Find(i);
      std::string err = view != nullptr ? AddExternalConst(init, *view)
                                        : AddConst(init, init.name());
      if (!err.empty()) return "initializer " + err;
    }
    return "";
  }

  // The loader checked the view against the tensor's dtype and dims.
  std::string AddExternalConst(const onnx::TensorProto& t,
                               const ByteView& view) {
    Value v;
    v.kind = Value::Kind::kConst;
    v.index = static_cast<int>(consts_.size());
    uint64_t nbytes = 0;
    std::string err = DecodeTensorType(t, &v.dtype, &v.shape, &nbytes);
    if (!err.empty()) return err;
    consts_.emplace_back();
    ConstBytes& c = consts_.back();
    c.external = true;
    c.view = view;
    if (reinterpret_cast<uintptr_t>(view.data) % alignof(std::max_align_t) !=
            0 &&
        view.size <= kInlineForOnnxChecksBytes) {
      c.owned.assign(view.data, view.data + view.size);
    }
    values_[t.name()] = v;
    return "";
  }

  std::string AddConst(const onnx::TensorProto& t, const std::string& name) {
    Value v;
    v.kind = Value::Kind::kConst;
    v.index = static_cast<int>(consts_.size());
    consts_.emplace_back();
    std::string err =
        DecodeTensor(t, &v.dtype, &v.shape, &consts_.back().owned);
    if (!err.empty()) return err;
    values_[name] = v;
    return "";
  }

  std::string AddInputs() {
    for (const onnx::ValueInfoProto& in : graph_.input()) {
      // An input with an initializer of the same name is a constant (the
      // IR < 4 convention); CANN's parser treats it the same way.
      if (values_.count(in.name())) continue;
      Value v;
      v.kind = Value::Kind::kInput;
      v.index = static_cast<int>(input_names_.size());
      if (!StaticTensorType(in.type(), &v.dtype, &v.shape)) {
        const int32_t elem = in.type().has_tensor_type()
                                 ? in.type().tensor_type().elem_type()
                                 : 0;
        return "input '" + in.name() + "' has dtype " + OnnxTypeName(elem) +
               " or a shape the emulator does not support";
      }
      values_[in.name()] = v;
      input_names_.push_back(in.name());
    }
    return "";
  }

  void CollectOnnxTypes() {
    for (const auto& n : graph_.node()) {
      for (const std::string& name : n.input()) ++uses_[name];
    }
    for (const auto& vi : graph_.output()) ++uses_[vi.name()];
    for (const auto& vi : graph_.output()) graph_outputs_.insert(vi.name());
    for (const auto& vi : graph_.value_info())
      onnx_types_[vi.name()] = &vi.type();
    for (const auto& vi : graph_.output()) onnx_types_[vi.name()] = &vi.type();
  }

  std::string AddConstantNode(const onnx::NodeProto& node,
                              const std::string& label) {
    const onnx::TensorProto* value = nullptr;
    for (const auto& a : node.attribute()) {
      if (a.name() == "value" && a.type() == onnx::AttributeProto::TENSOR) {
        value = &a.t();
      } else {
        return label + " uses attribute '" + a.name() +
               "'; CANN's parser reads only a Constant's 'value'";
      }
    }
    if (value == nullptr || node.output_size() != 1) {
      return label + " needs a 'value' tensor and one output";
    }
    std::string err = AddConst(*value, node.output(0));
    return err.empty() ? "" : label + ": " + err;
  }

  std::string AddNode(const onnx::NodeProto& node, int index) {
    const std::string label = NodeLabel(node, index);
    if (node.op_type() == "Constant") return AddConstantNode(node, label);

    if (fuse_) {
      bool fused = false;
      std::string err = FuseIntoConv(node, index, &fused);
      if (err.empty() && !fused) err = SigmoidMulIntoSwish(node, index, &fused);
      if (err.empty() && !fused) err = FuseIntoInt8Conv(node, index, &fused);
      if (!err.empty()) return label + ": " + err;
      if (fused) return "";
      onnx::NodeProto merged;
      if (PadIntoConv(node, index, &merged)) return AddNode(merged, index);
      if (PadIntoQuant(node, index, &merged)) return AddNode(merged, index);
      if (QuantPadIntoConv(node, &merged)) return AddNode(merged, index);
    }

    const KernelDef* kernel = FindKernel(node.op_type());
    if (kernel == nullptr) {
      return label +
             " is accepted by CANN's parser but has no emulator kernel (the "
             "emulator runs: " +
             JoinOpTypes() + ")";
    }

    PendingOp op;
    op.op_type = node.op_type();
    op.name = node.name().empty() ? "#" + std::to_string(index) : node.name();
    std::string err = ConvertAttributes(node, &op.attrs);
    if (!err.empty()) return label + ": " + err;

    // What CANN cannot compute on the chip (cann_op_facts.h): a float32 op
    // without a float32 kernel there under must_keep_origin_dtype, a
    // bfloat16 op without bfloat16.
    err = CheckOpDtypeOnSoc(node);
    if (err.empty()) err = CheckOpOnSoc(node);
    if (err.empty()) err = SetOffsetX(node, &op.attrs);
    if (!err.empty()) return label + ": " + err;

    // The precision mode: which inputs this op reads rounded (through Cast
    // steps added before it) and whether its outputs are rounded after it.
    const OpPrecision precision = DecideOpPrecision(node);
    std::vector<std::string> input_names(node.input().begin(),
                                         node.input().end());
    if (precision.dtype != DType::kFloat32) {
      for (int k = 0; k < node.input_size(); ++k) {
        if (!IsRoundedInput(node.op_type(), k)) continue;
        err = RoundedValue(input_names[k], precision.dtype, &input_names[k]);
        if (!err.empty()) return label + ": " + err;
      }
    }

    const int op_index = static_cast<int>(ops_.size());
    std::vector<TensorRef> inputs(node.input_size());
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string& name = input_names[k];
      op.inputs.push_back(name);
      if (name.empty()) {
        inputs[k].shape.rank = -1;
        continue;
      }
      auto it = values_.find(name);
      if (it == values_.end())
        return label + " reads unknown value '" + name + "'";
      Value& v = it->second;
      inputs[k].dtype = v.dtype;
      inputs[k].shape = v.shape;
      if (v.kind == Value::Kind::kConst)
        // Infer only reads inputs (a mapped file is read-only anyway).
        inputs[k].data = const_cast<uint8_t*>(consts_[v.index].infer_data());
      v.last_use = op_index;
    }
    // The kernel's input arity (kernels.def) before anything reads inputs:
    // the .om loader checks the same rule, so what atc writes loads.
    err = CheckInputArity(*kernel, inputs);
    if (!err.empty()) return label + ": " + err;
    err = ResolveOpsetSemantics(op.op_type, opset_, inputs, &op.attrs);
    if (!err.empty()) return label + " " + err;

    std::vector<TensorRef> outputs(node.output_size());
    InferContext ctx{op.attrs, inputs, outputs};
    try {
      err = kernel->infer(ctx);
    } catch (const std::exception& e) {
      err = std::string("shape inference failed: ") + e.what();
    }
    if (!err.empty()) return label + ": " + err;
    op.scratch_bytes = ctx.scratch_bytes;
    if (Foldable(node, op, inputs, outputs)) {
      return Fold(node, label, *kernel, op, inputs, &outputs,
                  ctx.scratch_bytes);
    }

    std::vector<std::string> rounded_outputs;
    for (size_t k = 0; k < outputs.size(); ++k) {
      // Outputs the node leaves unnamed (or that the kernel adds) still need
      // memory to be written to: give them private names.
      std::string name =
          static_cast<int>(k) < node.output_size() ? node.output(k) : "";
      if (name.empty())
        name = "\x01" + op.name + ":unused_output_" + std::to_string(k);
      if (values_.count(name)) {
        return label + " writes '" + name + "', which already has a value";
      }
      err = CrossCheck(name, outputs[k]);
      if (!err.empty()) return label + ": " + err;
      if (precision.round_outputs && outputs[k].dtype == DType::kFloat32 &&
          name[0] != '\x01') {
        // The op writes a private value; Cast steps after it round that
        // into `name` (below).
        rounded_outputs.push_back(name);
        name = "\x01" + name + "#" + op.name + ":unrounded";
      }
      Value v;
      v.kind = Value::Kind::kOpOutput;
      v.index = op_index;
      v.dtype = outputs[k].dtype;
      v.shape = outputs[k].shape;
      values_[name] = v;
      op.outputs.push_back(name);
    }
    ops_.push_back(std::move(op));
    for (const std::string& name : rounded_outputs) {
      const std::string raw =
          "\x01" + name + "#" + ops_.back().name + ":unrounded";
      AddRoundingCasts(raw, precision.dtype, name);
    }
    return "";
  }

  // ---- Conv fusions (docs/atc.md "Fusions"), as CANN's graph compiler
  // does: a node reading only the output of the op just compiled, a Conv,
  // merges into it. Mul and Add by a per-channel constant (the lowering's
  // BatchNormalization: x * scale + shift) fold into the Conv's weights and
  // bias; Add of a tensor shaped like the output becomes FusedConv's residual
  // Z; Relu its activation, and so does Clip with constant (or absent)
  // scalar bounds (MobileNet's ReLU6: with it apart, no two Convs of an
  // inverted residual block were neighbours to agree on a layout). Order
  // kept: Conv [Mul] [Add const] [Add Z] [Relu|Clip].
  // The fused op is named by the merged nodes' names joined with '+'.
  // Float32 only and only where the precision mode rounds nothing in
  // between (a rounded Conv is followed by Cast steps, so never merged).

  // *fused true when `node` was merged into ops_.back().
  std::string FuseIntoConv(const onnx::NodeProto& node, int index,
                           bool* fused) {
    *fused = false;
    const std::string& type = node.op_type();
    if (ops_.empty() ||
        (type != "Mul" && type != "Add" && type != "Relu" && type != "Clip"))
      return "";
    PendingOp& op = ops_.back();
    if ((op.op_type != "Conv" && op.op_type != "FusedConv") ||
        op.outputs.size() != 1 || node.output_size() != 1 ||
        node.output(0).empty() || values_.count(node.output(0)))
      return "";
    const std::string y = op.outputs[0];
    auto uses = uses_.find(y);
    if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1) return "";
    const Value& yv = values_.at(y);
    if (yv.dtype != DType::kFloat32 || yv.rounded_to != DType::kFloat32)
      return "";
    const OpPrecision precision = DecideOpPrecision(node);
    if (precision.dtype != DType::kFloat32 || precision.round_outputs)
      return "";
    const bool has_act = op.attrs.Has("activation");
    const bool has_z = op.inputs.size() >= 4 && !op.inputs[3].empty();
    if (has_act) return "";  // nothing merges after the activation

    PendingOp fused_op = op;
    if (type == "Relu") {
      if (node.input_size() != 1 || node.input(0) != y) return "";
      Attribute a;
      a.kind = Attribute::Kind::kString;
      a.s = "Relu";
      fused_op.attrs.map()["activation"] = a;
      fused_op.op_type = "FusedConv";
    } else if (type == "Clip") {
      float bounds[2];
      if (node.input_size() < 1 || node.input(0) != y ||
          node.attribute_size() != 0 || !ClipBounds(node, bounds))
        return "";
      Attribute a;
      a.kind = Attribute::Kind::kString;
      a.s = "Clip";
      fused_op.attrs.map()["activation"] = a;
      Attribute params;
      params.kind = Attribute::Kind::kFloats;
      params.floats.assign(bounds, bounds + 2);
      fused_op.attrs.map()["activation_params"] = params;
      fused_op.op_type = "FusedConv";
    } else {
      if (node.input_size() != 2 || node.input(0) == node.input(1)) return "";
      const int k = node.input(0) == y ? 0 : node.input(1) == y ? 1 : -1;
      if (k < 0 || node.attribute_size() != 0) return "";
      const std::string& other = node.input(1 - k);
      auto it = values_.find(other);
      if (it == values_.end() || it->second.dtype != DType::kFloat32 ||
          it->second.rounded_to != DType::kFloat32 || has_z)
        return "";
      std::vector<float> per_channel;
      if (it->second.kind == Value::Kind::kConst) {
        if (!PerChannel(it->second, yv.shape, &per_channel)) return "";
        if (!FoldIntoWeights(type == "Mul", per_channel, &fused_op)) return "";
      } else if (type == "Add" && it->second.shape == yv.shape) {
        if (fused_op.inputs.size() < 4) fused_op.inputs.resize(4);
        fused_op.inputs[3] = other;
        fused_op.op_type = "FusedConv";
      } else {
        return "";
      }
    }

    return CommitMerged(std::move(fused_op), node, index, fused);
  }

  // The merge both Conv fusions end with: the merged op's kernel Infer (as
  // for any other op; a refusal leaves the node unmerged), then it replaces
  // ops_.back() and its output replaces the last op's. The merged value
  // holds what the kernel writes, never rounded by the precision mode (the
  // fusions merge nothing that is).
  std::string CommitMerged(PendingOp fused_op, const onnx::NodeProto& node,
                           int index, bool* fused) {
    PendingOp& op = ops_.back();
    const std::string y = op.outputs[0];
    const Value& yv = values_.at(y);
    const KernelDef* kernel = FindKernel(fused_op.op_type);
    std::vector<TensorRef> inputs(fused_op.inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (fused_op.inputs[i].empty()) {
        inputs[i].shape.rank = -1;
        continue;
      }
      const Value& v = values_.at(fused_op.inputs[i]);
      inputs[i].dtype = v.dtype;
      inputs[i].shape = v.shape;
    }
    std::vector<TensorRef> outputs(1);
    InferContext ctx{fused_op.attrs, inputs, outputs};
    std::string err = CheckInputArity(*kernel, inputs);
    if (err.empty()) err = kernel->infer(ctx);
    if (!err.empty() || outputs[0].shape != yv.shape) return "";
    err = CrossCheck(node.output(0), outputs[0]);
    if (!err.empty()) return err;

    const int op_index = static_cast<int>(ops_.size()) - 1;
    fused_op.scratch_bytes = ctx.scratch_bytes;
    fused_op.name +=
        "+" + (node.name().empty() ? "#" + std::to_string(index) : node.name());
    fused_op.outputs[0] = node.output(0);
    for (const std::string& name : fused_op.inputs) {
      if (!name.empty()) values_.at(name).last_use = op_index;
    }
    Value out = yv;
    out.dtype = outputs[0].dtype;
    out.rounded_to = DType::kFloat32;
    out.last_use = -1;
    values_.erase(y);
    values_[node.output(0)] = out;
    op = std::move(fused_op);
    *fused = true;
    return "";
  }

  // ---- Sigmoid and Mul into Swish (docs/atc.md "Conv fusions"): SiLU as
  // the lowering emits it, Mul(x, Sigmoid(x)) with the Sigmoid compiled just
  // before and read by this Mul only, becomes one op that reads x once
  // (CANN's Swish, scale 1; onnxruntime fuses the same pair as QuickGelu).
  // Float32 with nothing rounded between, as the Conv fusions; the kernel
  // multiplies x by the Sigmoid op's own values, so the results are the
  // same. *fused true when `node` was merged into ops_.back().
  std::string SigmoidMulIntoSwish(const onnx::NodeProto& node, int index,
                                  bool* fused) {
    *fused = false;
    if (ops_.empty() || node.op_type() != "Mul" || node.input_size() != 2 ||
        node.output_size() != 1 || node.output(0).empty() ||
        values_.count(node.output(0)) || node.attribute_size() != 0)
      return "";
    PendingOp& op = ops_.back();
    if (op.op_type != "Sigmoid" || op.inputs.size() != 1 ||
        op.outputs.size() != 1 || !op.attrs.map().empty())
      return "";
    const std::string s = op.outputs[0];
    const std::string& x = op.inputs[0];
    const int k = node.input(0) == s ? 0 : node.input(1) == s ? 1 : -1;
    if (k < 0 || node.input(1 - k) != x) return "";
    auto uses = uses_.find(s);
    if (s[0] == '\x01' || uses == uses_.end() || uses->second != 1) return "";
    const Value& sv = values_.at(s);
    const Value& xv = values_.at(x);
    if (sv.dtype != DType::kFloat32 || sv.rounded_to != DType::kFloat32 ||
        xv.dtype != DType::kFloat32 || xv.rounded_to != DType::kFloat32 ||
        sv.shape != xv.shape)
      return "";
    const OpPrecision precision = DecideOpPrecision(node);
    if (precision.dtype != DType::kFloat32 || precision.round_outputs)
      return "";

    // Swish's own Infer, as for any other op.
    std::vector<TensorRef> inputs(1);
    inputs[0].dtype = xv.dtype;
    inputs[0].shape = xv.shape;
    std::vector<TensorRef> outputs(1);
    Attributes attrs;
    InferContext ctx{attrs, inputs, outputs};
    std::string err = FindKernel("Swish")->infer(ctx);
    if (!err.empty() || outputs[0].shape != sv.shape) return "";
    err = CrossCheck(node.output(0), outputs[0]);
    if (!err.empty()) return err;

    const int op_index = static_cast<int>(ops_.size()) - 1;
    op.op_type = "Swish";
    op.scratch_bytes = ctx.scratch_bytes;
    op.name +=
        "+" + (node.name().empty() ? "#" + std::to_string(index) : node.name());
    op.outputs[0] = node.output(0);
    values_.at(x).last_use = op_index;
    Value out = sv;
    out.last_use = -1;
    values_.erase(s);
    values_[node.output(0)] = out;
    *fused = true;
    return "";
  }

  // ---- CANN's int8 chain into FusedConvDequant (docs/atc.md "Conv
  // fusions"): Conv(int8) -> AscendDequant [-> Cast to float32] [-> Relu |
  // Clip], each read only by the next, as CANN's graph compiler fuses
  // AscendDequant (and the ops after it) into the cube op's output stage.
  // The kernel computes exactly what the chain does (conv_int8_fused.cc), so
  // the fusion is the emulator's own speed and changes no value. Each node
  // merged is first checked on the chip as AddNode would. *fused true when
  // `node` was merged into ops_.back().
  std::string FuseIntoInt8Conv(const onnx::NodeProto& node, int index,
                               bool* fused) {
    *fused = false;
    const std::string& type = node.op_type();
    if (ops_.empty() || (type != "AscendDequant" && type != "Cast" &&
                         type != "Relu" && type != "Clip"))
      return "";
    PendingOp& op = ops_.back();
    const bool conv = op.op_type == "Conv";
    if ((!conv && op.op_type != "FusedConvDequant") || op.outputs.size() != 1 ||
        node.output_size() != 1 || node.output(0).empty() ||
        values_.count(node.output(0)) || node.input_size() < 1)
      return "";
    const std::string y = op.outputs[0];
    auto uses = uses_.find(y);
    if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1 ||
        node.input(0) != y)
      return "";
    const Value& yv = values_.at(y);
    PendingOp fused_op = op;
    const bool has_act = op.attrs.Has("activation");
    const bool to_float = op.attrs.GetInt("to", 10) == 1;
    if (type == "AscendDequant") {
      if (!conv || yv.dtype != DType::kInt32 || node.input_size() != 2)
        return "";
      auto d = values_.find(node.input(1));
      if (d == values_.end() || d->second.kind != Value::Kind::kConst)
        return "";
      Attributes deq;
      if (!ConvertAttributes(node, &deq).empty()) return "";
      for (const auto& kv : deq.map())
        fused_op.attrs.map()[kv.first] = kv.second;
      // X, W, deq_scale, B (when the Conv has one).
      const std::string bias =
          fused_op.inputs.size() > 2 ? fused_op.inputs[2] : std::string();
      fused_op.inputs.resize(2);
      fused_op.inputs.push_back(node.input(1));
      if (!bias.empty()) fused_op.inputs.push_back(bias);
      fused_op.op_type = "FusedConvDequant";
    } else {
      if (conv || has_act) return "";
      // Nothing rounded by the precision mode (as the float Conv fusions).
      const OpPrecision precision = DecideOpPrecision(node);
      if (precision.round_outputs || precision.dtype != DType::kFloat32)
        return "";
      if (type == "Cast") {
        // float16 -> float32: exact, the values unchanged.
        if (to_float || node.attribute_size() != 1 ||
            node.attribute(0).name() != "to" || node.attribute(0).i() != 1)
          return "";
        Attribute to;
        to.kind = Attribute::Kind::kInt;
        to.i = 1;
        fused_op.attrs.map()["to"] = to;
      } else if (type == "Relu") {
        if (node.input_size() != 1) return "";
        Attribute a;
        a.kind = Attribute::Kind::kString;
        a.s = "Relu";
        fused_op.attrs.map()["activation"] = a;
      } else {
        // Clip on float32 only (its bounds in float16 would be rounded).
        float bounds[2];
        if (!to_float || node.attribute_size() != 0 ||
            !ClipBounds(node, bounds))
          return "";
        Attribute a;
        a.kind = Attribute::Kind::kString;
        a.s = "Clip";
        fused_op.attrs.map()["activation"] = a;
        Attribute params;
        params.kind = Attribute::Kind::kFloats;
        params.floats.assign(bounds, bounds + 2);
        fused_op.attrs.map()["activation_params"] = params;
      }
    }
    std::string err = CheckOpDtypeOnSoc(node);
    if (err.empty()) err = CheckOpOnSoc(node);
    if (!err.empty()) return err;

    return CommitMerged(std::move(fused_op), node, index, fused);
  }

  // Clip's min and max (inputs 1 and 2, opset 11+) as FusedConv's
  // activation_params: float32 constant scalars, or -inf / inf when absent
  // (not lowest/max: an absent bound leaves -inf and inf as they are). False
  // for a bound computed at run time or of another dtype.
  bool ClipBounds(const onnx::NodeProto& node, float bounds[2]) {
    if (node.input_size() > 3) return false;
    bounds[0] = -std::numeric_limits<float>::infinity();
    bounds[1] = std::numeric_limits<float>::infinity();
    for (int i = 1; i < node.input_size(); ++i) {
      if (node.input(i).empty()) continue;
      auto it = values_.find(node.input(i));
      if (it == values_.end()) return false;
      const Value& c = it->second;
      if (c.kind != Value::Kind::kConst || c.index < 0 ||
          c.dtype != DType::kFloat32 || c.shape.rank > 1 ||
          c.shape.numel() != 1)
        return false;
      const ByteView bytes = consts_[c.index].bytes();
      const bool ok = bytes.size == sizeof(float);
      if (ok) std::memcpy(&bounds[i - 1], bytes.data, sizeof(float));
      bytes.Release();
      if (!ok) return false;
    }
    return true;
  }

  // ---- Pad into Conv (docs/atc.md "Fusions"): a constant Pad by zero of
  // the spatial dims only, read by nothing but the Conv that follows it,
  // adds its pads to the Conv's: the Conv reads the unpadded input and the
  // Pad's copy of it goes. transformers' MobileNetV2 and EfficientNet pad
  // TF-style ("SAME") before every Conv, by nothing before the 1x1 ones,
  // and each Pad between two Convs also kept them from sharing a layout.
  // Float32 only and only where the precision mode rounds nothing (as for
  // FuseIntoConv). True with *merged the Conv node to compile instead (named
  // "<pad>+<conv>"), the Pad op taken back.
  bool PadIntoConv(const onnx::NodeProto& node, int index,
                   onnx::NodeProto* merged) {
    if (node.op_type() != "Conv" || node.input_size() < 2 || ops_.empty())
      return false;
    const PendingOp& pad = ops_.back();
    if (pad.op_type != "Pad" || pad.outputs.size() != 1 ||
        pad.inputs.size() < 2 || pad.outputs[0] != node.input(0))
      return false;
    const std::string& y = pad.outputs[0];
    auto uses = uses_.find(y);
    if (y[0] == '\x01' || uses == uses_.end() || uses->second != 1)
      return false;
    const Value& yv = values_.at(y);
    const int32_t rank = yv.shape.rank;
    if (yv.dtype != DType::kFloat32 || yv.rounded_to != DType::kFloat32 ||
        rank < 3)
      return false;
    const OpPrecision precision = DecideOpPrecision(node);
    if (precision.dtype != DType::kFloat32 || precision.round_outputs)
      return false;
    if (pad.attrs.GetString("mode", "constant") != "constant") return false;
    if (pad.inputs.size() > 2 && !pad.inputs[2].empty()) {
      // The fill must be +0.0f, the Conv's own padding.
      const Value& c = values_.at(pad.inputs[2]);
      if (c.kind != Value::Kind::kConst || c.dtype != DType::kFloat32 ||
          c.shape.numel() != 1)
        return false;
      uint32_t bits = 1;
      std::memcpy(&bits, consts_[c.index].infer_data(), sizeof bits);
      if (bits != 0) return false;
    }
    const Value& pv = values_.at(pad.inputs[1]);
    if (pv.kind != Value::Kind::kConst || pv.dtype != DType::kInt64 ||
        pv.shape.numel() != 2 * rank)
      return false;
    std::vector<int64_t> pads(static_cast<size_t>(2 * rank));
    std::memcpy(pads.data(), consts_[pv.index].infer_data(),
                pads.size() * sizeof(int64_t));
    if (!OnlySpatialPads(pads, rank)) return false;
    *merged = node;
    if (!AddConvPads(SpatialPads(pads, rank), merged)) return false;
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

  // ONNX Pad's pads (rank begins, rank ends) pad only the spatial dims (2
  // on) and crop nothing: a Conv's padding.
  static bool OnlySpatialPads(const std::vector<int64_t>& pads, int32_t rank) {
    if (pads[0] != 0 || pads[1] != 0 || pads[rank] != 0 || pads[rank + 1] != 0)
      return false;  // batch or channels padded: not a Conv's padding
    for (int32_t d = 2; d < rank; ++d) {
      if (pads[d] < 0 || pads[d + rank] < 0) return false;  // a crop
    }
    return true;
  }

  // The spatial part of OnlySpatialPads' pads, in a Conv's order: k =
  // rank - 2 begins, then k ends.
  static std::vector<int64_t> SpatialPads(const std::vector<int64_t>& pads,
                                          int32_t rank) {
    std::vector<int64_t> out;
    for (int32_t d = 2; d < rank; ++d) out.push_back(pads[d]);
    for (int32_t d = 2; d < rank; ++d) out.push_back(pads[rank + d]);
    return out;
  }

  // Adds `extra` (k begins, k ends) to the pads of the Conv `conv` (with
  // none, from 0); false, conv unchanged, where the Conv's padding is not
  // explicit (auto_pad), its pads are not 2k ints (left to its Infer to
  // refuse) or a sum overflows.
  static bool AddConvPads(const std::vector<int64_t>& extra,
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
  bool PadIntoQuant(const onnx::NodeProto& node, int index,
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
    if ((yv.dtype != DType::kFloat32 && yv.dtype != DType::kFloat16) ||
        rank != 4)
      return false;
    if (pad.attrs.GetString("mode", "constant") != "constant") return false;
    if (pad.inputs.size() > 2 && !pad.inputs[2].empty()) {
      // The fill must be +0: every bit of it zero.
      const Value& c = values_.at(pad.inputs[2]);
      if (c.kind != Value::Kind::kConst || c.dtype != yv.dtype ||
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
    const std::vector<int64_t> extra = SpatialPads(pads, rank);
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
  static bool QuantOfZero(const Attributes& attrs, DType dtype, int8_t* out) {
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
  bool QuantPadIntoConv(const onnx::NodeProto& node, onnx::NodeProto* merged) {
    if (node.op_type() != "Conv" || node.input_size() < 1) return false;
    auto it = quant_pads_.find(node.input(0));
    if (it == quant_pads_.end()) return false;
    *merged = node;
    // PadIntoQuant checked every reader's pads take these.
    if (!AddConvPads(it->second.second, merged)) return false;
    merged->set_input(0, it->second.first);
    return true;
  }

  // A float32 constant that broadcasts along the channel axis (1) of a
  // value of shape `y` without changing it: [M], [M,1,1], [1,M,1,1], a
  // scalar... *values gets it per channel (M floats).
  bool PerChannel(const Value& c, const Shape& y, std::vector<float>* values) {
    if (y.rank < 3 || c.shape.rank > y.rank) return false;
    const int64_t m = y.dims[1];
    int64_t numel = 1;
    for (int32_t i = 0; i < c.shape.rank; ++i) {
      const int32_t axis = i + y.rank - c.shape.rank;
      const int64_t d = c.shape.dims[i];
      if (d != 1 && !(axis == 1 && d == m)) return false;
      numel *= d;
    }
    const ByteView bytes = consts_[c.index].bytes();
    if (bytes.size != static_cast<size_t>(numel) * sizeof(float)) {
      bytes.Release();
      return false;
    }
    std::vector<float> raw(static_cast<size_t>(numel));
    std::memcpy(raw.data(), bytes.data, bytes.size);
    bytes.Release();
    values->resize(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) (*values)[i] = raw[numel == 1 ? 0 : i];
    return true;
  }

  // Mul: W[m] *= s[m], B[m] *= s[m]; Add: B[m] += s[m] (B from 0 when
  // absent). New constants (the old ones may have other readers); false
  // when the weights or bias are not constants.
  bool FoldIntoWeights(bool mul, const std::vector<float>& s, PendingOp* op) {
    if (op->inputs.size() < 2) return false;
    auto w = values_.find(op->inputs[1]);
    if (w == values_.end() || w->second.kind != Value::Kind::kConst ||
        w->second.dtype != DType::kFloat32)
      return false;
    const int64_t m = static_cast<int64_t>(s.size());
    if (m == 0) return false;  // no output channel to fold into
    std::vector<float> bias(static_cast<size_t>(m), 0.0f);
    // A weight in a weight file stays the source's bytes: scaled, it would be
    // a second copy of the weights beside the file (a program that keeps its
    // ONNX stores the source's). Its Mul becomes FusedConv's per-channel
    // weight scale instead (input 4, applied by the kernel: oneDNN's weights
    // are scaled while prepared at load, a copy the emulator makes anyway).
    const bool scale_input = mul && consts_[w->second.index].external;
    if (mul && (w->second.shape.rank < 1 || w->second.shape.dims[0] != m))
      return false;
    const bool has_bias = op->inputs.size() >= 3 && !op->inputs[2].empty();
    if (has_bias) {
      const Value& b = values_.at(op->inputs[2]);
      if (b.kind != Value::Kind::kConst || b.dtype != DType::kFloat32 ||
          b.shape.numel() != m)
        return false;
      const ByteView bytes = consts_[b.index].bytes();
      std::memcpy(bias.data(), bytes.data, bytes.size);
      bytes.Release();
    }
    for (int64_t i = 0; i < m; ++i)
      bias[i] = mul ? bias[i] * s[i] : bias[i] + s[i];
    const std::string base = "\x01" + op->name;
    if (scale_input) {
      std::vector<float> scale = s;
      if (op->inputs.size() >= 5 && !op->inputs[4].empty()) {
        const ByteView bytes = consts_[values_.at(op->inputs[4]).index].bytes();
        const float* before = reinterpret_cast<const float*>(bytes.data);
        for (int64_t i = 0; i < m; ++i) scale[i] *= before[i];
        bytes.Release();
      }
      std::vector<uint8_t> scale_bytes(scale.size() * sizeof(float));
      std::memcpy(scale_bytes.data(), scale.data(), scale_bytes.size());
      const std::string name = base + ":weight_scale";
      AddComputedConst(PerChannelConst(m), name, std::move(scale_bytes));
      op->inputs.resize(5);
      op->inputs[4] = name;
      op->op_type = "FusedConv";
    } else if (mul) {
      const ByteView bytes = consts_[w->second.index].bytes();
      std::vector<uint8_t> scaled(bytes.data, bytes.data + bytes.size);
      bytes.Release();
      float* f = reinterpret_cast<float*>(scaled.data());
      const int64_t row = w->second.shape.numel() / m;
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < row; ++j) f[i * row + j] *= s[i];
      }
      const std::string name = base + ":folded_weight";
      AddComputedConst(w->second, name, std::move(scaled));
      op->inputs[1] = name;
    }
    std::vector<uint8_t> bias_bytes(bias.size() * sizeof(float));
    std::memcpy(bias_bytes.data(), bias.data(), bias_bytes.size());
    const std::string name = base + ":folded_bias";
    AddComputedConst(PerChannelConst(m), name, std::move(bias_bytes));
    if (op->inputs.size() < 3) op->inputs.resize(3);
    op->inputs[2] = name;
    return true;
  }

  // The Value of a float32 [m] constant computed here and stored inline (no
  // constant it derives from: index -1).
  static Value PerChannelConst(int64_t m) {
    Value v;
    v.kind = Value::Kind::kConst;
    v.index = -1;
    v.dtype = DType::kFloat32;
    v.shape.rank = 1;
    v.shape.dims[0] = m;
    return v;
  }

  // A constant computed here, like `like` (a FileConstant stays one).
  void AddComputedConst(const Value& like, const std::string& name,
                        std::vector<uint8_t> bytes) {
    Value v = like;
    v.index = static_cast<int>(consts_.size());
    v.tensor = -1;
    v.last_use = -1;
    const bool external = like.kind == Value::Kind::kConst && like.index >= 0 &&
                          consts_[like.index].external;
    consts_.emplace_back();
    ConstBytes& c = consts_.back();
    if (external) {
      auto computed =
          std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
      c.external = true;
      c.computed = computed;
      c.view = ByteView{computed->data(), computed->size(), nullptr};
    } else {
      c.owned = std::move(bytes);
    }
    values_[name] = v;
  }

  // The emulator's fusions are on unless --fusion_switch_file switches any
  // pass off: its passes are not CANN's, so "off" anywhere turns them all
  // off (CANN's file: {"Switch": {"GraphFusion": {"ALL": "off"}, ...}}).
  static bool FusionsOn(const AtcOptions& options) {
    for (const auto& kv : options.no_effect) {
      if (kv.first != "fusion_switch_file") continue;
      std::ifstream in(kv.second);
      std::stringstream text;
      text << in.rdbuf();
      if (text.str().find("\"off\"") != std::string::npos) return false;
    }
    return true;
  }

  OpPrecision DecideOpPrecision(const onnx::NodeProto& node) const {
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
  bool FirstInputDType(const onnx::NodeProto& node, DType* dtype) const {
    if (node.input_size() == 0) return false;
    auto it = values_.find(node.input(0));
    if (it == values_.end()) return false;
    *dtype = it->second.dtype;
    return true;
  }

  // The dtype of input `k` of the node; false if absent or unknown.
  bool InputDType(const onnx::NodeProto& node, int k, DType* dtype) const {
    if (k >= node.input_size() || node.input(k).empty()) return false;
    auto it = values_.find(node.input(k));
    if (it == values_.end()) return false;
    *dtype = it->second.dtype;
    return true;
  }

  static bool IsInt8MatrixOp(const std::string& op) {
    return op == "Conv" || op == "MatMul" || op == "Gemm";
  }

  // "" or what CANN does not have on --soc_version (cann_op_facts.json's
  // unsupported, no_int8, no_int4_weight, deq_scale_float16): the op, its
  // int8 form (an int8 Conv, MatMul or Gemm), int4 weights packed in int32,
  // AscendDequant's uint64 deq_scale.
  std::string CheckOpOnSoc(const onnx::NodeProto& node) const {
    const std::string& op = node.op_type();
    DType x = DType::kFloat32, w = DType::kFloat32;
    const bool int8 =
        IsInt8MatrixOp(op) && InputDType(node, 0, &x) && x == DType::kInt8;
    const bool int4 = op == "NPUWeightQuantBatchMatmulV2" &&
                      InputDType(node, 1, &w) && w == DType::kInt32;
    const bool uint64_deq =
        op == "AscendDequant" && InputDType(node, 1, &w) && w == DType::kUInt64;
    return OpUnavailableOnSoc(op, options_.soc_version, int8, int4, uint64_deq);
  }

  // An int8 Conv, MatMul or Gemm gets CANN's offset_x (the activation's
  // quantization offset, which also fills Conv's padding): CANN's ONNX
  // plugins do not read one; GE sets it from the AscendQuant that produces
  // the int8 input. So here: round(offset) of that AscendQuant, else 0. An
  // internal attribute of the .om; a node's own offset_x is replaced.
  std::string SetOffsetX(const onnx::NodeProto& node, Attributes* attrs) const {
    DType x = DType::kFloat32;
    if (!IsInt8MatrixOp(node.op_type()) || !InputDType(node, 0, &x) ||
        x != DType::kInt8) {
      return "";
    }
    int64_t offset_x = 0;
    const Value& v = values_.at(node.input(0));
    if (v.kind == Value::Kind::kOpOutput &&
        ops_[v.index].op_type == "AscendQuant") {
      const PendingOp& quant = ops_[v.index];
      const float offset = quant.attrs.GetFloat("offset", 0.0f);
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
  std::string CheckOpDtypeOnSoc(const onnx::NodeProto& node) const {
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
  void AddRoundingCasts(const std::string& from, DType low,
                        const std::string& to) {
    const std::string mid = "\x01" + to + ":" + DTypeName(low);
    AddCast(from, low, mid);
    AddCast(mid, DType::kFloat32, to);
    values_.at(to).rounded_to = low;
  }

  void AddCast(const std::string& from, DType dtype, const std::string& to) {
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
  std::string RoundedValue(const std::string& source, DType low,
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

  // Constant folding, as CANN's graph optimizer does for shape arithmetic:
  // Shape (its output depends only on the input's static shape, so per gear
  // a constant) and int64 ops whose inputs are all constants. Their results
  // become constants, so Reshape/Slice/Expand operands computed from
  // Shape -> Gather -> Mul/Add -> Concat chains are constants as CANN
  // requires. Graph outputs are never folded (an output must be written).
  bool Foldable(const onnx::NodeProto& node, const PendingOp& op,
                const std::vector<TensorRef>& inputs,
                const std::vector<TensorRef>& outputs) const {
    uint64_t bytes = 0;
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (static_cast<int>(k) >= node.output_size() ||
          node.output(static_cast<int>(k)).empty() ||
          graph_outputs_.count(node.output(static_cast<int>(k))))
        return false;
      if (op.op_type != "Shape" && outputs[k].dtype != DType::kInt64)
        return false;
      bytes += outputs[k].nbytes();
    }
    if (bytes > kMaxFoldBytes) return false;
    if (op.op_type == "Shape") return true;
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (!inputs[k].present()) continue;
      const Value& v = values_.at(op.inputs[k]);
      if (v.kind != Value::Kind::kConst) return false;
      const ConstBytes& c = consts_[v.index];
      // A file view may be misaligned: fold only what Infer could read.
      if (c.external && c.owned.empty()) return false;
    }
    return true;
  }

  std::string Fold(const onnx::NodeProto& node, const std::string& label,
                   const KernelDef& kernel, const PendingOp& op,
                   const std::vector<TensorRef>& inputs,
                   std::vector<TensorRef>* outputs, size_t scratch_bytes) {
    std::vector<std::vector<uint8_t>> bytes(outputs->size());
    for (size_t k = 0; k < outputs->size(); ++k) {
      bytes[k].assign((*outputs)[k].nbytes(), 0);
      (*outputs)[k].data = bytes[k].data();
    }
    std::vector<uint64_t> scratch((scratch_bytes + 7) / 8 + 8);
    void* aligned = reinterpret_cast<void*>(
        (reinterpret_cast<uintptr_t>(scratch.data()) + 63) & ~uintptr_t{63});
    RunContext run{op.attrs,        inputs.data(),   inputs.size(),
                   outputs->data(), outputs->size(), aligned};
    try {
      kernel.run(run);
    } catch (const std::exception& e) {
      return label + ": constant folding failed: " + e.what();
    }
    for (size_t k = 0; k < outputs->size(); ++k) {
      const std::string& name = node.output(static_cast<int>(k));
      if (values_.count(name)) {
        return label + " writes '" + name + "', which already has a value";
      }
      std::string err = CrossCheck(name, (*outputs)[k]);
      if (!err.empty()) return label + ": " + err;
      Value v;
      v.kind = Value::Kind::kConst;
      v.index = static_cast<int>(consts_.size());
      v.dtype = (*outputs)[k].dtype;
      v.shape = (*outputs)[k].shape;
      consts_.emplace_back();
      consts_.back().owned = std::move(bytes[k]);
      consts_.back().folded = true;
      values_[name] = v;
    }
    return "";
  }

  // ONNX inferred a static type for `name`: the kernel must agree, or one of
  // the two is wrong and the emulator would compute something else.
  std::string CrossCheck(const std::string& name, const TensorRef& inferred) {
    auto it = onnx_types_.find(name);
    if (it == onnx_types_.end()) return "";
    DType dtype;
    Shape shape;
    if (!StaticTensorType(*it->second, &dtype, &shape)) return "";
    if (dtype != inferred.dtype || shape != inferred.shape) {
      return "output '" + name + "' is " +
             Describe(inferred.dtype, inferred.shape) +
             " by the emulator's kernel but " + Describe(dtype, shape) +
             " by ONNX shape inference";
    }
    return "";
  }

  std::string CheckOutputs() {
    for (int k = 0; k < graph_.output_size(); ++k) {
      const std::string& name = graph_.output(k).name();
      auto it = values_.find(name);
      if (it == values_.end())
        return "graph output '" + name + "' is never computed";
      if (options_.output_type == "FP32" &&
          it->second.dtype != DType::kFloat32) {
        return "--output_type=FP32, but output '" + name + "' is " +
               DTypeName(it->second.dtype) +
               " (the emulator does not convert outputs)";
      }
      if (it->second.kind == Value::Kind::kOpOutput &&
          it->second.output_slot < 0) {
        it->second.output_slot = k;
      }
    }
    return "";
  }

  aclFormat FormatFor(const Shape& shape) const {
    if (options_.input_format == "NCHW" && shape.rank == 4)
      return ACL_FORMAT_NCHW;
    if (options_.input_format == "NCDHW" && shape.rank == 5)
      return ACL_FORMAT_NCDHW;
    return ACL_FORMAT_ND;
  }

  int TensorFor(const std::string& name, Program* p) {
    Value& v = values_.at(name);
    if (v.tensor >= 0) return v.tensor;
    TensorInfo t;
    t.name = !name.empty() && name[0] == '\x01' ? name.substr(1) : name;
    t.dtype = v.dtype;
    t.shape = v.shape;
    switch (v.kind) {
      case Value::Kind::kInput:
        t.location = TensorLocation::kInput;
        t.offset = static_cast<uint64_t>(v.index);
        break;
      case Value::Kind::kConst: {
        const ConstBytes& c = consts_[v.index];
        const ByteView bytes = c.bytes();
        if (c.external && options_.external_weight != 0 && bytes.size != 0) {
          // A FileConstant: no bytes in the .om; WeightFiles lays out its
          // file and offset.
          t.location = TensorLocation::kExternal;
          file_constants_.push_back(
              {static_cast<uint32_t>(p->tensors.size()), bytes, c.computed});
          break;
        }
        t.location = TensorLocation::kWeight;
        if (c.folded) {
          // Laid out after every other weight (see shared_weight_bytes).
          folded_tensors_.push_back(static_cast<int>(p->tensors.size()));
          folded_names_[static_cast<int>(p->tensors.size())] = name;
          break;
        }
        p->weights.resize((p->weights.size() + kOmAlignment - 1) /
                          kOmAlignment * kOmAlignment);
        t.offset = p->weights.size();
        p->weights.insert(p->weights.end(), bytes.data,
                          bytes.data + bytes.size);
        bytes.Release();
        break;
      }
      case Value::Kind::kOpOutput:
        if (v.output_slot >= 0) {
          t.location = TensorLocation::kOutput;
          t.offset = static_cast<uint64_t>(v.output_slot);
        } else {
          t.location = TensorLocation::kArena;  // offset planned later
        }
        break;
    }
    v.tensor = static_cast<int>(p->tensors.size());
    p->tensors.push_back(std::move(t));
    return v.tensor;
  }

  IoInfo MakeIo(const std::string& name, int tensor, const Program& p) const {
    IoInfo io;
    io.name = name;
    io.tensor = static_cast<uint32_t>(tensor);
    io.dtype = p.tensors[tensor].dtype;
    io.shape = p.tensors[tensor].shape;
    io.format = FormatFor(io.shape);
    return io;
  }

  std::string Emit(Program* p) {
    *p = Program();
    p->soc_version = options_.soc_version;
    p->producer = kProducer;
    for (const std::string& name : input_names_) {
      p->inputs.push_back(MakeIo(name, TensorFor(name, p), *p));
    }

    std::vector<PlannedBuffer> buffers;
    std::vector<int> buffer_tensor;  // tensor index, or -1 - op for scratch
    for (size_t i = 0; i < ops_.size(); ++i) {
      const PendingOp& pending = ops_[i];
      OpInfo op;
      op.op_type = pending.op_type;
      op.name = pending.name;
      op.attrs = pending.attrs;
      for (const std::string& name : pending.inputs) {
        op.inputs.push_back(name.empty() ? kAbsentTensor : TensorFor(name, p));
      }
      for (const std::string& name : pending.outputs) {
        const int t = TensorFor(name, p);
        op.outputs.push_back(t);
        if (p->tensors[t].location == TensorLocation::kArena) {
          const Value& v = values_.at(name);
          PlannedBuffer b;
          b.size = ShapeBytes(v.dtype, v.shape);
          b.first_step = static_cast<int>(i);
          b.last_step = std::max(static_cast<int>(i), v.last_use);
          buffers.push_back(b);
          buffer_tensor.push_back(t);
        }
      }
      if (pending.scratch_bytes != 0) {
        PlannedBuffer b;
        b.size = pending.scratch_bytes;
        b.first_step = b.last_step = static_cast<int>(i);
        buffers.push_back(b);
        buffer_tensor.push_back(-1 - static_cast<int>(i));
        op.scratch_size = pending.scratch_bytes;
      }
      p->ops.push_back(std::move(op));
    }

    for (int k = 0; k < graph_.output_size(); ++k) {
      const std::string& name = graph_.output(k).name();
      p->outputs.push_back(MakeIo(name, TensorFor(name, p), *p));
    }

    // Folded constants last: the weights before them are the same at every
    // gear, theirs may differ (a gear model appends each gear's own).
    if (!folded_tensors_.empty()) {
      p->weights.resize((p->weights.size() + kOmAlignment - 1) / kOmAlignment *
                        kOmAlignment);
    }
    shared_weight_bytes_ = p->weights.size();
    for (int t : folded_tensors_) {
      const ConstBytes& c = consts_[values_.at(folded_names_.at(t)).index];
      p->weights.resize((p->weights.size() + kOmAlignment - 1) / kOmAlignment *
                        kOmAlignment);
      p->tensors[t].offset = p->weights.size();
      p->weights.insert(p->weights.end(), c.owned.begin(), c.owned.end());
    }

    p->arena_size = PlanArena(&buffers, kOmAlignment);
    for (size_t b = 0; b < buffers.size(); ++b) {
      if (buffer_tensor[b] >= 0) {
        p->tensors[buffer_tensor[b]].offset = buffers[b].offset;
      } else {
        p->ops[-1 - buffer_tensor[b]].scratch_offset = buffers[b].offset;
      }
    }
    return "";
  }

  const onnx::GraphProto& graph_;
  const int64_t opset_;
  const AtcOptions& options_;
  const ExternalData& external_;
  const PrecisionMode precision_;
  const bool fuse_;  // Conv fusions (FuseIntoConv)
  // How many nodes (and graph outputs) read each value.
  std::unordered_map<std::string, int> uses_;
  // (value, dtype) -> the name of its rounded copy (RoundedValue).
  std::map<std::pair<std::string, DType>, std::string> rounded_;
  std::unordered_map<std::string, Value> values_;
  std::vector<ConstBytes> consts_;
  std::vector<PendingFileConstant> file_constants_;
  std::vector<std::string> input_names_;
  std::vector<PendingOp> ops_;
  std::map<std::string, const onnx::TypeProto*> onnx_types_;
  std::set<std::string> graph_outputs_;
  // PadIntoQuant: AscendQuant output -> (its unpadded private value, the
  // pads its Conv readers add: k begins, k ends).
  std::map<std::string, std::pair<std::string, std::vector<int64_t>>>
      quant_pads_;
  std::vector<int> folded_tensors_;
  std::map<int, std::string> folded_names_;  // tensor -> value name
  uint64_t shared_weight_bytes_ = 0;

 public:
  // The size of the weights every gear shares: all but the folded constants.
  uint64_t shared_weight_bytes() const { return shared_weight_bytes_; }
};

}  // namespace

std::string CompileGraph(const onnx::ModelProto& model, int64_t opset,
                         const AtcOptions& options,
                         const ExternalData& external, Program* program,
                         std::vector<PendingFileConstant>* file_constants,
                         uint64_t* shared_weight_bytes) {
  GraphCompiler compiler(model, opset, options, external);
  std::string err = compiler.Compile(program, file_constants);
  if (err.empty() && shared_weight_bytes != nullptr)
    *shared_weight_bytes = compiler.shared_weight_bytes();
  return err;
}

}  // namespace atc
}  // namespace ascend_emu
