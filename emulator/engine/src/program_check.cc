// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ValidateProgram: the gate between untrusted .om bytes and the kernels.
#include "ascend_emu/program_check.h"

#include <exception>
#include <set>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ascend_emu/om_format.h"

namespace ascend_emu {
namespace {

constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 40;

// Bytes of a dtype/shape pair, or false when it is not a tensor the engine
// can hold (bad rank, negative dim, more than kMaxTensorBytes).
bool TensorBytes(DType dtype, const Shape& shape, uint64_t* bytes) {
  if (!IsValidDType(static_cast<int32_t>(dtype))) return false;
  if (shape.rank < 0 || shape.rank > kMaxRank) return false;
  uint64_t n = DTypeSize(dtype);
  for (int32_t i = 0; i < shape.rank; ++i) {
    const int64_t d = shape.dims[i];
    if (d < 0) return false;
    if (d != 0 && n > kMaxTensorBytes / static_cast<uint64_t>(d)) return false;
    n *= static_cast<uint64_t>(d);
  }
  *bytes = n;
  return true;
}

// [offset, offset + bytes) inside [0, limit), without overflow.
bool Inside(uint64_t offset, uint64_t bytes, uint64_t limit) {
  return offset <= limit && bytes <= limit - offset;
}

bool ValidSocVersion(const std::string& s) {
  if (s.empty() || s.size() > OmLimits::kMaxSocVersionBytes) return false;
  for (char c : s) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

struct Region {
  uint64_t begin;
  uint64_t end;
};

bool Overlap(const Region& a, const Region& b) {
  return a.begin < b.end && b.begin < a.end;
}

std::string TensorLabel(const Program& p, size_t index) {
  return "tensor " + std::to_string(index) + " '" + p.tensors[index].name + "'";
}

std::string CheckTensors(const Program& p, std::vector<uint64_t>* bytes,
                         uint64_t* arena_end) {
  const size_t n = p.tensors.size();
  bytes->assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const TensorInfo& t = p.tensors[i];
    uint64_t nb = 0;
    if (!TensorBytes(t.dtype, t.shape, &nb)) {
      return TensorLabel(p, i) + " has an invalid dtype or shape " +
             t.shape.ToString();
    }
    (*bytes)[i] = nb;
    switch (t.location) {
      case TensorLocation::kArena:
        if (t.offset % kOmAlignment != 0 ||
            !Inside(t.offset, nb, p.arena_size)) {
          return TensorLabel(p, i) + " lies outside the arena or is misaligned";
        }
        if (t.offset + nb > *arena_end) *arena_end = t.offset + nb;
        break;
      case TensorLocation::kWeight:
        if (t.offset % kOmAlignment != 0 ||
            !Inside(t.offset, nb, p.weights.size())) {
          return TensorLabel(p, i) +
                 " lies outside the weight section or is misaligned";
        }
        break;
      case TensorLocation::kExternal:
        if (t.file >= p.external_weights.size()) {
          return TensorLabel(p, i) + " names external weight file " +
                 std::to_string(t.file) + " of " +
                 std::to_string(p.external_weights.size());
        }
        if (t.offset % kOmAlignment != 0 ||
            !Inside(t.offset, nb, p.external_weights[t.file].size_bytes)) {
          return TensorLabel(p, i) + " lies outside weight file '" +
                 p.external_weights[t.file].name + "' or is misaligned";
        }
        break;
      case TensorLocation::kInput:
        if (t.offset >= p.inputs.size() || p.inputs[t.offset].tensor != i) {
          return TensorLabel(p, i) + " names a graph input that is not it";
        }
        break;
      case TensorLocation::kOutput:
        if (t.offset >= p.outputs.size() || p.outputs[t.offset].tensor != i) {
          return TensorLabel(p, i) + " names a graph output that is not it";
        }
        break;
      default:
        return TensorLabel(p, i) + " has an unknown location";
    }
  }
  return "";
}

std::string CheckFileList(const Program& p) {
  std::set<std::string> names;
  for (size_t i = 0; i < p.external_weights.size(); ++i) {
    const ExternalWeightDesc& file = p.external_weights[i];
    const std::string label = "external weight file " + std::to_string(i);
    if (file.name.empty()) return label + " has no name";
    if (file.name.find('/') != std::string::npos ||
        file.name.find('\0') != std::string::npos || file.name == "." ||
        file.name == "..") {
      return label + " '" + file.name + "' is not a plain file name";
    }
    if (file.size_bytes == 0 || file.size_bytes > OmLimits::kMaxWeightBytes) {
      return label + " '" + file.name + "' has size " +
             std::to_string(file.size_bytes);
    }
    if (!names.insert(file.name).second) {
      return label + " '" + file.name + "' is listed twice";
    }
  }
  return "";
}

std::string CheckIo(const Program& p, const std::vector<IoInfo>& ios,
                    const char* kind) {
  for (size_t i = 0; i < ios.size(); ++i) {
    const IoInfo& io = ios[i];
    const std::string label =
        std::string(kind) + " " + std::to_string(i) + " '" + io.name + "'";
    if (io.tensor >= p.tensors.size()) return label + " has no tensor";
    const TensorInfo& t = p.tensors[io.tensor];
    if (t.dtype != io.dtype || t.shape != io.shape) {
      return label + " does not match its tensor's dtype or shape";
    }
  }
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const TensorInfo& t = p.tensors[p.inputs[i].tensor];
    if (t.location != TensorLocation::kInput || t.offset != i) {
      return "input " + std::to_string(i) + " is not bound to its own buffer";
    }
  }
  return "";
}

std::string CheckOp(const Program& p, const uint8_t* weights,
                    const std::vector<const uint8_t*>& external, size_t index,
                    const std::vector<uint64_t>& bytes,
                    std::vector<bool>* available, uint64_t* arena_end) {
  const OpInfo& op = p.ops[index];
  const std::string label =
      "op " + std::to_string(index) + " '" + op.name + "' (" + op.op_type + ")";
  const KernelDef* kernel = FindKernel(op.op_type);
  if (kernel == nullptr) return label + ": the emulator has no kernel for it";
  const int64_t n = static_cast<int64_t>(p.tensors.size());

  std::vector<TensorRef> inputs(op.inputs.size());
  std::vector<Region> read;
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const int32_t t = op.inputs[k];
    if (t == kAbsentTensor) {
      inputs[k].shape.rank = -1;
      continue;
    }
    if (t < 0 || t >= n) return label + ": input index out of range";
    if (!(*available)[t]) {
      return label + ": reads " + TensorLabel(p, t) + " before it is written";
    }
    const TensorInfo& info = p.tensors[t];
    inputs[k].dtype = info.dtype;
    inputs[k].shape = info.shape;
    if (info.location == TensorLocation::kWeight) {
      inputs[k].data = const_cast<uint8_t*>(weights + info.offset);
    } else if (info.location == TensorLocation::kExternal) {
      inputs[k].data = const_cast<uint8_t*>(external[info.file] + info.offset);
    }
    if (info.location == TensorLocation::kArena && bytes[t] != 0) {
      read.push_back({info.offset, info.offset + bytes[t]});
    }
  }

  std::vector<TensorRef> outputs(op.outputs.size());
  InferContext ctx{op.attrs, inputs, outputs};
  std::string err;
  try {
    err = kernel->infer(ctx);
  } catch (const std::exception& e) {
    err = std::string("Infer failed: ") + e.what();
  }
  if (!err.empty()) return label + ": " + err;
  if (outputs.size() != op.outputs.size()) {
    return label + ": the kernel produces " + std::to_string(outputs.size()) +
           " outputs, the op lists " + std::to_string(op.outputs.size());
  }

  std::vector<Region> written;
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    const int32_t t = op.outputs[k];
    if (t < 0 || t >= n) return label + ": output index out of range";
    const TensorInfo& info = p.tensors[t];
    if (info.location != TensorLocation::kArena &&
        info.location != TensorLocation::kOutput) {
      return label + ": writes " + TensorLabel(p, t) +
             ", which is a graph input or a weight";
    }
    if ((*available)[t]) {
      return label + ": writes " + TensorLabel(p, t) + " a second time";
    }
    if (outputs[k].dtype != info.dtype || outputs[k].shape != info.shape) {
      return label + ": output " + std::to_string(k) + " is " +
             DTypeName(outputs[k].dtype) + " " + outputs[k].shape.ToString() +
             " by its kernel but " + DTypeName(info.dtype) + " " +
             info.shape.ToString() + " in the .om";
    }
    if (info.location == TensorLocation::kArena && bytes[t] != 0) {
      written.push_back({info.offset, info.offset + bytes[t]});
    }
  }

  if (ctx.scratch_bytes > op.scratch_size) {
    return label + ": the kernel needs " + std::to_string(ctx.scratch_bytes) +
           " scratch bytes, the .om reserves " +
           std::to_string(op.scratch_size);
  }
  if (op.scratch_size != 0) {
    if (op.scratch_offset % kOmAlignment != 0 ||
        !Inside(op.scratch_offset, op.scratch_size, p.arena_size)) {
      return label + ": scratch lies outside the arena or is misaligned";
    }
    const uint64_t end = op.scratch_offset + op.scratch_size;
    if (end > *arena_end) *arena_end = end;
    read.push_back({op.scratch_offset, end});
  }

  // A kernel may assume its outputs alias nothing it reads or writes.
  for (size_t a = 0; a < written.size(); ++a) {
    for (size_t b = a + 1; b < written.size(); ++b) {
      if (Overlap(written[a], written[b])) return label + ": outputs overlap";
    }
    for (const Region& r : read) {
      if (Overlap(written[a], r)) {
        return label + ": an output overlaps an input or the scratch";
      }
    }
  }
  for (int32_t t : op.outputs) (*available)[t] = true;
  return "";
}

}  // namespace

std::string CheckExternalWeightFiles(const Program& p) {
  return CheckFileList(p);
}

std::string ValidateProgram(const Program& p, const uint8_t* weights,
                            const std::vector<const uint8_t*>& external) {
  if (!ValidSocVersion(p.soc_version)) {
    return "invalid soc_version '" + p.soc_version + "'";
  }
  if (p.arena_size > OmLimits::kMaxArenaBytes) return "arena too large";
  if (external.size() != p.external_weights.size()) {
    return "the program reads " + std::to_string(p.external_weights.size()) +
           " external weight files, " + std::to_string(external.size()) +
           " are bound";
  }
  std::vector<uint64_t> bytes;
  uint64_t arena_end = 0;
  std::string err = CheckFileList(p);
  if (err.empty()) err = CheckTensors(p, &bytes, &arena_end);
  if (err.empty()) err = CheckIo(p, p.inputs, "input");
  if (err.empty()) err = CheckIo(p, p.outputs, "output");
  if (!err.empty()) return err;

  std::vector<bool> available(p.tensors.size(), false);
  for (size_t i = 0; i < p.tensors.size(); ++i) {
    const TensorLocation loc = p.tensors[i].location;
    available[i] = loc == TensorLocation::kInput ||
                   loc == TensorLocation::kWeight ||
                   loc == TensorLocation::kExternal;
  }
  for (size_t i = 0; i < p.ops.size(); ++i) {
    err = CheckOp(p, weights, external, i, bytes, &available, &arena_end);
    if (!err.empty()) return err;
  }
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    if (!available[p.outputs[i].tensor]) {
      return "output " + std::to_string(i) + " '" + p.outputs[i].name +
             "' is never written";
    }
  }
  // The plan's high-water mark, rounded to the alignment, is the arena: a
  // larger recorded size would only make the loader allocate for nothing.
  const uint64_t needed =
      (arena_end + kOmAlignment - 1) / kOmAlignment * kOmAlignment;
  if (p.arena_size > needed) {
    return "arena size " + std::to_string(p.arena_size) +
           " exceeds what the plan uses (" + std::to_string(needed) + ")";
  }
  return "";
}

}  // namespace ascend_emu
