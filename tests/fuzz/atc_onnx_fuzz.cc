// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for atc's ONNX import and compile: the input is the
// --model file's bytes. atc reads its model only from a path, so the bytes go
// into a memfd and atc opens /proc/self/fd/<n>; --mode=3 runs the whole
// pipeline (protobuf, opset and CANN registration checks, ONNX checker and
// shape inference, graph compile, .om write + read-back + validation) and
// writes nothing.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "atc_driver.h"

namespace {

int g_model_fd = -1;
std::vector<std::string> g_args;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_model_fd = memfd_create("fuzz_atc_model", 0);
  if (g_model_fd < 0) {
    std::perror("memfd_create");
    std::abort();
  }
  g_args = {"--framework=5",
            "--model=/proc/self/fd/" + std::to_string(g_model_fd),
            "--soc_version=Ascend910B1",
            "--precision_mode=must_keep_origin_dtype", "--mode=3"};
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (ftruncate(g_model_fd, 0) != 0 ||
      (size > 0 &&
       pwrite(g_model_fd, data, size, 0) != static_cast<ssize_t>(size))) {
    std::perror("writing the model memfd");
    std::abort();
  }
  std::ostringstream out, err;
  const int rc = ascend_emu::atc::RunAtc(g_args, out, err);
  // A failed run must say why; a silent failure is a bug too.
  if (rc != 0 && err.str().find("ATC run failed: ") == std::string::npos) {
    std::abort();
  }
  return 0;
}
