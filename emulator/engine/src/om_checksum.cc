// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CRC-32 for the .om trailer: catches accidental damage (a truncated copy, a
// flipped bit) with a clear message before any field is interpreted.
//
// zlib's crc32 (the same CRC-32 as before, so the format did not change)
// rather than our own loop: its table-driven braided implementation runs at
// several GB/s where a byte-at-a-time table loop cost 8 instructions per
// byte, which made the checksum a large part of loading a model whose
// weights are inline (docs/om-format.md, docs/benchmarks.md "Load").
#include <zlib.h>

#include <cstdint>

#include "ascend_emu/om_format.h"

namespace ascend_emu {

uint32_t OmChecksum(const uint8_t* data, size_t size) {
  return static_cast<uint32_t>(
      crc32_z(crc32_z(0L, Z_NULL, 0), data, static_cast<z_size_t>(size)));
}

}  // namespace ascend_emu
