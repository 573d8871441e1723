// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The ways the per-call benchmark runs one tiny model (percall_bench.cc),
// each a Path with one call = inputs in, model run, output out:
//  acl_sequence  the bare ACL sequence on the emulator, through a dlopen'd
//                libascendcl.so as the backend reaches it: aclrtMemcpy of
//                each input to the device, aclmdlExecute, aclrtMemcpy of the
//                output back;
//  model_work    the emulator engine's Run on the same .om with the buffers
//                bound (what the ACL sequence wraps);
//  plain_memcpy  memcpy of the same input and output bytes;
//  ascend / xnnpack / portable
//                ExecuTorch's Method (set_input, execute, output read) on the
//                model delegated to AscendBackend, to XNNPACK, or on the CPU
//                kernels.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ascend_percall {

struct ModelFiles {
  std::string dir;   // export_models.py's folder
  std::string name;  // "mlp"
  std::vector<std::vector<float>> inputs;
  std::vector<float> expected;
};

class Path {
 public:
  virtual ~Path() = default;
  virtual const char* name() const = 0;
  // One call. Returns false on an error (printed).
  virtual bool Call() = 0;
  // The output of the last call.
  virtual const float* output() const = 0;
  // Before a round of calls (the backend makes its own ACL context current
  // on every call; the bare ACL sequence sets its own once per round).
  virtual void BeginRound() {}
};

// nullptr (and a message on stderr) when the path cannot be set up.
std::unique_ptr<Path> MakeAclSequence(const ModelFiles& model,
                                      const std::string& acl_library);
std::unique_ptr<Path> MakeModelWork(const ModelFiles& model);
std::unique_ptr<Path> MakePlainMemcpy(const ModelFiles& model);
// suffix: "ascend", "xnnpack" or "portable" (<name>_<suffix>.pte).
std::unique_ptr<Path> MakeExecuTorchMethod(const ModelFiles& model,
                                           const std::string& suffix);

}  // namespace ascend_percall
