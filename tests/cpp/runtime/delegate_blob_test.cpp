// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The delegate blob codec against docs/blob-format.md: golden bytes, round
// trip, every truncation, corruption, versions and limits.
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

TEST(DelegateBlob, GoldenBytes) {
  const std::vector<uint8_t> expected = {'A', 'S', 'C', 'B', 2,   0,   0,  0,
                                         3,   0,   0,   0,   'k', 'e', 'y'};
  EXPECT_EQ(write_delegate_blob(DelegateBlob{"key"}), expected);
}

TEST(DelegateBlob, RoundTrip) {
  const auto bytes = write_delegate_blob(DelegateBlob{"ascend/om/abc123"});
  auto blob = read_delegate_blob(bytes.data(), bytes.size());
  ASSERT_TRUE(blob.ok());
  EXPECT_EQ(blob->om_key, "ascend/om/abc123");
}

TEST(DelegateBlob, EveryTruncationIsInvalid) {
  const auto bytes = write_delegate_blob(DelegateBlob{"ascend/om/abc"});
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    EXPECT_EQ(read_error(cut), Error::InvalidProgram) << n << " bytes";
  }
  EXPECT_EQ(read_delegate_blob(nullptr, 0).error(), Error::InvalidProgram);
  EXPECT_EQ(read_delegate_blob(nullptr, 8).error(), Error::InvalidProgram);
}

TEST(DelegateBlob, BadMagicAndTrailingBytes) {
  auto bytes = write_delegate_blob(DelegateBlob{"k"});
  bytes[0] = 'X';
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
  bytes = write_delegate_blob(DelegateBlob{"k"});
  bytes.push_back(0);
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

TEST(DelegateBlob, OtherVersionsAreIncompatible) {
  for (uint32_t version : {0u, 1u, kBlobVersion + 1, 0xFFFFFFFFu}) {
    testing::BlobSpec spec;
    spec.version = version;
    EXPECT_EQ(read_error(testing::write_blob(spec)),
              Error::DelegateInvalidCompatibility)
        << version;
  }
}

TEST(DelegateBlob, KeyLimits) {
  EXPECT_EQ(read_error(write_delegate_blob(DelegateBlob{""})),
            Error::InvalidProgram);
  const std::string longest(kBlobMaxKeyBytes, 'k');
  EXPECT_EQ(read_error(write_delegate_blob(DelegateBlob{longest})), Error::Ok);
  EXPECT_EQ(read_error(write_delegate_blob(DelegateBlob{longest + "k"})),
            Error::InvalidProgram);
  EXPECT_EQ(
      read_error(write_delegate_blob(DelegateBlob{std::string("a\0b", 3)})),
      Error::InvalidProgram);
  // A length field larger than what follows.
  auto bytes = write_delegate_blob(DelegateBlob{"abc"});
  bytes[8] = 4;
  EXPECT_EQ(read_error(bytes), Error::InvalidProgram);
}

}  // namespace
}  // namespace executorch::backends::ascend
