// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Random inputs for the data-movement, normalization, Resize, GridSample and
// ConvTranspose kernels in kernels_test_fuzz.cc: their operands (starts,
// pads, scales, ...) are constant inputs, so the fuzzer must build them with
// values near the valid range to get both acceptances and refusals.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

// Fills `in` and returns true when `op` is one of these kernels. `F` is the
// fuzzer (Int(lo, hi), Coin(percent), RandomTensor(max_rank)).
template <typename F>
bool MovementFuzzInputs(F& f, const std::string& op,
                        std::vector<HostTensor>* in) {
  auto seed = [&] { return static_cast<uint32_t>(f.Int(0, 1 << 30)); };
  auto shape = [&](int lo_rank, int hi_rank, int64_t hi_dim) {
    Shape s;
    s.rank = static_cast<int32_t>(f.Int(lo_rank, hi_rank));
    for (int32_t i = 0; i < s.rank; ++i) {
      s.dims[i] = f.Coin(6) ? 0 : f.Int(1, hi_dim);
    }
    return s;
  };
  // A 1-D int64 operand, usually constant.
  auto ints = [&](size_t n, int64_t lo, int64_t hi) {
    if (f.Coin(5)) n = static_cast<size_t>(f.Int(0, 4));
    std::vector<int64_t> v(n);
    for (int64_t& x : v) x = f.Int(lo, hi);
    HostTensor t = HostTensor::I64(S({static_cast<int64_t>(n)}), v);
    return f.Coin(93) ? t.Const() : t;
  };
  auto floats = [&](size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float& x : v) x = lo + (hi - lo) * static_cast<float>(f.Int(0, 8)) / 8;
    HostTensor t = HostTensor::F32(S({static_cast<int64_t>(n)}), v);
    return f.Coin(93) ? t.Const() : t;
  };
  const HostTensor x =
      f.Coin(15) ? f.RandomTensor(4) : RandF32(shape(1, 4, 5), seed());
  const size_t r = static_cast<size_t>(x.shape.rank);
  if (op == "Slice") {
    const size_t n = static_cast<size_t>(f.Int(1, r > 0 ? r : 1));
    *in = {x, ints(n, -7, 7), ints(n, -7, 7)};
    if (f.Coin(70)) in->push_back(ints(n, -4, 3));
    if (in->size() == 4 && f.Coin(70)) in->push_back(ints(n, -3, 3));
  } else if (op == "Split") {
    *in = {x};
    if (f.Coin(40)) in->push_back(ints(1, 0, 5));
  } else if (op == "Squeeze") {
    Shape s = shape(0, 5, 3);
    *in = {RandF32(s, seed())};
    if (f.Coin(60)) in->push_back(ints(f.Int(0, 2), -5, 4));
  } else if (op == "Unsqueeze") {
    *in = {x, ints(f.Int(0, 3), -6, 6)};
  } else if (op == "Expand") {
    *in = {x, ints(f.Int(0, 5), 0, 4)};
  } else if (op == "Tile") {
    *in = {x, ints(r, 0, 3)};
  } else if (op == "Gather") {
    Shape s = shape(0, 2, 4);
    std::vector<int64_t> v(static_cast<size_t>(s.numel()));
    for (int64_t& k : v) k = f.Int(-7, 7);
    *in = {x, HostTensor::I64(s, v)};
  } else if (op == "GatherElements") {
    Shape s = x.shape;
    for (int32_t i = 0; i < s.rank; ++i) {
      if (f.Coin(30)) s.dims[i] = f.Int(0, 5);
    }
    std::vector<int64_t> v(static_cast<size_t>(s.numel()));
    for (int64_t& k : v) k = f.Int(-7, 7);
    *in = {x, HostTensor::I64(s, v)};
  } else if (op == "Pad") {
    *in = {x, ints(2 * r, -2, 3)};
    if (f.Coin(40)) {
      HostTensor c = HostTensor::F32(S({}), {0.5f});
      in->push_back(f.Coin(90) ? c.Const() : c);
    }
  } else if (op == "Resize") {
    Shape s = shape(4, 4, 4);
    if (f.Coin(10)) s = shape(2, 5, 4);
    *in = {RandF32(s, seed()), HostTensor::Absent()};
    // N and C keep their size in most cases (the kernel refuses others).
    const bool keep = f.Coin(85);
    if (f.Coin(60)) {
      HostTensor t = floats(static_cast<size_t>(s.rank), 0.25f, 3.0f);
      if (keep && s.rank == 4) {
        const float one = 1.0f;
        std::memcpy(t.bytes.data(), &one, 4);
        std::memcpy(t.bytes.data() + 4, &one, 4);
      }
      in->push_back(t);
    } else {
      in->push_back(HostTensor::Absent());
      HostTensor t = ints(static_cast<size_t>(s.rank), 0, 7);
      if (keep && s.rank == 4 && t.shape.dims[0] == 4) {
        std::memcpy(t.bytes.data(), &s.dims[0], 16);
      }
      in->push_back(t);
    }
  } else if (op == "GridSample") {
    // X mostly 4-D, the grid mostly (N, h, w, 2) with X's N, values about
    // [-3, 3] (outside the input a third of the time).
    Shape s = f.Coin(90) ? shape(4, 4, 4) : shape(2, 5, 4);
    Shape g = shape(4, 4, 4);
    if (f.Coin(85) && s.rank >= 1) g.dims[0] = s.dims[0];
    if (f.Coin(85)) g.dims[3] = 2;
    HostTensor grid = RandF32(g, seed());
    for (size_t i = 0; i + 4 <= grid.bytes.size(); i += 4) {
      float v;
      std::memcpy(&v, grid.bytes.data() + i, 4);
      v *= 3.0f;
      std::memcpy(grid.bytes.data() + i, &v, 4);
    }
    *in = {RandF32(s, seed()), grid};
  } else if (op == "ConvTranspose") {
    Shape s = shape(f.Coin(85) ? 4 : 3, 4, 5);
    for (int32_t i = 2; i < s.rank; ++i) s.dims[i] = f.Int(1, 5);
    Shape w = s;
    w.dims[0] = f.Coin(85) ? s.dims[1] : f.Int(0, 4);
    w.dims[1] = f.Int(0, 3);
    for (int32_t i = 2; i < w.rank; ++i) w.dims[i] = f.Int(1, 3);
    *in = {RandF32(s, seed()), RandF32(w, seed())};
    if (f.Coin(50)) in->push_back(RandF32(S({f.Int(0, 6)}), seed()));
  } else if (op == "LayerNormalization") {
    const int64_t k = r == 0 ? 0 : f.Int(0, static_cast<int64_t>(r) - 1);
    Shape ss;
    for (size_t i = static_cast<size_t>(k); i < r; ++i) {
      ss.dims[ss.rank++] = f.Coin(90) ? x.shape.dims[i] : f.Int(0, 4);
    }
    *in = {x, RandF32(ss, seed())};
    if (f.Coin(50)) in->push_back(RandF32(ss, seed()));
  } else if (op == "BatchNormalization") {
    const int64_t c = r >= 2 ? x.shape.dims[1] : f.Int(0, 3);
    *in = {x};
    for (int i = 0; i < 4; ++i) {
      in->push_back(RandF32(S({f.Coin(95) ? c : f.Int(0, 4)}), seed()));
    }
  } else if (op == "ScatterElements") {
    // indices and updates mostly no larger than data off the (random) axis,
    // index values partly out of range.
    Shape s = x.shape;
    for (int32_t i = 0; i < s.rank; ++i) {
      if (f.Coin(30)) s.dims[i] = f.Int(0, 5);
    }
    std::vector<int64_t> v(static_cast<size_t>(s.numel()));
    for (int64_t& k : v) k = f.Int(-7, 7);
    *in = {x, HostTensor::I64(s, v),
           RandF32(f.Coin(90) ? s : shape(0, 3, 3), seed())};
  } else if (op == "ScatterND") {
    // indices [batch..., k] with k mostly in [1, rank]; index values partly
    // out of range; updates mostly of the shape ONNX requires.
    Shape is = shape(1, 3, 3);
    is.dims[is.rank - 1] = f.Coin(90)
                               ? f.Int(1, r > 0 ? static_cast<int64_t>(r) : 1)
                               : f.Int(0, 5);
    std::vector<int64_t> v(static_cast<size_t>(is.numel()));
    for (int64_t& k : v) k = f.Int(-7, 7);
    Shape us;
    for (int32_t i = 0; i + 1 < is.rank; ++i) us.dims[us.rank++] = is.dims[i];
    for (int64_t i = is.dims[is.rank - 1]; i < x.shape.rank; ++i) {
      if (us.rank < kMaxRank) us.dims[us.rank++] = x.shape.dims[i];
    }
    if (f.Coin(10) && us.rank > 0) us.dims[0] = f.Int(0, 4);
    *in = {x, HostTensor::I64(is, v), RandF32(us, seed())};
  } else {
    return false;
  }
  if (f.Coin(3)) in->push_back(f.RandomTensor(2));  // one input too many
  return true;
}

}  // namespace testing
}  // namespace ascend_emu
