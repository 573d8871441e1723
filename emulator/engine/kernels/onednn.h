// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's GEMM: oneDNN's sgemm (Debian's libdnnl,
// docs/emulator-kernels.md), JIT-compiled for the CPU it runs on (run-time
// ISA dispatch, so a portable build still gets AVX-512 GEMMs). It needs no
// per-op state: nothing is prepared at load, nothing cached per run, no lock.
// It JIT-compiles its kernels at a process's first GEMM and mallocs a packing
// buffer per product (never operator new there); tiny products go to Eigen,
// which allocates nothing. OmpThreads sizes oneDNN's OpenMP team to
// KernelThreads() (kernel.h) for every call into oneDNN, the GEMMs' and the
// Conv primitives' (conv_onednn.cc), and restores the calling thread's
// OpenMP setting afterwards.
#pragma once

#include <cstdint>

#include "ascend_emu/kernel.h"

// The two OpenMP runtime calls used, declared here rather than through
// <omp.h>: that header belongs to the compiler (GCC's is not on clang's
// path), while the functions are libgomp's, which libdnnl.so.2 loads anyway.
extern "C" {
int omp_get_max_threads(void);
void omp_set_num_threads(int num_threads);
}

namespace ascend_emu {
namespace kernels {

// Row-major float32 GEMM, BLAS semantics:
//   c = alpha * op(a) * op(b) + beta * c,   op(a) [m, k], op(b) [k, n]
// with a stored [m, k] (lda >= k), or [k, m] (lda >= m) when trans_a, and b
// likewise. beta == 0 overwrites c (NaN in c does not leak). m, n, k may be
// 0. Throws std::runtime_error if oneDNN fails (it validates its arguments
// only; shapes here come from a kernel's Infer).
// Products up to this many multiply-adds (m * n * k, e.g. 32x32x32) run on
// Eigen's GEMM instead: allocation-free, and as fast at that size.
inline constexpr int64_t kEigenMaxProduct = 32 * 32 * 32;

// Runs oneDNN with the emulator's thread count on the calling thread and gives
// the caller's OpenMP setting back: the host application's own OpenMP
// regions keep theirs (the setting is per thread).
class OmpThreads {
 public:
  OmpThreads() : saved_(omp_get_max_threads()), wanted_(KernelThreads()) {
    if (saved_ != wanted_) omp_set_num_threads(wanted_);
  }
  ~OmpThreads() {
    if (saved_ != wanted_) omp_set_num_threads(saved_);
  }
  OmpThreads(const OmpThreads&) = delete;
  OmpThreads& operator=(const OmpThreads&) = delete;

 private:
  int saved_;
  int wanted_;
};

void Sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
           float alpha, const float* a, int64_t lda, const float* b,
           int64_t ldb, float beta, float* c, int64_t ldc);

// The float32 lanes of the widest vectors oneDNN's JIT kernels use on this
// CPU: 16 with AVX-512, 8 with AVX/AVX2, 4 with SSE4.1, 0 below. It follows
// oneDNN's effective ISA, which its own switch ONEDNN_MAX_CPU_ISA caps (the
// CI's AVX2 run), not the flags the emulator was built with. oneDNN's direct
// convolutions block output channels by 16 on AVX-512 and by 8 below
// (conv_onednn.cc's first layers depend on it).
int OnednnFloatLanes();

// Whether oneDNN's int8 kernels compute exactly here: with VNNI (vpdpbusd)
// the u8 x s8 products are summed in int32; without it oneDNN's AVX2/AVX-512
// kernels go through vpmaddubsw, whose int16 pair sums saturate (oneDNN's
// "int8 computation aspects"), so the int8 kernels keep their own loops.
// Follows the effective ISA (ONEDNN_MAX_CPU_ISA caps it).
bool OnednnHasExactInt8();
// Test and benchmark hook: off makes OnednnHasExactInt8() false, so that the
// int8 kernels take the paths of a CPU without VNNI. On by default.
void SetOnednnInt8ForTest(bool on);

// Row-major int8 GEMM, c [m, n] = (a - a_offset) * op(b) (+ row_offset[j]
// per column j when not null), int32 sums: oneDNN's gemm_s8s8s32. Only when
// OnednnHasExactInt8(). Throws std::runtime_error if oneDNN fails.
void GemmS8S8S32(bool trans_b, int64_t m, int64_t n, int64_t k, const int8_t* a,
                 int64_t lda, int8_t a_offset, const int8_t* b, int64_t ldb,
                 int32_t* c, int64_t ldc, const int32_t* row_offset);

// oneDNN's effective ISA by name ("avx512_core_bf16", "avx2", ...), for the
// benchmarks' reports (docs/benchmarks.md says which ISA a figure ran on).
const char* OnednnIsaName();

}  // namespace kernels
}  // namespace ascend_emu
