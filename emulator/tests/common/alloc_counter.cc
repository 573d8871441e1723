// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The replacements behind alloc_counter.h. glibc lets a program define
// malloc, free, calloc, realloc and the aligned variants itself, and keeps
// its own as __libc_*: each replacement counts (when this thread counts) and
// forwards. operator new reaches malloc, so it is counted once.
#include "alloc_counter.h"

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ASCEND_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ASCEND_TEST_SANITIZED 1
#endif

namespace {

// Plain thread_local PODs of the executable: initial-exec TLS, reached
// without any allocation, so safe inside malloc.
thread_local bool t_counting = false;
thread_local uint64_t t_count = 0;

inline void Count() {
  if (t_counting) ++t_count;
}

}  // namespace

namespace ascend_test {

void StartCountingAllocations() {
  t_count = 0;
  t_counting = true;
}

uint64_t StopCountingAllocations() {
  t_counting = false;
  return t_count;
}

#ifdef ASCEND_TEST_SANITIZED
bool CountsMalloc() { return false; }
#else
bool CountsMalloc() { return true; }
#endif

}  // namespace ascend_test

#ifdef ASCEND_TEST_SANITIZED

// The sanitizer owns malloc: count operator new only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t size) {
  Count();
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

#else

extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* ptr, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
void __libc_free(void* ptr);

void* malloc(size_t size) {
  Count();
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) {
  Count();
  return __libc_calloc(count, size);
}
void* realloc(void* ptr, size_t size) {
  Count();
  return __libc_realloc(ptr, size);
}
void free(void* ptr) { __libc_free(ptr); }
void* memalign(size_t alignment, size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(size_t alignment, size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) {
    return 22;  // EINVAL
  }
  Count();
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
}  // extern "C"

#endif
