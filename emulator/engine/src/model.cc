// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Model: a validated Program bound to memory, run as a flat loop of steps.
//
// Everything a run needs (weights, the default arena, the TensorRefs each
// kernel sees, the per-tensor pointer table) is allocated at Load; Run only
// fills pointers and calls kernels, so it never touches the heap.
#include "ascend_emu/model.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "aligned_buffer.h"
#include "ascend_emu/kernel.h"
#include "ascend_emu/om_format.h"
#include "ascend_emu/program_check.h"
#include "model_weights.h"

namespace ascend_emu {
namespace {

// A run asked for a gear the model does not have (`gears` of them; 0: a
// static model). Out of line: the run entries stay a compare and a jump.
[[gnu::noinline, gnu::cold]] bool NoSuchGear(size_t gear, size_t gears,
                                             std::string* error) {
  *error = "Run: gear " + std::to_string(gear) +
           (gears == 0 ? std::string(" of a static model")
                       : " of " + std::to_string(gears));
  return false;
}

class LoadedModel final : public Model {
 public:
  // Copies the weight section into device memory (weights_), validates
  // `program` against it and the bound external weight files, then prepares
  // the run.
  bool Init(Program program, const OmWeightSection& section,
            const WeightBindings& bindings, const WeightMemory& memory,
            std::string* error);
  // After validation: runs `program` (one gear of a gear model, or a static
  // model) reading `weights` and `external` (shared, already bound). With
  // own_arena false, Run needs `work`.
  bool Prepare(Program program, std::shared_ptr<WeightStore> weights,
               std::vector<const uint8_t*> external, bool own_arena,
               std::string* error);

  size_t work_size() const override {
    // Slack so caller memory of any alignment can be aligned inside.
    return arena_size_ == 0 ? 0 : arena_size_ + kOmAlignment;
  }
  size_t weight_size() const override { return weights_->size; }
  const uint8_t* weight_data() const override { return weights_->data; }
  const std::string& soc_version() const override {
    return program_.soc_version;
  }
  const std::vector<IoDesc>& inputs() const override { return input_descs_; }
  const std::vector<IoDesc>& outputs() const override { return output_descs_; }
  const std::vector<ExternalWeightDesc>& external_weights() const override {
    return program_.external_weights;
  }
  const GearTable& gear_table() const override { return program_.gear_table; }
  size_t num_gears() const override { return 0; }
  const std::vector<IoDesc>& gear_inputs(size_t) const override {
    return input_descs_;
  }
  const std::vector<IoDesc>& gear_outputs(size_t) const override {
    return output_descs_;
  }

  bool Run(const void* const* inputs, void* const* outputs, void* work,
           std::string* error) override {
    return RunTimed(inputs, outputs, work, nullptr, error);
  }
  bool RunGearTimed(size_t gear, const void* const* inputs,
                    void* const* outputs, void* work, OpTiming* timings,
                    std::string* error) override {
    if (gear != 0) return NoSuchGear(gear, 0, error);
    return RunTimed(inputs, outputs, work, timings, error);
  }
  // The run itself; `timings`, when given, gets one entry per step.
  bool RunTimed(const void* const* inputs, void* const* outputs, void* work,
                OpTiming* timings, std::string* error);

  size_t num_ops(size_t) const override { return program_.ops.size(); }
  const std::string& op_name(size_t, size_t index) const override {
    return program_.ops.at(index).name;
  }
  const std::string& op_type(size_t, size_t index) const override {
    return program_.ops.at(index).op_type;
  }

 private:
  struct Step {
    const KernelDef* kernel;
    const Attributes* attrs;
    size_t first_input;  // into refs_
    size_t num_inputs;
    size_t first_output;
    size_t num_outputs;
    uint64_t scratch_offset;
    uint64_t scratch_size;
    const PreparedOp* prepared;  // owned by prepared_, or null
  };
  // A graph output whose tensor is not written straight into its buffer
  // (a graph input, a weight, or another output's tensor): copied last.
  struct OutputCopy {
    size_t output;
    size_t tensor;
  };

  bool BindTensors(const void* const* inputs, void* const* outputs,
                   uint8_t* arena, std::string* error);
  // Runs the step's PrepareFn with the op's weights at their final address
  // (the only inputs whose data it sees) and keeps what it made.
  PreparedOp* PrepareStep(const Step& s, const OpInfo& op);
  // The layout agreement between prepared ops (kernel.h, PreparedOp), over
  // every activation; `prepared[i]` is step i's PreparedOp or null.
  void AgreeLayouts(const std::vector<PreparedOp*>& prepared);

  // Points external_[i] at the memory bound to external weight file i.
  Program program_;  // program_.weights is empty: the bytes are in weights_
  std::shared_ptr<WeightStore> weights_;
  std::vector<const uint8_t*> external_;  // bound memory, read in place
  AlignedBuffer own_arena_;
  size_t arena_size_ = 0;
  std::vector<IoDesc> input_descs_;
  std::vector<IoDesc> output_descs_;
  std::vector<size_t> tensor_bytes_;
  std::vector<uint8_t*> tensor_data_;  // rebound on every run
  std::vector<Step> steps_;
  std::vector<TensorRef> refs_;
  std::vector<int32_t> ref_tensor_;  // tensor behind refs_[i], or absent
  std::vector<OutputCopy> copies_;
  // What each kernel's PrepareFn made at load (kernel.h), read by Run.
  std::vector<std::unique_ptr<PreparedOp>> prepared_;
};

IoDesc MakeDesc(const IoInfo& io) {
  IoDesc d;
  d.name = io.name;
  d.dtype = io.dtype;
  d.format = io.format;
  d.shape = io.shape;
  d.size_bytes = ShapeBytes(io.dtype, io.shape);
  return d;
}

// insert_op.proto's InputFormat YUV420SP_U8 (the Aipp op's input_format),
// and AippMode dynamic.
constexpr int64_t kAippYuv420sp = 1;
constexpr int64_t kAippDynamic = 2;

// The graph input that is tensor `tensor`, or descs.size().
size_t InputOfTensor(const Program& program, int32_t tensor) {
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    if (static_cast<int32_t>(program.inputs[i].tensor) == tensor) return i;
  }
  return program.inputs.size();
}

// Each Aipp step's inputs (IoDesc::aipp). A YUV420SP_U8 static AIPP frame
// [N, H*3/2, W, 1] is described as CANN describes its Data node,
// [N, H, W, 3] (IoDesc::described).
void DescribeAipp(const Program& program, std::vector<IoDesc>* descs) {
  for (const OpInfo& op : program.ops) {
    if (op.op_type != "Aipp" || op.inputs.empty()) continue;
    const size_t frame_index = InputOfTensor(program, op.inputs[0]);
    if (frame_index >= descs->size()) continue;
    IoDesc& frame_desc = (*descs)[frame_index];
    if (op.attrs.GetInt("aipp_mode", 1) == kAippDynamic) {
      const size_t data_index = op.inputs.size() > 1
                                    ? InputOfTensor(program, op.inputs[1])
                                    : descs->size();
      if (data_index >= descs->size() || op.outputs.empty() ||
          op.outputs[0] < 0 ||
          static_cast<size_t>(op.outputs[0]) >= program.tensors.size())
        continue;
      IoDesc& data_desc = (*descs)[data_index];
      frame_desc.aipp = IoDesc::Aipp::kDynamicFrame;
      frame_desc.aipp_link = data_index;
      frame_desc.aipp_output =
          program.tensors[static_cast<size_t>(op.outputs[0])].shape;
      data_desc.aipp = IoDesc::Aipp::kDynamicData;
      data_desc.aipp_link = frame_index;
      data_desc.aipp_output = frame_desc.aipp_output;
      continue;
    }
    frame_desc.aipp = IoDesc::Aipp::kStatic;
    const Shape& frame = frame_desc.shape;
    if (op.attrs.GetInt("input_format", 0) != kAippYuv420sp || frame.rank != 4)
      continue;
    Shape& described = frame_desc.described;
    described.rank = 4;
    described.dims[0] = frame.dims[0];
    described.dims[1] = frame.dims[1] * 2 / 3;
    described.dims[2] = frame.dims[2];
    described.dims[3] = 3;
  }
}

bool LoadedModel::Init(Program program, const OmWeightSection& section,
                       const WeightBindings& bindings,
                       const WeightMemory& memory, std::string* error) {
  std::shared_ptr<WeightStore> weights;
  std::vector<const uint8_t*> external;
  if (!PrepareWeights(program, section, bindings, memory, &weights, &external,
                      error)) {
    return false;
  }
  std::string err =
      ValidateProgram(program, weights->data, weights->size, external);
  if (!err.empty()) {
    *error = "invalid .om: " + err;
    return false;
  }
  return Prepare(std::move(program), std::move(weights), std::move(external),
                 /*own_arena=*/true, error);
}

bool LoadedModel::Prepare(Program program, std::shared_ptr<WeightStore> weights,
                          std::vector<const uint8_t*> external, bool own_arena,
                          std::string* error) {
  program_ = std::move(program);
  weights_ = std::move(weights);
  external_ = std::move(external);
  arena_size_ = static_cast<size_t>(program_.arena_size);
  if (own_arena && !own_arena_.Allocate(arena_size_)) {
    *error = "out of memory for a " + std::to_string(arena_size_) +
             "-byte work arena";
    return false;
  }

  for (const IoInfo& io : program_.inputs) input_descs_.push_back(MakeDesc(io));
  DescribeAipp(program_, &input_descs_);
  for (const IoInfo& io : program_.outputs)
    output_descs_.push_back(MakeDesc(io));

  const size_t n = program_.tensors.size();
  tensor_bytes_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const TensorInfo& t = program_.tensors[i];
    tensor_bytes_[i] = ShapeBytes(t.dtype, t.shape);
  }
  tensor_data_.assign(n, nullptr);

  std::vector<PreparedOp*> step_prepared;
  for (const OpInfo& op : program_.ops) {
    Step s;
    s.kernel = FindKernel(op.op_type);
    s.attrs = &op.attrs;
    s.first_input = refs_.size();
    s.num_inputs = op.inputs.size();
    for (int32_t t : op.inputs) {
      TensorRef ref;
      if (t == kAbsentTensor) {
        ref.shape.rank = -1;
      } else {
        ref.dtype = program_.tensors[t].dtype;
        ref.shape = program_.tensors[t].shape;
      }
      refs_.push_back(ref);
      ref_tensor_.push_back(t);
    }
    s.first_output = refs_.size();
    s.num_outputs = op.outputs.size();
    for (int32_t t : op.outputs) {
      TensorRef ref;
      ref.dtype = program_.tensors[t].dtype;
      ref.shape = program_.tensors[t].shape;
      refs_.push_back(ref);
      ref_tensor_.push_back(t);
    }
    s.scratch_offset = op.scratch_offset;
    s.scratch_size = op.scratch_size;
    s.prepared = nullptr;
    PreparedOp* made = nullptr;
    if (s.kernel->prepare != nullptr) made = PrepareStep(s, op);
    s.prepared = made;
    steps_.push_back(s);
    step_prepared.push_back(made);
  }
  AgreeLayouts(step_prepared);

  for (size_t i = 0; i < program_.outputs.size(); ++i) {
    const size_t t = program_.outputs[i].tensor;
    const TensorInfo& info = program_.tensors[t];
    if (info.location != TensorLocation::kOutput || info.offset != i) {
      copies_.push_back({i, t});
    }
  }
  return true;
}

void LoadedModel::AgreeLayouts(const std::vector<PreparedOp*>& prepared) {
  const size_t n = program_.tensors.size();
  // Who reads each tensor: (step, input index).
  std::vector<std::vector<std::pair<size_t, size_t>>> readers(n);
  for (size_t i = 0; i < steps_.size(); ++i) {
    for (size_t k = 0; k < steps_[i].num_inputs; ++k) {
      const int32_t t = ref_tensor_[steps_[i].first_input + k];
      if (t != kAbsentTensor) readers[t].push_back({i, k});
    }
  }
  std::vector<bool> graph_output(n, false);
  for (const IoInfo& io : program_.outputs) graph_output[io.tensor] = true;
  for (size_t i = 0; i < steps_.size(); ++i) {
    if (prepared[i] == nullptr) continue;
    for (size_t j = 0; j < steps_[i].num_outputs; ++j) {
      const int32_t t = ref_tensor_[steps_[i].first_output + j];
      // Only the arena's activations: what the caller or a weight holds
      // stays in the .om's layout.
      if (program_.tensors[t].location != TensorLocation::kArena ||
          graph_output[t] || readers[t].empty()) {
        continue;
      }
      const TensorLayout layout = prepared[i]->PreferredOutputLayout(j);
      if (layout == TensorLayout::kPlain) continue;
      bool all = true;
      for (const auto& [step, input] : readers[t]) {
        all = all && prepared[step] != nullptr &&
              prepared[step]->CanReadInput(input, layout);
      }
      if (!all) continue;
      prepared[i]->UseOutputLayout(j, layout);
      for (const auto& [step, input] : readers[t]) {
        prepared[step]->UseInputLayout(input, layout);
      }
    }
  }
}

PreparedOp* LoadedModel::PrepareStep(const Step& s, const OpInfo& op) {
  std::vector<TensorRef> inputs(refs_.begin() + s.first_input,
                                refs_.begin() + s.first_input + s.num_inputs);
  for (size_t k = 0; k < inputs.size(); ++k) {
    const int32_t t = op.inputs[k];
    if (t == kAbsentTensor) continue;
    const TensorInfo& info = program_.tensors[t];
    if (info.location == TensorLocation::kWeight) {
      inputs[k].data = weights_->data + info.offset;
    } else if (info.location == TensorLocation::kExternal) {
      inputs[k].data = const_cast<uint8_t*>(external_[info.file]) + info.offset;
    }
  }
  const std::vector<TensorRef> outputs(
      refs_.begin() + s.first_output,
      refs_.begin() + s.first_output + s.num_outputs);
  const PrepareContext ctx{op.attrs, inputs, outputs};
  std::unique_ptr<PreparedOp> made;
  try {
    made = s.kernel->prepare(ctx);
  } catch (const std::exception&) {
    // Preparing is an optimisation: Run without it is still correct.
    return nullptr;
  }
  if (made == nullptr) return nullptr;
  prepared_.push_back(std::move(made));
  return prepared_.back().get();
}

bool LoadedModel::BindTensors(const void* const* inputs, void* const* outputs,
                              uint8_t* arena, std::string* error) {
  for (size_t i = 0; i < input_descs_.size(); ++i) {
    if (inputs[i] == nullptr && input_descs_[i].size_bytes != 0) {
      *error = "Run: input " + std::to_string(i) + " is null";
      return false;
    }
  }
  for (size_t i = 0; i < output_descs_.size(); ++i) {
    if (outputs[i] == nullptr && output_descs_[i].size_bytes != 0) {
      *error = "Run: output " + std::to_string(i) + " is null";
      return false;
    }
  }
  for (size_t i = 0; i < program_.tensors.size(); ++i) {
    const TensorInfo& t = program_.tensors[i];
    uint8_t* p = nullptr;
    switch (t.location) {
      case TensorLocation::kArena:
        p = arena + t.offset;
        break;
      case TensorLocation::kWeight:
        p = weights_->data + t.offset;
        break;
      case TensorLocation::kExternal:
        // Read-only: no op writes a weight (ValidateProgram).
        p = const_cast<uint8_t*>(external_[t.file]) + t.offset;
        break;
      case TensorLocation::kInput:
        p = static_cast<uint8_t*>(const_cast<void*>(inputs[t.offset]));
        break;
      case TensorLocation::kOutput:
        p = static_cast<uint8_t*>(outputs[t.offset]);
        break;
    }
    if (p == nullptr && tensor_bytes_[i] != 0) {
      *error = "no buffer for tensor '" + t.name + "' (null input or output)";
      return false;
    }
    tensor_data_[i] = p;
  }
  return true;
}

uint64_t SteadyNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

bool LoadedModel::RunTimed(const void* const* inputs, void* const* outputs,
                           void* work, OpTiming* timings, std::string* error) {
  if ((inputs == nullptr && !input_descs_.empty()) ||
      (outputs == nullptr && !output_descs_.empty())) {
    *error = "Run: null input or output array";
    return false;
  }
  uint8_t* arena = own_arena_.data();
  if (work != nullptr && arena_size_ != 0) {
    const uintptr_t raw = reinterpret_cast<uintptr_t>(work);
    const uintptr_t aligned =
        (raw + kOmAlignment - 1) & ~uintptr_t{kOmAlignment - 1};
    arena = reinterpret_cast<uint8_t*>(aligned);
  }
  if (!BindTensors(inputs, outputs, arena, error)) return false;

  try {
    OpTiming* timing = timings;
    for (const Step& s : steps_) {
      if (timing != nullptr) timing->start_ns = SteadyNs();
      for (size_t k = 0; k < s.num_inputs + s.num_outputs; ++k) {
        const size_t r = s.first_input + k;
        refs_[r].data = ref_tensor_[r] == kAbsentTensor
                            ? nullptr
                            : tensor_data_[static_cast<size_t>(ref_tensor_[r])];
      }
      const RunContext ctx{
          *s.attrs,
          &refs_[s.first_input],
          s.num_inputs,
          s.num_outputs == 0 ? nullptr : &refs_[s.first_output],
          s.num_outputs,
          s.scratch_size == 0 ? nullptr : arena + s.scratch_offset,
          s.prepared};
      s.kernel->run(ctx);
      if (timing != nullptr) (timing++)->end_ns = SteadyNs();
    }
  } catch (const std::exception& e) {
    *error = std::string("Run: a kernel failed: ") + e.what();
    return false;
  }

  for (const OutputCopy& c : copies_) {
    const size_t n = output_descs_[c.output].size_bytes;
    if (n != 0 && outputs[c.output] != tensor_data_[c.tensor]) {
      std::memmove(outputs[c.output], tensor_data_[c.tensor], n);
    }
  }
  return true;
}

// A gear model: one LoadedModel per gear, sharing the weights, the bound
// external weights and one arena as large as the largest gear's.
class GearModel final : public Model {
 public:
  bool Init(Program program, const OmWeightSection& section,
            const WeightBindings& bindings, const WeightMemory& memory,
            std::string* error) {
    std::shared_ptr<WeightStore> weights;
    std::vector<const uint8_t*> external;
    if (!PrepareWeights(program, section, bindings, memory, &weights, &external,
                        error)) {
      return false;
    }
    std::string err =
        ValidateProgram(program, weights->data, weights->size, external);
    if (!err.empty()) {
      *error = "invalid .om: " + err;
      return false;
    }
    soc_version_ = program.soc_version;
    external_weights_ = program.external_weights;
    table_ = program.gear_table;
    for (Program& body : program.gears) {
      arena_size_ = std::max(arena_size_, static_cast<size_t>(body.arena_size));
      body.soc_version = soc_version_;
      body.external_weights = external_weights_;
      auto gear = std::make_unique<LoadedModel>();
      if (!gear->Prepare(std::move(body), weights, external,
                         /*own_arena=*/false, error)) {
        return false;
      }
      gears_.push_back(std::move(gear));
    }
    if (!own_arena_.Allocate(arena_size_)) {
      *error = "out of memory for a " + std::to_string(arena_size_) +
               "-byte work arena";
      return false;
    }
    weights_ = weights;
    Describe();
    return true;
  }

  size_t work_size() const override {
    return arena_size_ == 0 ? 0 : arena_size_ + kOmAlignment;
  }
  size_t weight_size() const override { return weights_->size; }
  const uint8_t* weight_data() const override { return weights_->data; }
  const std::string& soc_version() const override { return soc_version_; }
  const std::vector<IoDesc>& inputs() const override { return inputs_; }
  const std::vector<IoDesc>& outputs() const override { return outputs_; }
  const std::vector<ExternalWeightDesc>& external_weights() const override {
    return external_weights_;
  }
  const GearTable& gear_table() const override { return table_; }
  size_t num_gears() const override { return gears_.size(); }
  const std::vector<IoDesc>& gear_inputs(size_t gear) const override {
    return gears_.at(gear)->inputs();
  }
  const std::vector<IoDesc>& gear_outputs(size_t gear) const override {
    return gears_.at(gear)->outputs();
  }

  bool Run(const void* const* inputs, void* const* outputs, void* work,
           std::string* error) override {
    return RunGear(0, inputs, outputs, work, error);
  }
  bool RunGearTimed(size_t gear, const void* const* inputs,
                    void* const* outputs, void* work, OpTiming* timings,
                    std::string* error) override {
    if (gear >= gears_.size()) return NoSuchGear(gear, gears_.size(), error);
    if (work == nullptr) work = own_arena_.data();
    return gears_[gear]->RunTimed(inputs, outputs, work, timings, error);
  }

  size_t num_ops(size_t gear) const override {
    return gears_.at(gear)->num_ops(0);
  }
  const std::string& op_name(size_t gear, size_t index) const override {
    return gears_.at(gear)->op_name(0, index);
  }
  const std::string& op_type(size_t gear, size_t index) const override {
    return gears_.at(gear)->op_type(0, index);
  }

 private:
  // The model-level description, as ACL reports it.
  void Describe() {
    inputs_ = gears_[0]->inputs();
    for (size_t i = 0; i < inputs_.size(); ++i) {
      for (const auto& g : gears_) {
        inputs_[i].size_bytes =
            std::max(inputs_[i].size_bytes, g->inputs()[i].size_bytes);
      }
    }
    for (const auto& [input, dim] : table_.positions) {
      inputs_[input].shape.dims[dim] = -1;
    }
    outputs_ = gears_[0]->outputs();
    for (size_t i = 0; i < outputs_.size(); ++i) {
      for (const auto& g : gears_) {
        if (g->outputs()[i].size_bytes > outputs_[i].size_bytes) {
          outputs_[i] = g->outputs()[i];
        }
      }
    }
  }

  std::string soc_version_;
  std::vector<ExternalWeightDesc> external_weights_;
  GearTable table_;
  std::vector<std::unique_ptr<LoadedModel>> gears_;
  AlignedBuffer own_arena_;
  size_t arena_size_ = 0;
  std::shared_ptr<WeightStore> weights_;
  std::vector<IoDesc> inputs_;
  std::vector<IoDesc> outputs_;
};

}  // namespace

std::unique_ptr<Model> Model::Load(const void* data, size_t size,
                                   const WeightBindings& weights,
                                   const WeightMemory& memory,
                                   std::string* error) {
  std::string local;
  if (error == nullptr) error = &local;
  try {
    Program program;
    OmWeightSection section;
    if (!ReadOmTables(data, size, &program, &section, error)) return nullptr;
    return LoadParsed(std::move(program), section, weights, memory, error);
  } catch (const std::bad_alloc&) {
    *error = "out of memory while loading the .om";
  } catch (const std::exception& e) {
    *error = std::string("failed to load the .om: ") + e.what();
  }
  return nullptr;
}

std::unique_ptr<Model> Model::LoadParsed(Program program,
                                         const OmWeightSection& section,
                                         const WeightBindings& weights,
                                         const WeightMemory& memory,
                                         std::string* error) {
  std::string local;
  if (error == nullptr) error = &local;
  try {
    if (program.gear_table.type != DynamicType::kStatic ||
        !program.gears.empty()) {
      auto model = std::make_unique<GearModel>();
      if (!model->Init(std::move(program), section, weights, memory, error)) {
        return nullptr;
      }
      return model;
    }
    auto model = std::make_unique<LoadedModel>();
    if (!model->Init(std::move(program), section, weights, memory, error)) {
      return nullptr;
    }
    return model;
  } catch (const std::bad_alloc&) {
    *error = "out of memory while loading the .om";
  } catch (const std::exception& e) {
    *error = std::string("failed to load the .om: ") + e.what();
  }
  return nullptr;
}

bool Model::ReadExternalWeights(const void* data, size_t size,
                                std::vector<ExternalWeightDesc>* weights,
                                std::string* error) {
  std::string local;
  if (error == nullptr) error = &local;
  Program program;
  OmWeightSection section;
  if (!ReadOmTables(data, size, &program, &section, error)) return false;
  *weights = std::move(program.external_weights);
  return true;
}

}  // namespace ascend_emu
