// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The delegate blob codec against docs/blob-format.md: golden bytes, round
// trip, every truncation, every rejection the document lists, versions and
// limits.
#include "delegate_blob.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "program_spec.h"

namespace executorch::backends::ascend {
namespace {

using executorch::runtime::Error;

Error read_error(const std::vector<uint8_t>& bytes) {
  auto result = read_delegate_blob(bytes.data(), bytes.size());
  return result.ok() ? Error::Ok : result.error();
}

DelegateBlob two_weights() {
  return DelegateBlob{"ascend/om/abc",
                      {{"weight_a", "ascend/weight/x", 64},
                       {"weight_b", "ascend/weight/x", 0x100000000ull}},
                      {}};
}

// Offset of the weight count: magic, version, om_key length and bytes.
size_t weight_count_offset(const DelegateBlob& blob) {
  return 4 + 4 + 4 + blob.om_key.size();
}

void put_u32(std::vector<uint8_t>& bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
  }
}

TEST(DelegateBlob, GoldenBytesWithoutWeights) {
  const std::vector<uint8_t> expected = {
      'A', 'S', 'C', 'B', 4,   0,   0,   0,  // magic, version
      3,   0,   0,   0,   'k', 'e', 'y',     // om_key
      0,   0,   0,   0,                      // weight count
      0,   0,   0,   0,                      // state count
  };
  EXPECT_EQ(write_delegate_blob(DelegateBlob{"key", {}, {}}), expected);
}

TEST(DelegateBlob, GoldenBytesWithAWeight) {
  const std::vector<uint8_t> expected = {
      'A',  'S',  'C', 'B', 4,   0,   0,   0,  // magic, version
      1,    0,    0,   0,   'o',               // om_key
      1,    0,    0,   0,                      // weight count
      2,    0,    0,   0,   'w', '1',          // name
      3,    0,    0,   0,   'k', 'e', 'y',     // key
      0x20, 0x01, 0,   0,   1,   0,   0,   0,  // size 0x1'00000120
      0,    0,    0,   0,                      // state count
  };
  EXPECT_EQ(write_delegate_blob(
                DelegateBlob{"o", {{"w1", "key", 0x100000120ull}}, {}}),
            expected);
}

TEST(DelegateBlob, GoldenBytesWithStates) {
  DelegateBlob blob{"o", {}, {}};
  blob.states.push_back({"c", 1, 2, 16, ""});
  blob.states.push_back({"d", 3, 4, 0x100000005ull, "ky"});
  const std::vector<uint8_t> expected = {
      'A', 'S', 'C', 'B', 4,   0,   0, 0,  // magic, version
      1,   0,   0,   0,   'o',             // om_key
      0,   0,   0,   0,                    // weight count
      2,   0,   0,   0,                    // state count
      1,   0,   0,   0,   'c',             // name
      1,   0,   0,   0,   2,   0,   0, 0,  // input and output index
      16,  0,   0,   0,   0,   0,   0, 0,  // size
      0,   0,   0,   0,                    // starts as zeros
      1,   0,   0,   0,   'd',             // name
      3,   0,   0,   0,   4,   0,   0, 0,  // input and output index
      5,   0,   0,   0,   1,   0,   0, 0,  // size 0x1'00000005
      1,   0,   0,   0,                    // initial value in named data
      2,   0,   0,   0,   'k', 'y',        // its key
  };
  EXPECT_EQ(write_delegate_blob(blob), expected);
  auto read = read_delegate_blob(expected.data(), expected.size());
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->states.size(), 2u);
  EXPECT_EQ(read->states[0].name, "c");
  EXPECT_EQ(read->states[0].input_index, 1u);
  EXPECT_EQ(read->states[0].output_index, 2u);
  EXPECT_EQ(read->states[0].size, 16u);
  EXPECT_TRUE(read->states[0].initial_key.empty());
  EXPECT_EQ(read->states[1].size, 0x100000005ull);
  EXPECT_EQ(read->states[1].initial_key, "ky");
}

TEST(DelegateBlob, MalformedStatesAreRejected) {
  auto with = [](std::vector<DeviceStateEntry> states) {
    DelegateBlob blob{"om", {}, std::move(states)};
    return read_error(write_delegate_blob(blob));
  };
  EXPECT_EQ(with({{"s", 0, 0, 8, ""}, {"t", 1, 1, 8, "k"}}), Error::Ok);
  EXPECT_EQ(with({{"", 0, 0, 8, ""}}), Error::InvalidProgram);
  EXPECT_EQ(with({{std::string("s\0", 2), 0, 0, 8, ""}}),
            Error::InvalidProgram);
  EXPECT_EQ(with({{std::string(kBlobMaxStateNameBytes + 1, 's'), 0, 0, 8, ""}}),
            Error::InvalidProgram);
  EXPECT_EQ(with({{"s", 0, 0, 0, ""}}), Error::InvalidProgram);
  EXPECT_EQ(with({{"s", 0, 0, 8, std::string("k\0", 2)}}),
            Error::InvalidProgram);
  // Names, input indices and output indices are each unique.
  EXPECT_EQ(with({{"s", 0, 0, 8, ""}, {"s", 1, 1, 8, ""}}),
            Error::InvalidProgram);
  EXPECT_EQ(with({{"s", 0, 0, 8, ""}, {"t", 0, 1, 8, ""}}),
            Error::InvalidProgram);
  EXPECT_EQ(with({{"s", 0, 0, 8, ""}, {"t", 1, 0, 8, ""}}),
            Error::InvalidProgram);
  // An initial value kind other than 0 (zeros) and 1 (named data).
  auto bytes =
      write_delegate_blob(DelegateBlob{"om", {}, {{"s", 0, 0, 8, ""}}});
  put_u32(bytes, bytes.size() - 4, 2);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  // A state count above the limit, or larger than what follows.
  bytes = write_delegate_blob(DelegateBlob{"om", {}, {}});
  put_u32(bytes, bytes.size() - 4, kBlobMaxStates + 1);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  put_u32(bytes, bytes.size() - 4, kBlobMaxStates);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(DelegateBlob, RoundTrip) {
  DelegateBlob written = two_weights();
  written.states.push_back({"cache", 7, 3, 4096, "ascend/state/s"});
  const auto bytes = write_delegate_blob(written);
  auto blob = read_delegate_blob(bytes.data(), bytes.size());
  ASSERT_TRUE(blob.ok());
  EXPECT_EQ(blob->om_key, "ascend/om/abc");
  ASSERT_EQ(blob->weights.size(), 2u);
  EXPECT_EQ(blob->weights[0].name, "weight_a");
  EXPECT_EQ(blob->weights[0].key, "ascend/weight/x");
  EXPECT_EQ(blob->weights[0].size, 64u);
  EXPECT_EQ(blob->weights[1].name, "weight_b");
  EXPECT_EQ(blob->weights[1].key, "ascend/weight/x");  // keys may repeat
  EXPECT_EQ(blob->weights[1].size, 0x100000000ull);    // above 4 GiB
  ASSERT_EQ(blob->states.size(), 1u);
  EXPECT_EQ(blob->states[0].name, "cache");
  EXPECT_EQ(blob->states[0].input_index, 7u);
  EXPECT_EQ(blob->states[0].output_index, 3u);
  EXPECT_EQ(blob->states[0].initial_key, "ascend/state/s");
}

TEST(DelegateBlob, EveryTruncationIsInvalid) {
  DelegateBlob blob = two_weights();
  blob.states.push_back({"cache", 2, 1, 64, "ascend/state/s"});
  const auto bytes = write_delegate_blob(blob);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    EXPECT_EQ(read_error(cut), Error::InvalidProgram) << n << " bytes";
  }
  EXPECT_EQ(read_delegate_blob(nullptr, 0).error(), Error::InvalidProgram);
  EXPECT_EQ(read_delegate_blob(nullptr, 8).error(), Error::InvalidProgram);
}

TEST(DelegateBlob, BadMagicAndTrailingBytes) {
  auto bytes = write_delegate_blob(DelegateBlob{"k", {}, {}});
  bytes[0] = 'X';
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  bytes = write_delegate_blob(DelegateBlob{"k", {}, {}});
  bytes.push_back(0);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  bytes = write_delegate_blob(two_weights());
  bytes.push_back(0);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(DelegateBlob, OtherVersionsAreIncompatible) {
  for (uint32_t version : {0u, 1u, 2u, 3u, kBlobVersion + 1, 0xFFFFFFFFu}) {
    testing::BlobSpec spec;
    spec.version = version;
    EXPECT_EQ(read_error(testing::write_blob(spec)),
              Error::DelegateInvalidCompatibility)
        << version;
  }
}

TEST(DelegateBlob, KeyLimits) {
  EXPECT_EQ(read_error(write_delegate_blob(DelegateBlob{"", {}, {}})),
            Error::InvalidProgram);
  const std::string longest(kBlobMaxKeyBytes, 'k');
  EXPECT_EQ(read_error(write_delegate_blob(DelegateBlob{longest, {}, {}})),
            Error::Ok);
  EXPECT_EQ(
      read_error(write_delegate_blob(DelegateBlob{longest + "k", {}, {}})),
      Error::InvalidProgram);
  EXPECT_EQ(read_error(write_delegate_blob(
                DelegateBlob{std::string("a\0b", 3), {}, {}})),
            Error::InvalidProgram);
  // A length field larger than what follows.
  auto bytes = write_delegate_blob(DelegateBlob{"abc", {}, {}});
  bytes[8] = 200;
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(DelegateBlob, WeightNameAndKeyLimits) {
  const std::string longest_name(kBlobMaxWeightNameBytes, 'n');
  const std::string longest_key(kBlobMaxKeyBytes, 'k');
  auto with = [](std::string name, std::string key) {
    return write_delegate_blob(
        DelegateBlob{"om", {{std::move(name), std::move(key), 32}}, {}});
  };
  EXPECT_EQ(read_error(with(longest_name, longest_key)), Error::Ok);
  EXPECT_EQ(read_error(with(longest_name + "n", "k")), Error::InvalidProgram);
  EXPECT_EQ(read_error(with("n", longest_key + "k")), Error::InvalidProgram);
  EXPECT_EQ(read_error(with("", "k")), Error::InvalidProgram);
  EXPECT_EQ(read_error(with("n", "")), Error::InvalidProgram);
  EXPECT_EQ(read_error(with(std::string("n\0m", 3), "k")),
            Error::InvalidProgram);
  EXPECT_EQ(read_error(with("n", std::string("k\0", 2))),
            Error::InvalidProgram);
}

TEST(DelegateBlob, WeightCountLimit) {
  const DelegateBlob blob{"om", {}, {}};
  auto bytes = write_delegate_blob(blob);
  // The largest count is allowed but must be followed by that many weights.
  put_u32(bytes, weight_count_offset(blob), kBlobMaxWeights);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  put_u32(bytes, weight_count_offset(blob), kBlobMaxWeights + 1);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  put_u32(bytes, weight_count_offset(blob), 0xFFFFFFFFu);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  // A count smaller than the weights that follow is caught: what follows
  // does not parse as the state table.
  const DelegateBlob two = two_weights();
  bytes = write_delegate_blob(two);
  put_u32(bytes, weight_count_offset(two), 1);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(DelegateBlob, RepeatedNameAndZeroSizeAreRejected) {
  EXPECT_EQ(read_error(write_delegate_blob(DelegateBlob{
                "om",
                {{"w", "ascend/weight/a", 32}, {"w", "ascend/weight/b", 32}},
                {}})),
            Error::InvalidProgram);
  EXPECT_EQ(read_error(write_delegate_blob(
                DelegateBlob{"om", {{"w", "ascend/weight/a", 0}}, {}})),
            Error::InvalidProgram);
}

}  // namespace
}  // namespace executorch::backends::ascend
