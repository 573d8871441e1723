// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// oneDNN's sgemm for the emulator's GEMMs (onednn.h).
#include "onednn.h"

#include <dnnl.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "ascend_emu/kernel.h"
#include "eigen_maps.h"

namespace ascend_emu {
namespace kernels {
namespace {

std::atomic<int> g_threads{1};

}  // namespace

namespace {

using Strided =
    Eigen::Map<const RowMajorMatrix, 0, Eigen::OuterStride<Eigen::Dynamic>>;

// c = alpha * a * b + beta * c without a heap temporary: Eigen evaluates a
// scaled product whose result is one row (its GEMV path, m == 1) into a
// malloc'ed temporary, so the scaling is kept out of the product. alpha == 1
// (every MatMul, PyTorch's Linear) accumulates straight into c; another
// alpha multiplies inside a coefficient-wise (lazy) product, which never
// allocates and is as fast at these sizes. Checked for every shape up to
// kEigenMaxProduct by the noalloc kernel tests.
template <typename A, typename B>
void EigenProduct(const A& a, const B& b, float alpha, float beta, float* c,
                  int64_t m, int64_t n, int64_t ldc) {
  Eigen::Map<RowMajorMatrix, 0, Eigen::OuterStride<Eigen::Dynamic>> y(
      c, m, n, Eigen::OuterStride<Eigen::Dynamic>(ldc));
  if (beta == 0.0f) {
    y.setZero();  // overwrites: a NaN in c does not leak
  } else if (beta != 1.0f) {
    y *= beta;
  }
  if (alpha == 1.0f) {
    y.noalias() += a * b;
  } else {
    y.noalias() += alpha * a.lazyProduct(b);
  }
}

}  // namespace

void Sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
           float alpha, const float* a, int64_t lda, const float* b,
           int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  // Tiny products (an MLP's) stay on Eigen: its blocks then fit on the stack,
  // so a run allocates nothing at all, while oneDNN's sgemm mallocs a packing
  // buffer per call and gains nothing at this size.
  if (k > 0 && m * n * k <= kEigenMaxProduct) {
    const Strided sa(a, trans_a ? k : m, trans_a ? m : k,
                     Eigen::OuterStride<Eigen::Dynamic>(lda));
    const Strided sb(b, trans_b ? n : k, trans_b ? k : n,
                     Eigen::OuterStride<Eigen::Dynamic>(ldb));
    if (trans_a && trans_b) {
      EigenProduct(sa.transpose(), sb.transpose(), alpha, beta, c, m, n, ldc);
    } else if (trans_a) {
      EigenProduct(sa.transpose(), sb, alpha, beta, c, m, n, ldc);
    } else if (trans_b) {
      EigenProduct(sa, sb.transpose(), alpha, beta, c, m, n, ldc);
    } else {
      EigenProduct(sa, sb, alpha, beta, c, m, n, ldc);
    }
    return;
  }
  if (k == 0) {  // oneDNN leaves c alone here; BLAS scales it by beta
    for (int64_t i = 0; i < m; ++i) {
      float* row = c + i * ldc;
      for (int64_t j = 0; j < n; ++j)
        row[j] = beta == 0.0f ? 0.0f : beta * row[j];
    }
    return;
  }
  OmpThreads threads;
  // dnnl_sgemm is row-major (C-style), like the emulator's buffers.
  const dnnl_status_t status =
      dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, alpha, a,
                 lda, b, ldb, beta, c, ldc);
  if (status != dnnl_success) {
    throw std::runtime_error(
        "oneDNN sgemm failed with status " +
        std::to_string(static_cast<int>(status)) + " (m " + std::to_string(m) +
        ", n " + std::to_string(n) + ", k " + std::to_string(k) + ", lda " +
        std::to_string(lda) + ", ldb " + std::to_string(ldb) + ", ldc " +
        std::to_string(ldc) + ")");
  }
}

namespace {

bool Has(dnnl_cpu_isa_t isa, dnnl_cpu_isa_t feature) {
  return (static_cast<unsigned>(isa) & static_cast<unsigned>(feature)) ==
         static_cast<unsigned>(feature);
}

}  // namespace

// dnnl_cpu_isa_t values are bit sets: each ISA holds the bits of those it
// extends (dnnl_types.h), so "has AVX-512" is a subset test.
int OnednnFloatLanes() {
  const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
  if (Has(isa, dnnl_cpu_isa_avx512_core) || Has(isa, dnnl_cpu_isa_avx512_mic))
    return 16;
  if (Has(isa, dnnl_cpu_isa_avx)) return 8;
  if (Has(isa, dnnl_cpu_isa_sse41)) return 4;
  return 0;
}

namespace {
std::atomic<bool> g_int8_allowed{true};  // SetOnednnInt8ForTest
}  // namespace

void SetOnednnInt8ForTest(bool on) { g_int8_allowed.store(on); }

bool OnednnHasExactInt8() {
  if (!g_int8_allowed.load(std::memory_order_relaxed)) return false;
  const dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
  return Has(isa, dnnl_cpu_isa_avx512_core_vnni) ||
         Has(isa, dnnl_cpu_isa_avx2_vnni);
}

void GemmS8S8S32(bool trans_b, int64_t m, int64_t n, int64_t k, const int8_t* a,
                 int64_t lda, int8_t a_offset, const int8_t* b, int64_t ldb,
                 int32_t* c, int64_t ldc, const int32_t* row_offset) {
  OmpThreads threads;
  const int32_t zero = 0;
  const dnnl_status_t st = dnnl_gemm_s8s8s32(
      'N', trans_b ? 'T' : 'N', row_offset != nullptr ? 'R' : 'F', m, n, k,
      1.0f, a, lda, a_offset, b, ldb, 0, 0.0f, c, ldc,
      row_offset != nullptr ? row_offset : &zero);
  if (st != dnnl_success) {
    throw std::runtime_error("oneDNN gemm_s8s8s32 failed with status " +
                             std::to_string(static_cast<int>(st)));
  }
}

const char* OnednnIsaName() {
  switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_sse41:
      return "sse41";
    case dnnl_cpu_isa_avx:
      return "avx";
    case dnnl_cpu_isa_avx2:
      return "avx2";
    case dnnl_cpu_isa_avx2_vnni:
      return "avx2_vnni";
    case dnnl_cpu_isa_avx512_mic:
      return "avx512_mic";
    case dnnl_cpu_isa_avx512_mic_4ops:
      return "avx512_mic_4ops";
    case dnnl_cpu_isa_avx512_core:
      return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni:
      return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16:
      return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx:
      return "avx512_core_amx";
    default:
      return "other";
  }
}

}  // namespace kernels

void SetKernelThreads(int threads) {
  kernels::g_threads.store(threads < 1                   ? 1
                           : threads > kMaxKernelThreads ? kMaxKernelThreads
                                                         : threads,
                           std::memory_order_relaxed);
}

int KernelThreads() {
  return kernels::g_threads.load(std::memory_order_relaxed);
}

}  // namespace ascend_emu
