// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// An argv for the runners' command-line tests: the program's name, then
// `args`, kept alive as long as the object.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace executorch::backends::ascend::test_util {

class Argv {
 public:
  Argv(const char* program, std::vector<std::string> args)
      : args_(std::move(args)) {
    args_.insert(args_.begin(), program);
    for (std::string& a : args_) pointers_.push_back(a.data());
  }
  int argc() const { return static_cast<int>(pointers_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> args_;
  std::vector<char*> pointers_;
};

}  // namespace executorch::backends::ascend::test_util
