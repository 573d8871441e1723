// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "runner_options.h"

namespace executorch::backends::ascend::runner {

namespace {
constexpr int kMaxPipeline = 8;
}  // namespace

std::optional<RunnerOptions> parse_options(int argc, char** argv,
                                           std::string* error) {
  RunnerOptions o;
  const std::vector<tools::OwnOption> own = {
      {"--inputs",
       [&o](const std::string& v) {
         o.inputs = tools::split_commas(v);
         return std::string();
       }},
      {"--output-dir",
       [&o](const std::string& v) {
         o.output_dir = v;
         return std::string();
       }},
      {"--iterations",
       [&o](const std::string& v) {
         return tools::int_option("--iterations", v, 1, &o.iterations);
       }},
      {"--warmup",
       [&o](const std::string& v) {
         return tools::int_option("--warmup", v, 0, &o.warmup);
       }},
      {"--frames",
       [&o](const std::string& v) {
         return tools::int_option("--frames", v, 1, &o.frames);
       }},
      {"--pipeline",
       [&o](const std::string& v) {
         std::string bad = tools::int_option("--pipeline", v, 1, &o.pipeline);
         if (bad.empty() && o.pipeline > kMaxPipeline) {
           bad = "--pipeline must be at most " + std::to_string(kMaxPipeline);
         }
         return bad;
       }},
      {"--device-id",
       [&o](const std::string& v) {
         int device = 0;
         std::string bad = tools::int_option("--device-id", v, 0, &device);
         if (bad.empty()) o.device_id = device;
         return bad;
       }},
  };
  if (!tools::parse_arguments(argc, argv, &o, own, error)) {
    return std::nullopt;
  }
  if (!o.help && o.pipeline > 1 && o.frames == 0) {
    *error = "--pipeline needs --frames (the stream of frames it overlaps)";
    return std::nullopt;
  }
  // (An --inputs value always splits into at least one name.)
  for (const std::string& path : o.inputs) {
    if (!o.help && path.empty()) {
      *error = "--inputs has an empty file name";
      return std::nullopt;
    }
  }
  return o;
}

const char* usage() {
  return "usage: ascend_runner --model MODEL.pte [--data MODEL.ptd]\n"
         "                     [--method NAME] [--inputs A.bin,B.bin,...]\n"
         "                     [--output-dir DIR] [--iterations N] "
         "[--warmup N]\n"
         "                     [--device-id N] [--verification "
         "minimal|internal]\n"
         "                     [--frames N [--pipeline N]]\n"
         "\n"
         "Runs one method of an ExecuTorch program (with the AscendBackend\n"
         "delegate and ExecuTorch's CPU kernels) and prints its outputs and\n"
         "latency.\n"
         "  --model       the .pte file (required)\n"
         "  --data        a .ptd file with the program's external data\n"
         "  --method      method to run (default: forward)\n"
         "  --inputs      raw little-endian files, one per input, each "
         "exactly\n"
         "                the input's dtype and static shape; without it "
         "inputs\n"
         "                are filled deterministically (see docs/runtime.md)\n"
         "  --output-dir  write each output as raw bytes to DIR/outN.bin\n"
         "  --iterations  timed runs (default 1)\n"
         "  --warmup      untimed runs before them (default 0)\n"
         "  --device-id   Ascend device for every AscendBackend delegate\n"
         "  --frames      run a stream of N frames (frame f: the\n"
         "                deterministic inputs shifted by f) and print frames\n"
         "                per second; with --output-dir, DIR/frameF/outN.bin\n"
         "  --pipeline    method instances in flight over the frames, each\n"
         "                on its own thread (default 1): with 2, frame f+1's\n"
         "                upload overlaps frame f's compute\n"
         "  --verification  how ExecuTorch checks the program before it runs:\n"
         "                internal (default) checks the whole file, so a\n"
         "                corrupted one is refused; minimal checks only its\n"
         "                header (faster load, trusted files only)\n";
}

}  // namespace executorch::backends::ascend::runner
