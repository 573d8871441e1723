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

// `top` holds the weight section and file list, `p` the tensors (the same
// program for a static model; a gear model's gears share its top level).
std::string CheckTensors(const Program& top, uint64_t weight_size,
                         const Program& p, std::vector<uint64_t>* bytes,
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
            !Inside(t.offset, nb, weight_size)) {
          return TensorLabel(p, i) +
                 " lies outside the weight section or is misaligned";
        }
        break;
      case TensorLocation::kExternal:
        if (t.file >= top.external_weights.size()) {
          return TensorLabel(p, i) + " names external weight file " +
                 std::to_string(t.file) + " of " +
                 std::to_string(top.external_weights.size());
        }
        if (t.offset % kOmAlignment != 0 ||
            !Inside(t.offset, nb, top.external_weights[t.file].size_bytes)) {
          return TensorLabel(p, i) + " lies outside weight file '" +
                 top.external_weights[t.file].name + "' or is misaligned";
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

  // Which inputs the op may leave absent is the kernel table's rule, checked
  // here so that no Infer or Run meets an absent input it requires (a Max
  // with input 1 absent used to reach Run and dereference null).
  std::string err = CheckInputArity(*kernel, inputs);
  if (!err.empty()) return label + ": " + err;

  std::vector<TensorRef> outputs(op.outputs.size());
  InferContext ctx{op.attrs, inputs, outputs};
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

namespace {

// One program's tensors, I/O and ops (`top` holds the weights and files).
std::string ValidateBody(const Program& top, const Program& p,
                         const uint8_t* weights, uint64_t weight_size,
                         const std::vector<const uint8_t*>& external) {
  if (p.arena_size > OmLimits::kMaxArenaBytes) return "arena too large";
  std::vector<uint64_t> bytes;
  uint64_t arena_end = 0;
  std::string err = CheckTensors(top, weight_size, p, &bytes, &arena_end);
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

std::string GearLabel(const Program& p, size_t g) {
  std::string values;
  if (g < p.gear_table.values.size()) {
    for (int64_t v : p.gear_table.values[g]) {
      values += (values.empty() ? "" : ",") + std::to_string(v);
    }
  }
  return "gear " + std::to_string(g) + " (" + values + ")";
}

bool SameIo(const IoInfo& a, const IoInfo& b) {
  return a.name == b.name && a.dtype == b.dtype && a.format == b.format &&
         a.shape.rank == b.shape.rank;
}

// How the gear table fits the gear programs: every gear has the same I/O
// (names, dtypes, formats, ranks) but for the dynamic dims, which take the
// gear's values; the last input is the gear input, int32 [values per gear].
std::string CheckGearTable(const Program& p) {
  const GearTable& t = p.gear_table;
  if (t.type != DynamicType::kDynamicBatch &&
      t.type != DynamicType::kDynamicDims) {
    return "gear programs without a dynamic type";
  }
  if (t.values.size() != p.gears.size() ||
      p.gears.size() < OmLimits::kMinGears ||
      p.gears.size() > OmLimits::kMaxGears) {
    return "gear table has " + std::to_string(t.values.size()) + " gears for " +
           std::to_string(p.gears.size()) + " programs";
  }
  if (!p.inputs.empty() || !p.outputs.empty() || !p.tensors.empty() ||
      !p.ops.empty() || p.arena_size != 0) {
    return "a gear model has a program outside its gears";
  }
  const size_t per_gear = t.values_per_gear();
  if (t.positions.empty() || t.positions.size() > OmLimits::kMaxGearPositions ||
      per_gear == 0) {
    return "gear table has " + std::to_string(t.positions.size()) +
           " dynamic dims";
  }
  std::set<std::vector<int64_t>> distinct;
  for (size_t g = 0; g < t.values.size(); ++g) {
    if (t.values[g].size() != per_gear) {
      return GearLabel(p, g) + " has " + std::to_string(t.values[g].size()) +
             " values, not " + std::to_string(per_gear);
    }
    for (int64_t v : t.values[g]) {
      if (v < 1 || v > OmLimits::kMaxGearValue) {
        return GearLabel(p, g) + " has value " + std::to_string(v);
      }
    }
    if (!distinct.insert(t.values[g]).second) {
      return GearLabel(p, g) + " is listed twice";
    }
  }
  const Program& first = p.gears[0];
  const size_t num_inputs = first.inputs.size();
  if (num_inputs < 2) return "a gear model needs an input and the gear input";
  const size_t data_inputs = num_inputs - 1;
  // Shape order: distinct data inputs.
  std::vector<int> order_rank(data_inputs, -1);
  for (size_t k = 0; k < t.shape_order.size(); ++k) {
    const uint32_t i = t.shape_order[k];
    if (i >= data_inputs || order_rank[i] >= 0) {
      return "gear shape order names input " + std::to_string(i) +
             " (out of range or twice)";
    }
    order_rank[i] = static_cast<int>(k);
  }
  // Positions: inside their input, in shape order, each once.
  std::pair<int, uint32_t> last{-1, 0};
  for (size_t k = 0; k < t.positions.size(); ++k) {
    const auto [input, dim] = t.positions[k];
    if (input >= data_inputs || order_rank[input] < 0 ||
        dim >= static_cast<uint32_t>(first.inputs[input].shape.rank)) {
      return "gear dynamic dim " + std::to_string(k) + " (input " +
             std::to_string(input) + " dim " + std::to_string(dim) +
             ") is not a dim of an input in the shape order";
    }
    if (t.type == DynamicType::kDynamicBatch && dim != 0) {
      return "a dynamic batch model has a dynamic dim " + std::to_string(dim) +
             " (only dim 0 can be dynamic)";
    }
    const std::pair<int, uint32_t> key{order_rank[input], dim};
    if (k != 0 && !(last < key)) {
      return "gear dynamic dims are not in shape order or repeat";
    }
    last = key;
  }
  for (size_t g = 0; g < p.gears.size(); ++g) {
    const Program& gear = p.gears[g];
    const std::string label = GearLabel(p, g);
    if (gear.inputs.size() != num_inputs ||
        gear.outputs.size() != first.outputs.size()) {
      return label + " has other inputs or outputs than gear 0";
    }
    for (size_t i = 0; i < num_inputs; ++i) {
      const IoInfo& io = gear.inputs[i];
      if (!SameIo(io, first.inputs[i])) {
        return label + " input " + std::to_string(i) + " '" + io.name +
               "' differs from gear 0's in name, dtype, format or rank";
      }
      if (i + 1 == num_inputs) {
        if (io.name != kGearInputName || io.dtype != DType::kInt32 ||
            io.format != ACL_FORMAT_ND || io.shape.rank != 1 ||
            io.shape.dims[0] != static_cast<int64_t>(per_gear)) {
          return label + " does not end with the gear input '" +
                 std::string(kGearInputName) + "' (int32 [" +
                 std::to_string(per_gear) + "], ND)";
        }
      } else if (io.name == kGearInputName) {
        return label + " input " + std::to_string(i) + " is named '" + io.name +
               "', the gear input's name";
      }
      for (int32_t d = 0; d < io.shape.rank; ++d) {
        size_t pos = t.positions.size();
        for (size_t k = 0; k < t.positions.size(); ++k) {
          if (t.positions[k].first == i &&
              t.positions[k].second == static_cast<uint32_t>(d)) {
            pos = k;
          }
        }
        const int64_t want = pos < t.positions.size()
                                 ? t.value(g, pos)
                                 : first.inputs[i].shape.dims[d];
        if (io.shape.dims[d] != want) {
          return label + " input " + std::to_string(i) + " '" + io.name +
                 "' dim " + std::to_string(d) + " is " +
                 std::to_string(io.shape.dims[d]) + ", the gear table says " +
                 std::to_string(want);
        }
      }
    }
    for (size_t i = 0; i < gear.outputs.size(); ++i) {
      if (!SameIo(gear.outputs[i], first.outputs[i])) {
        return label + " output " + std::to_string(i) + " '" +
               gear.outputs[i].name +
               "' differs from gear 0's in name, dtype, format or rank";
      }
    }
  }
  return "";
}

}  // namespace

std::string ValidateProgram(const Program& p, const uint8_t* weights,
                            const std::vector<const uint8_t*>& external) {
  return ValidateProgram(p, weights, p.weights.size(), external);
}

std::string ValidateProgram(const Program& p, const uint8_t* weights,
                            uint64_t weight_size,
                            const std::vector<const uint8_t*>& external) {
  if (!ValidSocVersion(p.soc_version)) {
    return "invalid soc_version '" + p.soc_version + "'";
  }
  if (external.size() != p.external_weights.size()) {
    return "the program reads " + std::to_string(p.external_weights.size()) +
           " external weight files, " + std::to_string(external.size()) +
           " are bound";
  }
  std::string err = CheckFileList(p);
  if (!err.empty()) return err;
  if (p.gears.empty() && p.gear_table.type == DynamicType::kStatic) {
    return ValidateBody(p, p, weights, weight_size, external);
  }
  err = CheckGearTable(p);
  for (size_t g = 0; err.empty() && g < p.gears.size(); ++g) {
    err = ValidateBody(p, p.gears[g], weights, weight_size, external);
    if (!err.empty()) err = GearLabel(p, g) + ": " + err;
  }
  return err;
}

}  // namespace ascend_emu
