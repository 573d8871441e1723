// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Float vectors of the build's arch for the kernels written with GNU vector
// extensions (GCC and clang): depthwise_strips.cc, depthwise_flat.cc and the
// NHWC MaxPool in pool.cc. The lane count follows the -march the emulator is
// built for (EXECUTORCH_ASCEND_EMULATOR_ARCH); loads and stores go through
// memcpy, one unaligned vector move and no typed access to a misaligned
// address. Other compilers do without: ASCEND_EMU_GNU_VECTORS is then not
// defined and those kernels keep their scalar paths.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__GNUC__)
#define ASCEND_EMU_GNU_VECTORS 1

namespace ascend_emu::kernels::gnu_vectors {

#if defined(__AVX512F__)
constexpr int64_t kLanes = 16;
#elif defined(__AVX__)
constexpr int64_t kLanes = 8;
#else
constexpr int64_t kLanes = 4;
#endif
typedef float Vec __attribute__((vector_size(kLanes * sizeof(float))));
// Lane masks of comparisons between Vecs.
typedef int32_t Mask __attribute__((vector_size(kLanes * sizeof(float))));

inline Vec Load(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void Store(float* p, Vec v) { std::memcpy(p, &v, sizeof v); }

}  // namespace ascend_emu::kernels::gnu_vectors

#endif  // __GNUC__
