// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What the backend logs, captured through ExecuTorch's platform layer (the
// PAL's log sink, register_pal) while a LogCapture is alive; every message is
// still passed on to the sink that was registered before.
#pragma once

#include <executorch/runtime/platform/platform.h>

#include <mutex>
#include <string>
#include <utility>

namespace executorch::backends::ascend::testing {

class LogCapture {
 public:
  LogCapture() {
    previous_ = executorch::runtime::get_pal_impl()->emit_log_message;
    std::lock_guard<std::mutex> lock(mutex());
    active() = this;
    executorch::runtime::register_pal(
        executorch::runtime::PalImpl::create(&emit, __FILE__));
  }
  ~LogCapture() {
    executorch::runtime::register_pal(
        executorch::runtime::PalImpl::create(previous_, __FILE__));
    std::lock_guard<std::mutex> lock(mutex());
    active() = nullptr;
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  // Everything logged since the last take(), one message per line.
  std::string take() {
    std::lock_guard<std::mutex> lock(mutex());
    return std::exchange(text_, std::string());
  }

 private:
  static void emit(et_timestamp_t timestamp, et_pal_log_level_t level,
                   const char* filename, const char* function, size_t line,
                   const char* message, size_t length) {
    ::pal_emit_log_message_method forward = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex());
      if (active() != nullptr) {
        active()->text_.append(message, length).push_back('\n');
        forward = active()->previous_;
      }
    }
    if (forward != nullptr) {
      forward(timestamp, level, filename, function, line, message, length);
    }
  }
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static LogCapture*& active() {
    static LogCapture* instance = nullptr;
    return instance;
  }

  ::pal_emit_log_message_method previous_ = nullptr;
  std::string text_;
};

}  // namespace executorch::backends::ascend::testing
