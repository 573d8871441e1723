// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// RequantTable (requant_table.h) against the full function it compacts:
// every one of the 65 536 float16 bit patterns, through the scalar lookup
// and (on AVX2) the vector ones, for the epilogues FusedConvDequant builds
// (BuildRequantTable) and for functions with no structure at all.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "conv_int8_epilogue.h"
#include "kernels_test_util.h"
#include "requant_table.h"

namespace ascend_emu {
namespace testing {
namespace {

using kernels::Epilogue;
using kernels::RequantTable;

// The function BuildRequantTable compacts, computed element by element the
// way the unfused ops do (the activation, then AscendQuant on a
// one-element array).
std::vector<int8_t> FullFunction(const Epilogue& e) {
  std::vector<int8_t> full(RequantTable::kFullSize);
  for (int64_t bits = 0; bits < RequantTable::kFullSize; ++bits) {
    float v = static_cast<float>(
        Eigen::numext::bit_cast<Eigen::half>(static_cast<uint16_t>(bits)));
    if (e.relu_flag && v < 0.0f) v = 0.0f;
    if (e.relu) v = v < 0.0f ? 0.0f : v;
    if (e.clip) v = std::min(std::max(v, e.lo), e.hi);
    kernels::QuantizeAscend(&v, &full[static_cast<size_t>(bits)], 1, e.q);
  }
  return full;
}

void ExpectSame(const RequantTable& t, const std::vector<int8_t>& full) {
  ASSERT_FALSE(t.empty());
  int64_t wrong = 0;
  for (int64_t bits = 0; bits < RequantTable::kFullSize; ++bits)
    wrong += t(static_cast<uint16_t>(bits)) != full[static_cast<size_t>(bits)];
  EXPECT_EQ(wrong, 0) << "scalar lookups";
#if defined(ASCEND_EMU_REQUANT_TABLE_VECTORS)
  // Sixteen and eight patterns at a time, in an order that mixes signs,
  // NaN and the flat runs within one vector.
  std::vector<uint16_t> order(RequantTable::kFullSize);
  for (int64_t i = 0; i < RequantTable::kFullSize; ++i)
    order[static_cast<size_t>(i)] = static_cast<uint16_t>(i * 40503u);
  int64_t wrong16 = 0, wrong8 = 0;
  for (int64_t i = 0; i < RequantTable::kFullSize; i += 16) {
    int8_t y16[16], y8[8];
    t.Look16(
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(order.data() + i)),
        y16);
    t.Look8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(order.data() + i)),
            y8);
    for (int j = 0; j < 16; ++j)
      wrong16 += y16[j] != full[order[static_cast<size_t>(i + j)]];
    for (int j = 0; j < 8; ++j)
      wrong8 += y8[j] != full[order[static_cast<size_t>(i + j)]];
  }
  EXPECT_EQ(wrong16, 0) << "Look16";
  EXPECT_EQ(wrong8, 0) << "Look8";
#endif
}

Epilogue Quantizing(float scale, float offset) {
  Epilogue e;
  e.quant = true;
  e.q.scale = scale;
  e.q.offset = offset;
  e.q.mul = scale != 1.0f;
  e.q.add = offset != 0.0f;
  return e;
}

TEST(KernelsRequantTable, EpiloguesMatchTheirFunctionEverywhere) {
  std::vector<Epilogue> cases;
  Epilogue relu6 = Quantizing(21.0f, -128.0f);  // MobileNet's Clip(0, 6)
  relu6.clip = true;
  relu6.lo = 0.0f;
  relu6.hi = 6.0f;
  cases.push_back(relu6);
  cases.push_back(Quantizing(0.37f, 5.0f));  // no activation: both signs
  Epilogue relu = Quantizing(3.0f, 0.0f);
  relu.relu = true;
  relu.relu_flag = true;
  cases.push_back(relu);
  Epilogue floor = Quantizing(-2.5f, 1.0f);  // decreasing, Floor
  floor.q.mode = kernels::RoundMode::kFloor;
  cases.push_back(floor);
  Epilogue twice = Quantizing(1.5f, 0.0f);
  twice.q.twice = true;
  cases.push_back(twice);
  cases.push_back(Quantizing(1.0f, 0.0f));  // neither multiplies nor adds
  for (const Epilogue& e : cases) {
    const std::vector<int8_t> full = FullFunction(e);
    const RequantTable built = kernels::BuildRequantTable(e);
    ExpectSame(built, full);
    ExpectSame(RequantTable(full), full);
  }
}

TEST(KernelsRequantTable, Relu6KeepsOnlyWhereItSteps) {
  // The point of the compact form: a Relu6 then AscendQuant holds the
  // positive magnitudes between its first step and 6, not 64 KiB.
  Epilogue relu6 = Quantizing(21.0f, -128.0f);
  relu6.clip = true;
  relu6.lo = 0.0f;
  relu6.hi = 6.0f;
  const RequantTable t = kernels::BuildRequantTable(relu6);
  EXPECT_LT(t.size(), 12 * 1024);
  EXPECT_GT(t.size(), 1024);  // every step kept
}

TEST(KernelsRequantTable, UnstructuredFunctions) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(-128, 127);
  // No flat run at all, NaN payloads disagreeing: the window is everything.
  std::vector<int8_t> noise(RequantTable::kFullSize);
  for (int8_t& v : noise) v = static_cast<int8_t>(byte(rng));
  ExpectSame(RequantTable(noise), noise);
  EXPECT_EQ(RequantTable(noise).size(), RequantTable::kFullSize);
  // Constant: one entry per sign (and NaN's).
  const std::vector<int8_t> flat(RequantTable::kFullSize, 9);
  ExpectSame(RequantTable(flat), flat);
  EXPECT_LE(RequantTable(flat).size(), 4);
  // One step per sign, at the window's edges; NaN different from both.
  std::vector<int8_t> step(RequantTable::kFullSize, -3);
  for (int64_t m = 0x1234; m <= 0x7C00; ++m) step[m] = 4;
  for (int64_t m = 0x7C01; m <= 0x7FFF; ++m) step[m] = 0;
  for (int64_t m = 0; m < 0x8000; ++m)
    step[0x8000 + m] = step[m] == 4 ? 5 : step[m];
  ExpectSame(RequantTable(step), step);
  // One NaN payload apart: every other stays exact.
  step[0x7E00] = 1;
  ExpectSame(RequantTable(step), step);
  // Not a full table: nothing built.
  EXPECT_TRUE(RequantTable(std::vector<int8_t>(100)).empty());
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
