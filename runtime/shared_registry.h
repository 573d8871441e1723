// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A process-wide map from a key to an object that lives as long as someone
// holds it: lookups hand out shared_ptrs, the map keeps weak_ptrs, and the
// last holder's release removes the entry. The weights cache and the shared
// work buffers use it for device memory several delegates use at once.
#pragma once

#include <executorch/runtime/core/result.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace executorch::backends::ascend {

template <typename Key, typename Value>
class SharedRegistry {
 public:
  // The live value of `key` if reuse(const Value&) accepts it; otherwise
  // make(), a Result<std::unique_ptr<Value>>, becomes the key's value (the
  // earlier value, if any, lives on with its holders). Runs under the lock,
  // so delegates asking for the same key at once create it once.
  template <typename Reuse, typename Make>
  executorch::runtime::Result<std::shared_ptr<Value>> get(const Key& key,
                                                          Reuse&& reuse,
                                                          Make&& make) {
    // Declared before the lock so it is released after the lock: if it is
    // the last reference, its deleter takes the lock.
    std::shared_ptr<Value> existing;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) {
      existing = it->second.lock();
      if (existing != nullptr && reuse(static_cast<const Value&>(*existing))) {
        return existing;
      }
    }
    auto made = make();
    if (!made.ok()) {
      return made.error();
    }
    std::shared_ptr<Value> value(made->release(), [this, key](Value* gone) {
      delete gone;  // the holder made the right ACL context current
      std::lock_guard<std::mutex> lock(mutex_);
      auto entry = entries_.find(key);
      if (entry != entries_.end() && entry->second.expired()) {
        entries_.erase(entry);
      }
    });
    entries_[key] = value;
    return value;
  }

  // Keys with a live value (for tests).
  size_t live() const {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t count = 0;
    for (const auto& [key, value] : entries_) count += !value.expired();
    return count;
  }

 private:
  mutable std::mutex mutex_;
  std::map<Key, std::weak_ptr<Value>> entries_;
};

}  // namespace executorch::backends::ascend
