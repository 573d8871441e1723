// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Dynamic AIPP's parameter buffer: the bytes aclmdlSetInputAIPP writes into
// the model input ACL_DYNAMIC_AIPP_NAME ("ascend_dynamic_aipp_data") and the
// Aipp step of the model reads (docs/aipp.md, "Dynamic AIPP").
//
// The layout is CANN's (hicann/ge commit ffdcbc9f, inc/graph_metadef/common/
// dynamic_aipp.h: a 64-byte image-wide head, then one 96-byte record per
// image of the batch, so 64 + 96 * N bytes; GeExecutor::SetDynamicAippData
// copies the head, then each record). Written here as offsets, in our own
// words; every field is little-endian, as the device reads it. The input
// format is CANN's internal numbering (CceAippInputFormat in
// api/acl/acl_model/model/model_desc_internal.h), not aclAippInputFormat's:
// aclmdlSetAIPPInputFormat translates. min and var_reci are float16 bit
// patterns (the ACL setters convert the caller's floats).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ascend_emu {
namespace aipp {

// The name of the (first) parameter input (ACL_DYNAMIC_AIPP_NAME).
constexpr const char* kDataName = "ascend_dynamic_aipp_data";

// Sizes: the head, one image's record, the whole buffer for N images (what
// atc sizes the input to and aclmdlGetAippDataSize returns).
constexpr size_t kHeadBytes = 64;
constexpr size_t kImageBytes = 96;
constexpr size_t BufferBytes(uint64_t batch) {
  return kHeadBytes + kImageBytes * static_cast<size_t>(batch);
}

// The head.
constexpr size_t kInputFormat = 0;  // uint8, CceAippInputFormat
constexpr size_t kCscSwitch = 1;    // int8
constexpr size_t kRbuvSwap = 2;     // int8
constexpr size_t kAxSwap = 3;       // int8
constexpr size_t kBatchNum = 4;     // int8: the aclmdlAIPP's batch size
constexpr size_t kSrcW = 8;         // int32
constexpr size_t kSrcH = 12;        // int32
constexpr size_t kMatrix = 16;      // 9 x int16, r0c0 .. r2c2
constexpr size_t kOutputBias = 40;  // 3 x uint8 (RGB -> YUV)
constexpr size_t kInputBias = 43;   // 3 x uint8 (YUV -> RGB)

// One image's record, from the start of the record.
constexpr size_t kCropSwitch = 0;     // int8
constexpr size_t kScfSwitch = 1;      // int8 (resize: refused)
constexpr size_t kPaddingSwitch = 2;  // int8
constexpr size_t kRotateSwitch = 3;   // int8 (rotation: refused)
constexpr size_t kCropStartW = 8;     // int32
constexpr size_t kCropStartH = 12;    // int32
constexpr size_t kCropW = 16;         // int32
constexpr size_t kCropH = 20;         // int32
constexpr size_t kScfSizes = 24;      // 4 x int32: in w, in h, out w, out h
constexpr size_t kPadding = 40;       // 4 x int32: top, bottom, left, right
constexpr size_t kMean = 56;          // 4 x int16
constexpr size_t kMin = 64;           // 4 x uint16 (float16 bits)
constexpr size_t kVarReci = 72;       // 4 x uint16 (float16 bits)

// CceAippInputFormat values (the ones the emulator names).
constexpr uint8_t kCceYuv420sp = 1;
constexpr uint8_t kCceXrgb8888 = 2;
constexpr uint8_t kCceRgb888 = 5;
constexpr uint8_t kCceYuv400 = 10;

// A float's float16 bits as CANN's ACL converts it (Fp16Type in
// acl_aipp_om2.cpp): rounded to nearest even, NaN and values past float16's
// range saturated to +-65504. And a float16's value.
uint16_t ToHalfBits(float v);
float FromHalfBits(uint16_t bits);

template <typename T>
T Read(const uint8_t* base, size_t offset) {
  T v;
  std::memcpy(&v, base + offset, sizeof(T));
  return v;
}

template <typename T>
void Write(uint8_t* base, size_t offset, T v) {
  std::memcpy(base + offset, &v, sizeof(T));
}

}  // namespace aipp
}  // namespace ascend_emu
