// The delegate blob reader against docs/blob-format.md: round trip, every
// truncation, corruption, versions and limits.
#include "blob_reader.h"

#include <gtest/gtest.h>

#include "blob_writer.h"

namespace executorch::backends::ascend {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::Error;
using testing::BlobSpec;
using testing::ByteWriter;
using testing::TensorSpec;
using testing::write_blob;

BlobSpec two_in_one_out() {
  BlobSpec spec;
  spec.flags = 1;
  spec.device_id = 3;
  spec.om_key = "ascend/om/abc123";
  spec.inputs = {{"x", 6, {2, 3}}, {"idx", 4, {}}};
  spec.outputs = {{"y", 5, {1, 0, 7}}};
  return spec;
}

Error read_error(const std::vector<uint8_t>& bytes) {
  auto result = read_delegate_blob(bytes.data(), bytes.size());
  return result.ok() ? Error::Ok : result.error();
}

TEST(BlobReader, RoundTrip) {
  const auto bytes = write_blob(two_in_one_out());
  auto blob = read_delegate_blob(bytes.data(), bytes.size());
  ASSERT_TRUE(blob.ok());
  EXPECT_EQ(blob->version, 1u);
  EXPECT_TRUE(blob->om_built_by_emulator());
  EXPECT_EQ(blob->device_id, 3);
  EXPECT_EQ(blob->om_key, "ascend/om/abc123");
  EXPECT_EQ(blob->soc_version, "Ascend910B1");
  EXPECT_EQ(blob->atc, "emulator 1");
  EXPECT_EQ(blob->precision_mode, "must_keep_origin_dtype");
  ASSERT_EQ(blob->inputs.size(), 2u);
  EXPECT_EQ(blob->inputs[0].name, "x");
  EXPECT_EQ(blob->inputs[0].scalar_type, ScalarType::Float);
  EXPECT_EQ(blob->inputs[0].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(blob->inputs[1].name, "idx");
  EXPECT_EQ(blob->inputs[1].scalar_type, ScalarType::Long);
  EXPECT_TRUE(blob->inputs[1].dims.empty());
  ASSERT_EQ(blob->outputs.size(), 1u);
  EXPECT_EQ(blob->outputs[0].scalar_type, ScalarType::Half);
  EXPECT_EQ(blob->outputs[0].dims, (std::vector<int64_t>{1, 0, 7}));
}

TEST(BlobReader, FlagZeroMeansCannBuilt) {
  BlobSpec spec = two_in_one_out();
  spec.flags = 0;
  const auto bytes = write_blob(spec);
  auto blob = read_delegate_blob(bytes.data(), bytes.size());
  ASSERT_TRUE(blob.ok());
  EXPECT_FALSE(blob->om_built_by_emulator());
}

TEST(BlobReader, EveryTruncationIsInvalidProgram) {
  const auto bytes = write_blob(two_in_one_out());
  for (size_t n = 0; n < bytes.size(); ++n) {
    // A copy of exactly n bytes so a read past n would be caught by ASan.
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + n);
    auto result = read_delegate_blob(prefix.data(), prefix.size());
    ASSERT_FALSE(result.ok()) << "prefix of " << n << " bytes was accepted";
    EXPECT_EQ(result.error(), Error::InvalidProgram) << "prefix " << n;
  }
}

TEST(BlobReader, TrailingBytesAreInvalidProgram) {
  auto bytes = write_blob(two_in_one_out());
  bytes.push_back(0);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(BlobReader, BadMagicIsInvalidProgram) {
  auto bytes = write_blob(two_in_one_out());
  bytes[0] = 'X';
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(BlobReader, UnknownVersionIsIncompatible) {
  for (uint32_t version : {0u, 2u, 0xFFFFFFFFu}) {
    BlobSpec spec = two_in_one_out();
    spec.version = version;
    EXPECT_EQ(read_error(write_blob(spec)), Error::DelegateInvalidCompatibility)
        << "version " << version;
  }
  // Only the header is needed to tell the version: a newer blob whose body
  // this reader cannot parse still reports incompatibility.
  ByteWriter w;
  w.raw("ASCB", 4);
  w.integer<uint32_t>(2);
  EXPECT_EQ(read_error(w.bytes()), Error::DelegateInvalidCompatibility);
}

TEST(BlobReader, NullDataIsInvalidProgram) {
  auto result = read_delegate_blob(nullptr, 16);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), Error::InvalidProgram);
  auto empty = read_delegate_blob(nullptr, 0);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error(), Error::InvalidProgram);
}

TEST(BlobReader, StringLimit) {
  BlobSpec spec = two_in_one_out();
  spec.soc_version = std::string(kBlobMaxStringBytes, 'a');
  EXPECT_EQ(read_error(write_blob(spec)), Error::Ok);
  spec.soc_version.push_back('a');
  EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram);
}

TEST(BlobReader, HugeStringLengthIsRejectedWithoutReading) {
  ByteWriter w;
  w.raw("ASCB", 4);
  w.integer<uint32_t>(1);
  w.integer<uint32_t>(0);
  w.integer<int32_t>(0);
  w.integer<uint32_t>(0xFFFFFFFFu);  // om_key length
  EXPECT_EQ(read_error(w.bytes()), Error::InvalidProgram);
}

TEST(BlobReader, TensorCountLimit) {
  BlobSpec spec = two_in_one_out();
  spec.inputs.assign(kBlobMaxTensors, TensorSpec{"t", 6, {1}});
  EXPECT_EQ(read_error(write_blob(spec)), Error::Ok);
  spec.inputs.push_back(TensorSpec{"t", 6, {1}});
  EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram);
  // A count over the limit with nothing behind it must not be trusted.
  ByteWriter w;
  w.raw("ASCB", 4);
  w.integer<uint32_t>(1);
  w.integer<uint32_t>(0);
  w.integer<int32_t>(0);
  w.string("k");
  w.string("");
  w.string("");
  w.string("");
  w.integer<uint32_t>(0xFFFFFFFFu);
  EXPECT_EQ(read_error(w.bytes()), Error::InvalidProgram);
}

TEST(BlobReader, RankLimit) {
  BlobSpec spec = two_in_one_out();
  spec.outputs[0].dims.assign(kBlobMaxRank, 1);
  EXPECT_EQ(read_error(write_blob(spec)), Error::Ok);
  spec.outputs[0].dims.push_back(1);
  EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram);
}

TEST(BlobReader, NegativeDimIsInvalidProgram) {
  BlobSpec spec = two_in_one_out();
  spec.inputs[0].dims = {2, -1};
  EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram);
}

TEST(BlobReader, UnknownScalarTypeIsInvalidProgram) {
  for (int32_t type : {-1, 30 /* Undefined */, 31, 1000}) {
    BlobSpec spec = two_in_one_out();
    spec.inputs[0].scalar_type = type;
    EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram)
        << "scalar_type " << type;
  }
}

TEST(BlobReader, UnknownFlagBitIsInvalidProgram) {
  BlobSpec spec = two_in_one_out();
  spec.flags = 0x3;
  EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram);
}

TEST(BlobReader, NegativeDeviceAndEmptyKeyAreInvalidProgram) {
  BlobSpec spec = two_in_one_out();
  spec.device_id = -1;
  EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram);
  spec = two_in_one_out();
  spec.om_key.clear();
  EXPECT_EQ(read_error(write_blob(spec)), Error::InvalidProgram);
}

// Every single-byte corruption either parses or fails cleanly; run under
// ASan/UBSan this also proves no out-of-bounds read.
TEST(BlobReader, SingleByteCorruptionNeverCrashes) {
  const auto bytes = write_blob(two_in_one_out());
  size_t rejected = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t value : {0x00, 0x01, 0x7F, 0x80, 0xFF}) {
      if (bytes[i] == value) {
        continue;
      }
      std::vector<uint8_t> corrupt = bytes;
      corrupt[i] = value;
      auto result = read_delegate_blob(corrupt.data(), corrupt.size());
      if (!result.ok()) {
        ++rejected;
        EXPECT_TRUE(result.error() == Error::InvalidProgram ||
                    result.error() == Error::DelegateInvalidCompatibility);
      }
    }
  }
  // Most corruptions break a length, count, magic or version.
  EXPECT_GT(rejected, bytes.size());
}

}  // namespace
}  // namespace executorch::backends::ascend
