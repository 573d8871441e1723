// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Parses the .om byte layout (docs/om-format.md) into a Program. Every read is
// bounds-checked by ByteReader; every enum, rank, dim and count is checked
// here. Cross-references (indices, offsets) are ValidateProgram's job.
#include <atomic>
#include <cstring>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "byte_io.h"
#include "om_layout.h"

namespace ascend_emu {
namespace {

using om::ByteReader;

std::atomic<uint64_t> g_weight_bytes_copied{0};

// No dim may exceed this; kernels' Infer bounds total sizes far tighter.
constexpr int64_t kMaxDim = int64_t{1} << 40;

bool IsKnownFormat(int32_t f) {
  return f == ACL_FORMAT_NCHW || f == ACL_FORMAT_NHWC || f == ACL_FORMAT_ND ||
         f == ACL_FORMAT_NCDHW;
}

bool ReadDType(ByteReader& r, DType* dtype, const char* what) {
  int32_t raw = 0;
  if (!r.I32(&raw, what)) return false;
  if (!IsValidDType(raw)) {
    return r.Fail(std::string(what) + ": unknown dtype " + std::to_string(raw));
  }
  *dtype = static_cast<DType>(raw);
  return true;
}

bool ReadShape(ByteReader& r, Shape* shape, const char* what) {
  uint32_t rank = 0;
  if (!r.Count(&rank, kMaxRank, 8, what)) return false;
  shape->rank = static_cast<int32_t>(rank);
  for (uint32_t i = 0; i < rank; ++i) {
    int64_t d = 0;
    if (!r.I64(&d, what)) return false;
    if (d < 0 || d > kMaxDim) {
      return r.Fail(std::string(what) + ": dim " + std::to_string(d) +
                    " out of range");
    }
    shape->dims[i] = d;
  }
  return true;
}

bool ReadIo(ByteReader& r, std::vector<IoInfo>* ios, const char* what) {
  uint32_t n = 0;
  // name length, dtype, format, rank, tensor: 20 bytes at least.
  if (!r.Count(&n, OmLimits::kMaxIo, 20, what)) return false;
  ios->resize(n);
  for (IoInfo& io : *ios) {
    int32_t format = 0;
    if (!r.Str(&io.name, OmLimits::kMaxStringBytes, "I/O name") ||
        !ReadDType(r, &io.dtype, "I/O dtype") ||
        !r.I32(&format, "I/O format")) {
      return false;
    }
    if (!IsKnownFormat(format)) {
      return r.Fail("I/O '" + io.name + "': unknown format " +
                    std::to_string(format));
    }
    io.format = static_cast<aclFormat>(format);
    if (!ReadShape(r, &io.shape, "I/O shape") ||
        !r.U32(&io.tensor, "I/O tensor index")) {
      return false;
    }
  }
  return true;
}

bool ReadAttribute(ByteReader& r, Attributes* attrs) {
  std::string name;
  int32_t kind = 0;
  if (!r.Str(&name, OmLimits::kMaxStringBytes, "attribute name") ||
      !r.I32(&kind, "attribute kind")) {
    return false;
  }
  if (attrs->Has(name)) return r.Fail("duplicate attribute '" + name + "'");
  Attribute a;
  uint32_t n = 0;
  switch (kind) {
    case static_cast<int32_t>(Attribute::Kind::kInt):
      a.kind = Attribute::Kind::kInt;
      if (!r.I64(&a.i, "int attribute")) return false;
      break;
    case static_cast<int32_t>(Attribute::Kind::kFloat):
      a.kind = Attribute::Kind::kFloat;
      if (!r.F32(&a.f, "float attribute")) return false;
      break;
    case static_cast<int32_t>(Attribute::Kind::kString):
      a.kind = Attribute::Kind::kString;
      if (!r.Str(&a.s, OmLimits::kMaxStringBytes, "string attribute")) {
        return false;
      }
      break;
    case static_cast<int32_t>(Attribute::Kind::kInts):
      a.kind = Attribute::Kind::kInts;
      if (!r.Count(&n, OmLimits::kMaxAttrElems, 8, "ints attribute")) {
        return false;
      }
      a.ints.resize(n);
      for (int64_t& v : a.ints) {
        if (!r.I64(&v, "ints attribute")) return false;
      }
      break;
    case static_cast<int32_t>(Attribute::Kind::kFloats):
      a.kind = Attribute::Kind::kFloats;
      if (!r.Count(&n, OmLimits::kMaxAttrElems, 4, "floats attribute")) {
        return false;
      }
      a.floats.resize(n);
      for (float& v : a.floats) {
        if (!r.F32(&v, "floats attribute")) return false;
      }
      break;
    default:
      return r.Fail("attribute '" + name + "': unknown kind " +
                    std::to_string(kind));
  }
  attrs->map().emplace(std::move(name), std::move(a));
  return true;
}

bool ReadIndices(ByteReader& r, std::vector<int32_t>* out, uint32_t limit,
                 const char* what) {
  uint32_t n = 0;
  if (!r.Count(&n, limit, 4, what)) return false;
  out->resize(n);
  for (int32_t& t : *out) {
    if (!r.I32(&t, what)) return false;
  }
  return true;
}

bool ReadOp(ByteReader& r, OpInfo* op) {
  uint32_t num_attrs = 0;
  if (!r.Str(&op->op_type, OmLimits::kMaxStringBytes, "op type") ||
      !r.Str(&op->name, OmLimits::kMaxStringBytes, "op name") ||
      !r.Count(&num_attrs, OmLimits::kMaxAttrs, 8, "attribute count")) {
    return false;
  }
  for (uint32_t i = 0; i < num_attrs; ++i) {
    if (!ReadAttribute(r, &op->attrs)) return false;
  }
  return ReadIndices(r, &op->inputs, OmLimits::kMaxOpInputs, "op inputs") &&
         ReadIndices(r, &op->outputs, OmLimits::kMaxOpOutputs, "op outputs") &&
         r.U64(&op->scratch_offset, "scratch offset") &&
         r.U64(&op->scratch_size, "scratch size");
}

// One compiled program: its I/O, tensor table, ops and arena size.
bool ReadProgramBody(ByteReader& r, Program* p) {
  if (!ReadIo(r, &p->inputs, "input count") ||
      !ReadIo(r, &p->outputs, "output count")) {
    return false;
  }
  uint32_t n = 0;
  // name length, dtype, rank, location, offset, file: 28 bytes at least.
  if (!r.Count(&n, OmLimits::kMaxTensors, 28, "tensor count")) return false;
  p->tensors.resize(n);
  for (TensorInfo& t : p->tensors) {
    uint32_t location = 0;
    if (!r.Str(&t.name, OmLimits::kMaxStringBytes, "tensor name") ||
        !ReadDType(r, &t.dtype, "tensor dtype") ||
        !ReadShape(r, &t.shape, "tensor shape") ||
        !r.U32(&location, "tensor location") ||
        !r.U64(&t.offset, "tensor offset") || !r.U32(&t.file, "tensor file")) {
      return false;
    }
    if (location > static_cast<uint32_t>(TensorLocation::kExternal)) {
      return r.Fail("tensor '" + t.name + "': unknown location " +
                    std::to_string(location));
    }
    t.location = static_cast<TensorLocation>(location);
  }

  // op type, name, attr count, input count, output count, scratch: 36 bytes.
  if (!r.Count(&n, OmLimits::kMaxOps, 36, "op count")) return false;
  p->ops.resize(n);
  for (OpInfo& op : p->ops) {
    if (!ReadOp(r, &op)) return false;
  }

  if (!r.U64(&p->arena_size, "arena size")) return false;
  if (p->arena_size > OmLimits::kMaxArenaBytes) {
    return r.Fail("arena size " + std::to_string(p->arena_size) +
                  " exceeds the limit");
  }
  return true;
}

// The gear table (docs/om-format.md): counts and values in range; how they
// fit the gear programs is ValidateProgram's job.
bool ReadGearTable(ByteReader& r, GearTable* g) {
  uint32_t type = 0;
  uint32_t n = 0;
  if (!r.U32(&type, "dynamic type")) return false;
  if (type != static_cast<uint32_t>(DynamicType::kStatic) &&
      type != static_cast<uint32_t>(DynamicType::kDynamicBatch) &&
      type != static_cast<uint32_t>(DynamicType::kDynamicDims)) {
    return r.Fail("unknown dynamic type " + std::to_string(type));
  }
  g->type = static_cast<DynamicType>(type);
  const bool is_static = g->type == DynamicType::kStatic;
  if (!r.Count(&n, OmLimits::kMaxIo, 4, "shape order count")) return false;
  g->shape_order.resize(n);
  for (uint32_t& i : g->shape_order) {
    if (!r.U32(&i, "shape order")) return false;
  }
  if (!r.Count(&n, OmLimits::kMaxGearPositions, 8, "gear position count")) {
    return false;
  }
  g->positions.resize(n);
  for (auto& [input, dim] : g->positions) {
    if (!r.U32(&input, "gear position input") ||
        !r.U32(&dim, "gear position dim")) {
      return false;
    }
  }
  uint32_t gears = 0;
  uint32_t per_gear = 0;
  if (!r.U32(&gears, "gear count") || !r.U32(&per_gear, "values per gear")) {
    return false;
  }
  if (is_static) {
    if (gears != 0 || per_gear != 0 || !g->shape_order.empty() ||
        !g->positions.empty()) {
      return r.Fail("a static model has a gear table");
    }
    return true;
  }
  if (gears < OmLimits::kMinGears || gears > OmLimits::kMaxGears) {
    return r.Fail("gear count " + std::to_string(gears) + " is outside [" +
                  std::to_string(OmLimits::kMinGears) + ", " +
                  std::to_string(OmLimits::kMaxGears) + "]");
  }
  if (g->positions.empty() || g->shape_order.empty()) {
    return r.Fail("a gear model has no dynamic dims or no shape order");
  }
  if (per_gear != g->values_per_gear()) {
    return r.Fail("values per gear " + std::to_string(per_gear) +
                  " does not fit the dynamic type and its " +
                  std::to_string(g->positions.size()) + " dynamic dims");
  }
  if (r.remaining() / 8 / per_gear < gears) {
    return r.Fail("gear values run past the end of the file");
  }
  g->values.assign(gears, std::vector<int64_t>(per_gear));
  for (std::vector<int64_t>& gear : g->values) {
    for (int64_t& v : gear) {
      if (!r.I64(&v, "gear value")) return false;
      if (v < 1 || v > OmLimits::kMaxGearValue) {
        return r.Fail("gear value " + std::to_string(v) + " out of range");
      }
    }
  }
  return true;
}

bool ReadBody(ByteReader& r, Program* p, OmWeightSection* weights) {
  if (!r.Str(&p->soc_version, OmLimits::kMaxSocVersionBytes, "soc_version") ||
      !r.Str(&p->producer, OmLimits::kMaxStringBytes, "producer") ||
      !ReadGearTable(r, &p->gear_table)) {
    return false;
  }
  if (p->gear_table.type == DynamicType::kStatic) {
    if (!ReadProgramBody(r, p)) return false;
  } else {
    p->gears.resize(p->gear_table.values.size());
    for (Program& gear : p->gears) {
      if (!ReadProgramBody(r, &gear)) return false;
    }
  }

  uint64_t weight_size = 0;
  if (!r.U64(&weight_size, "weight size")) return false;
  if (weight_size > OmLimits::kMaxWeightBytes) {
    return r.Fail("weight size exceeds the limit");
  }
  if (!r.Span(&weights->data, weight_size, "weight section")) return false;
  weights->size = weight_size;

  // name length, size: 12 bytes at least.
  uint32_t n = 0;
  if (!r.Count(&n, OmLimits::kMaxExternalWeights, 12,
               "external weight count")) {
    return false;
  }
  p->external_weights.resize(n);
  for (ExternalWeightDesc& file : p->external_weights) {
    if (!r.Str(&file.name, OmLimits::kMaxStringBytes, "weight file name") ||
        !r.U64(&file.size_bytes, "weight file size")) {
      return false;
    }
  }
  return true;
}

uint64_t LoadLe(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

}  // namespace

bool ReadOmTables(const void* data, size_t size, Program* program,
                  OmWeightSection* weights, std::string* error) {
  *weights = OmWeightSection();
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  *program = Program();
  if (bytes == nullptr || size < om::kHeaderBytes + om::kTrailerBytes) {
    *error = "not an emulator .om: " + std::to_string(size) +
             " bytes is shorter than the header";
    return false;
  }
  if (std::memcmp(bytes + om::kMagicOffset, EXECUTORCH_ASCEND_EMU_OM_MAGIC,
                  EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE) != 0) {
    *error =
        "not an emulator .om (wrong magic; a model built by CANN's atc cannot "
        "run on the emulator)";
    return false;
  }
  const uint32_t version =
      static_cast<uint32_t>(LoadLe(bytes + om::kVersionOffset, 4));
  if (version != kOmFormatVersion) {
    *error = "unsupported .om format version " + std::to_string(version) +
             " (this emulator reads version " +
             std::to_string(kOmFormatVersion) +
             "; rebuild the model with this emulator's atc)";
    return false;
  }
  const uint32_t flags =
      static_cast<uint32_t>(LoadLe(bytes + om::kFlagsOffset, 4));
  if (flags != 0) {
    *error = "unsupported .om flags " + std::to_string(flags);
    return false;
  }
  const uint64_t declared = LoadLe(bytes + om::kFileSizeOffset, 8);
  if (declared != size) {
    *error = ".om size mismatch: the header says " + std::to_string(declared) +
             " bytes, got " + std::to_string(size) +
             " (truncated or padded file?)";
    return false;
  }
  const size_t body_end = size - om::kTrailerBytes;
  const uint32_t stored = static_cast<uint32_t>(LoadLe(bytes + body_end, 4));
  if (stored != OmChecksum(bytes, body_end)) {
    *error = ".om checksum mismatch (the file is corrupted)";
    return false;
  }

  ByteReader r(bytes + om::kHeaderBytes, body_end - om::kHeaderBytes,
               om::kHeaderBytes);
  if (!ReadBody(r, program, weights)) {
    *error = "malformed .om: " + r.error();
    *program = Program();
    *weights = OmWeightSection();
    return false;
  }
  if (r.remaining() != 0) {
    *error = "malformed .om: " + std::to_string(r.remaining()) +
             " unexpected bytes after the external weight list";
    *program = Program();
    *weights = OmWeightSection();
    return false;
  }
  return true;
}

bool ReadOm(const void* data, size_t size, Program* program,
            std::string* error) {
  OmWeightSection weights;
  if (!ReadOmTables(data, size, program, &weights, error)) return false;
  program->weights.resize(weights.size);
  CopyOmWeights(program->weights.data(), weights.data, weights.size);
  return true;
}

uint64_t OmWeightBytesCopied() {
  return g_weight_bytes_copied.load(std::memory_order_relaxed);
}

void CopyOmWeights(uint8_t* dst, const uint8_t* src, size_t size) {
  if (size == 0) return;
  std::memcpy(dst, src, size);
  g_weight_bytes_copied.fetch_add(size, std::memory_order_relaxed);
}

}  // namespace ascend_emu
