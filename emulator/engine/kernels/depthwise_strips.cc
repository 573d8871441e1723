// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Depthwise 3x3 planes, stride 1 or 2, in vertical strips
// (depthwise_strips.h).
//
// Why a strip: walking one vector of output columns down the plane, each
// input row is loaded once (three shifted vectors) and feeds the three
// output rows it belongs to, whose partial sums ride along in registers
// (bottom row finished and stored, middle and top carried to the next input
// row). That is 9 multiply-adds and 2 adds per output vector: no
// zero-bordered copy of the plane (it cost a quarter of the time at
// [64, 32, 32]), the bias is where the top row's sum starts. The padding
// columns are zeros shifted into the edge strips' vectors in registers, the
// padding rows are the taps skipped at the first and last row.
//
// Written with GNU vector extensions (GCC and Clang), one vector per
// EXECUTORCH_ASCEND_EMULATOR_ARCH's widest float register: 16 floats with
// AVX-512, 8 with AVX, 4 otherwise (SSE2, the portable build): vector types
// keep the carried sums in registers by construction, where conv.cc's
// plain-loop blocks (4 rows x 16 columns, left to the auto-vectoriser) ran
// at half this speed; oneDNN's depthwise kernels want blocked layouts whose
// reorders cost more than the taps (docs/emulator-kernels.md).
// Other compilers take conv.cc's block path (Depthwise3x3StripsFit false).
#include "depthwise_strips.h"

#include <algorithm>
#include <cstring>

#include "gnu_vectors.h"

#if defined(__GNUC__) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define ASCEND_EMU_DW_STRIPS 1
#endif
#endif

namespace ascend_emu {
namespace kernels {

#ifdef ASCEND_EMU_DW_STRIPS
namespace {

using gnu_vectors::kLanes;
using gnu_vectors::Load;
using gnu_vectors::Store;
using gnu_vectors::Vec;

// Input columns j-1, j, j+1 of one row for the strip at column j: at the
// left edge (j = 0) column -1 is a zero shifted in, at the right edge
// (j = w - kLanes) column w is.
template <bool kLeft, bool kRight>
inline void Shifted(const float* row, Vec* left, Vec* mid, Vec* right) {
  const Vec zero = Vec{};
  const Vec m = Load(row);
  *mid = m;
#if defined(__AVX512F__)
  *left = kLeft ? __builtin_shufflevector(m, zero, 16, 0, 1, 2, 3, 4, 5, 6, 7,
                                          8, 9, 10, 11, 12, 13, 14)
                : Load(row - 1);
  *right = kRight ? __builtin_shufflevector(m, zero, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                            10, 11, 12, 13, 14, 15, 16)
                  : Load(row + 1);
#elif defined(__AVX__)
  *left = kLeft ? __builtin_shufflevector(m, zero, 8, 0, 1, 2, 3, 4, 5, 6)
                : Load(row - 1);
  *right = kRight ? __builtin_shufflevector(m, zero, 1, 2, 3, 4, 5, 6, 7, 8)
                  : Load(row + 1);
#else
  *left = kLeft ? __builtin_shufflevector(m, zero, 4, 0, 1, 2) : Load(row - 1);
  *right =
      kRight ? __builtin_shufflevector(m, zero, 1, 2, 3, 4) : Load(row + 1);
#endif
}

// One strip of kLanes output columns; x at the input column of the strip's
// middle tap (output column c0 - pl + 1), y at output column c0. Output row
// r = b + taps 0-2 x input row r - pt + taps 3-5 x row r - pt + 1 + taps
// 6-8 x row r - pt + 2; rows outside [0, h) are the zero padding.
template <bool kLeft, bool kRight>
void Strip(const Vec* t, Vec b, const float* __restrict x, int64_t h, int64_t w,
           int64_t pt, int64_t oh_n, int64_t ow_n, float* __restrict y) {
  Vec l, m, r;
  // `mid`: output row r's sum so far (its top and middle rows), `top`:
  // output row r + 1's (its top row).
  Vec mid = b, top = b;
  if (pt == 0) {  // input row 0 is output row 0's top row
    Shifted<kLeft, kRight>(x, &l, &m, &r);
    mid = b + t[0] * l + t[1] * m + t[2] * r;
    x += w;
  }
  if (2 - pt <= h) {  // input row 1 - pt: output 0's middle, output 1's top
    Shifted<kLeft, kRight>(x, &l, &m, &r);
    mid = mid + (t[3] * l + t[4] * m + t[5] * r);
    top = b + t[0] * l + t[1] * m + t[2] * r;
    x += w;
  }
  // Output rows whose bottom row (r - pt + 2) is inside the plane.
  const int64_t inside = std::min(oh_n, std::max<int64_t>(0, h + pt - 2));
  int64_t row = 0;
  for (; row < inside; ++row) {
    Shifted<kLeft, kRight>(x, &l, &m, &r);
    // The row's sums apart, then one add each onto the carried sums: the
    // chain carried from row to row is one add, not three multiply-adds
    // (~3% here; the adds go to the otherwise idle FP add ports).
    const Vec bottom_taps = t[6] * l + t[7] * m + t[8] * r;
    const Vec mid_taps = t[3] * l + t[4] * m + t[5] * r;
    Store(y, mid + bottom_taps);
    y += ow_n;
    x += w;
    mid = top + mid_taps;
    top = b + t[0] * l + t[1] * m + t[2] * r;
  }
  for (; row < oh_n; ++row) {  // bottom rows in the padding
    Store(y, mid);
    y += ow_n;
    mid = top;
    top = b;
  }
}

// Stride 2: output column c reads input columns 2c - 1, 2c, 2c + 1. Two
// loads of 2 * kLanes input columns split into the even (2c) and odd
// (2c + 1) ones; the odd ones moved one lane up, with column 2c0 - 1 (or the
// left padding's zero) shifted in, are the 2c - 1 ones.
inline void Stride2Split(const float* row, float before, Vec* left, Vec* mid,
                         Vec* right) {
  const Vec a = Load(row), b = Load(row + kLanes);
  const Vec prev = Vec{} + before;
#if defined(__AVX512F__)
  *mid = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                 22, 24, 26, 28, 30);
  *right = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21,
                                   23, 25, 27, 29, 31);
  *left = __builtin_shufflevector(*right, prev, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                  9, 10, 11, 12, 13, 14);
#elif defined(__AVX__)
  *mid = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
  *right = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
  *left = __builtin_shufflevector(*right, prev, 8, 0, 1, 2, 3, 4, 5, 6);
#else
  *mid = __builtin_shufflevector(a, b, 0, 2, 4, 6);
  *right = __builtin_shufflevector(a, b, 1, 3, 5, 7);
  *left = __builtin_shufflevector(*right, prev, 4, 0, 1, 2);
#endif
}

// One stride-2 strip: x at input column 2 * c0, y at output column c0.
// Output row r = b + taps 0-2 x row 2r - 1 + taps 3-5 x row 2r + taps 6-8
// x row 2r + 1; the odd row's top-tap sum is carried to output row r + 1.
// Row -1 and rows >= h are padding.
template <bool kLeft>
void Stride2Strip(const Vec* t, Vec b, const float* __restrict x, int64_t h,
                  int64_t w, int64_t oh_n, int64_t ow_n, float* __restrict y) {
  Vec carry = b;
  for (int64_t r = 0; r < oh_n; ++r) {
    const float* row = x + 2 * r * w;
    Vec l, m, rt;
    Stride2Split(row, kLeft ? 0.0f : row[-1], &l, &m, &rt);
    Vec acc = carry + (t[3] * l + t[4] * m + t[5] * rt);
    if (2 * r + 1 < h) {
      row += w;
      Stride2Split(row, kLeft ? 0.0f : row[-1], &l, &m, &rt);
      acc = acc + (t[6] * l + t[7] * m + t[8] * rt);
      carry = b + t[0] * l + t[1] * m + t[2] * rt;
    }
    Store(y + r * ow_n, acc);
  }
}

// Stride 2 with no padding at the top and left (TF "same" on an even
// plane: pads 0 before, 1 after): output column c reads input columns 2c,
// 2c + 1, 2c + 2. The even and odd columns as above; the 2c + 2 ones are the
// even ones moved one lane down, with column 2 (c0 + kLanes) (`after`: the
// next strip's first, or the right padding's zero) shifted in.
inline void Stride2SplitPad0(const float* row, float after, Vec* left, Vec* mid,
                             Vec* right) {
  const Vec a = Load(row), b = Load(row + kLanes);
  const Vec next = Vec{} + after;
#if defined(__AVX512F__)
  *left = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                  22, 24, 26, 28, 30);
  *mid = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21,
                                 23, 25, 27, 29, 31);
  *right = __builtin_shufflevector(*left, next, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                   11, 12, 13, 14, 15, 16);
#elif defined(__AVX__)
  *left = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
  *mid = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
  *right = __builtin_shufflevector(*left, next, 1, 2, 3, 4, 5, 6, 7, 8);
#else
  *left = __builtin_shufflevector(a, b, 0, 2, 4, 6);
  *mid = __builtin_shufflevector(a, b, 1, 3, 5, 7);
  *right = __builtin_shufflevector(*left, next, 1, 2, 3, 4);
#endif
}

// One stride-2, pads-0 strip: x at input column 2 * c0, y at output column
// c0. Output row r = b + taps 0-2 x row 2r + taps 3-5 x row 2r + 1 + taps
// 6-8 x row 2r + 2; row 2r + 2's top-tap sum is carried to output row
// r + 1; rows >= h are padding. kEdge: column 2 (c0 + kLanes) is the right
// padding.
template <bool kEdge>
void Stride2Pad0Strip(const Vec* t, Vec b, const float* __restrict x, int64_t h,
                      int64_t w, int64_t oh_n, int64_t ow_n,
                      float* __restrict y) {
  const int64_t after = 2 * kLanes;
  Vec l, m, rt;
  Stride2SplitPad0(x, kEdge ? 0.0f : x[after], &l, &m, &rt);
  Vec carry = b + t[0] * l + t[1] * m + t[2] * rt;
  for (int64_t r = 0; r < oh_n; ++r) {
    const float* row = x + (2 * r + 1) * w;
    Stride2SplitPad0(row, kEdge ? 0.0f : row[after], &l, &m, &rt);
    Vec acc = carry + (t[3] * l + t[4] * m + t[5] * rt);
    if (2 * r + 2 < h) {
      row += w;
      Stride2SplitPad0(row, kEdge ? 0.0f : row[after], &l, &m, &rt);
      acc = acc + (t[6] * l + t[7] * m + t[8] * rt);
      carry = b + t[0] * l + t[1] * m + t[2] * rt;
    }
    Store(y + r * ow_n, acc);
  }
}

}  // namespace

bool Depthwise3x3Stride2Pad0StripsFit(int64_t h, int64_t w, int64_t oh_n,
                                      int64_t ow_n) {
  // Every output row's middle row inside the plane, every strip's loads
  // too (columns up to 2 * ow - 1).
  return ow_n >= kLanes && 2 * ow_n <= w && oh_n >= 1 && 2 * oh_n <= h;
}

void Depthwise3x3Stride2Pad0Strips(const float* x, const float* tap, int64_t h,
                                   int64_t w, int64_t oh_n, int64_t ow_n,
                                   float b, float* y) {
  Vec t[9];
  for (int i = 0; i < 9; ++i) t[i] = Vec{} + tap[i];
  const Vec bv = Vec{} + b;
  // The last strip moved left to end at the row's end (overlapping the one
  // before); only it may read column 2 * ow, inside the plane when W is odd,
  // else the padding.
  for (int64_t c = 0; c < ow_n - kLanes; c += kLanes) {
    Stride2Pad0Strip<false>(t, bv, x + 2 * c, h, w, oh_n, ow_n, y + c);
  }
  const int64_t c = ow_n - kLanes;
  if (2 * ow_n < w) {
    Stride2Pad0Strip<false>(t, bv, x + 2 * c, h, w, oh_n, ow_n, y + c);
  } else {
    Stride2Pad0Strip<true>(t, bv, x + 2 * c, h, w, oh_n, ow_n, y + c);
  }
}

bool Depthwise3x3Stride2StripsFit(int64_t h, int64_t w, int64_t oh_n,
                                  int64_t ow_n) {
  return ow_n >= kLanes && w == 2 * ow_n && oh_n >= 1 && 2 * (oh_n - 1) < h;
}

void Depthwise3x3Stride2Strips(const float* x, const float* tap, int64_t h,
                               int64_t w, int64_t oh_n, int64_t ow_n, float b,
                               float* y) {
  Vec t[9];
  for (int i = 0; i < 9; ++i) t[i] = Vec{} + tap[i];
  const Vec bv = Vec{} + b;
  Stride2Strip<true>(t, bv, x, h, w, oh_n, ow_n, y);
  // The last strip moved left to end at the row's end, as above.
  for (int64_t c = kLanes; c < ow_n; c += kLanes) {
    if (c > ow_n - kLanes) c = ow_n - kLanes;
    Stride2Strip<false>(t, bv, x + 2 * c, h, w, oh_n, ow_n, y + c);
  }
}

bool Depthwise3x3StripsFit(int64_t h, int64_t w, int64_t pt, int64_t pl,
                           int64_t ow) {
  // At most one padding column each side: output column ow - 1 reads input
  // columns up to ow - pl + 1.
  return (pt == 0 || pt == 1) && (pl == 0 || pl == 1) && ow >= kLanes &&
         ow - pl + 1 <= w && h >= 1;
}

void Depthwise3x3Strips(const float* x, const float* tap, int64_t h, int64_t w,
                        int64_t pt, int64_t pl, int64_t oh, int64_t ow, float b,
                        float* y) {
  Vec t[9];
  for (int i = 0; i < 9; ++i) t[i] = Vec{} + tap[i];
  const Vec bv = Vec{} + b;
  // Edge strips shift in a zero where they read a padding column.
  const bool right_pad = ow - pl + 1 == w;
  auto strip = [&](int64_t c, bool left, bool right) {
    const float* xc = x + c - pl + 1;
    float* yc = y + c;
    if (left && right) {
      Strip<true, true>(t, bv, xc, h, w, pt, oh, ow, yc);
    } else if (left) {
      Strip<true, false>(t, bv, xc, h, w, pt, oh, ow, yc);
    } else if (right) {
      Strip<false, true>(t, bv, xc, h, w, pt, oh, ow, yc);
    } else {
      Strip<false, false>(t, bv, xc, h, w, pt, oh, ow, yc);
    }
  };
  if (ow == kLanes) {
    strip(0, pl == 1, right_pad);
    return;
  }
  strip(0, pl == 1, false);
  // Inner strips read neither padding column; the last one is moved left to
  // end at the right edge strip (recomputing a few columns is cheaper than
  // a remainder loop).
  for (int64_t c = kLanes; c < ow - kLanes; c += kLanes) {
    if (c > ow - 2 * kLanes) c = ow - 2 * kLanes;
    strip(c, false, false);
  }
  strip(ow - kLanes, false, right_pad);
}

#else  // no GNU vector extensions: conv.cc keeps its block path

bool Depthwise3x3StripsFit(int64_t, int64_t, int64_t, int64_t, int64_t) {
  return false;
}
bool Depthwise3x3Stride2StripsFit(int64_t, int64_t, int64_t, int64_t) {
  return false;
}
bool Depthwise3x3Stride2Pad0StripsFit(int64_t, int64_t, int64_t, int64_t) {
  return false;
}
void Depthwise3x3Stride2Pad0Strips(const float*, const float*, int64_t, int64_t,
                                   int64_t, int64_t, float, float*) {}
void Depthwise3x3Stride2Strips(const float*, const float*, int64_t, int64_t,
                               int64_t, int64_t, float, float*) {}
void Depthwise3x3Strips(const float*, const float*, int64_t, int64_t, int64_t,
                        int64_t, int64_t, int64_t, float, float*) {}

#endif

}  // namespace kernels
}  // namespace ascend_emu
