// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's GEMM: oneDNN's sgemm (Debian's libdnnl,
// docs/emulator-kernels.md), JIT-compiled for the CPU it runs on (run-time
// ISA dispatch, so a portable build still gets AVX-512 GEMMs). It needs no
// per-op state: nothing is prepared at load, nothing cached per run, no lock.
// Like Eigen's blocked GEMM it may take a malloc'd packing workspace for a
// product (never operator new). oneDNN's OpenMP team is sized per call to
// KernelThreads() (kernel.h), and the calling thread's OpenMP setting is
// restored afterwards.
#pragma once

#include <cstdint>

namespace ascend_emu {
namespace kernels {

// Row-major float32 GEMM, BLAS semantics:
//   c = alpha * op(a) * op(b) + beta * c,   op(a) [m, k], op(b) [k, n]
// with a stored [m, k] (lda >= k), or [k, m] (lda >= m) when trans_a, and b
// likewise. beta == 0 overwrites c (NaN in c does not leak). m, n, k may be
// 0. Throws std::runtime_error if oneDNN fails (it validates its arguments
// only; shapes here come from a kernel's Infer).
void Sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
           float alpha, const float* a, int64_t lda, const float* b,
           int64_t ldb, float beta, float* c, int64_t ldc);

}  // namespace kernels
}  // namespace ascend_emu
