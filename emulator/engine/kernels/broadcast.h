// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Numpy/ONNX multidirectional broadcasting shared by the elementwise binary
// kernels (arithmetic.cc, logical.cc): the one Infer of a broadcasting node,
// and the loops. The innermost output dim is a tight loop; the outer dims
// advance an odometer of input offsets, so there is no index arithmetic per
// element and no heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ascend_emu/kernel.h"
#include "ascend_emu/tensor.h"
#include "kernel_util.h"
#include "numeric.h"

namespace ascend_emu {
namespace kernels {

// Checks min..max inputs of one dtype accepted by `ok` (refused as not
// `accepted`), and sets output 0 to their broadcast shape with dtype
// `out_dtype` (or the inputs' dtype when out_dtype is not given). Attributes
// are the caller's to check.
template <typename Ok>
std::string InferBroadcast(const char* op, InferContext& ctx, size_t min,
                           size_t max, Ok ok, const char* accepted,
                           const DType* out_dtype = nullptr) {
  std::string err = CheckInputs(op, ctx, min, max);
  if (err.empty()) err = PrepareOutputs(op, ctx, 1);
  if (!err.empty()) return err;
  const TensorRef& a = ctx.inputs[0];
  if (!ok(a.dtype)) return Fail(op, DTypeRefusal(a.dtype, accepted));
  Shape out = a.shape;
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    const TensorRef& b = ctx.inputs[i];
    // Run reads every input (Max/Min are variadic): none may be absent.
    if (!b.present()) {
      return Fail(op, "input " + std::to_string(i) + " is absent");
    }
    if (b.dtype != a.dtype) {
      return Fail(op, std::string("input dtypes differ: ") +
                          DTypeName(a.dtype) + " and " + DTypeName(b.dtype));
    }
    if (!BroadcastShapes(out, b.shape, &out)) {
      return Fail(op, "shapes " + a.shape.ToString() + " and " +
                          b.shape.ToString() + " do not broadcast");
    }
  }
  return SetOutput(op, ctx, 0, out_dtype ? *out_dtype : a.dtype, out);
}

// y[i] = f(a[..], b[..]) over the broadcast output shape of y. `y` may alias
// `a` when a has y's shape (each element is read before it is written).
template <typename TA, typename TB, typename TY, typename F>
void BinaryBroadcast(const TensorRef& a, const TensorRef& b, const TensorRef& y,
                     F f) {
  const TA* pa = a.as<const TA>();
  const TB* pb = b.as<const TB>();
  TY* py = y.as<TY>();
  const int64_t n = y.shape.numel();
  if (n == 0) return;
  const int64_t na = a.shape.numel();
  const int64_t nb = b.shape.numel();
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i) py[i] = f(pa[i], pb[i]);
    return;
  }
  if (na == n && nb == 1) {
    const TB s = pb[0];
    for (int64_t i = 0; i < n; ++i) py[i] = f(pa[i], s);
    return;
  }
  if (na == 1 && nb == n) {
    const TA s = pa[0];
    for (int64_t i = 0; i < n; ++i) py[i] = f(s, pb[i]);
    return;
  }
  const int32_t r = y.shape.rank;  // >= 1 here: rank 0 has n == na == nb == 1
  int64_t sa[kMaxRank];
  int64_t sb[kMaxRank];
  BroadcastStrides(a.shape, r, sa);
  BroadcastStrides(b.shape, r, sb);
  const int64_t inner = y.shape.dims[r - 1];
  const int64_t ia = sa[r - 1];
  const int64_t ib = sb[r - 1];
  int64_t idx[kMaxRank] = {};
  int64_t oa = 0;
  int64_t ob = 0;
  for (int64_t o = 0; o < n; o += inner) {
    TY* row = py + o;
    const TA* ra = pa + oa;
    const TB* rb = pb + ob;
    // Unit or zero inner strides (a row against a row, or a row against one
    // element: bias adds, masks) get loops the compiler vectorises.
    if (ia == 1 && ib == 1) {
      for (int64_t j = 0; j < inner; ++j) row[j] = f(ra[j], rb[j]);
    } else if (ia == 1 && ib == 0) {
      const TB s = rb[0];
      for (int64_t j = 0; j < inner; ++j) row[j] = f(ra[j], s);
    } else if (ia == 0 && ib == 1) {
      const TA s = ra[0];
      for (int64_t j = 0; j < inner; ++j) row[j] = f(s, rb[j]);
    } else {
      for (int64_t j = 0; j < inner; ++j) row[j] = f(ra[j * ia], rb[j * ib]);
    }
    for (int32_t d = r - 2; d >= 0; --d) {
      oa += sa[d];
      ob += sb[d];
      if (++idx[d] < y.shape.dims[d]) break;
      oa -= sa[d] * y.shape.dims[d];
      ob -= sb[d] * y.shape.dims[d];
      idx[d] = 0;
    }
  }
}

// y[i] = f(a[..], b[..], c[..]) over the broadcast output shape of y.
template <typename TA, typename TB, typename TC, typename TY, typename F>
void TernaryBroadcast(const TensorRef& a, const TensorRef& b,
                      const TensorRef& c, const TensorRef& y, F f) {
  const TA* pa = a.as<const TA>();
  const TB* pb = b.as<const TB>();
  const TC* pc = c.as<const TC>();
  TY* py = y.as<TY>();
  const int64_t n = y.shape.numel();
  if (n == 0) return;
  const int32_t r = y.shape.rank;
  if (r == 0) {
    py[0] = f(pa[0], pb[0], pc[0]);
    return;
  }
  int64_t sa[kMaxRank];
  int64_t sb[kMaxRank];
  int64_t sc[kMaxRank];
  BroadcastStrides(a.shape, r, sa);
  BroadcastStrides(b.shape, r, sb);
  BroadcastStrides(c.shape, r, sc);
  const int64_t inner = y.shape.dims[r - 1];
  int64_t idx[kMaxRank] = {};
  int64_t oa = 0;
  int64_t ob = 0;
  int64_t oc = 0;
  for (int64_t o = 0; o < n; o += inner) {
    TY* row = py + o;
    const TA* ra = pa + oa;
    const TB* rb = pb + ob;
    const TC* rc = pc + oc;
    const int64_t ia = sa[r - 1];
    const int64_t ib = sb[r - 1];
    const int64_t ic = sc[r - 1];
    // Where's usual forms (every operand a row, or a scalar branch) get
    // loops the compiler vectorises.
    if (ia == 1 && ib == 1 && ic == 1) {
      for (int64_t j = 0; j < inner; ++j) row[j] = f(ra[j], rb[j], rc[j]);
    } else if (ia == 1 && ib == 1 && ic == 0) {
      const TC s = rc[0];
      for (int64_t j = 0; j < inner; ++j) row[j] = f(ra[j], rb[j], s);
    } else if (ia == 1 && ib == 0 && ic == 1) {
      const TB s = rb[0];
      for (int64_t j = 0; j < inner; ++j) row[j] = f(ra[j], s, rc[j]);
    } else {
      for (int64_t j = 0; j < inner; ++j) {
        row[j] = f(ra[j * ia], rb[j * ib], rc[j * ic]);
      }
    }
    for (int32_t d = r - 2; d >= 0; --d) {
      oa += sa[d];
      ob += sb[d];
      oc += sc[d];
      if (++idx[d] < y.shape.dims[d]) break;
      oa -= sa[d] * y.shape.dims[d];
      ob -= sb[d] * y.shape.dims[d];
      oc -= sc[d] * y.shape.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
