// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "const_ints.h"

#include <cstring>
#include <string>

#include "kernel_util.h"

namespace ascend_emu {
namespace kernels {

std::string ReadConstInts(const char* op, const char* what, const TensorRef& t,
                          ConstInts* out) {
  out->size = 0;
  if ((t.dtype != DType::kInt64 && t.dtype != DType::kInt32) ||
      t.shape.rank != 1) {
    return Fail(op, std::string(what) +
                        " must be a 1-D int64 or int32 tensor, got " +
                        DTypeName(t.dtype) + " " + t.shape.ToString());
  }
  const int64_t n = t.shape.dims[0];
  if (n > static_cast<int64_t>(kMaxConstInts)) {
    return Fail(op, std::string(what) + " has " + std::to_string(n) +
                        " values, more than " + std::to_string(kMaxConstInts));
  }
  if (n > 0 && t.data == nullptr) {
    return Fail(op, std::string(what) + " must be a constant initializer");
  }
  for (int64_t i = 0; i < n; ++i) {
    if (t.dtype == DType::kInt64) {
      std::memcpy(&out->v[i], static_cast<const char*>(t.data) + 8 * i, 8);
    } else {
      int32_t x;
      std::memcpy(&x, static_cast<const char*>(t.data) + 4 * i, 4);
      out->v[i] = x;
    }
  }
  out->size = static_cast<size_t>(n);
  return "";
}

std::string NormalizeAxes(const char* op, const ConstInts& axes, int32_t rank,
                          int32_t out[kMaxRank], bool seen[kMaxRank]) {
  if (axes.size > static_cast<size_t>(rank)) {
    return Fail(op, "more axes than the rank " + std::to_string(rank));
  }
  for (size_t i = 0; i < axes.size; ++i) {
    int32_t a = 0;
    if (!NormalizeAxis(axes[i], rank, 0, &a)) {
      return Fail(op, "axis " + std::to_string(axes[i]) +
                          " is out of range for rank " + std::to_string(rank));
    }
    if (seen[a]) return Fail(op, "axis " + std::to_string(a) + " repeats");
    seen[a] = true;
    out[i] = a;
  }
  return "";
}

}  // namespace kernels
}  // namespace ascend_emu
