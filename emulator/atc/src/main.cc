// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator's atc executable (docs/atc.md).
#include <iostream>
#include <string>
#include <vector>

#include "atc_driver.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return ascend_emu::atc::RunAtc(args, std::cout, std::cerr);
}
