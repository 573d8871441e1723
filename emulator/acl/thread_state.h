// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What each thread keeps between ACL calls: the name of the call it is in
// (for error messages), its current context (aclrtSetCurrentContext is per
// thread in CANN), and caches of registry look-ups that the per-inference
// calls repeat (the context's liveness, the model record of a model id, the
// allocation around a pointer). Every cache is tagged with the registry epoch
// it was filled in (State::epoch) and dropped when the epoch moves: any
// exclusive call (a free, a destroy, an unload, ...) moves it, so a cache
// never outlives what it describes. One struct, so a call reaches all of it
// with one thread-local access.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "acl_api.h"
#include "export.h"

namespace ascend_emu::acl {

struct CheckedIo;
struct ContextRec;
struct DeviceAlloc;
struct ModelRec;

// Marks of empty cache slots (state.cc): see ThreadState::CopyHit and
// ThreadState::ExecHit.
extern ACL_EMU_INTERNAL const char kEmptyCopy;
extern ACL_EMU_INTERNAL ModelRec kBusyModel;

// A span of addresses classified against the device and pinned host
// allocations: inside device allocation `alloc`, inside a pinned host
// allocation (pinned), or between allocations (plain host memory).
struct AddressRegion {
  uintptr_t lo = 0;
  uintptr_t hi = 0;  // exclusive; lo == hi: empty slot
  const DeviceAlloc* alloc = nullptr;
  bool pinned = false;
};

struct ThreadState {
  // First in the struct: the fast ways index these from the pointer.
  // In front of everything for aclrtMemcpy: the copies (dst, src, count,
  // kind) that passed every check in this epoch and the thread's current
  // context, direct-mapped by dst. The same copy again needs no
  // classification: what it was checked against (the allocations, the
  // context) cannot change without moving the epoch or the thread's current
  // context, and both drop these caches. Two ways (a slot and its
  // neighbour), so the few buffers of one model do not evict each other.
  struct alignas(64) CopyHit {
    void* dst = nullptr;
    // An empty slot's src is &kEmptyCopy, which no caller passes (it is the
    // address of a private object), so an empty slot never matches, even a
    // call with NULL pointers and a zero count.
    const void* src = &kEmptyCopy;
    size_t count = 0;
    int32_t kind = 0;
    uint32_t traffic = 0;  // the g_lane.bytes counter it adds to (state.h)
    // The copies the fast way made from this slot: each is a call of
    // aclrtMemcpy and `count` bytes of `traffic`, counted into the lane
    // when the slot is dropped (ThreadState::FlushCounts) or read by the
    // stats calls (LiveSlotCounts), so that the fast way counts with one
    // increment.
    // Written by this thread only (relaxed atomic increments: a stats call
    // on another thread may read it).
    mutable uint64_t hits = 0;
  };
  static constexpr size_t kCopyBits = 5;
  CopyHit copies[size_t{1} << kCopyBits];
  // Fibonacci hashing of the address's low 32 bits (where the buffers of
  // one process differ), a 32-bit multiply by an immediate: the top
  // kCopyBits bits of the product pick the slot. The byte offset of the
  // slot in `copies`, so that the fast way indexes the slots with no
  // further arithmetic.
  static size_t CopyOffset(const void* dst) {
    static_assert(sizeof(CopyHit) == 64, "CopyOffset's shift");
    const uint32_t low =
        static_cast<uint32_t>(reinterpret_cast<uintptr_t>(dst));
    return size_t{(low * 0x9E3779B1u) >> (32 - kCopyBits)} * sizeof(CopyHit);
  }
  static size_t CopySlot(const void* dst) {
    return CopyOffset(dst) / sizeof(CopyHit);
  }
  const CopyHit* CopyAt(size_t offset) const {
    return reinterpret_cast<const CopyHit*>(
        reinterpret_cast<const char*>(copies) + offset);
  }

  // The slot holding dst's copy (its own, else its neighbour), or nullptr.
  const CopyHit* FindCopy(const void* dst) const {
    const size_t offset = CopyOffset(dst);
    const CopyHit* hit = CopyAt(offset);
    if (__builtin_expect(hit->dst == dst, 1)) return hit;
    hit = CopyAt(offset ^ sizeof(CopyHit));
    return hit->dst == dst ? hit : nullptr;
  }
  // The slot a copy to dst is kept in: its own, else a free one of the two.
  CopyHit& CopySlotFor(const void* dst) {
    const size_t slot = CopySlot(dst);
    CopyHit& other = copies[slot ^ 1];
    if (copies[slot].dst != dst && copies[slot].src != &kEmptyCopy &&
        (other.dst == dst || other.src == &kEmptyCopy)) {
      return other;
    }
    return copies[slot];
  }

  // In front of everything for aclmdlExecute: the runs (model id, input and
  // output datasets) that passed every check in this epoch and the thread's
  // current context, with the model's record and its checked I/O, by model
  // id (a program of several delegated parts alternates a few models).
  struct alignas(64) ExecHit {
    uint32_t model_id = 0;
    const aclmdlDataset* input = nullptr;
    const aclmdlDataset* output = nullptr;
    // An empty slot's record is a model that is always running (kBusyModel,
    // state.cc), so a call matching it (model 0 with NULL datasets) goes
    // the general way like every other miss.
    ModelRec* record = &kBusyModel;
    // The checked buffer addresses (ModelRec::checked), which stay as they
    // are while the epoch does.
    const void* const* inputs = nullptr;
    void* const* outputs = nullptr;
    // The runs the fast way started from this slot (calls of aclmdlExecute;
    // its failures are taken off SharedLane::executes), as CopyHit::hits.
    mutable uint64_t hits = 0;
  };
  static constexpr size_t kExecs = 4;
  ExecHit execs[kExecs];
  static size_t ExecSlot(uint32_t model_id) { return model_id % kExecs; }
  const ExecHit& FindExec(uint32_t model_id) const {
    // By byte offset, as FindCopy: no arithmetic beyond the mask and shift.
    static_assert(sizeof(ExecHit) == 64, "FindExec's shift");
    const size_t offset = ExecSlot(model_id) * sizeof(ExecHit);
    return *reinterpret_cast<const ExecHit*>(
        reinterpret_cast<const char*>(execs) + offset);
  }

  const char* api_name = "";
  // The current context: the record and its serial, so a context that was
  // destroyed (and whose address was reused) is recognised as gone.
  ContextRec* context = nullptr;
  uint64_t context_serial = 0;

  // Caches, valid while State::epoch == epoch.
  uint64_t epoch = 0;
  bool context_alive = false;  // `context` checked live in this epoch
  uint32_t model_id = 0;
  ModelRec* model = nullptr;
  static constexpr size_t kRegions = 8;
  AddressRegion regions[kRegions];
  size_t used_regions = 0;  // filled slots, from 0
  size_t next_region = 0;   // the slot a fill replaces once all are used
  // In front of the regions, the exact pointers met lately (direct-mapped
  // by a hash of the address): a caller passes the same buffers on every
  // inference, so each is found with one compare.
  struct PointerHit {
    uintptr_t address = 0;  // 0: empty (NULL never gets this far)
    AddressRegion region;
  };
  static constexpr size_t kHitBits = 5;
  PointerHit hits[size_t{1} << kHitBits];

  static size_t HitSlot(uintptr_t address) {
    return static_cast<size_t>((address * 0x9E3779B97F4A7C15ull) >>
                               (64 - kHitBits));
  }

  // The cached region holding `address`, or nullptr.
  const AddressRegion* FindRegion(uintptr_t address) {
    PointerHit& hit = hits[HitSlot(address)];
    if (hit.address == address) return &hit.region;
    for (size_t slot = 0; slot < used_regions; ++slot) {
      const AddressRegion& region = regions[slot];
      // One unsigned compare per region.
      if (address - region.lo < region.hi - region.lo) {
        hit.address = address;
        hit.region = region;
        return &hit.region;
      }
    }
    return nullptr;
  }

  // Keeps a region just classified for `address`; returns the kept copy.
  const AddressRegion* AddRegion(uintptr_t address,
                                 const AddressRegion& region) {
    size_t slot = used_regions;
    if (slot < kRegions) {
      ++used_regions;
    } else {
      slot = next_region;
      next_region = (next_region + 1) % kRegions;
    }
    regions[slot] = region;
    PointerHit& hit = hits[HitSlot(address)];
    hit.address = address;
    hit.region = region;
    return &hit.region;
  }

  // Drops every cache when the registry changed since they were filled.
  void Revalidate(uint64_t current_epoch) {
    if (epoch == current_epoch) return;
    epoch = current_epoch;
    context_alive = false;
    model = nullptr;
    used_regions = 0;
    next_region = 0;
    for (PointerHit& hit : hits) hit.address = 0;
    ForgetRuns();
  }

  // Drops the caches of whole calls (copies, executes), which were checked
  // against the current context: when it changes, or the epoch moves.
  // Their counts go to the lane first.
  void ForgetRuns();
  // Adds the slots' counts to the lane's counters and zeroes them.
  void FlushCounts();
  static void FlushCopyCount(const CopyHit& hit);
  static void FlushExecCount(const ExecHit& hit);

  // Every live ThreadState, for the counters its slots hold (state.cc).
  ThreadState* prev = nullptr;
  ThreadState* next = nullptr;
};

// This thread's state. The per-inference calls reach it on every call, so
// the way there is short: one pointer in thread-local storage, inline. The
// ThreadState itself (about 3 KB of caches) is on the heap, made at the
// thread's first call and freed when the thread ends (state.cc), so that
// the library's TLS block stays small: glibc then places a dlopen'ed
// library's block in its static TLS surplus when there is room, and with
// TLS descriptors (-mtls-dialect=gnu2, acl/CMakeLists.txt) the access is an
// offset from the thread pointer instead of a __tls_get_addr call; without
// room it falls back to the dynamic way (never a dlopen failure, as the
// initial-exec model would risk). __thread, not thread_local: a pointer with
// no dynamic initialization, so no TLS wrapper call either.
//
// A thread whose first call has not come yet points at kNoThread, a state
// whose epoch (0) never equals the gate: the fast ways read the pointer
// without a test and find their way closed.
extern ACL_EMU_INTERNAL ThreadState kNoThread;
#if defined(ACL_EMU_TLS_INITIAL_EXEC)
#define ACL_EMU_TLS_MODEL __attribute__((tls_model("initial-exec")))
#else
#define ACL_EMU_TLS_MODEL
#endif
extern ACL_EMU_INTERNAL ACL_EMU_TLS_MODEL __thread ThreadState* t_this_thread;
// The first call of a thread: makes its ThreadState.
ThreadState& ThisThreadFirst();
// This thread's state; kNoThread before its first call made it (for the
// fast ways, which leave a first call to their general way).
inline ThreadState& ThisThreadOrNone() { return *t_this_thread; }
inline ThreadState& ThisThread() {
  ThreadState* thread = t_this_thread;
  if (__builtin_expect(thread != &kNoThread, 1)) return *thread;
  return ThisThreadFirst();
}

}  // namespace ascend_emu::acl
