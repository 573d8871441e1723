// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Whole programs through executorch::extension::Module, one Module per thread
// (the contract of docs/runtime.md, "What a caller must know"): real .pte/.ptd
// files lowered by the Python side (tests/programs/make_test_programs.py, a
// ctest fixture), loaded, run and destroyed by several threads at once, on the
// emulator. Run under TSan by scripts/sanitize.sh.
//
// Env: ASCEND_TEST_PROGRAMS, the folder the fixture wrote.
#include <ascend_backend.h>
#include <dlfcn.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl_emu_extras.h"
#include "tensor_files.h"

namespace {

using executorch::extension::Module;
using executorch::runtime::EValue;
using executorch::runtime::Program;
namespace runner = executorch::backends::ascend::runner;

struct TestProgram {
  std::string name;
  std::string pte;
  std::string ptd;  // empty: the program has no external data
  std::vector<std::string> inputs;
  std::vector<std::vector<float>> expected;
};

std::vector<float> ReadFloats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

std::vector<TestProgram> LoadManifest() {
  const char* dir = std::getenv("ASCEND_TEST_PROGRAMS");
  if (dir == nullptr) return {};
  std::ifstream manifest(std::string(dir) + "/programs.txt");
  std::vector<TestProgram> programs;
  std::string line;
  while (std::getline(manifest, line)) {
    std::istringstream fields(line);
    TestProgram p;
    std::string ptd;
    size_t inputs = 0;
    size_t outputs = 0;
    if (!(fields >> p.name >> ptd >> inputs >> outputs)) continue;
    const std::string base = std::string(dir) + "/" + p.name;
    p.pte = base + ".pte";
    if (ptd != "-") p.ptd = std::string(dir) + "/" + ptd;
    for (size_t i = 0; i < inputs; ++i) {
      p.inputs.push_back(base + ".input" + std::to_string(i) + ".bin");
    }
    for (size_t i = 0; i < outputs; ++i) {
      p.expected.push_back(
          ReadFloats(base + ".expected" + std::to_string(i) + ".bin"));
    }
    programs.push_back(std::move(p));
  }
  return programs;
}

// One program loaded by its own Module, its inputs read from the files.
class LoadedProgram {
 public:
  explicit LoadedProgram(const TestProgram& p)
      : module_(p.ptd.empty()
                    ? std::make_unique<Module>(p.pte, Module::LoadMode::Mmap)
                    : std::make_unique<Module>(p.pte, p.ptd,
                                               Module::LoadMode::Mmap)) {
    ok_ = module_->load(Program::Verification::InternalConsistency) ==
          executorch::runtime::Error::Ok;
    auto meta = module_->method_meta("forward");
    ok_ = ok_ && meta.ok() && meta->num_inputs() == p.inputs.size();
    buffers_.reserve(p.inputs.size());
    for (size_t i = 0; ok_ && i < p.inputs.size(); ++i) {
      auto info = meta->input_tensor_meta(i);
      ok_ = info.ok();
      if (!ok_) break;
      buffers_.push_back(runner::make_input(*info));
      std::string error;
      ok_ = runner::read_input_file(p.inputs[i], &buffers_.back(), &error);
      runner::InputBuffer& b = buffers_.back();
      tensors_.push_back(executorch::extension::make_tensor_ptr(
          b.sizes, b.bytes.data(), b.dim_order, {}, b.type));
      inputs_.emplace_back(*tensors_.back());
    }
  }
  bool ok() const { return ok_; }

  // The outputs' float values; empty when the run fails.
  std::vector<std::vector<float>> Run() {
    std::vector<std::vector<float>> out;
    auto result = module_->execute("forward", inputs_);
    if (!result.ok()) return out;
    for (const EValue& value : *result) {
      if (!value.isTensor()) return {};
      const auto& t = value.toTensor();
      const float* data = t.const_data_ptr<float>();
      out.emplace_back(data, data + t.numel());
    }
    return out;
  }

 private:
  std::unique_ptr<Module> module_;
  bool ok_ = false;
  std::vector<runner::InputBuffer> buffers_;
  std::vector<executorch::extension::TensorPtr> tensors_;
  std::vector<EValue> inputs_;
};

// The emulator's live-object counters, from the library the backend loaded.
size_t LiveAclObjects() {
  void* lib =
      dlopen(std::getenv("EXECUTORCH_ASCEND_ACL_LIB"), RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) return SIZE_MAX;
  auto stats = reinterpret_cast<aclEmuGetStatsFn>(dlsym(lib, "aclEmuGetStats"));
  aclEmuStats s{};
  const bool ok = stats != nullptr && stats(&s) == 0;
  dlclose(lib);
  if (!ok) return SIZE_MAX;
  return aclEmuLiveObjects(&s);
}

class ModuleThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    executorch::runtime::runtime_init();
    programs_ = LoadManifest();
    ASSERT_GE(programs_.size(), 4u)
        << "ASCEND_TEST_PROGRAMS must name the folder "
           "tests/programs/make_test_programs.py wrote";
  }
  std::vector<TestProgram> programs_;
};

// The emulator's numbers against eager PyTorch's, single-threaded.
TEST_F(ModuleThreads, EveryProgramMatchesEager) {
  for (const TestProgram& p : programs_) {
    LoadedProgram loaded(p);
    ASSERT_TRUE(loaded.ok()) << p.name;
    auto outputs = loaded.Run();
    ASSERT_EQ(outputs.size(), p.expected.size()) << p.name;
    for (size_t o = 0; o < outputs.size(); ++o) {
      ASSERT_EQ(outputs[o].size(), p.expected[o].size()) << p.name;
      for (size_t i = 0; i < outputs[o].size(); ++i) {
        const float want = p.expected[o][i];
        ASSERT_NEAR(outputs[o][i], want, 1e-4f + 1e-3f * std::fabs(want))
            << p.name << " output " << o << " [" << i << "]";
      }
    }
  }
  EXPECT_EQ(LiveAclObjects(), 0u);
}

// Four threads, each with its own Modules: every round a thread loads every
// program (each thread in another order, so loads, runs and destroys of
// different programs and of the same program overlap), runs it and checks the
// outputs are bit-identical to a single-threaded run's.
TEST_F(ModuleThreads, OwnModulePerThreadLoadsRunsAndDestroysConcurrently) {
  std::vector<std::vector<std::vector<float>>> reference;
  for (const TestProgram& p : programs_) {
    LoadedProgram loaded(p);
    ASSERT_TRUE(loaded.ok()) << p.name;
    reference.push_back(loaded.Run());
    ASSERT_FALSE(reference.back().empty()) << p.name;
  }
  constexpr int kThreads = 4;
  constexpr int kRounds = 3;
  constexpr int kRunsPerLoad = 2;
  std::vector<int> wrong(kThreads, 0);
  std::vector<int> failed(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round) {
        for (size_t k = 0; k < programs_.size(); ++k) {
          const size_t index = (k + t) % programs_.size();
          LoadedProgram loaded(programs_[index]);
          if (!loaded.ok()) {
            ++failed[t];
            continue;
          }
          for (int r = 0; r < kRunsPerLoad; ++r) {
            auto outputs = loaded.Run();
            if (outputs.empty()) {
              ++failed[t];
            } else if (outputs != reference[index]) {
              ++wrong[t];
            }
          }
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failed[t], 0) << "thread " << t;
    EXPECT_EQ(wrong[t], 0) << "thread " << t;
  }
  EXPECT_EQ(LiveAclObjects(), 0u);
}

}  // namespace
