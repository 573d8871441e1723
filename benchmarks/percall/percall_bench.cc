// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The per-call benchmark (docs/benchmarks.md, "Per-call cost"): one process
// runs each tiny model of export_models.py through every path of
// percall_paths.h, checks each path's output against eager PyTorch's, then
//  - time mode (default): interleaved rounds (the paths one after the other
//    in each round, the order rotated every round), each round N calls of a
//    path timed with the thread's CPU clock; reports the median ns per call
//    over the rounds and the heap allocations per call (counted by
//    emulator/tests/common/alloc_counter.cc after warm-up);
//  - --callgrind: under valgrind --tool=callgrind --collect-atstart=no, N
//    calls of each path collected alone (CALLGRIND_ZERO_STATS, collection
//    toggled on, the calls, toggled off, CALLGRIND_DUMP_STATS_AT(
//    "<model>:<path>")), one dump each, which
//    bench_percall.py reads into instructions per call.
// Usage: ascend_percall_bench --dir DIR [--models mlp,add] [--rounds R]
//          [--calls N] [--acl-lib PATH] [--callgrind] [--json PATH]
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
// Without valgrind's header (scripts/setup.sh installs valgrind) the harness
// still times; --callgrind then has nothing to dump.
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(name) (void)(name)
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "percall_paths.h"

namespace ascend_percall {
namespace {

struct Options {
  std::string dir;
  std::vector<std::string> models = {"mlp", "add"};
  int rounds = 15;
  int calls = 2000;
  std::string acl_library;
  bool callgrind = false;
  std::string json;
};

std::vector<float> ReadFloats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

bool ReadModel(const Options& options, const std::string& name,
               ModelFiles* model) {
  std::ifstream manifest(options.dir + "/models.txt");
  std::string line;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    std::string found;
    size_t inputs = 0;
    if (!(fields >> found >> inputs) || found != name) continue;
    model->dir = options.dir;
    model->name = name;
    for (size_t i = 0; i < inputs; ++i) {
      model->inputs.push_back(ReadFloats(options.dir + "/" + name + ".input" +
                                         std::to_string(i) + ".bin"));
    }
    model->expected = ReadFloats(options.dir + "/" + name + ".expected.bin");
    return !model->expected.empty();
  }
  std::fprintf(stderr, "percall: model '%s' not in %s/models.txt\n",
               name.c_str(), options.dir.c_str());
  return false;
}

double ThreadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// The benchmark contract: what is timed computes the right thing.
bool CheckOutput(Path& path, const ModelFiles& model) {
  const float* out = path.output();
  for (size_t i = 0; i < model.expected.size(); ++i) {
    const float want = model.expected[i];
    if (!(std::fabs(out[i] - want) <=
          1e-4f * std::max(1.0f, std::fabs(want)))) {
      std::fprintf(stderr, "percall: %s/%s: output %zu is %g, expected %g\n",
                   model.name.c_str(), path.name(), i, out[i], want);
      return false;
    }
  }
  return true;
}

bool Calls(Path& path, int count) {
  path.BeginRound();
  for (int i = 0; i < count; ++i) {
    if (!path.Call()) return false;
  }
  return true;
}

struct Result {
  double ns_per_call = 0;  // median over rounds
  double ns_min = 0;
  double allocs_per_call = 0;
};

int Run(const Options& options) {
  std::map<std::string, double> json;
  std::printf(
      "| model | path | ns/call (median) | ns/call (min) | heap "
      "allocations/call |\n|---|---|---:|---:|---:|\n");
  for (const std::string& name : options.models) {
    ModelFiles model;
    if (!ReadModel(options, name, &model)) return 1;
    std::vector<std::unique_ptr<Path>> paths;
    paths.push_back(MakeAclSequence(model, options.acl_library));
    paths.push_back(MakeModelWork(model));
    paths.push_back(MakePlainMemcpy(model));
    for (const char* suffix : {"ascend", "xnnpack", "portable"}) {
      paths.push_back(MakeExecuTorchMethod(model, suffix));
    }
    for (auto& path : paths) {
      if (path == nullptr) return 1;
      // Warm-up (first-run checks, caches, lazy set-up), then the check.
      if (!Calls(*path, 20) || !CheckOutput(*path, model)) return 1;
    }
    if (options.callgrind) {
      for (auto& path : paths) {
        const std::string dump = name + ":" + path->name();
        path->BeginRound();
        CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT;  // on (valgrind runs --collect-atstart=no)
        for (int i = 0; i < options.calls; ++i) {
          if (!path->Call()) return 1;
        }
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_DUMP_STATS_AT(dump.c_str());
        std::printf("callgrind dump %s: %d calls\n", dump.c_str(),
                    options.calls);
      }
      continue;
    }
    std::vector<Result> results(paths.size());
    for (size_t p = 0; p < paths.size(); ++p) {
      constexpr int kCounted = 100;
      paths[p]->BeginRound();
      ascend_test::StartCountingAllocations();
      for (int i = 0; i < kCounted; ++i) paths[p]->Call();
      results[p].allocs_per_call =
          static_cast<double>(ascend_test::StopCountingAllocations()) /
          kCounted;
    }
    std::vector<std::vector<double>> samples(paths.size());
    for (int round = 0; round < options.rounds; ++round) {
      for (size_t k = 0; k < paths.size(); ++k) {
        const size_t p = (k + round) % paths.size();
        paths[p]->BeginRound();
        const double start = ThreadCpuNs();
        for (int i = 0; i < options.calls; ++i) paths[p]->Call();
        samples[p].push_back((ThreadCpuNs() - start) / options.calls);
      }
    }
    for (size_t p = 0; p < paths.size(); ++p) {
      std::vector<double>& s = samples[p];
      std::sort(s.begin(), s.end());
      results[p].ns_per_call = s[s.size() / 2];
      results[p].ns_min = s.front();
      const std::string key = name + "." + paths[p]->name();
      json[key + ".ns_per_call"] = results[p].ns_per_call;
      json[key + ".allocs_per_call"] = results[p].allocs_per_call;
      std::printf("| %s | %s | %.0f | %.0f | %.2f |\n", name.c_str(),
                  paths[p]->name(), results[p].ns_per_call, results[p].ns_min,
                  results[p].allocs_per_call);
    }
  }
  if (!options.json.empty() && !options.callgrind) {
    std::ofstream out(options.json);
    out << "{";
    const char* sep = "";
    for (const auto& [key, value] : json) {
      out << sep << "\n  \"" << key << "\": " << value;
      sep = ",";
    }
    out << "\n}\n";
  }
  return 0;
}

bool ParseOptions(int argc, char** argv, Options* options) {
  if (const char* lib = std::getenv("EXECUTORCH_ASCEND_ACL_LIB")) {
    options->acl_library = lib;
  }
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      return i + 1 < argc ? argv[++i] : std::string();
    };
    if (arg == "--dir") {
      options->dir = value();
    } else if (arg == "--models") {
      options->models.clear();
      std::stringstream list(value());
      for (std::string m; std::getline(list, m, ',');) {
        options->models.push_back(m);
      }
    } else if (arg == "--rounds") {
      options->rounds = std::atoi(value().c_str());
    } else if (arg == "--calls") {
      options->calls = std::atoi(value().c_str());
    } else if (arg == "--acl-lib") {
      options->acl_library = value();
    } else if (arg == "--callgrind") {
      options->callgrind = true;
    } else if (arg == "--json") {
      options->json = value();
    } else {
      std::fprintf(stderr, "percall: unknown argument '%s'\n", arg.c_str());
      return false;
    }
  }
  if (options->dir.empty() || options->acl_library.empty() ||
      options->rounds < 1 || options->calls < 1) {
    std::fprintf(stderr,
                 "usage: ascend_percall_bench --dir DIR [--models mlp,add] "
                 "[--rounds R] [--calls N] [--acl-lib PATH "
                 "(default $EXECUTORCH_ASCEND_ACL_LIB)] [--callgrind] "
                 "[--json PATH]\n");
    return false;
  }
  return true;
}

}  // namespace
}  // namespace ascend_percall

int main(int argc, char** argv) {
  ascend_percall::Options options;
  if (!ascend_percall::ParseOptions(argc, argv, &options)) return 2;
  return ascend_percall::Run(options);
}
