// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Device and pinned host memory, and copies between them. "Device" memory is
// host RAM the emulator hands out and tracks, so that any pointer can be told
// apart as device memory (and bounds-checked) or host memory, which is how
// the emulator catches the caller bugs a real NPU would turn into crashes.
#include <cstdlib>
#include <cstring>

#include "acl_api.h"
#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ApiSite;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::DeviceAlloc;
using ascend_emu::acl::DevicePointer;
using ascend_emu::acl::Fail;
using ascend_emu::acl::g_lane;
using ascend_emu::acl::SharedLane;
using ascend_emu::acl::State;
using ascend_emu::acl::StreamQueue;
using ascend_emu::acl::ThreadState;

namespace {

// Real device allocations are at least this aligned; callers may rely on it.
constexpr size_t kAlignment = 64;

// Policy: one of the aclrtMemMallocPolicy values, optionally with the
// documented bandwidth flag bits.
constexpr uint32_t kPolicyFlagBits = 0x0100 | 0x1000;

void* AlignedAlloc(size_t size) {
  if (size > SIZE_MAX - kAlignment) return nullptr;
  size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  return std::aligned_alloc(kAlignment, rounded);
}

const char* KindName(int kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST:
      return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT:
      return "ACL_MEMCPY_DEFAULT";
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
      return "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
      return "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE";
  }
  return "an unknown aclrtMemcpyKind";
}

// `dev` is ClassifyPointerCached's answer: for host memory, `remaining` is
// the bytes to the end of its aclrtMallocHost allocation (SIZE_MAX for plain
// host memory, whose bounds the emulator cannot see).
aclError CheckSide(const ContextRec* context, const char* side, const void* ptr,
                   const DevicePointer& dev, size_t count, bool want_device,
                   int kind) {
  if (want_device != (dev.alloc != nullptr)) {
    if (want_device) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s needs a device %s, but %s %p is host memory (not inside "
                  "any aclrtMalloc allocation)",
                  KindName(kind), side, side, ptr);
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s needs a host %s, but %s %p is device memory (inside the "
                "allocation at %p on device %d)",
                KindName(kind), side, side, ptr,
                reinterpret_cast<void*>(dev.base), dev.alloc->device);
  }
  if (dev.alloc != nullptr) {
    if (count > dev.remaining) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "copy of %zu bytes runs past the end of the %s's device "
                  "allocation (%p + %zu bytes: only %zu bytes from %s %p)",
                  count, side, reinterpret_cast<void*>(dev.base),
                  dev.alloc->size, dev.remaining, side, ptr);
    }
    if (kind != ACL_MEMCPY_INTER_DEVICE_TO_DEVICE &&
        dev.alloc->device != context->device) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%s %p is memory of device %d, but the current context is "
                  "on device %d (use ACL_MEMCPY_INTER_DEVICE_TO_DEVICE "
                  "between devices)",
                  side, ptr, dev.alloc->device, context->device);
    }
  } else if (count > dev.remaining) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "copy of %zu bytes runs past the end of the %s's "
                "aclrtMallocHost allocation",
                count, side);
  }
  return ACL_SUCCESS;
}

// True when CheckSide would pass.
inline bool SideOk(const ContextRec* context, const DevicePointer& dev,
                   size_t count, bool want_device, int kind) {
  if (want_device != (dev.alloc != nullptr) || count > dev.remaining) {
    return false;
  }
  return dev.alloc == nullptr || kind == ACL_MEMCPY_INTER_DEVICE_TO_DEVICE ||
         dev.alloc->device == context->device;
}

// The traffic counter of a copy (g_lane, state.h).
inline uint32_t TrafficOf(bool to_device, bool from_device) {
  if (to_device && !from_device) return SharedLane::kHostToDevice;
  if (from_device && !to_device) return SharedLane::kDeviceToHost;
  return SharedLane::kUncounted;
}

// Copies and counts (cached or not): the bytes counted before the copy, so
// that nothing lives across the memmove call on the fast way.
// With a stream's queue (aclrtMemcpyAsync on a created stream), the copy is
// queued instead: its bytes are counted when it is queued.
inline void CountedCopy(void* dst, const void* src, size_t count,
                        uint32_t traffic, StreamQueue* queue = nullptr) {
  g_lane.bytes[traffic].fetch_add(count, std::memory_order_relaxed);
  if (queue != nullptr) {
    StreamQueue::Task task;
    task.kind = StreamQueue::Task::kCopy;
    task.dst = dst;
    task.src = src;
    task.count = count;
    queue->Push(task);
    return;
  }
  if (count != 0) std::memmove(dst, src, count);
}

// Keeps a copy that passed every check in the current context, for
// aclrtMemcpy's fast way.
inline void RememberCopy(ThreadState& thread, void* dst, const void* src,
                         size_t count, int kind, uint32_t traffic) {
  ThreadState::CopyHit& hit = thread.CopySlotFor(dst);
  ThreadState::FlushCopyCount(hit);  // the copies it made before
  hit.dst = dst;
  hit.src = src;
  hit.count = count;
  hit.kind = kind;
  hit.traffic = traffic;
}

// The inference copies (host to device, device to host) with both pointers in
// the thread's cache and every check passing: the same checks as below on
// the cached regions, without building the general case. False: not that
// case (nothing done); the general path decides, and says what failed.
inline bool FastCopy(ThreadState& thread, const ContextRec* context, void* dst,
                     const void* src, size_t count, int kind,
                     StreamQueue* queue) {
  const bool to_device = kind == ACL_MEMCPY_HOST_TO_DEVICE;
  if (!to_device && kind != ACL_MEMCPY_DEVICE_TO_HOST) return false;
  const uintptr_t dst_address = reinterpret_cast<uintptr_t>(dst);
  const uintptr_t src_address = reinterpret_cast<uintptr_t>(src);
  const ascend_emu::acl::AddressRegion* dst_region =
      thread.FindRegion(dst_address);
  const ascend_emu::acl::AddressRegion* src_region =
      dst_region != nullptr ? thread.FindRegion(src_address) : nullptr;
  if (src_region == nullptr) return false;
  const auto* device = to_device ? dst_region : src_region;
  const auto* host = to_device ? src_region : dst_region;
  const uintptr_t device_address = to_device ? dst_address : src_address;
  const uintptr_t host_address = to_device ? src_address : dst_address;
  if (device->alloc == nullptr || host->alloc != nullptr ||
      device->alloc->device != context->device ||
      count > device->hi - device_address ||
      (host->pinned && count > host->hi - host_address)) {
    return false;
  }
  const uint32_t traffic = TrafficOf(to_device, !to_device);
  CountedCopy(dst, src, count, traffic, queue);
  if (queue == nullptr) RememberCopy(thread, dst, src, count, kind, traffic);
  return true;
}

// The checks and the copy shared by aclrtMemcpy and aclrtMemcpyAsync (shared
// calls: the pointers are classified through the thread's region cache).
// With `queue`, the checked copy is queued on that stream.
aclError CheckedCopy(State& state, ThreadState& thread, ContextRec* context,
                     void* dst, size_t dest_max, const void* src, size_t count,
                     int kind, StreamQueue* queue = nullptr) {
  if (dst == nullptr || src == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                dst == nullptr ? "dst" : "src");
  }
  if (count > dest_max) {
    return Fail(ACL_ERROR_INVALID_PARAM, "count %zu is larger than destMax %zu",
                count, dest_max);
  }
  int k = kind;
  if (k < ACL_MEMCPY_HOST_TO_HOST || k > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
    return Fail(ACL_ERROR_INVALID_PARAM, "kind %d is not an aclrtMemcpyKind",
                k);
  }
  if (FastCopy(thread, context, dst, src, count, k, queue)) {
    return ACL_SUCCESS;
  }
  DevicePointer dst_dev = ascend_emu::acl::ClassifyCached(state, thread, dst);
  DevicePointer src_dev = ascend_emu::acl::ClassifyCached(state, thread, src);
  bool src_device = src_dev.alloc != nullptr;
  bool dst_device = dst_dev.alloc != nullptr;
  if (k == ACL_MEMCPY_DEFAULT) {
    // Inferred from the pointers, as real CANN does with unified addressing.
    k = src_device ? (dst_device ? ACL_MEMCPY_DEVICE_TO_DEVICE
                                 : ACL_MEMCPY_DEVICE_TO_HOST)
                   : (dst_device ? ACL_MEMCPY_HOST_TO_DEVICE
                                 : ACL_MEMCPY_HOST_TO_HOST);
  }
  bool want_src_device = k == ACL_MEMCPY_DEVICE_TO_HOST ||
                         k == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                         k == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE ||
                         k == ACL_MEMCPY_INTER_DEVICE_TO_DEVICE;
  bool want_dst_device =
      k != ACL_MEMCPY_HOST_TO_HOST && k != ACL_MEMCPY_DEVICE_TO_HOST;
  // CheckSide's conditions, inline; CheckSide itself only to say what failed.
  if (!SideOk(context, src_dev, count, want_src_device, k)) {
    if (aclError rc = CheckSide(context, "src", src, src_dev, count,
                                want_src_device, k)) {
      return rc;
    }
  }
  if (!SideOk(context, dst_dev, count, want_dst_device, k)) {
    if (aclError rc = CheckSide(context, "dst", dst, dst_dev, count,
                                want_dst_device, k)) {
      return rc;
    }
  }
  if (k == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE &&
      src_dev.alloc->device != dst_dev.alloc->device) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%s copies within one device, but src is on device %d and "
                "dst on device %d",
                KindName(k), src_dev.alloc->device, dst_dev.alloc->device);
  }
  const uint32_t traffic = TrafficOf(dst_device, src_device);
  CountedCopy(dst, src, count, traffic, queue);
  if (queue == nullptr) RememberCopy(thread, dst, src, count, kind, traffic);
  return ACL_SUCCESS;
}

// aclrtMemcpy's general way (every check, then the copy). Out of line so
// that the fast way in aclrtMemcpy keeps a short prologue.
[[gnu::noinline]] aclError MemcpyGeneral(ApiSite& site, void* dst,
                                         size_t dest_max, const void* src,
                                         size_t count, int kind) {
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, call.thread(),
                                                           &context)) {
    return rc;
  }
  return CheckedCopy(state, call.thread(), context, dst, dest_max, src, count,
                     kind);
}

}  // namespace

namespace ascend_emu::acl {
// aclrtMemcpy's site at namespace scope, made when the library loads: its
// per-inference calls then skip a function-local static's guard check. Safe
// to build at load: ApiSite reads only constant tables (the fault list).
static ApiSite k_memcpy_site("aclrtMemcpy");
}  // namespace ascend_emu::acl

extern "C" {

ACL_EMU_EXPORT aclError aclrtMalloc(void** devPtr, size_t size,
                                    aclrtMemMallocPolicy policy) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  uint32_t raw_policy =
      static_cast<uint32_t>(ascend_emu::acl::EnumValue(policy));
  if ((raw_policy & ~kPolicyFlagBits) > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "policy %u is not an aclrtMemMallocPolicy", raw_policy);
  }
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  auto& device = state.devices[context->device];
  size_t free_bytes = state.config.device_memory - device.used_bytes;
  if (size > free_bytes) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "cannot allocate %zu bytes on device %d: %zu of %zu bytes "
                "free (EXECUTORCH_ASCEND_EMU_DEVICE_MEMORY)",
                size, context->device, free_bytes, state.config.device_memory);
  }
  void* memory = AlignedAlloc(size);
  if (memory == nullptr) {
    return Fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                "the host ran out of memory emulating %zu bytes of device "
                "memory",
                size);
  }
  state.device_allocs[reinterpret_cast<uintptr_t>(memory)] =
      DeviceAlloc{size, context->device, context->serial};
  device.used_bytes += size;
  *devPtr = memory;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtFree(void* devPtr) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  auto it = state.device_allocs.find(reinterpret_cast<uintptr_t>(devPtr));
  if (it == state.device_allocs.end()) {
    DevicePointer inside = ascend_emu::acl::ClassifyPointer(state, devPtr);
    if (inside.alloc != nullptr) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "%p points inside the device allocation at %p: aclrtFree "
                  "needs the address aclrtMalloc returned",
                  devPtr, reinterpret_cast<void*>(inside.base));
    }
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%p is not device memory from aclrtMalloc (host memory, or "
                "already freed)",
                devPtr);
  }
  // A loaded model still reads this memory: on a device, freeing it would
  // let the next allocation overwrite the model's weights or work memory.
  if (const auto* model = ascend_emu::acl::ModelPinning(state, it->first)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%p is in use by loaded model %u (external weight memory "
                "bound with aclmdlSetExternalWeightAddress, or work/weight "
                "memory given at load): unload the model before freeing it",
                devPtr, model->id);
  }
  state.devices[it->second.device].used_bytes -= it->second.size;
  std::free(devPtr);
  state.device_allocs.erase(it);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtMallocHost(void** hostPtr, size_t size) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (hostPtr == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  }
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "size is 0");
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  void* memory = AlignedAlloc(size);
  if (memory == nullptr) {
    return Fail(ACL_ERROR_BAD_ALLOC, "cannot allocate %zu bytes of host memory",
                size);
  }
  state.host_allocs[reinterpret_cast<uintptr_t>(memory)] =
      ascend_emu::acl::HostAlloc{size};
  *hostPtr = memory;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtFreeHost(void* hostPtr) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (hostPtr == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  }
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  auto it = state.host_allocs.find(reinterpret_cast<uintptr_t>(hostPtr));
  if (it == state.host_allocs.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%p is not the address of an aclrtMallocHost allocation "
                "(device memory, an interior pointer, or already freed)",
                hostPtr);
  }
  std::free(hostPtr);
  state.host_allocs.erase(it);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtMemcpy(void* dst, size_t destMax, const void* src,
                                    size_t count, aclrtMemcpyKind kind) {
  const int k = ascend_emu::acl::EnumValue(kind);
  // The fast way (FastLaneOpen, api_call.h): the same copy as one that
  // passed every check in this epoch and context. dst and src are then not
  // NULL (they passed the checks). The counters before the copy, so that
  // nothing lives across the memmove call, which is then the last thing
  // done.
  const ThreadState& thread = ascend_emu::acl::ThisThreadOrNone();
  const ThreadState::CopyHit* hit = thread.FindCopy(dst);
  if (count <= destMax && hit != nullptr && hit->src == src &&
      hit->count == count && hit->kind == k &&
      ascend_emu::acl::FastLaneOpen(thread)) {
    // The call and its bytes, in one count (CopyHit::hits).
    __atomic_fetch_add(&hit->hits, 1, __ATOMIC_RELAXED);
    // The slot's src and count (equal to the arguments): GCC then keeps
    // no argument in a register of its own across the checks.
    std::memmove(dst, hit->src, hit->count);
    return ACL_SUCCESS;
  }
  return MemcpyGeneral(ascend_emu::acl::k_memcpy_site, dst, destMax, src, count,
                       k);
}

ACL_EMU_EXPORT aclError aclrtMemset(void* devPtr, size_t maxCount,
                                    int32_t value, size_t count) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  if (devPtr == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  }
  if (count > maxCount) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "count %zu is larger than maxCount %zu", count, maxCount);
  }
  DevicePointer dev = ascend_emu::acl::ClassifyPointer(state, devPtr);
  if (dev.alloc == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemset needs device memory, but %p is host memory (not "
                "inside any aclrtMalloc allocation)",
                devPtr);
  }
  if (dev.alloc->device != context->device) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "%p is memory of device %d, but the current context is on "
                "device %d",
                devPtr, dev.alloc->device, context->device);
  }
  if (count > dev.remaining) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "memset of %zu bytes runs past the end of the device "
                "allocation (only %zu bytes from %p)",
                count, dev.remaining, devPtr);
  }
  // Runs on the device: no host/device traffic to count.
  if (count != 0) std::memset(devPtr, static_cast<unsigned char>(value), count);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclrtMemcpyAsync(void* dst, size_t destMax,
                                         const void* src, size_t count,
                                         aclrtMemcpyKind kind,
                                         aclrtStream stream) {
  static ApiSite site(__func__);
  ApiCall call(site, ApiCall::kShared);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, call.thread(),
                                                           &context)) {
    return rc;
  }
  StreamQueue* queue = nullptr;
  if (aclError rc =
          ascend_emu::acl::ResolveStream(state, stream, context, &queue)) {
    return rc;
  }
  // Checked now (a bad argument fails this call, as on CANN), copied when
  // the stream's worker comes to it; on the default stream, now.
  return CheckedCopy(state, call.thread(), context, dst, destMax, src, count,
                     ascend_emu::acl::EnumValue(kind), queue);
}

ACL_EMU_EXPORT aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free,
                                        size_t* total) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (free == nullptr || total == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                free == nullptr ? "free" : "total");
  }
  int a = ascend_emu::acl::EnumValue(attr);
  if (a < ACL_DDR_MEM || a > ACL_HBM_MEM_NORMAL) {
    return Fail(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtMemAttr", a);
  }
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context)) {
    return rc;
  }
  // One memory pool per device: every attribute reports the same numbers.
  *total = state.config.device_memory;
  *free = *total - state.devices[context->device].used_bytes;
  return ACL_SUCCESS;
}

}  // extern "C"
