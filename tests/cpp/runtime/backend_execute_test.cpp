// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendBackend against the CANN emulator: happy paths with numbers checked,
// every execute-time argument error, ACL failures during execute, and
// concurrent use of one delegate.
#include <thread>

#include "ascend_delegate.h"
#include "emulator_fixture.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::runtime::Error;
using executorch::runtime::EValue;

class BackendExecute : public AscendEmulatorTest {};

void fill(HostTensor& t, size_t n, float base, float step) {
  for (size_t i = 0; i < n; ++i) {
    t.floats()[i] = base + step * static_cast<float>(i);
  }
}

TEST_F(BackendExecute, AddRunsTwiceWithRightNumbers) {
  const aclEmuStats before = hooks_.stats();
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  EXPECT_EQ(data_.outstanding(), 0) << "the .om buffer must be freed in init";

  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  for (int round = 0; round < 2; ++round) {
    fill(x, 6, 1.0f + round, 1.0f);
    fill(y, 6, -0.5f * round, 10.0f);
    ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}),
              Error::Ok);
    for (int i = 0; i < 6; ++i) {
      EXPECT_FLOAT_EQ(z.floats()[i], x.floats()[i] + y.floats()[i])
          << "round " << round << " element " << i;
    }
  }
  const aclEmuStats after = hooks_.stats();
  EXPECT_EQ(after.executes - before.executes, 2u);
  EXPECT_EQ(after.bytes_host_to_device - before.bytes_host_to_device,
            2u * 2u * 6u * sizeof(float));
  EXPECT_EQ(after.bytes_device_to_host - before.bytes_device_to_host,
            2u * 6u * sizeof(float));
  // Device memory: two inputs and one output of 24 bytes each.
  EXPECT_EQ(after.live_device_allocs, 3u);
  EXPECT_EQ(after.live_models, 1u);
  destroy(*handle);
  expect_nothing_alive(hooks_.stats());
}

// One host wait per call: the copies and the execute are queued on the
// delegate's stream and waited for once (aclrtSynchronizeStream).
TEST_F(BackendExecute, OneHostWaitPerCall) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  fill(x, 6, 1, 1);
  fill(y, 6, 2, 0);
  const uint64_t waits = hooks_.calls("aclrtSynchronizeStream");
  const uint64_t queued = hooks_.calls("aclmdlExecuteAsync");
  const uint64_t copies = hooks_.calls("aclrtMemcpyAsync");
  const uint64_t plain = hooks_.calls("aclrtMemcpy");
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}),
              Error::Ok);
  }
  EXPECT_EQ(hooks_.calls("aclrtSynchronizeStream") - waits, 5u);
  EXPECT_EQ(hooks_.calls("aclmdlExecuteAsync") - queued, 5u);
  EXPECT_EQ(hooks_.calls("aclrtMemcpyAsync") - copies, 15u);
  EXPECT_EQ(hooks_.calls("aclrtMemcpy") - plain, 0u);
  EXPECT_FLOAT_EQ(z.floats()[5], 8.0f);
}

// RC mode (aclrtGetRunMode == ACL_DEVICE; EXECUTORCH_ASCEND_EMU_RUN_MODE=
// device on the emulator): the delegate binds the tensors' own memory into
// its datasets, so no byte is copied either way; a tensor that moves is
// bound again (aclUpdateDataBuffer) and one that stays is not.
TEST_F(BackendExecute, DeviceRunModeBindsTensorsInPlaceWithoutCopies) {
  setenv("EXECUTORCH_ASCEND_EMU_RUN_MODE", "device", 1);
  ASSERT_EQ(hooks_.finalize_and_reinit(), ACL_SUCCESS);
  unsetenv("EXECUTORCH_ASCEND_EMU_RUN_MODE");  // read by that aclInit
  {
    auto handle = init(add_blob());
    ASSERT_TRUE(handle.ok());
    HostTensor x(ScalarType::Float, {2, 3});
    HostTensor y(ScalarType::Float, {2, 3});
    HostTensor z(ScalarType::Float, {2, 3});
    HostTensor x2(ScalarType::Float, {2, 3});
    const aclEmuStats before = hooks_.stats();
    const uint64_t binds = hooks_.calls("aclUpdateDataBuffer");
    for (int round = 0; round < 2; ++round) {
      fill(x, 6, 1.0f + round, 1.0f);
      fill(y, 6, 10.0f, -1.0f);
      ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}),
                Error::Ok);
      for (int i = 0; i < 6; ++i) {
        EXPECT_FLOAT_EQ(z.floats()[i], x.floats()[i] + y.floats()[i]);
      }
    }
    EXPECT_EQ(hooks_.calls("aclUpdateDataBuffer") - binds, 3u);
    fill(x2, 6, -4.0f, 0.5f);
    ASSERT_EQ(execute(*handle, {x2.evalue(), y.evalue(), z.evalue()}),
              Error::Ok);
    EXPECT_FLOAT_EQ(z.floats()[5], x2.floats()[5] + y.floats()[5]);
    EXPECT_EQ(hooks_.calls("aclUpdateDataBuffer") - binds, 4u);
    const aclEmuStats after = hooks_.stats();
    EXPECT_EQ(after.bytes_host_to_device, before.bytes_host_to_device);
    EXPECT_EQ(after.bytes_device_to_host, before.bytes_device_to_host);
    EXPECT_EQ(after.executes - before.executes, 3u);
    // A failed bind is an error of the call; the next call binds again.
    hooks_.inject("aclUpdateDataBuffer", 0, ACL_ERROR_RT_FAILURE);
    EXPECT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}),
              Error::InvalidState);
    hooks_.clear();
    ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}),
              Error::Ok);
    EXPECT_FLOAT_EQ(z.floats()[5], x.floats()[5] + y.floats()[5]);
    destroy(*handle);
  }
  // Back to host mode for the other tests.
  EXPECT_EQ(hooks_.finalize_and_reinit(), ACL_SUCCESS);
}

TEST_F(BackendExecute, MatMulReluRightNumbers) {
  auto handle = init(matmul_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 4});
  HostTensor y(ScalarType::Float, {2, 3});
  const float xs[8] = {1, 2, 3, 4, -1, 0.5f, -2, 1};
  std::copy(xs, xs + 8, x.floats());
  ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue()}), Error::Ok);
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c) {
      float acc = 0;
      for (int k = 0; k < 4; ++k) {
        acc += xs[r * 4 + k] * static_cast<float>(k - c);
      }
      EXPECT_FLOAT_EQ(y.floats()[r * 3 + c], acc > 0 ? acc : 0.0f)
          << r << "," << c;
    }
  }
}

TEST_F(BackendExecute, TwoDelegatesOfOneModelAreIndependent) {
  auto first = init(add_blob());
  auto second = init(add_blob());
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(hooks_.stats().live_models, 2u);
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  fill(x, 6, 1, 1);
  fill(y, 6, 2, 0);
  destroy(*first);
  ASSERT_EQ(execute(*second, {x.evalue(), y.evalue(), z.evalue()}), Error::Ok);
  EXPECT_FLOAT_EQ(z.floats()[5], 8.0f);
}

TEST_F(BackendExecute, WrongNumberOfArgs) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  EXPECT_EQ(execute(*handle, {x.evalue(), z.evalue()}), Error::InvalidArgument);
  EXPECT_EQ(execute(*handle, {}), Error::InvalidArgument);
  EXPECT_EQ(execute(*handle, {x.evalue(), x.evalue(), z.evalue(), z.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(execute(*handle, {x.evalue(), nullptr, z.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(executes(), 0u);
}

TEST_F(BackendExecute, NonTensorInput) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  EValue scalar(static_cast<int64_t>(3));
  EXPECT_EQ(execute(*handle, {x.evalue(), &scalar, z.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(execute(*handle, {x.evalue(), x.evalue(), &scalar}),
            Error::InvalidArgument);
}

TEST_F(BackendExecute, WrongDtype) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y_int(ScalarType::Int, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  HostTensor z_half(ScalarType::Half, {2, 3});
  EXPECT_EQ(execute(*handle, {x.evalue(), y_int.evalue(), z.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(execute(*handle, {x.evalue(), x.evalue(), z_half.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(executes(), 0u);
}

TEST_F(BackendExecute, WrongShape) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  HostTensor transposed(ScalarType::Float, {3, 2});
  HostTensor rank3(ScalarType::Float, {2, 3, 1});
  HostTensor flat(ScalarType::Float, {6});
  for (HostTensor* bad : {&transposed, &rank3, &flat}) {
    EXPECT_EQ(execute(*handle, {x.evalue(), bad->evalue(), z.evalue()}),
              Error::InvalidArgument);
  }
  // An output whose static shape cannot be resized to the model's.
  EXPECT_EQ(execute(*handle, {x.evalue(), x.evalue(), transposed.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(executes(), 0u);
}

TEST_F(BackendExecute, NonContiguousDimOrder) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  HostTensor column_major(ScalarType::Float, {2, 3}, {1, 0});
  EXPECT_EQ(execute(*handle, {x.evalue(), column_major.evalue(), z.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(execute(*handle, {x.evalue(), x.evalue(), column_major.evalue()}),
            Error::InvalidArgument);
  EXPECT_EQ(executes(), 0u);
}

TEST_F(BackendExecute, NullHandle) {
  HostTensor x(ScalarType::Float, {2, 3});
  EXPECT_EQ(execute(nullptr, {x.evalue()}), Error::DelegateInvalidHandle);
}

TEST_F(BackendExecute, AclFailuresDuringExecuteAreErrorsAndRecoverable) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  fill(x, 6, 1, 1);
  fill(y, 6, 1, 0);
  struct Case {
    const char* function;
    int after;
    Error expected;
  };
  const Case cases[] = {
      {"aclrtSetCurrentContext", 0, Error::DelegateInvalidHandle},
      {"aclrtMemcpyAsync", 0, Error::InvalidState},  // first input
      {"aclrtMemcpyAsync", 1, Error::InvalidState},  // second input
      {"aclrtMemcpyAsync", 2, Error::InvalidState},  // output
      {"aclmdlExecuteAsync", 0, Error::InvalidState},
      {"aclrtSynchronizeStream", 0, Error::InvalidState},  // the one wait
  };
  for (const Case& c : cases) {
    hooks_.inject(c.function, c.after, ACL_ERROR_RT_FAILURE);
    EXPECT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}),
              c.expected)
        << c.function << " after " << c.after;
    hooks_.clear();
    std::fill(z.floats(), z.floats() + 6, 0.0f);
    ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}), Error::Ok)
        << "not usable after a failed " << c.function;
    EXPECT_FLOAT_EQ(z.floats()[5], 7.0f);
  }
}

// The thread matrix: 1, 2, 4 and 8 threads, each with a delegate of its own
// (different delegates run concurrently) or all sharing one (executes of one
// handle are serialised); every result right, every execute counted. Run
// under TSan by scripts/sanitize.sh.
TEST_F(BackendExecute, ThreadMatrixOfSharedAndOwnDelegates) {
  constexpr int kRounds = 25;
  for (const int threads : {1, 2, 4, 8}) {
    for (const bool shared : {true, false}) {
      SCOPED_TRACE(std::to_string(threads) + (shared
                                                  ? " threads, one shared "
                                                    "delegate"
                                                  : " threads, own delegates"));
      std::vector<executorch::runtime::DelegateHandle*> handles;
      for (int t = 0; t < (shared ? 1 : threads); ++t) {
        auto handle = init(add_blob(), {}, another_arena(4096).get());
        ASSERT_TRUE(handle.ok());
        handles.push_back(*handle);
      }
      const uint64_t before = executes();
      std::vector<int> failures(threads, 0);
      std::vector<std::thread> workers;
      for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
          auto* handle = handles[shared ? 0 : t];
          HostTensor x(ScalarType::Float, {2, 3});
          HostTensor y(ScalarType::Float, {2, 3});
          HostTensor z(ScalarType::Float, {2, 3});
          for (int r = 0; r < kRounds; ++r) {
            fill(x, 6, static_cast<float>(t * 1000 + r), 1);
            fill(y, 6, static_cast<float>(t), 0);
            if (execute(handle, {x.evalue(), y.evalue(), z.evalue()}) !=
                Error::Ok) {
              ++failures[t];
              continue;
            }
            for (int i = 0; i < 6; ++i) {
              if (z.floats()[i] != x.floats()[i] + y.floats()[i]) {
                ++failures[t];
                break;
              }
            }
          }
        });
      }
      for (auto& worker : workers) {
        worker.join();
      }
      for (int t = 0; t < threads; ++t) {
        EXPECT_EQ(failures[t], 0) << "thread " << t;
      }
      EXPECT_EQ(executes() - before, static_cast<uint64_t>(threads * kRounds));
      for (auto* handle : handles) {
        destroy(handle);
      }
      expect_nothing_alive(hooks_.stats());
    }
  }
}

TEST_F(BackendExecute, DestroyFromAnotherThread) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  std::thread([&] { destroy(*handle); }).join();
  expect_nothing_alive(hooks_.stats());
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
