// A test-side writer of docs/blob-format.md, written from the spec
// independently of runtime/blob_reader.cpp so the round trip checks both.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace executorch::backends::ascend::testing {

struct TensorSpec {
  std::string name;
  int32_t scalar_type = 6;  // ScalarType::Float
  std::vector<int64_t> dims;
};

struct BlobSpec {
  uint32_t version = 1;
  uint32_t flags = 1;  // emulator-built .om
  int32_t device_id = 0;
  std::string om_key = "ascend/om/test";
  std::string soc_version = "Ascend910B1";
  std::string atc = "emulator 1";
  std::string precision_mode = "must_keep_origin_dtype";
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
};

class ByteWriter {
 public:
  void raw(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    out_.insert(out_.end(), bytes, bytes + size);
  }
  template <typename T>
  void integer(T value) {
    const auto bits = static_cast<uint64_t>(value);
    for (size_t i = 0; i < sizeof(T); ++i) {
      out_.push_back(static_cast<uint8_t>(bits >> (8 * i)));
    }
  }
  void string(const std::string& s) {
    integer<uint32_t>(static_cast<uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  std::vector<uint8_t>& bytes() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

inline void write_tensors(ByteWriter& w, const std::vector<TensorSpec>& ts) {
  w.integer<uint32_t>(static_cast<uint32_t>(ts.size()));
  for (const TensorSpec& t : ts) {
    w.string(t.name);
    w.integer<int32_t>(t.scalar_type);
    w.integer<uint32_t>(static_cast<uint32_t>(t.dims.size()));
    for (int64_t d : t.dims) {
      w.integer<int64_t>(d);
    }
  }
}

inline std::vector<uint8_t> write_blob(const BlobSpec& spec) {
  ByteWriter w;
  w.raw("ASCB", 4);
  w.integer<uint32_t>(spec.version);
  w.integer<uint32_t>(spec.flags);
  w.integer<int32_t>(spec.device_id);
  w.string(spec.om_key);
  w.string(spec.soc_version);
  w.string(spec.atc);
  w.string(spec.precision_mode);
  write_tensors(w, spec.inputs);
  write_tensors(w, spec.outputs);
  return w.bytes();
}

}  // namespace executorch::backends::ascend::testing
