// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Serializes a Program into the .om byte layout (docs/om-format.md).
#include <cstring>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "byte_io.h"
#include "om_layout.h"

namespace ascend_emu {
namespace {

using om::ByteWriter;

bool CheckString(const std::string& s, const char* what, std::string* error) {
  if (s.size() > OmLimits::kMaxStringBytes) {
    *error = std::string(what) + " '" + s.substr(0, 64) +
             "...' is longer than " +
             std::to_string(OmLimits::kMaxStringBytes) + " bytes";
    return false;
  }
  return true;
}

void WriteShape(ByteWriter& w, const Shape& shape) {
  w.U32(static_cast<uint32_t>(shape.rank));
  for (int32_t i = 0; i < shape.rank; ++i) w.I64(shape.dims[i]);
}

bool CheckShape(const Shape& shape, const std::string& name,
                std::string* error) {
  if (shape.rank < 0 || shape.rank > kMaxRank) {
    *error = "tensor '" + name + "' has rank " + std::to_string(shape.rank) +
             " (the .om allows 0.." + std::to_string(kMaxRank) + ")";
    return false;
  }
  return true;
}

bool WriteIo(ByteWriter& w, const std::vector<IoInfo>& ios,
             std::string* error) {
  if (ios.size() > OmLimits::kMaxIo) {
    *error = "too many graph inputs or outputs: " + std::to_string(ios.size());
    return false;
  }
  w.U32(static_cast<uint32_t>(ios.size()));
  for (const IoInfo& io : ios) {
    if (!CheckString(io.name, "I/O name", error) ||
        !CheckShape(io.shape, io.name, error)) {
      return false;
    }
    w.Str(io.name);
    w.I32(static_cast<int32_t>(io.dtype));
    w.I32(static_cast<int32_t>(io.format));
    WriteShape(w, io.shape);
    w.U32(io.tensor);
  }
  return true;
}

bool WriteAttributes(ByteWriter& w, const Attributes& attrs,
                     std::string* error) {
  if (attrs.map().size() > OmLimits::kMaxAttrs) {
    *error = "too many attributes: " + std::to_string(attrs.map().size());
    return false;
  }
  w.U32(static_cast<uint32_t>(attrs.map().size()));
  for (const auto& [name, a] : attrs.map()) {
    if (!CheckString(name, "attribute name", error)) return false;
    w.Str(name);
    w.I32(static_cast<int32_t>(a.kind));
    switch (a.kind) {
      case Attribute::Kind::kInt:
        w.I64(a.i);
        break;
      case Attribute::Kind::kFloat:
        w.F32(a.f);
        break;
      case Attribute::Kind::kString:
        if (!CheckString(a.s, "attribute value", error)) return false;
        w.Str(a.s);
        break;
      case Attribute::Kind::kInts:
        if (a.ints.size() > OmLimits::kMaxAttrElems) {
          *error = "attribute '" + name + "' has too many elements";
          return false;
        }
        w.U32(static_cast<uint32_t>(a.ints.size()));
        for (int64_t v : a.ints) w.I64(v);
        break;
      case Attribute::Kind::kFloats:
        if (a.floats.size() > OmLimits::kMaxAttrElems) {
          *error = "attribute '" + name + "' has too many elements";
          return false;
        }
        w.U32(static_cast<uint32_t>(a.floats.size()));
        for (float v : a.floats) w.F32(v);
        break;
      default:
        *error = "attribute '" + name + "' has an unknown kind";
        return false;
    }
  }
  return true;
}

bool WriteIndices(ByteWriter& w, const std::vector<int32_t>& indices,
                  uint32_t limit, std::string* error) {
  if (indices.size() > limit) {
    *error =
        "op has too many inputs or outputs: " + std::to_string(indices.size());
    return false;
  }
  w.U32(static_cast<uint32_t>(indices.size()));
  for (int32_t t : indices) w.I32(t);
  return true;
}

// One compiled program: its I/O, tensor table, ops and arena size (a static
// model has one, a gear model one per gear).
bool WriteProgramBody(ByteWriter& w, const Program& p, std::string* error) {
  if (!WriteIo(w, p.inputs, error) || !WriteIo(w, p.outputs, error)) {
    return false;
  }

  if (p.tensors.size() > OmLimits::kMaxTensors) {
    *error = "too many tensors: " + std::to_string(p.tensors.size());
    return false;
  }
  w.U32(static_cast<uint32_t>(p.tensors.size()));
  for (const TensorInfo& t : p.tensors) {
    if (!CheckString(t.name, "tensor name", error) ||
        !CheckShape(t.shape, t.name, error)) {
      return false;
    }
    w.Str(t.name);
    w.I32(static_cast<int32_t>(t.dtype));
    WriteShape(w, t.shape);
    w.U32(static_cast<uint32_t>(t.location));
    w.U64(t.offset);
    w.U32(t.file);
  }

  if (p.ops.size() > OmLimits::kMaxOps) {
    *error = "too many ops: " + std::to_string(p.ops.size());
    return false;
  }
  w.U32(static_cast<uint32_t>(p.ops.size()));
  for (const OpInfo& op : p.ops) {
    if (!CheckString(op.op_type, "op type", error) ||
        !CheckString(op.name, "op name", error)) {
      return false;
    }
    w.Str(op.op_type);
    w.Str(op.name);
    if (!WriteAttributes(w, op.attrs, error) ||
        !WriteIndices(w, op.inputs, OmLimits::kMaxOpInputs, error) ||
        !WriteIndices(w, op.outputs, OmLimits::kMaxOpOutputs, error)) {
      return false;
    }
    w.U64(op.scratch_offset);
    w.U64(op.scratch_size);
  }

  if (p.arena_size > OmLimits::kMaxArenaBytes) {
    *error = "arena larger than the .om limit (1 TiB)";
    return false;
  }
  w.U64(p.arena_size);
  return true;
}

bool WriteGearTable(ByteWriter& w, const Program& p, std::string* error) {
  const GearTable& g = p.gear_table;
  if (g.shape_order.size() > OmLimits::kMaxIo ||
      g.positions.size() > OmLimits::kMaxGearPositions ||
      g.values.size() > OmLimits::kMaxGears ||
      (g.values.empty() != p.gears.empty()) ||
      p.gears.size() != g.values.size()) {
    *error = "gear table out of the .om limits (or gears without programs)";
    return false;
  }
  w.U32(static_cast<uint32_t>(g.type));
  w.U32(static_cast<uint32_t>(g.shape_order.size()));
  for (uint32_t i : g.shape_order) w.U32(i);
  w.U32(static_cast<uint32_t>(g.positions.size()));
  for (const auto& [input, dim] : g.positions) {
    w.U32(input);
    w.U32(dim);
  }
  const size_t per_gear = g.values.empty() ? 0 : g.values_per_gear();
  w.U32(static_cast<uint32_t>(g.values.size()));
  w.U32(static_cast<uint32_t>(per_gear));
  for (const std::vector<int64_t>& gear : g.values) {
    if (gear.size() != per_gear) {
      *error = "gear table: a gear has " + std::to_string(gear.size()) +
               " values, expected " + std::to_string(per_gear);
      return false;
    }
    for (int64_t v : gear) w.I64(v);
  }
  return true;
}

}  // namespace

bool WriteOm(const Program& program, std::vector<uint8_t>* out,
             std::string* error) {
  std::vector<uint8_t> bytes;
  ByteWriter w(&bytes);
  w.Bytes(EXECUTORCH_ASCEND_EMU_OM_MAGIC, EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE);
  w.U32(kOmFormatVersion);
  w.U32(0);  // flags: none defined
  w.U64(0);  // file size, patched below

  if (program.soc_version.size() > OmLimits::kMaxSocVersionBytes) {
    *error = "soc_version is longer than " +
             std::to_string(OmLimits::kMaxSocVersionBytes) + " bytes";
    return false;
  }
  if (!CheckString(program.producer, "producer", error)) return false;
  w.Str(program.soc_version);
  w.Str(program.producer);
  if (!WriteGearTable(w, program, error)) return false;
  if (program.gears.empty()) {
    if (!WriteProgramBody(w, program, error)) return false;
  } else {
    for (const Program& gear : program.gears) {
      if (!WriteProgramBody(w, gear, error)) return false;
    }
  }

  if (program.weights.size() > OmLimits::kMaxWeightBytes) {
    *error = "weights larger than the .om limit (1 TiB)";
    return false;
  }
  w.U64(program.weights.size());
  w.Bytes(program.weights.data(), program.weights.size());

  if (program.external_weights.size() > OmLimits::kMaxExternalWeights) {
    *error = "too many external weight files: " +
             std::to_string(program.external_weights.size());
    return false;
  }
  w.U32(static_cast<uint32_t>(program.external_weights.size()));
  for (const ExternalWeightDesc& file : program.external_weights) {
    if (!CheckString(file.name, "external weight file name", error)) {
      return false;
    }
    w.Str(file.name);
    w.U64(file.size_bytes);
  }
  w.U32(0);  // checksum, sealed below

  if (!ResealOm(&bytes)) {
    *error = "internal error: .om image too short";
    return false;
  }
  *out = std::move(bytes);
  return true;
}

bool ResealOm(std::vector<uint8_t>* image) {
  if (image->size() < om::kHeaderBytes + om::kTrailerBytes) return false;
  const uint64_t size = image->size();
  for (int i = 0; i < 8; ++i) {
    (*image)[om::kFileSizeOffset + i] = static_cast<uint8_t>(size >> (8 * i));
  }
  const size_t body = image->size() - om::kTrailerBytes;
  const uint32_t crc = OmChecksum(image->data(), body);
  for (int i = 0; i < 4; ++i) {
    (*image)[body + i] = static_cast<uint8_t>(crc >> (8 * i));
  }
  return true;
}

}  // namespace ascend_emu
