// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "delegate_blob.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

constexpr size_t kMagicSize = sizeof(kBlobMagic) - 1;  // without the NUL
// The smallest target: a 1-byte SoC and key with their lengths, a weight
// count.
constexpr size_t kMinTargetBytes = 4 + 1 + 4 + 1 + 4;
// How the kept ONNX source is stored.
constexpr uint32_t kSourceNone = 0;
constexpr uint32_t kSourceNamedData = 1;
// The smallest weight entry: two 4-byte lengths, two 1-byte strings, a u64.
constexpr size_t kMinWeightBytes = 4 + 1 + 4 + 1 + 8;
// The smallest state entry: a 1-byte name and its length, two u32 indices,
// a u64 size, the initial value kind.
constexpr size_t kMinStateBytes = 4 + 1 + 4 + 4 + 8 + 4;
// How a state's initial value is stored.
constexpr uint32_t kStateInitialZeros = 0;
constexpr uint32_t kStateInitialNamedData = 1;

// Reads little-endian fields front to back; every read is bounds-checked and
// names the field in the error, so a truncation says where it happened.
class Cursor {
 public:
  Cursor(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  size_t remaining() const { return size_ - offset_; }

  bool u32(const char* field, uint32_t* value) {
    if (!has(4, field)) return false;
    const uint8_t* p = data_ + offset_;
    *value = static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
             (static_cast<uint32_t>(p[2]) << 16) |
             (static_cast<uint32_t>(p[3]) << 24);
    offset_ += 4;
    return true;
  }

  bool u64(const char* field, uint64_t* value) {
    uint32_t low = 0;
    uint32_t high = 0;
    if (!has(8, field) || !u32(field, &low) || !u32(field, &high)) {
      return false;
    }
    *value = static_cast<uint64_t>(low) | (static_cast<uint64_t>(high) << 32);
    return true;
  }

  // A u32 length in 1..max, then that many bytes without a NUL.
  bool string(const char* field, uint32_t max, std::string* value) {
    uint32_t length = 0;
    if (!u32((std::string(field) + " length").c_str(), &length)) return false;
    if (length == 0 || length > max) {
      ASCEND_LOG(Error, "delegate blob: %s length %u is outside 1..%u", field,
                 length, max);
      return false;
    }
    if (!has(length, field)) return false;
    value->assign(reinterpret_cast<const char*>(data_ + offset_), length);
    offset_ += length;
    if (value->find('\0') != std::string::npos) {
      ASCEND_LOG(Error, "delegate blob: %s contains a NUL byte", field);
      return false;
    }
    return true;
  }

 private:
  bool has(size_t count, const char* field) const {
    if (remaining() >= count) return true;
    ASCEND_LOG(Error,
               "delegate blob: %zu bytes, truncated inside the %s (%zu more "
               "bytes needed at offset %zu)",
               size_, field, count - remaining(), offset_);
    return false;
  }

  const uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
};

void write_u32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    out.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
}

void write_u64(std::vector<uint8_t>& out, uint64_t value) {
  write_u32(out, static_cast<uint32_t>(value));
  write_u32(out, static_cast<uint32_t>(value >> 32));
}

void write_string(std::vector<uint8_t>& out, const std::string& value) {
  write_u32(out, static_cast<uint32_t>(value.size()));
  out.insert(out.end(), value.begin(), value.end());
}

// The weight list after a target's om_key; false (logged) when malformed.
bool read_weights(Cursor& in, std::vector<ExternalWeight>* weights) {
  uint32_t count = 0;
  if (!in.u32("weight count", &count)) return false;
  if (count > kBlobMaxWeights) {
    ASCEND_LOG(Error, "delegate blob: weight count %u is above %u", count,
               kBlobMaxWeights);
    return false;
  }
  // The count is untrusted: reserve no more entries than could fit.
  weights->reserve(std::min<size_t>(count, in.remaining() / kMinWeightBytes));
  std::set<std::string> names;
  for (uint32_t i = 0; i < count; ++i) {
    ExternalWeight weight;
    if (!in.string("weight name", kBlobMaxWeightNameBytes, &weight.name) ||
        !in.string("weight key", kBlobMaxKeyBytes, &weight.key) ||
        !in.u64("weight size", &weight.size)) {
      ASCEND_LOG(Error, "delegate blob: in weight %u of %u", i, count);
      return false;
    }
    if (weight.size == 0) {
      ASCEND_LOG(Error, "delegate blob: weight '%s' has size 0",
                 weight.name.c_str());
      return false;
    }
    if (!names.insert(weight.name).second) {
      ASCEND_LOG(Error, "delegate blob: weight name '%s' appears twice",
                 weight.name.c_str());
      return false;
    }
    weights->push_back(std::move(weight));
  }
  return true;
}

bool read_state(Cursor& in, DeviceStateEntry* state) {
  uint32_t initial = 0;
  if (!in.string("state name", kBlobMaxStateNameBytes, &state->name) ||
      !in.u32("state input index", &state->input_index) ||
      !in.u32("state output index", &state->output_index) ||
      !in.u64("state size", &state->size) ||
      !in.u32("state initial value kind", &initial)) {
    return false;
  }
  if (state->size == 0) {
    ASCEND_LOG(Error, "delegate blob: state '%s' has size 0",
               state->name.c_str());
    return false;
  }
  if (initial == kStateInitialNamedData) {
    return in.string("state key", kBlobMaxKeyBytes, &state->initial_key);
  }
  if (initial != kStateInitialZeros) {
    ASCEND_LOG(Error,
               "delegate blob: state '%s' has initial value kind %u (0 or 1)",
               state->name.c_str(), initial);
    return false;
  }
  return true;
}

// The target list after the version; false (logged) when malformed.
bool read_targets(Cursor& in, std::vector<OmTarget>* targets) {
  uint32_t count = 0;
  if (!in.u32("target count", &count)) return false;
  if (count == 0 || count > kBlobMaxTargets) {
    ASCEND_LOG(Error, "delegate blob: target count %u is outside 1..%u", count,
               kBlobMaxTargets);
    return false;
  }
  targets->reserve(std::min<size_t>(count, in.remaining() / kMinTargetBytes));
  std::set<std::string> socs;
  for (uint32_t i = 0; i < count; ++i) {
    OmTarget target;
    if (!in.string("soc_version", kBlobMaxSocVersionBytes,
                   &target.soc_version) ||
        !in.string("om_key", kBlobMaxKeyBytes, &target.om_key) ||
        !read_weights(in, &target.weights)) {
      ASCEND_LOG(Error, "delegate blob: in target %u of %u", i, count);
      return false;
    }
    if (!socs.insert(target.soc_version).second) {
      ASCEND_LOG(Error, "delegate blob: soc_version '%s' has two targets",
                 target.soc_version.c_str());
      return false;
    }
    targets->push_back(std::move(target));
  }
  return true;
}

bool read_source(Cursor& in, std::string* source_key) {
  uint32_t kind = 0;
  if (!in.u32("source kind", &kind)) return false;
  if (kind == kSourceNamedData) {
    return in.string("source key", kBlobMaxKeyBytes, source_key);
  }
  if (kind != kSourceNone) {
    ASCEND_LOG(Error, "delegate blob: source kind %u (0 or 1)", kind);
    return false;
  }
  return true;
}

// The state list after the targets; false (logged) when malformed.
bool read_states(Cursor& in, std::vector<DeviceStateEntry>* states) {
  uint32_t count = 0;
  if (!in.u32("state count", &count)) return false;
  if (count > kBlobMaxStates) {
    ASCEND_LOG(Error, "delegate blob: state count %u is above %u", count,
               kBlobMaxStates);
    return false;
  }
  states->reserve(std::min<size_t>(count, in.remaining() / kMinStateBytes));
  std::set<std::string> names;
  std::set<uint32_t> inputs;
  std::set<uint32_t> outputs;
  for (uint32_t i = 0; i < count; ++i) {
    DeviceStateEntry state;
    if (!read_state(in, &state)) {
      ASCEND_LOG(Error, "delegate blob: in state %u of %u", i, count);
      return false;
    }
    if (!names.insert(state.name).second ||
        !inputs.insert(state.input_index).second ||
        !outputs.insert(state.output_index).second) {
      ASCEND_LOG(Error,
                 "delegate blob: state '%s' repeats a name, input index or "
                 "output index of an earlier state",
                 state.name.c_str());
      return false;
    }
    states->push_back(std::move(state));
  }
  return true;
}

// Version 5: the targets, the states, the source.
bool read_v5(Cursor& in, DelegateBlob* blob) {
  return read_targets(in, &blob->targets) && read_states(in, &blob->states) &&
         read_source(in, &blob->source_key);
}

// One reader per version this runtime reads, kBlobMinReadVersion to
// kBlobVersion in order. A new version adds its own (the fields it appends
// read, defaults for the older ones) and leaves every older reader as it is,
// so an old version's bytes keep their meaning (docs/blob-format.md,
// Compatibility).
struct BodyReader {
  uint32_t version;
  bool (*read)(Cursor&, DelegateBlob*);
};
constexpr BodyReader kBodyReaders[] = {{5, read_v5}};
constexpr size_t kBodyReaderCount = sizeof(kBodyReaders) / sizeof(BodyReader);

constexpr bool one_reader_per_version() {
  if (kBodyReaderCount != kBlobVersion - kBlobMinReadVersion + 1) return false;
  for (size_t i = 0; i < kBodyReaderCount; ++i) {
    if (kBodyReaders[i].version != kBlobMinReadVersion + i) return false;
  }
  return true;
}
static_assert(one_reader_per_version(),
              "kBodyReaders must read each version from delegate_blob.json's "
              "min_read_version to its version, in order");

}  // namespace

Result<DelegateBlob> read_delegate_blob(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  ASCEND_CHECK_OR_RETURN_ERROR(data != nullptr || size == 0, InvalidProgram,
                               "delegate blob: null data");
  ASCEND_CHECK_OR_RETURN_ERROR(
      size >= kMagicSize && std::memcmp(bytes, kBlobMagic, kMagicSize) == 0,
      InvalidProgram,
      "delegate blob: no '%s' magic; this is not an AscendBackend delegate "
      "blob",
      kBlobMagic);
  Cursor in(bytes + kMagicSize, size - kMagicSize);
  uint32_t version = 0;
  if (!in.u32("version", &version)) {
    return Error::InvalidProgram;
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      version <= kBlobVersion, DelegateInvalidCompatibility,
      "delegate blob version %u was written by a newer executorch-ascend; "
      "this runtime reads versions %u to %u: upgrade executorch-ascend to "
      "load it",
      version, kBlobMinReadVersion, kBlobVersion);
  ASCEND_CHECK_OR_RETURN_ERROR(
      version >= kBlobMinReadVersion, DelegateInvalidCompatibility,
      "delegate blob version %u is from a development build before version "
      "%u, the first released format; this runtime reads versions %u to %u: "
      "re-export the model with this executorch-ascend",
      version, kBlobMinReadVersion, kBlobMinReadVersion, kBlobVersion);
  DelegateBlob blob;
  if (!kBodyReaders[version - kBlobMinReadVersion].read(in, &blob)) {
    return Error::InvalidProgram;
  }
  ASCEND_CHECK_OR_RETURN_ERROR(in.remaining() == 0, InvalidProgram,
                               "delegate blob: %zu trailing bytes after the "
                               "source",
                               in.remaining());
  return blob;
}

std::vector<uint8_t> write_delegate_blob(const DelegateBlob& blob) {
  std::vector<uint8_t> out(kBlobMagic, kBlobMagic + kMagicSize);
  write_u32(out, kBlobVersion);
  write_u32(out, static_cast<uint32_t>(blob.targets.size()));
  for (const OmTarget& target : blob.targets) {
    write_string(out, target.soc_version);
    write_string(out, target.om_key);
    write_u32(out, static_cast<uint32_t>(target.weights.size()));
    for (const ExternalWeight& weight : target.weights) {
      write_string(out, weight.name);
      write_string(out, weight.key);
      write_u64(out, weight.size);
    }
  }
  write_u32(out, static_cast<uint32_t>(blob.states.size()));
  for (const DeviceStateEntry& state : blob.states) {
    write_string(out, state.name);
    write_u32(out, state.input_index);
    write_u32(out, state.output_index);
    write_u64(out, state.size);
    if (state.initial_key.empty()) {
      write_u32(out, kStateInitialZeros);
    } else {
      write_u32(out, kStateInitialNamedData);
      write_string(out, state.initial_key);
    }
  }
  if (blob.source_key.empty()) {
    write_u32(out, kSourceNone);
  } else {
    write_u32(out, kSourceNamedData);
    write_string(out, blob.source_key);
  }
  return out;
}

}  // namespace executorch::backends::ascend
