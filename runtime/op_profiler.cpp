// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "op_profiler.h"

#include <executorch/runtime/core/event_tracer_hooks_delegate.h>
#include <executorch/runtime/platform/platform.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "log.h"

namespace executorch::backends::ascend {

namespace {

// Room for a large model's records of one execute (~16 000 ops of CANN's
// records), so the writer need not wait for us; best effort (F_SETPIPE_SZ
// is capped by /proc/sys/fs/pipe-max-size, 1 MiB by default).
constexpr int kPipeBytes = 1 << 20;
// Records read per read(): the buffer is this many whole records.
constexpr size_t kRecordsPerRead = 256;

}  // namespace

OpProfiler& OpProfiler::get() {
  // Leaked on purpose, like the ACL table: delegates may be destroyed by
  // static destructors at exit.
  static OpProfiler* profiler = new OpProfiler();
  return *profiler;
}

bool OpProfiler::open(const AclLibrary& library) {
  const AclApi& api = library.api();
  size_t record_size = 0;
  if (api.aclprofGetOpDescSize(&record_size) != ACL_SUCCESS ||
      record_size == 0) {
    ASCEND_LOG(Error, "aclprofGetOpDescSize failed: %s",
               library.recent_error());
    return false;
  }
  int fds[2] = {-1, -1};
  if (pipe2(fds, O_CLOEXEC) != 0) {
    ASCEND_LOG(Error, "cannot make the profiling pipe: errno %d", errno);
    return false;
  }
  // The read end never blocks: after an execute we take what is there.
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  fcntl(fds[1], F_SETPIPE_SZ, kPipeBytes);
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  config_ = api.aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &write_fd_);
  if (config_ == nullptr) {
    ASCEND_LOG(Error, "aclprofCreateSubscribeConfig failed: %s",
               library.recent_error());
    close_all(library);
    return false;
  }
  record_size_ = record_size;
  buffer_.resize(record_size * kRecordsPerRead);
  return true;
}

void OpProfiler::close_all(const AclLibrary& library) {
  if (config_ != nullptr) {
    library.api().aclprofDestroySubscribeConfig(config_);
    config_ = nullptr;
  }
  // CANN closed the write end at the last unsubscribe and set it to -1; a
  // release that did not is closed here.
  if (write_fd_ >= 0) close(write_fd_);
  if (read_fd_ >= 0) close(read_fd_);
  write_fd_ = read_fd_ = -1;
}

bool OpProfiler::subscribe(const AclLibrary& library, uint32_t model_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const AclApi& api = library.api();
  if (!api.has_profiling()) {
    if (!warned_) {
      warned_ = true;
      ASCEND_LOG(Info,
                 "no per-op profiling: the ACL library (%s) has no "
                 "aclprofModelSubscribe, nor a libmsprofiler.so beside it; "
                 "ETDump gets one event per delegate call",
                 library.path().c_str());
    }
    return false;
  }
  if (config_ == nullptr && !open(library)) return false;
  const aclError error = api.aclprofModelSubscribe(model_id, config_);
  if (error != ACL_SUCCESS) {
    if (!warned_) {
      warned_ = true;
      ASCEND_LOG(Error,
                 "aclprofModelSubscribe of model %u failed with %d: %s; the "
                 "model runs unprofiled",
                 model_id, error, library.recent_error());
    }
    if (subscribed_ == 0) close_all(library);
    return false;
  }
  ++subscribed_;
  return true;
}

void OpProfiler::unsubscribe(const AclLibrary& library, uint32_t model_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const aclError error = library.api().aclprofModelUnSubscribe(model_id);
  if (error != ACL_SUCCESS) {
    ASCEND_LOG(Error, "aclprofModelUnSubscribe of model %u failed with %d: %s",
               model_id, error, library.recent_error());
  }
  if (subscribed_ > 0 && --subscribed_ == 0) close_all(library);
}

bool OpProfiler::read_text(const AclApi& api, const uint8_t* data,
                           size_t length, uint32_t index, bool name,
                           std::string* out) {
  size_t size = 0;
  const aclError got =
      name ? api.aclprofGetOpNameLen(data, length, index, &size)
           : api.aclprofGetOpTypeLen(data, length, index, &size);
  if (got != ACL_SUCCESS || size == 0) return false;
  out->resize(size);  // grows once to the longest name, then reused
  const aclError copied =
      name ? api.aclprofGetOpName(data, length, index, out->data(), size)
           : api.aclprofGetOpType(data, length, index, out->data(), size);
  if (copied != ACL_SUCCESS) return false;
  out->resize(size - 1);  // without its NUL
  return true;
}

void OpProfiler::log_records(const AclLibrary& library, uint32_t model_id,
                             executorch::runtime::EventTracer* tracer,
                             et_timestamp_t start) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (read_fd_ < 0) return;
  const AclApi& api = library.api();
  const et_tick_ratio_t ticks_per_ns = et_pal_ticks_to_ns_multiplier();
  const auto to_ticks = [&](uint64_t us) {
    return static_cast<et_timestamp_t>(us * 1000 * ticks_per_ns.denominator /
                                       ticks_per_ns.numerator);
  };
  bool first = true;
  uint64_t first_us = 0;
  for (;;) {
    const ssize_t got = read(read_fd_, buffer_.data(), buffer_.size());
    if (got <= 0) break;  // EAGAIN: nothing more; 0: the writer is gone
    const size_t length = static_cast<size_t>(got);
    uint32_t count = 0;
    if (api.aclprofGetOpNum(buffer_.data(), length, &count) != ACL_SUCCESS) {
      ASCEND_LOG(Error, "aclprofGetOpNum refused %zu bytes of records: %s",
                 length, library.recent_error());
      continue;
    }
    for (uint32_t i = 0; i < count; ++i) {
      // Type and name are read for every record, ours or not: CANN hands
      // each out once and keeps it until then.
      const bool named =
          read_text(api, buffer_.data(), length, i, false, &type_) &&
          read_text(api, buffer_.data(), length, i, true, &name_);
      if (!named ||
          api.aclprofGetModelId(buffer_.data(), length, i) != model_id) {
        continue;
      }
      const uint64_t op_start =
          api.aclprofGetOpStart(buffer_.data(), length, i);
      const uint64_t op_end = api.aclprofGetOpEnd(buffer_.data(), length, i);
      if (first) {
        first = false;
        first_us = op_start;
      }
      const uint64_t offset = op_start >= first_us ? op_start - first_us : 0;
      const uint64_t duration = op_end >= op_start ? op_end - op_start : 0;
      const et_timestamp_t begin = start + to_ticks(offset);
      // Named events: the name is the op's, the key of the debug handle
      // map, so no delegate debug index (ETDumpGen takes one or the other).
      executorch::runtime::event_tracer_log_profiling_delegate(
          tracer, name_.c_str(), executorch::runtime::kUnsetDelegateDebugIntId,
          begin, begin + to_ticks(duration));
    }
  }
}

}  // namespace executorch::backends::ascend
