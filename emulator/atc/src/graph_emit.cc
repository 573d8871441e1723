// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// GraphCompiler (graph_compiler_impl.h): the Program: tensors, memory plan,
// inputs and outputs.
#include "graph_compiler_impl.h"

namespace ascend_emu {
namespace atc {
namespace graph {

std::string GraphCompiler::CheckOutputs() {
  for (int k = 0; k < graph_.output_size(); ++k) {
    const std::string& name = graph_.output(k).name();
    auto it = values_.find(name);
    if (it == values_.end())
      return "graph output '" + name + "' is never computed";
    if (options_.output_type == "FP32" && it->second.dtype != DType::kFloat32) {
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

aclFormat GraphCompiler::FormatFor(const Shape& shape) const {
  if (options_.input_format == "NCHW" && shape.rank == 4)
    return ACL_FORMAT_NCHW;
  if (options_.input_format == "NCDHW" && shape.rank == 5)
    return ACL_FORMAT_NCDHW;
  return ACL_FORMAT_ND;
}

int GraphCompiler::TensorFor(const std::string& name, Program* p) {
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
      p->weights.resize((p->weights.size() + kOmAlignment - 1) / kOmAlignment *
                        kOmAlignment);
      t.offset = p->weights.size();
      p->weights.insert(p->weights.end(), bytes.data, bytes.data + bytes.size);
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

IoInfo GraphCompiler::MakeIo(const std::string& name, int tensor,
                             const Program& p) const {
  IoInfo io;
  auto renamed = io_names_.find(name);
  io.name = renamed == io_names_.end() ? name : renamed->second;
  io.tensor = static_cast<uint32_t>(tensor);
  io.dtype = p.tensors[tensor].dtype;
  io.shape = p.tensors[tensor].shape;
  // CANN's AIPP makes its Data node's format NHWC (the Aipp op's InferShape).
  io.format =
      renamed == io_names_.end() ? FormatFor(io.shape) : ACL_FORMAT_NHWC;
  return io;
}

std::string GraphCompiler::Emit(Program* p) {
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

}  // namespace graph
}  // namespace atc
}  // namespace ascend_emu
