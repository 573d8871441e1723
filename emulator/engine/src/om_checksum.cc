// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CRC-32 for the .om trailer: catches accidental damage (a truncated copy, a
// flipped bit) with a clear message before any field is interpreted.
//
// A library rather than our own loop (a byte-at-a-time table cost 8
// instructions per byte, a large part of loading a model whose weights are
// inline): ISA-L's crc32_gzip_refl when the build found it (carry-less
// multiply folding, chosen for the CPU at run time, x86-64 and aarch64;
// ~32 GB/s here), else zlib's table-driven crc32 (~5-7 GB/s). Both compute
// the same CRC-32 (IEEE 802.3, gzip's and zlib's), so the format does not
// depend on which one a build uses (docs/om-format.md, "Validation").
#include <cstdint>

#include "ascend_emu/om_format.h"

#if defined(EXECUTORCH_ASCEND_EMU_HAVE_ISAL)
#include <isa-l/crc.h>
#else
#include <zlib.h>
#endif

namespace ascend_emu {

uint32_t OmChecksum(const uint8_t* data, size_t size) {
#if defined(EXECUTORCH_ASCEND_EMU_HAVE_ISAL)
  return crc32_gzip_refl(0, data, static_cast<uint64_t>(size));
#else
  return static_cast<uint32_t>(
      crc32_z(crc32_z(0L, Z_NULL, 0), data, static_cast<z_size_t>(size)));
#endif
}

}  // namespace ascend_emu
