// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ONNX graph -> Program. Shapes come from the emulator's kernels (the same
// Infer that Model::Load re-runs), cross-checked against ONNX's own shape
// inference wherever that produced a static shape.
#include "graph_compiler.h"

#include "ascend_emu/aipp_params.h"
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

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

void SetActivation(Attributes* attrs, const char* name, const float* bounds) {
  Attribute a;
  a.kind = Attribute::Kind::kString;
  a.s = name;
  attrs->map()["activation"] = a;
  if (bounds == nullptr) return;
  Attribute params;
  params.kind = Attribute::Kind::kFloats;
  params.floats.assign(bounds, bounds + 2);
  attrs->map()["activation_params"] = params;
}

std::string GraphCompiler::Compile(
    Program* program, std::vector<PendingFileConstant>* file_constants) {
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

std::string GraphCompiler::AddInitializers() {
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
std::string GraphCompiler::AddExternalConst(const onnx::TensorProto& t,
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
  if (reinterpret_cast<uintptr_t>(view.data) % alignof(std::max_align_t) != 0 &&
      view.size <= kInlineForOnnxChecksBytes) {
    c.owned.assign(view.data, view.data + view.size);
  }
  values_[t.name()] = v;
  return "";
}

std::string GraphCompiler::AddConst(const onnx::TensorProto& t,
                                    const std::string& name) {
  Value v;
  v.kind = Value::Kind::kConst;
  v.index = static_cast<int>(consts_.size());
  consts_.emplace_back();
  std::string err = DecodeTensor(t, &v.dtype, &v.shape, &consts_.back().owned);
  if (!err.empty()) return err;
  values_[name] = v;
  return "";
}

std::string GraphCompiler::AddInputs() {
  for (const onnx::ValueInfoProto& in : graph_.input()) {
    // An input with an initializer of the same name is a constant (the
    // IR < 4 convention); CANN's parser treats it the same way.
    if (values_.count(in.name())) continue;
    Value v;
    v.kind = Value::Kind::kInput;
    v.index = static_cast<int>(input_names_.size());
    if (!StaticTensorType(in.type(), &v.dtype, &v.shape)) {
      const int32_t elem =
          in.type().has_tensor_type() ? in.type().tensor_type().elem_type() : 0;
      return "input '" + in.name() + "' has dtype " + OnnxTypeName(elem) +
             " or a shape the emulator does not support";
    }
    values_[in.name()] = v;
    input_names_.push_back(in.name());
  }
  if (options_.aipp.empty()) return "";
  std::string err = CheckAippConfig(options_.aipp, input_names_.size());
  if (!err.empty()) return "--insert_op_conf: " + err;
  std::vector<std::string> aipp_data;
  for (const AippOp& aipp : options_.aipp) {
    if (IsDynamicAipp(aipp) && options_.gear_type != DynamicType::kStatic)
      return "--insert_op_conf: dynamic AIPP with shape gears "
             "(--dynamic_batch_size, --dynamic_dims) is not emulated";
    err = AddAipp(aipp, &aipp_data);
    if (!err.empty()) return "--insert_op_conf: " + err;
  }
  // Dynamic AIPP's parameter inputs come after every Data node (ge
  // graph_manager.cc ModifyAippData numbers the AippData nodes last).
  for (const std::string& name : aipp_data) {
    values_.at(name).index = static_cast<int>(input_names_.size());
    input_names_.push_back(name);
  }
  return "";
}

// CANN's AIPP insertion (ge aipp_op.cc, insert_aipp_op_util.cc): the Data
// node keeps its name and becomes the uint8 frame (NHWC), and an Aipp op
// between it and its readers computes the model input the ONNX graph
// declared. Here the frame is a graph input of its own whose I/O carries the
// ONNX input's name, and the Aipp op writes the ONNX input's value.
//
// Dynamic AIPP (aipp_op.cc CreateAippData, AddNodeToGraph): the frame is
// uint8 [1, max_src_image_size] and a new input, the AippData node
// "ascend_dynamic_aipp_data" (the first; later ones get
// "_<data>_0_aipp", the Aipp node's name, appended), uint8 [64 + 96 * N],
// is the Aipp op's second input; its name goes to *aipp_data, and the
// caller makes it a graph input after every other.
std::string GraphCompiler::AddAipp(const AippOp& aipp,
                                   std::vector<std::string>* aipp_data) {
  const std::string name = input_names_.at(AippInputRank(aipp));
  Value& model_input = values_.at(name);
  PendingOp op;
  op.op_type = "Aipp";
  op.name = "aipp:" + name;
  Shape frame, data;
  const bool dynamic = IsDynamicAipp(aipp);
  std::string err =
      dynamic ? ResolveDynamicAipp(aipp, model_input.dtype, model_input.shape,
                                   &op.attrs, &frame, &data)
              : ResolveAipp(aipp, model_input.dtype, model_input.shape,
                            &op.attrs, &frame);
  if (!err.empty()) return "input '" + name + "': " + err;
  std::string data_name;
  if (dynamic) {
    data_name = aipp_data->empty()
                    ? std::string(aipp::kDataName)
                    : std::string(aipp::kDataName) + "_" + name + "_0_aipp";
    if (values_.count(data_name))
      return "input '" + name + "': the model already has a value named '" +
             data_name + "'";
    Value d;
    d.kind = Value::Kind::kInput;
    d.dtype = DType::kUInt8;
    d.shape = data;
    values_[data_name] = d;
    aipp_data->push_back(data_name);
  }
  const std::string frame_name = "\x01" + name + ":aipp_frame";
  Value f;
  f.kind = Value::Kind::kInput;
  f.index = model_input.index;
  f.dtype = DType::kUInt8;
  f.shape = frame;
  values_[frame_name] = f;
  input_names_[model_input.index] = frame_name;
  io_names_[frame_name] = name;

  std::vector<TensorRef> inputs(dynamic ? 2 : 1), outputs(1);
  inputs[0].dtype = f.dtype;
  inputs[0].shape = f.shape;
  if (dynamic) {
    inputs[1].dtype = DType::kUInt8;
    inputs[1].shape = data;
  }
  InferContext ctx{op.attrs, inputs, outputs};
  err = FindKernel("Aipp")->infer(ctx);
  if (err.empty() &&
      (outputs.size() != 1 || outputs[0].dtype != model_input.dtype ||
       outputs[0].shape != model_input.shape)) {
    err = "the Aipp step gives " +
          Describe(outputs[0].dtype, outputs[0].shape) +
          ", not the model input's " +
          Describe(model_input.dtype, model_input.shape);
  }
  if (!err.empty()) return "input '" + name + "': " + err;
  const int op_index = static_cast<int>(ops_.size());
  values_.at(frame_name).last_use = op_index;
  model_input.kind = Value::Kind::kOpOutput;
  model_input.index = op_index;
  op.inputs.push_back(frame_name);
  if (dynamic) {
    values_.at(data_name).last_use = op_index;
    op.inputs.push_back(data_name);
  }
  op.outputs.push_back(name);
  op.scratch_bytes = ctx.scratch_bytes;
  ops_.push_back(std::move(op));
  return "";
}

void GraphCompiler::CollectOnnxTypes() {
  for (const auto& n : graph_.node()) {
    for (const std::string& name : n.input()) ++uses_[name];
  }
  for (const auto& vi : graph_.output()) ++uses_[vi.name()];
  for (const auto& vi : graph_.output()) graph_outputs_.insert(vi.name());
  for (const auto& vi : graph_.value_info())
    onnx_types_[vi.name()] = &vi.type();
  for (const auto& vi : graph_.output()) onnx_types_[vi.name()] = &vi.type();
}

std::string GraphCompiler::AddConstantNode(const onnx::NodeProto& node,
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

std::string GraphCompiler::AddNode(const onnx::NodeProto& node, int index) {
  const std::string label = NodeLabel(node, index);
  if (node.op_type() == "Constant") return AddConstantNode(node, label);

  if (fuse_) {
    bool fused = false;
    std::string err = FuseIntoConv(node, index, &fused);
    if (err.empty() && !fused) err = SigmoidMulIntoSwish(node, index, &fused);
    if (err.empty() && !fused) err = FuseIntoInt8Conv(node, index, &fused);
    if (err.empty() && !fused) err = FuseIntoInt8MatMul(node, index, &fused);
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
    return Fold(node, label, *kernel, op, inputs, &outputs, ctx.scratch_bytes);
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
        IsRoundedOutput(node.op_type(), static_cast<int>(k)) &&
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

// The merge both Conv fusions end with: the merged op's kernel Infer (as
// for any other op; a refusal leaves the node unmerged), then it replaces
// ops_.back() and its output replaces the last op's. The merged value
// holds what the kernel writes, never rounded by the precision mode (the
// fusions merge nothing that is).
std::string GraphCompiler::CommitMerged(PendingOp fused_op,
                                        const onnx::NodeProto& node, int index,
                                        bool* fused) {
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

// The emulator's fusions are on unless --fusion_switch_file switches any
// pass off: its passes are not CANN's, so "off" anywhere turns them all
// off (CANN's file: {"Switch": {"GraphFusion": {"ALL": "off"}, ...}}).
bool GraphCompiler::FusionsOn(const AtcOptions& options) {
  for (const auto& kv : options.no_effect) {
    if (kv.first != "fusion_switch_file") continue;
    std::ifstream in(kv.second);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str().find("\"off\"") != std::string::npos) return false;
  }
  return true;
}

}  // namespace graph

std::string CompileGraph(const onnx::ModelProto& model, int64_t opset,
                         const AtcOptions& options,
                         const ExternalData& external, Program* program,
                         std::vector<PendingFileConstant>* file_constants,
                         uint64_t* shared_weight_bytes) {
  graph::GraphCompiler compiler(model, opset, options, external);
  std::string err = compiler.Compile(program, file_constants);
  if (err.empty() && shared_weight_bytes != nullptr)
    *shared_weight_bytes = compiler.shared_weight_bytes();
  return err;
}

}  // namespace atc
}  // namespace ascend_emu
