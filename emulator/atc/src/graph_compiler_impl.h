// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The GraphCompiler behind CompileGraph (graph_compiler.h), shared by the
// files that define its parts: graph_compiler.cc (the walk over the nodes),
// one file per fusion (fuse_*.cc, docs/atc.md "Fusions"), graph_precision.cc,
// graph_fold.cc and graph_emit.cc. Private to atc.
#pragma once

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
#include "graph_compiler.h"
#include "memory_planner.h"
#include "onnx_loader.h"
#include "onnx_tensor.h"
#include "precision_mode.h"
#include "soc_dtypes.h"
#include "weight_files.h"

namespace ascend_emu {
namespace atc {
namespace graph {

// What the compiler tracks per value, constant and op, and the helpers
// every part uses (defined in graph_compiler.cc).

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

std::string JoinOpTypes();

std::string ConvertAttributes(const onnx::NodeProto& node, Attributes* attrs);

// Makes opset-dependent defaults explicit, so a kernel (which implements the
// newest semantics) computes what the model's opset means.
std::string ResolveOpsetSemantics(const std::string& op_type, int64_t opset,
                                  const std::vector<TensorRef>& inputs,
                                  Attributes* attrs);

std::string Describe(DType dtype, const Shape& shape);

// A fused op's activation attributes: `activation` = name, and for Clip
// `activation_params` = [min, max] (FusedConv's and FusedConvDequant's).
void SetActivation(Attributes* attrs, const char* name,
                   const float* bounds = nullptr);

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

  // ---- graph_compiler.cc: the walk over the nodes, constants and inputs, and
  // CommitMerged (every fusion ends there).
  std::string Compile(Program* program,
                      std::vector<PendingFileConstant>* file_constants);

 private:
  std::string AddInitializers();
  std::string AddExternalConst(const onnx::TensorProto& t,
                               const ByteView& view);
  std::string AddConst(const onnx::TensorProto& t, const std::string& name);
  std::string AddInputs();
  std::string AddAipp(const AippOp& aipp, std::vector<std::string>* aipp_data);
  void CollectOnnxTypes();
  std::string AddConstantNode(const onnx::NodeProto& node,
                              const std::string& label);
  std::string AddNode(const onnx::NodeProto& node, int index);
  std::string CommitMerged(PendingOp fused_op, const onnx::NodeProto& node,
                           int index, bool* fused);
  static bool FusionsOn(const AtcOptions& options);

  // ---- fuse_conv.cc: BatchNorm, bias, Add and activations into a float Conv.
  std::string FuseIntoConv(const onnx::NodeProto& node, int index, bool* fused);
  bool PerChannel(const Value& c, const Shape& y, std::vector<float>* values);
  bool FoldIntoWeights(bool mul, const std::vector<float>& s, PendingOp* op);
  static Value PerChannelConst(int64_t m);
  void AddComputedConst(const Value& like, const std::string& name,
                        std::vector<uint8_t> bytes);
  bool ClipBounds(const onnx::NodeProto& node, float bounds[2]);

  // ---- fuse_swish.cc: Sigmoid and Mul into Swish.
  std::string SigmoidMulIntoSwish(const onnx::NodeProto& node, int index,
                                  bool* fused);

  // ---- fuse_int8_dequant.cc: CANN's int8 chains into FusedConvDequant
  // and FusedMatMulInt8.
  std::string FuseIntoInt8Conv(const onnx::NodeProto& node, int index,
                               bool* fused);
  std::string FuseIntoInt8MatMul(const onnx::NodeProto& node, int index,
                                 bool* fused);
  bool MergeAfterDequant(const onnx::NodeProto& node, Attributes* attrs);

  // ---- fuse_pad.cc: a Pad into the Conv after it, also through an
  // AscendQuant.
  bool PadIntoConv(const onnx::NodeProto& node, int index,
                   onnx::NodeProto* merged);
  bool ZeroSpatialPad(const PendingOp& pad, DType dtype, int32_t rank,
                      std::vector<int64_t>* spatial) const;
  static bool OnlySpatialPads(const std::vector<int64_t>& pads, int32_t rank);
  static std::vector<int64_t> SpatialPads(const std::vector<int64_t>& pads,
                                          int32_t rank);
  static bool AddConvPads(const std::vector<int64_t>& extra,
                          onnx::NodeProto* conv);
  bool PadIntoQuant(const onnx::NodeProto& node, int index,
                    onnx::NodeProto* merged);
  static bool QuantOfZero(const Attributes& attrs, DType dtype, int8_t* out);
  bool QuantPadIntoConv(const onnx::NodeProto& node, onnx::NodeProto* merged);

  // ---- graph_precision.cc: the precision mode and the chip: per-op dtypes,
  // refusals, rounding Casts.
  OpPrecision DecideOpPrecision(const onnx::NodeProto& node) const;
  bool FirstInputDType(const onnx::NodeProto& node, DType* dtype) const;
  bool InputDType(const onnx::NodeProto& node, int k, DType* dtype) const;
  static bool IsInt8MatrixOp(const std::string& op);
  std::string CheckOpOnSoc(const onnx::NodeProto& node) const;
  std::string SetOffsetX(const onnx::NodeProto& node, Attributes* attrs) const;
  std::string CheckOpDtypeOnSoc(const onnx::NodeProto& node) const;
  void AddRoundingCasts(const std::string& from, DType low,
                        const std::string& to);
  void AddCast(const std::string& from, DType dtype, const std::string& to);
  std::string RoundedValue(const std::string& source, DType low,
                           std::string* name);

  // ---- graph_fold.cc: constant folding and the cross-check with ONNX shape
  // inference.
  bool Foldable(const onnx::NodeProto& node, const PendingOp& op,
                const std::vector<TensorRef>& inputs,
                const std::vector<TensorRef>& outputs) const;
  std::string Fold(const onnx::NodeProto& node, const std::string& label,
                   const KernelDef& kernel, const PendingOp& op,
                   const std::vector<TensorRef>& inputs,
                   std::vector<TensorRef>* outputs, size_t scratch_bytes);
  std::string CrossCheck(const std::string& name, const TensorRef& inferred);

  // ---- graph_emit.cc: the Program: tensors, memory plan, inputs and outputs.
  std::string CheckOutputs();
  aclFormat FormatFor(const Shape& shape) const;
  int TensorFor(const std::string& name, Program* p);
  IoInfo MakeIo(const std::string& name, int tensor, const Program& p) const;
  std::string Emit(Program* p);

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
  // Graph input value -> the name its I/O carries, when they differ (an
  // AIPP frame carries its model input's name).
  std::map<std::string, std::string> io_names_;
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

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
