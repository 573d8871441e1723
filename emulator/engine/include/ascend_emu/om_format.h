// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's .om file: one writer and one bounds-checked reader
// (docs/om-format.md has the byte layout).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ascend_emu/program.h"

namespace ascend_emu {

constexpr uint32_t kOmFormatVersion = 3;

// Limits the reader enforces, so a corrupted count can neither exhaust memory
// nor overflow arithmetic. The writer refuses programs beyond them too.
struct OmLimits {
  static constexpr uint32_t kMaxStringBytes = 4096;
  static constexpr uint32_t kMaxIo = 1024;
  static constexpr uint32_t kMaxTensors = 1u << 20;
  static constexpr uint32_t kMaxOps = 1u << 20;
  static constexpr uint32_t kMaxOpInputs = 1024;
  static constexpr uint32_t kMaxOpOutputs = 1024;
  static constexpr uint32_t kMaxAttrs = 64;
  static constexpr uint32_t kMaxAttrElems = 1u << 16;
  static constexpr uint64_t kMaxArenaBytes = uint64_t{1} << 40;
  static constexpr uint64_t kMaxWeightBytes = uint64_t{1} << 40;
  static constexpr uint32_t kMaxSocVersionBytes = 64;
  static constexpr uint32_t kMaxExternalWeights = 1u << 16;
  // Shape gears: CANN's atc takes 2..100 gears (2..256 for Ascend950), and
  // ACL reports a gear's dims in one aclmdlIODims (ACL_MAX_DIM_CNT = 128).
  static constexpr uint32_t kMinGears = 2;
  static constexpr uint32_t kMaxGears = 256;
  static constexpr uint32_t kMaxGearPositions = 128;
  static constexpr int64_t kMaxGearValue = int64_t{1} << 40;
};

// Serializes `program`. Returns false (and sets *error) when a field is
// beyond OmLimits; structural validity is ValidateProgram's job.
bool WriteOm(const Program& program, std::vector<uint8_t>* out,
             std::string* error);

// Where the weight section of a parsed .om image lies: inside the image,
// not copied.
struct OmWeightSection {
  const uint8_t* data = nullptr;
  uint64_t size = 0;
};

// Parses an .om image into *program: magic, version, size, checksum, every
// length, count, enum value and dim. Does not check that indices and offsets
// point at sensible things (ValidateProgram does). Never reads outside
// [data, data + size). Leaves the weight section where it is:
// program->weights stays empty and *weights points into `data`, so a loader
// copies the weights once, straight to their memory (Model::Load).
bool ReadOmTables(const void* data, size_t size, Program* program,
                  OmWeightSection* weights, std::string* error);

// ReadOmTables, then the weight section copied into program->weights (for
// atc and tools that rewrite a program; loaders use ReadOmTables).
bool ReadOm(const void* data, size_t size, Program* program,
            std::string* error);

// Bytes of .om weight sections copied anywhere (ReadOm, Model::Load) since
// the process started: how tests show that a load copies the weights
// exactly once (aclEmuStats::weight_bytes_loaded).
uint64_t OmWeightBytesCopied();

// Copies `size` weight bytes of an image to `dst` and counts them in
// OmWeightBytesCopied(): the one place weight bytes leave an image.
void CopyOmWeights(uint8_t* dst, const uint8_t* src, size_t size);

// CRC-32 (IEEE 802.3, as zlib's crc32) of `size` bytes, the .om trailer's
// checksum.
uint32_t OmChecksum(const uint8_t* data, size_t size);

// Rewrites the size field and the checksum trailer of an .om image after
// its bytes were edited. For tests and tools that build deliberately odd
// files; returns false when `image` is too short to have a header.
bool ResealOm(std::vector<uint8_t>* image);

}  // namespace ascend_emu
