// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The runners' .ptd check (tools/ptd_check): a real .ptd passes; the file the
// fuzzer crashed ExecuTorch with, truncations and every single-byte flip of
// the flatbuffer are either refused with a reason or, when accepted, read by
// ExecuTorch's FlatTensorDataMap without a crash (every key and its data).
//
// Env: ASCEND_TEST_PROGRAMS (the fixture's folder; mlp_data.ptd is in it).
#include "ptd_check.h"

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/extension/flat_tensor/serialize/flat_tensor_header.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using executorch::backends::ascend::tools::check_ptd;
using executorch::backends::ascend::tools::check_ptd_file;

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

std::string PtdPath() {
  const char* dir = std::getenv("ASCEND_TEST_PROGRAMS");
  return dir == nullptr ? "" : std::string(dir) + "/mlp_data.ptd";
}

// What ExecuTorch reads of a .ptd, all of it; a crash here fails the test.
void ReadEverything(const std::vector<uint8_t>& ptd) {
  executorch::extension::BufferDataLoader loader(ptd.data(), ptd.size());
  auto map = executorch::extension::FlatTensorDataMap::load(&loader);
  if (!map.ok()) return;
  auto keys = map->get_num_keys();
  if (!keys.ok()) return;
  for (uint32_t i = 0; i < *keys; ++i) {
    auto key = map->get_key(i);
    if (!key.ok()) continue;
    // Not get_tensor_layout: ExecuTorch dereferences the layout without a
    // null check, and blobs (an .om, weight files) have none, in real files
    // too; only keys the .pte names as tensors are asked for one.
    auto data = map->get_data(*key);
    if (data.ok() && data->size() > 0) {
      volatile uint8_t last =
          static_cast<const uint8_t*>(data->data())[data->size() - 1];
      (void)last;
    }
  }
}

TEST(PtdCheck, ARealPtdPasses) {
  ASSERT_FALSE(PtdPath().empty()) << "ASCEND_TEST_PROGRAMS is not set";
  EXPECT_EQ(check_ptd_file(PtdPath()), "");
  const auto ptd = ReadFile(PtdPath());
  ASSERT_GT(ptd.size(), 64u);
  EXPECT_EQ(check_ptd(ptd.data(), ptd.size()), "");
}

TEST(PtdCheck, TheFuzzersCrashingFileIsRefused) {
  // [u32 .pte length][.pte][.ptd], as fuzz_program reads it.
  const auto input = ReadFile(ASCEND_PTD_REGRESSION_INPUT);
  ASSERT_GT(input.size(), 4u);
  uint32_t pte_size = 0;
  std::memcpy(&pte_size, input.data(), sizeof(pte_size));
  ASSERT_LT(pte_size + 4u, input.size());
  std::vector<uint8_t> ptd(input.begin() + 4 + pte_size, input.end());
  EXPECT_NE(check_ptd(ptd.data(), ptd.size()), "");
}

TEST(PtdCheck, TruncationsAreRefused) {
  const auto ptd = ReadFile(PtdPath());
  ASSERT_GT(ptd.size(), 64u);
  auto header =
      executorch::extension::FlatTensorHeader::Parse(ptd.data(), ptd.size());
  ASSERT_TRUE(header.ok());
  const size_t flatbuffer_end =
      header->flatbuffer_offset + header->flatbuffer_size;
  for (size_t cut : {size_t{0}, size_t{7}, size_t{40}, size_t{63},
                     flatbuffer_end / 2, flatbuffer_end - 1}) {
    std::vector<uint8_t> part(ptd.begin(), ptd.begin() + cut);
    EXPECT_NE(check_ptd(part.data(), part.size()), "") << "cut at " << cut;
  }
}

TEST(PtdCheck, EveryByteFlipIsRefusedOrReadSafely) {
  const auto ptd = ReadFile(PtdPath());
  auto header =
      executorch::extension::FlatTensorHeader::Parse(ptd.data(), ptd.size());
  ASSERT_TRUE(header.ok());
  const size_t end = header->flatbuffer_offset + header->flatbuffer_size;
  size_t refused = 0;
  for (size_t at = 0; at < end; ++at) {
    for (uint8_t mask : {uint8_t{0xff}, uint8_t{0x01}, uint8_t{0x80}}) {
      std::vector<uint8_t> mutated = ptd;
      mutated[at] ^= mask;
      if (check_ptd(mutated.data(), mutated.size()).empty()) {
        // The root offset and the identifier are never accepted changed.
        EXPECT_GE(at, 8u) << "flip ^" << int(mask) << " at " << at;
        ReadEverything(mutated);
      } else {
        ++refused;
      }
    }
  }
  // Key bytes, padding and a few counts can change harmlessly; offsets and
  // lengths cannot (1 848 flips of a 616-byte flatbuffer: 510 refused).
  EXPECT_GT(refused, end / 2);
}

}  // namespace
