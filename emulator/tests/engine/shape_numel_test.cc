// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shape::numel on shapes read from untrusted files: the product is
// overflow-checked (issue 11: a Resize with scales 1e9 made atc multiply
// past INT64_MAX, undefined behaviour, before it refused the op).
#include <gtest/gtest.h>

#include <cstdint>

#include "ascend_emu/tensor.h"
#include "program_builder.h"

namespace ascend_emu {
namespace {

using testing::Dims;

TEST(ShapeNumel, ExactWhenItFits) {
  int64_t n = -1;
  EXPECT_TRUE(Dims({2, 3, 4}).checked_numel(&n));
  EXPECT_EQ(n, 24);
  EXPECT_EQ(Dims({2, 3, 4}).numel(), 24);
  EXPECT_EQ(Dims({}).numel(), 1);
  EXPECT_EQ(Dims({5, 0, int64_t{1} << 62}).numel(), 0);
  Shape absent;
  absent.rank = -1;
  EXPECT_EQ(absent.numel(), 0);
}

TEST(ShapeNumel, SaturatesInsteadOfWrapping) {
  // 1e12 * 1e12 wraps to a small (here positive) int64 without the check.
  const Shape huge = Dims({1, 1, 1000000000000, 1000000000000});
  int64_t n = 0;
  EXPECT_FALSE(huge.checked_numel(&n));
  EXPECT_EQ(huge.numel(), INT64_MAX);
  // 2^32 * 2^32 wraps to exactly 0, which would look like an empty tensor.
  const Shape wraps_to_zero = Dims({int64_t{1} << 32, int64_t{1} << 32});
  EXPECT_FALSE(wraps_to_zero.checked_numel(&n));
  EXPECT_EQ(wraps_to_zero.numel(), INT64_MAX);
  TensorRef t;
  t.shape = wraps_to_zero;
  EXPECT_NE(t.nbytes(), 0u) << "an overflowing shape must not look empty";
}

TEST(ShapeNumel, NegativeDimIsNotACount) {
  int64_t n = 0;
  EXPECT_FALSE(Dims({2, -1}).checked_numel(&n));
  EXPECT_EQ(Dims({2, -1}).numel(), INT64_MAX);
}

}  // namespace
}  // namespace ascend_emu
