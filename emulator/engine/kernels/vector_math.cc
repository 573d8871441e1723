// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Vectorised float32 blocks on Eigen arrays (vector_math.h).
#include "vector_math.h"

#include <Eigen/Core>
#include <cmath>
#include <unsupported/Eigen/SpecialFunctions>

#include "numeric.h"

namespace ascend_emu {
namespace kernels {
namespace {

using ConstArray = Eigen::Map<const Eigen::ArrayXf>;
using Array = Eigen::Map<Eigen::ArrayXf>;

ConstArray In(const float* x, int64_t n) {
  return ConstArray(x, static_cast<Eigen::Index>(n));
}
Array Out(float* y, int64_t n) {
  return Array(y, static_cast<Eigen::Index>(n));
}

// Eigen clamps erf/tanh arguments with min/max, which turn NaN into a bound:
// y[i] = x[i] wherever the (unchanged) input x[i] is NaN.
void RestoreNaN(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) y[i] = x[i];
  }
}

// Below ln(FLT_MIN) expf's result is subnormal or 0, and Eigen's vectorised
// exp is not exact there: it clamps its argument (at about -88.38 with SSE,
// so exp(-inf) came out 2.9e-39, not 0; a masked softmax entry must be 0).
// Those few elements are recomputed with std::exp.
// Below -104 (< ln 2^-150) expf rounds to +0 exactly: those elements are
// set to 0, and std::exp runs only in the narrow band between, and only when
// some argument is in it: one loop the compiler vectorises zeroes and looks
// for the band (a causal mask's finfo.min, half of a decoder's attention
// scores, paid one std::exp call each before, then a scalar pass per row).
// y = fixed exp(x - shift), given Eigen's exp of it.
constexpr float kExpSubnormalBelow = -87.33654475f;
constexpr float kExpZeroBelow = -104.0f;
void FixExpUnderflow(const float* x, float shift, float* y, int64_t n) {
  int in_band = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float arg = x[i] - shift;
    in_band |= static_cast<int>(arg < kExpSubnormalBelow) &
               static_cast<int>(arg >= kExpZeroBelow);
    y[i] = arg < kExpZeroBelow ? 0.0f : y[i];
  }
  if (in_band == 0) return;
  for (int64_t i = 0; i < n; ++i) {
    const float arg = x[i] - shift;
    if (arg < kExpSubnormalBelow && arg >= kExpZeroBelow) y[i] = std::exp(arg);
  }
}
void RestoreExpUnderflow(const float* x, float* y, int64_t n) {
  FixExpUnderflow(x, 0.0f, y, n);  // x - 0 is x, NaN and -0 included
}

// Eigen's packet exp overflows early: from its clamp bound (about 88.376) up
// to ln(FLT_MAX) (88.7228) it returned +inf where expf is finite (up to
// 3.4e38). Exp's argument is unshifted (Softmax's and Sigmoid's are <= 0), so
// ExpBlock recomputes that band with std::exp, again only when some argument
// is in it.
constexpr float kExpPacketOverflowAbove = 88.0f;
void RestoreExpRange(const float* x, float* y, int64_t n) {
  RestoreExpUnderflow(x, y, n);
  int in_band = 0;
  for (int64_t i = 0; i < n; ++i) {
    in_band |= static_cast<int>(x[i] > kExpPacketOverflowAbove);
  }
  if (in_band == 0) return;
  for (int64_t i = 0; i < n; ++i) {
    if (x[i] > kExpPacketOverflowAbove) y[i] = std::exp(x[i]);
  }
}

// y = f(x), then fix(x, y, n) with the input x; over a stack copy of each
// chunk when x and y alias, so the input is still there to read.
template <typename F, typename Fix>
void FixedBlock(const float* x, float* y, int64_t n, F f, Fix fix) {
  constexpr int64_t kChunk = 256;
  if (x != y) {
    Out(y, n) = f(In(x, n));
    fix(x, y, n);
    return;
  }
  alignas(64) float copy[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t len = n - i < kChunk ? n - i : kChunk;
    std::copy(x + i, x + i + len, copy);
    Out(y + i, len) = f(In(copy, len));
    fix(copy, y + i, len);
  }
}

}  // namespace

void ErfBlock(const float* x, float* y, int64_t n) {
  FixedBlock(
      x, y, n, [](const ConstArray& a) { return a.erf(); }, RestoreNaN);
}

void TanhBlock(const float* x, float* y, int64_t n) {
  FixedBlock(
      x, y, n, [](const ConstArray& a) { return a.tanh(); }, RestoreNaN);
}

void ExpBlock(const float* x, float* y, int64_t n) {
  FixedBlock(
      x, y, n, [](const ConstArray& a) { return a.exp(); }, RestoreExpRange);
}

void SigmoidBlock(const float* x, float* y, int64_t n) {
  // The stable form of the scalar kernel, e = exp(-|x|) (never overflows),
  // y = 1 / (1 + e) for x >= 0 and e / (1 + e) below: Eigen's own logistic
  // clamps its argument at -18, which would lose the tail below 1.5e-8. The
  // exponent's argument goes in `arg` first, so x and y may alias.
  constexpr int64_t kChunk = 256;
  alignas(64) float arg[kChunk];
  alignas(64) float e[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t len = n - i < kChunk ? n - i : kChunk;
    const ConstArray xs = In(x + i, len);
    Out(arg, len) = -xs.abs();
    Out(e, len) = In(arg, len).exp();
    RestoreExpUnderflow(arg, e, len);
    const ConstArray es = In(e, len);
    Out(y + i, len) = (xs >= 0.0f).select(1.0f / (1.0f + es), es / (1.0f + es));
    RestoreNaN(arg, y + i, len);  // arg is NaN exactly where x is
  }
}

void SwishBlock(const float* x, float* y, int64_t n) {
  // Chunks of the Sigmoid on the stack, so x is read from memory once and y
  // written once (unfused: Sigmoid's output written, then read again by the
  // Mul beside x). x and y may alias: each element of x is read before its
  // y is written.
  constexpr int64_t kChunk = 256;
  alignas(64) float sigmoid[kChunk];
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t len = n - i < kChunk ? n - i : kChunk;
    SigmoidBlock(x + i, sigmoid, len);
    Out(y + i, len) = In(x + i, len) * In(sigmoid, len);
  }
}

float ExpShiftSumBlock(const float* x, float shift, float* y, int64_t n) {
  FixedBlock(
      x, y, n, [shift](const ConstArray& a) { return (a - shift).exp(); },
      [shift](const float* in, float* out, int64_t len) {
        FixExpUnderflow(in, shift, out, len);
      });
  return Out(y, n).sum();
}

float MaxBlock(const float* x, int64_t n) {
  return In(x, n).maxCoeff<Eigen::PropagateNaN>();
}

void MapFloatBlocks(const RunContext& ctx,
                    void (*block)(const float*, float*, int64_t)) {
  const TensorRef& x = ctx.inputs[0];
  const int64_t n = x.shape.numel();
  if (x.dtype == DType::kFloat32) {
    block(x.as<const float>(), ctx.outputs[0].as<float>(), n);
    return;
  }
  constexpr int64_t kChunk = 256;
  alignas(64) float buf[kChunk];
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.as<const T>();
    T* py = ctx.outputs[0].as<T>();
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t len = n - i < kChunk ? n - i : kChunk;
      for (int64_t j = 0; j < len; ++j) buf[j] = static_cast<float>(px[i + j]);
      block(buf, buf, len);
      for (int64_t j = 0; j < len; ++j) py[i + j] = T(buf[j]);
    }
  };
  if (x.dtype == DType::kFloat16) {
    run(Half{});
  } else {
    run(BFloat16{});
  }
}

}  // namespace kernels
}  // namespace ascend_emu
