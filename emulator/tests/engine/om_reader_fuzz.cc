// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer entry point: any byte string given to Model::Load must yield an
// error or a model whose Run is safe. Built only with clang (see
// CMakeLists.txt); the deterministic corruption tests cover the same property
// in ctest.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ascend_emu/model.h"
#include "sample_programs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string error;
  std::unique_ptr<ascend_emu::Model> model =
      ascend_emu::Model::Load(data, size, &error);
  if (model) ascend_emu::testing::RunWithOwnBuffers(*model, &error);
  return 0;
}
