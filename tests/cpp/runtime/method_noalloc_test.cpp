// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendBackend::execute through ExecuTorch allocates nothing once warm: a
// real delegated program (the add_relu program of the ctest fixture,
// tests/programs/make_test_programs.py) run by its Method (set_input,
// execute, the output read), with every heap allocation of the thread
// counted (emulator/tests/common/alloc_counter.cc replaces malloc in this
// binary). add_relu is elementwise: the per-call path alone (ExecuTorch's
// Method, the backend, the ACL calls and the emulator's execute path); mlp adds
// the emulator's Gemm (three Linear layers on Eigen), Relu and Softmax kernels.
//
// Env: ASCEND_TEST_PROGRAMS, the folder the fixture wrote.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>
#include <executorch/runtime/platform/runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "alloc_counter.h"

namespace {

using executorch::aten::SizesType;
using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Method;

std::vector<float> ReadFloats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

// Runs program `name` of the fixture (its inputs of `shapes`) 10 times once
// warm, counting the thread's heap allocations.
void ExpectNoAllocations(const std::string& name,
                         const std::vector<std::vector<SizesType>>& shapes) {
  const char* dir = std::getenv("ASCEND_TEST_PROGRAMS");
  if (dir == nullptr) GTEST_SKIP() << "ASCEND_TEST_PROGRAMS is not set";
  executorch::runtime::runtime_init();
  const std::string base = std::string(dir) + "/" + name;
  Module module(base + ".pte", Module::LoadMode::File);
  ASSERT_EQ(module.load_method("forward"), Error::Ok);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  auto found = module.method("forward");
#pragma GCC diagnostic pop
  ASSERT_TRUE(found.ok());
  Method& method = *found.get();

  std::vector<std::vector<float>> inputs;
  for (size_t i = 0; i < shapes.size(); ++i) {
    inputs.push_back(ReadFloats(base + ".input" + std::to_string(i) + ".bin"));
  }
  const std::vector<float> expected = ReadFloats(base + ".expected0.bin");
  std::vector<executorch::extension::TensorPtr> tensors;
  std::vector<EValue> values;
  for (size_t i = 0; i < shapes.size(); ++i) {
    size_t numel = 1;
    for (SizesType d : shapes[i]) numel *= static_cast<size_t>(d);
    ASSERT_EQ(inputs[i].size(), numel);
    tensors.push_back(executorch::extension::make_tensor_ptr(
        shapes[i], inputs[i].data(), {}, {}));
    values.emplace_back(*tensors.back());
  }
  std::vector<float> output(expected.size());
  auto call = [&] {
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(method.set_input(values[i], i), Error::Ok);
    }
    ASSERT_EQ(method.execute(), Error::Ok);
    const auto& out = method.get_output(0).toTensor();
    ASSERT_EQ(static_cast<size_t>(out.numel()), output.size());
    std::memcpy(output.data(), out.const_data_ptr<float>(),
                output.size() * sizeof(float));
  };
  call();  // warm-up: the emulator checks the backend's datasets once
  ascend_test::StartCountingAllocations();
  for (int i = 0; i < 10; ++i) call();
  EXPECT_EQ(ascend_test::StopCountingAllocations(), 0u)
      << "heap allocations in 10 warm Method::execute calls of " << name;
  for (size_t i = 0; i < output.size(); ++i) {
    EXPECT_NEAR(output[i], expected[i], 1e-5f) << i;
  }
}

TEST(MethodNoAlloc, AscendDelegateCallAllocatesNothingWhenWarm) {
  ExpectNoAllocations("add_relu", {{4, 8}, {4, 8}});
}

TEST(MethodNoAlloc, MlpAllocatesNothingWhenWarm) {
  ExpectNoAllocations("mlp", {{4, 32}});
}

}  // namespace
