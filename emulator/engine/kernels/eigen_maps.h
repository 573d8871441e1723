// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Eigen views of the row-major buffers the kernels work on. Maps never
// allocate or copy; GEMMs go through Eigen's blocked, vectorized products.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace ascend_emu {
namespace kernels {

using RowMajorMatrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrixMap = Eigen::Map<const RowMajorMatrix>;
using MatrixMap = Eigen::Map<RowMajorMatrix>;

inline ConstMatrixMap ConstMatrix(const float* data, int64_t rows,
                                  int64_t cols) {
  return ConstMatrixMap(data, static_cast<Eigen::Index>(rows),
                        static_cast<Eigen::Index>(cols));
}

inline MatrixMap Matrix(float* data, int64_t rows, int64_t cols) {
  return MatrixMap(data, static_cast<Eigen::Index>(rows),
                   static_cast<Eigen::Index>(cols));
}

}  // namespace kernels
}  // namespace ascend_emu
