// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Deterministic damage to a valid .om image: every truncation and many random
// byte edits, each loaded and (when it loads) run. The property under test:
// Model::Load returns an error or a model whose Run is safe; never a crash
// or an out-of-bounds access (run under ASan to see the latter).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ascend_emu/model.h"
#include "ascend_emu/om_format.h"
#include "sample_programs.h"

namespace ascend_emu {
namespace testing {

struct CorruptionStats {
  int attempts = 0;
  int rejected = 0;
  int loaded = 0;
};

// Loads `image`; when it loads, runs it. Returns whether it loaded.
inline bool LoadAndMaybeRun(const std::vector<uint8_t>& image,
                            std::string* error) {
  // Hand the loader an exact-size heap copy so a read past the end is an
  // ASan-visible heap overflow, not a read into a larger vector's capacity.
  std::unique_ptr<uint8_t[]> exact(
      new uint8_t[image.size() + (image.empty() ? 1 : 0)]);
  if (!image.empty()) std::memcpy(exact.get(), image.data(), image.size());
  std::unique_ptr<Model> model = Model::Load(exact.get(), image.size(), error);
  if (!model) {
    EXPECT_FALSE(error->empty()) << "Load failed without a message";
    return false;
  }
  std::string run_error;
  RunWithOwnBuffers(*model, &run_error);
  return true;
}

// Every proper prefix, as is (caught by the size field) and resealed (so the
// body parser itself meets the missing bytes).
inline void CheckAllTruncations(const std::vector<uint8_t>& image) {
  for (size_t len = 0; len < image.size(); ++len) {
    std::vector<uint8_t> cut(image.begin(), image.begin() + len);
    std::string error;
    EXPECT_FALSE(LoadAndMaybeRun(cut, &error))
        << "prefix of " << len << " bytes loaded";
    if (len >= 28) {  // header + trailer
      std::vector<uint8_t> sealed(image.begin(), image.begin() + (len - 4));
      sealed.insert(sealed.end(), 4, 0);
      ASSERT_TRUE(ResealOm(&sealed));
      error.clear();
      EXPECT_FALSE(LoadAndMaybeRun(sealed, &error))
          << "resealed prefix of " << len << " bytes loaded";
    }
  }
}

// `iterations` random edits of 1..4 bytes, resealed 9 times in 10 (so most
// reach the parser and validator past the checksum).
inline CorruptionStats CheckRandomCorruptions(const std::vector<uint8_t>& image,
                                              int iterations, uint32_t seed) {
  CorruptionStats stats;
  std::mt19937 gen(seed);
  std::uniform_int_distribution<size_t> pos(0, image.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> count(1, 4);
  std::uniform_int_distribution<int> tenth(0, 9);
  for (int i = 0; i < iterations; ++i) {
    std::vector<uint8_t> bad = image;
    const int edits = count(gen);
    for (int e = 0; e < edits; ++e) {
      // Half the edits hit a small value (0, 1, 0xFF, +-1), the kind that
      // slips past simple range checks.
      const size_t at = pos(gen);
      switch (byte(gen) % 6) {
        case 0:
          bad[at] = 0;
          break;
        case 1:
          bad[at] = 0xFF;
          break;
        case 2:
          bad[at] = static_cast<uint8_t>(bad[at] + 1);
          break;
        default:
          bad[at] = static_cast<uint8_t>(byte(gen));
      }
    }
    const bool reseal = tenth(gen) != 0;
    if (reseal) ResealOm(&bad);
    std::string error;
    const bool loaded = LoadAndMaybeRun(bad, &error);
    ++stats.attempts;
    if (loaded) {
      ++stats.loaded;
      if (!reseal && bad != image) {
        ADD_FAILURE()
            << "an edited image loaded without resealing (checksum missed)";
      }
    } else {
      ++stats.rejected;
    }
  }
  return stats;
}

}  // namespace testing
}  // namespace ascend_emu
