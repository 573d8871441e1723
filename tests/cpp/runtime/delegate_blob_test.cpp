// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The delegate blob codec against docs/blob-format.md: golden bytes, round
// trip, every truncation, every rejection the document lists, the versions
// read and refused, and limits.
#include "delegate_blob.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "log_capture.h"
#include "program_spec.h"

namespace executorch::backends::ascend {
namespace {

using executorch::runtime::Error;

Error read_error(const std::vector<uint8_t>& bytes) {
  auto result = read_delegate_blob(bytes.data(), bytes.size());
  return result.ok() ? Error::Ok : result.error();
}

// A blob of one target, for SoC "S" (short, for golden bytes).
DelegateBlob one(std::string om_key, std::vector<ExternalWeight> weights = {},
                 std::vector<DeviceStateEntry> states = {},
                 std::string source_key = "") {
  return DelegateBlob{{OmTarget{"S", std::move(om_key), std::move(weights)}},
                      std::move(states),
                      std::move(source_key)};
}

DelegateBlob two_weights() {
  return one("ascend/om/abc",
             {{"weight_a", "ascend/weight/x", 64},
              {"weight_b", "ascend/weight/x", 0x100000000ull}});
}

// Offset of the first target's weight count: magic, version, target count,
// soc_version and om_key with their lengths.
size_t weight_count_offset(const DelegateBlob& blob) {
  return 4 + 4 + 4 + 4 + blob.targets[0].soc_version.size() + 4 +
         blob.targets[0].om_key.size();
}

void put_u32(std::vector<uint8_t>& bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) {
    bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
  }
}

TEST(DelegateBlob, GoldenBytesWithoutWeights) {
  const std::vector<uint8_t> expected = {
      'A', 'S', 'C', 'B', 5,   0,   0,   0,  // magic, version
      1,   0,   0,   0,                      // target count
      1,   0,   0,   0,   'S',               // soc_version
      3,   0,   0,   0,   'k', 'e', 'y',     // om_key
      0,   0,   0,   0,                      // weight count
      0,   0,   0,   0,                      // state count
      0,   0,   0,   0,                      // no source
  };
  EXPECT_EQ(write_delegate_blob(one("key")), expected);
}

TEST(DelegateBlob, GoldenBytesWithTwoTargetsAndASource) {
  DelegateBlob blob = one("o", {}, {}, "src");
  blob.targets.push_back(OmTarget{"T", "p", {}});
  const std::vector<uint8_t> expected = {
      'A', 'S', 'C', 'B', 5,   0,   0,   0,  // magic, version
      2,   0,   0,   0,                      // target count
      1,   0,   0,   0,   'S',               // soc_version
      1,   0,   0,   0,   'o',               // om_key
      0,   0,   0,   0,                      // weight count
      1,   0,   0,   0,   'T',               // soc_version
      1,   0,   0,   0,   'p',               // om_key
      0,   0,   0,   0,                      // weight count
      0,   0,   0,   0,                      // state count
      1,   0,   0,   0,                      // a source key follows
      3,   0,   0,   0,   's', 'r', 'c',
  };
  EXPECT_EQ(write_delegate_blob(blob), expected);
  auto read = read_delegate_blob(expected.data(), expected.size());
  ASSERT_TRUE(read.ok());
  ASSERT_EQ(read->targets.size(), 2u);
  EXPECT_EQ(read->targets[1].soc_version, "T");
  EXPECT_EQ(read->targets[1].om_key, "p");
  EXPECT_EQ(read->source_key, "src");
}

TEST(DelegateBlob, MalformedTargetsAreRejected) {
  // No target, one SoC twice, an empty or overlong SoC name, too many.
  EXPECT_EQ(read_error(write_delegate_blob(DelegateBlob{{}, {}, ""})),
            Error::InvalidProgram);
  DelegateBlob twice = one("o");
  twice.targets.push_back(OmTarget{"S", "p", {}});
  EXPECT_EQ(read_error(write_delegate_blob(twice)), Error::InvalidProgram);
  DelegateBlob unnamed = one("o");
  unnamed.targets[0].soc_version = "";
  EXPECT_EQ(read_error(write_delegate_blob(unnamed)), Error::InvalidProgram);
  DelegateBlob longest = one("o");
  longest.targets[0].soc_version = std::string(kBlobMaxSocVersionBytes, 's');
  EXPECT_EQ(read_error(write_delegate_blob(longest)), Error::Ok);
  longest.targets[0].soc_version += "s";
  EXPECT_EQ(read_error(write_delegate_blob(longest)), Error::InvalidProgram);
  DelegateBlob many{{}, {}, ""};
  for (uint32_t i = 0; i < kBlobMaxTargets; ++i) {
    many.targets.push_back(OmTarget{"S" + std::to_string(i), "o", {}});
  }
  EXPECT_EQ(read_error(write_delegate_blob(many)), Error::Ok);
  many.targets.push_back(OmTarget{"one more", "o", {}});
  EXPECT_EQ(read_error(write_delegate_blob(many)), Error::InvalidProgram);
  // A source kind other than 0 (none) and 1 (a key follows).
  auto bytes = write_delegate_blob(one("o"));
  put_u32(bytes, bytes.size() - 4, 2);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  EXPECT_EQ(
      read_error(write_delegate_blob(one("o", {}, {}, std::string("k\0", 2)))),
      Error::InvalidProgram);
}

TEST(DelegateBlob, GoldenBytesWithAWeight) {
  const std::vector<uint8_t> expected = {
      'A',  'S',  'C', 'B', 5,   0,   0,   0,  // magic, version
      1,    0,    0,   0,                      // target count
      1,    0,    0,   0,   'S',               // soc_version
      1,    0,    0,   0,   'o',               // om_key
      1,    0,    0,   0,                      // weight count
      2,    0,    0,   0,   'w', '1',          // name
      3,    0,    0,   0,   'k', 'e', 'y',     // key
      0x20, 0x01, 0,   0,   1,   0,   0,   0,  // size 0x1'00000120
      0,    0,    0,   0,                      // state count
      0,    0,    0,   0,                      // no source
  };
  EXPECT_EQ(write_delegate_blob(one("o", {{"w1", "key", 0x100000120ull}})),
            expected);
}

TEST(DelegateBlob, GoldenBytesWithStates) {
  DelegateBlob blob = one("o");
  blob.states.push_back({"c", 1, 2, 16, ""});
  blob.states.push_back({"d", 3, 4, 0x100000005ull, "ky"});
  const std::vector<uint8_t> expected = {
      'A', 'S', 'C', 'B', 5,   0,   0, 0,  // magic, version
      1,   0,   0,   0,                    // target count
      1,   0,   0,   0,   'S',             // soc_version
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
      0,   0,   0,   0,                    // no source
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
    DelegateBlob blob = one("om", {}, std::move(states));
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
  auto bytes = write_delegate_blob(one("om", {}, {{"s", 0, 0, 8, ""}}));
  put_u32(bytes, bytes.size() - 8, 2);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  // A state count above the limit, or larger than what follows.
  bytes = write_delegate_blob(one("om"));
  put_u32(bytes, bytes.size() - 8, kBlobMaxStates + 1);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  put_u32(bytes, bytes.size() - 8, kBlobMaxStates);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(DelegateBlob, RoundTrip) {
  DelegateBlob written = two_weights();
  written.states.push_back({"cache", 7, 3, 4096, "ascend/state/s"});
  written.targets.push_back(OmTarget{"Ascend310P3", "ascend/om/def", {}});
  written.source_key = "ascend/source/s";
  const auto bytes = write_delegate_blob(written);
  auto blob = read_delegate_blob(bytes.data(), bytes.size());
  ASSERT_TRUE(blob.ok());
  ASSERT_EQ(blob->targets.size(), 2u);
  const OmTarget& first = blob->targets[0];
  EXPECT_EQ(first.soc_version, "S");
  EXPECT_EQ(first.om_key, "ascend/om/abc");
  ASSERT_EQ(first.weights.size(), 2u);
  EXPECT_EQ(first.weights[0].name, "weight_a");
  EXPECT_EQ(first.weights[0].key, "ascend/weight/x");
  EXPECT_EQ(first.weights[0].size, 64u);
  EXPECT_EQ(first.weights[1].name, "weight_b");
  EXPECT_EQ(first.weights[1].key, "ascend/weight/x");  // keys may repeat
  EXPECT_EQ(first.weights[1].size, 0x100000000ull);    // above 4 GiB
  EXPECT_EQ(blob->targets[1].soc_version, "Ascend310P3");
  EXPECT_EQ(blob->targets[1].om_key, "ascend/om/def");
  EXPECT_TRUE(blob->targets[1].weights.empty());
  EXPECT_EQ(blob->source_key, "ascend/source/s");
  ASSERT_EQ(blob->states.size(), 1u);
  EXPECT_EQ(blob->states[0].name, "cache");
  EXPECT_EQ(blob->states[0].input_index, 7u);
  EXPECT_EQ(blob->states[0].output_index, 3u);
  EXPECT_EQ(blob->states[0].initial_key, "ascend/state/s");
}

TEST(DelegateBlob, EveryTruncationIsInvalid) {
  DelegateBlob blob = two_weights();
  blob.states.push_back({"cache", 2, 1, 64, "ascend/state/s"});
  blob.targets.push_back(OmTarget{"T", "ascend/om/t", {{"w", "k", 8}}});
  blob.source_key = "ascend/source/s";
  const auto bytes = write_delegate_blob(blob);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    EXPECT_EQ(read_error(cut), Error::InvalidProgram) << n << " bytes";
  }
  EXPECT_EQ(read_delegate_blob(nullptr, 0).error(), Error::InvalidProgram);
  EXPECT_EQ(read_delegate_blob(nullptr, 8).error(), Error::InvalidProgram);
}

TEST(DelegateBlob, BadMagicAndTrailingBytes) {
  auto bytes = write_delegate_blob(one("k"));
  bytes[0] = 'X';
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  bytes = write_delegate_blob(one("k"));
  bytes.push_back(0);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  bytes = write_delegate_blob(two_weights());
  bytes.push_back(0);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

// docs/blob-format.md, Compatibility: every version from the oldest a
// released program may carry to the current one is read ...
TEST(DelegateBlob, EveryVersionFromTheOldestToTheCurrentIsRead) {
  for (uint32_t version = kBlobMinReadVersion; version <= kBlobVersion;
       ++version) {
    testing::BlobSpec spec;
    spec.version = version;
    EXPECT_EQ(read_error(testing::write_blob(spec)), Error::Ok) << version;
  }
}

// "versions 5 to 5": what the messages say this runtime reads.
std::string read_versions() {
  return "versions " + std::to_string(kBlobMinReadVersion) + " to " +
         std::to_string(kBlobVersion);
}

// ... a newer one is refused, saying to upgrade ...
TEST(DelegateBlob, ANewerVersionSaysToUpgrade) {
  testing::LogCapture log;
  for (uint32_t version : {kBlobVersion + 1, 0xFFFFFFFFu}) {
    testing::BlobSpec spec;
    spec.version = version;
    EXPECT_EQ(read_error(testing::write_blob(spec)),
              Error::DelegateInvalidCompatibility)
        << version;
    const std::string expected =
        "delegate blob version " + std::to_string(version) +
        " was written by a newer executorch-ascend; this runtime reads " +
        read_versions() + ": upgrade executorch-ascend to load it";
    EXPECT_NE(log.take().find(expected), std::string::npos) << version;
  }
}

// ... and one from before the first release, saying to re-export.
TEST(DelegateBlob, AVersionBeforeTheFirstReleaseSaysToReExport) {
  testing::LogCapture log;
  for (uint32_t version = 0; version < kBlobMinReadVersion; ++version) {
    testing::BlobSpec spec;
    spec.version = version;
    EXPECT_EQ(read_error(testing::write_blob(spec)),
              Error::DelegateInvalidCompatibility)
        << version;
    const std::string expected =
        "delegate blob version " + std::to_string(version) +
        " is from a development build before version " +
        std::to_string(kBlobMinReadVersion) +
        ", the first released format; this runtime reads " + read_versions() +
        ": re-export the model with this executorch-ascend";
    EXPECT_NE(log.take().find(expected), std::string::npos) << version;
  }
}

TEST(DelegateBlob, KeyLimits) {
  EXPECT_EQ(read_error(write_delegate_blob(one(""))), Error::InvalidProgram);
  const std::string longest(kBlobMaxKeyBytes, 'k');
  EXPECT_EQ(read_error(write_delegate_blob(one(longest))), Error::Ok);
  EXPECT_EQ(read_error(write_delegate_blob(one(longest + "k"))),
            Error::InvalidProgram);
  EXPECT_EQ(read_error(write_delegate_blob(one(std::string("a\0b", 3)))),
            Error::InvalidProgram);
  // A length field larger than what follows.
  auto bytes = write_delegate_blob(one("abc"));
  bytes[17] = 200;  // the om_key's length
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(DelegateBlob, WeightNameAndKeyLimits) {
  const std::string longest_name(kBlobMaxWeightNameBytes, 'n');
  const std::string longest_key(kBlobMaxKeyBytes, 'k');
  auto with = [](std::string name, std::string key) {
    return write_delegate_blob(
        one("om", {{std::move(name), std::move(key), 32}}));
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
  const DelegateBlob blob = one("om");
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
  EXPECT_EQ(
      read_error(write_delegate_blob(one(
          "om", {{"w", "ascend/weight/a", 32}, {"w", "ascend/weight/b", 32}}))),
      Error::InvalidProgram);
  EXPECT_EQ(
      read_error(write_delegate_blob(one("om", {{"w", "ascend/weight/a", 0}}))),
      Error::InvalidProgram);
}

}  // namespace
}  // namespace executorch::backends::ascend
