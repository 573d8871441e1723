// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// One atc invocation, callable in-process (tests) or from main().
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ascend_emu {
namespace atc {

// CANN's atc returns -1 from main() on every failure (hicann/ge
// api/atc/main_impl.cc, main_impl and CheckRet), which the shell sees as 255.
constexpr int kAtcFailureExit = 255;

// Runs atc on argv[1..]: parse the options, load and check the ONNX model,
// compile it, validate the result with the engine's own loader checks, and
// (mode 0) write <output>.om atomically. Prints the summary line to `out`
// and "ATC run failed: <reason>" to `err`. Returns the process exit code:
// 0 on success, kAtcFailureExit on any failure.
int RunAtc(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err);

// The file atc writes for --output=<output>: "<output>.om" (a trailing ".om"
// is not doubled).
std::string OmPathFor(const std::string& output);

}  // namespace atc
}  // namespace ascend_emu
