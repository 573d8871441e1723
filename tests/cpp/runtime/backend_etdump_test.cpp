// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendBackend::execute with ExecuTorch's ETDump profiler attached: the
// delegate event must name itself without a debug index (ETDumpGen aborts the
// process when both are set), the run must still be right, and the event must
// be in the ETDump. Parsing the ETDump and its durations is done by the Python
// Inspector test (tests/python/test_etdump.py). With a tracer, the delegate
// also subscribes its model to the emulator's op records and logs one event
// per .om op, named after it (op_profiler.h; tests/python/test_profiling.py
// reads them with the Inspector).
#include <executorch/devtools/etdump/etdump_flatcc.h>
#include <executorch/runtime/backend/backend_execution_context.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "emulator_fixture.h"

namespace executorch::backends::ascend::testing {
namespace {

using executorch::aten::ScalarType;
using executorch::etdump::ETDumpGen;
using executorch::etdump::ETDumpResult;
using executorch::runtime::BackendExecutionContext;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Span;

// ETDumpGen, noting every per-op delegate event it is given.
class RecordingETDump : public ETDumpGen {
 public:
  void log_profiling_delegate(const char* name,
                              executorch::runtime::DelegateDebugIntId index,
                              et_timestamp_t start, et_timestamp_t end,
                              const void* metadata,
                              size_t metadata_len) override {
    names.emplace_back(name != nullptr ? name : "");
    indexes.push_back(index);
    ordered = ordered && end >= start;
    ETDumpGen::log_profiling_delegate(name, index, start, end, metadata,
                                      metadata_len);
  }
  std::vector<std::string> names;
  std::vector<executorch::runtime::DelegateDebugIntId> indexes;
  bool ordered = true;
};

class BackendEtdump : public AscendEmulatorTest {
 protected:
  Error execute_traced(executorch::runtime::DelegateHandle* handle,
                       std::vector<EValue*> args,
                       executorch::runtime::EventTracer* tracer) {
    BackendExecutionContext context(tracer);
    return backend_->execute(context, handle,
                             Span<EValue*>(args.data(), args.size()));
  }
};

TEST_F(BackendEtdump, ExecuteIsRecordedAsANamedDelegateEvent) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  for (int i = 0; i < 6; ++i) {
    x.floats()[i] = static_cast<float>(i);
    y.floats()[i] = 0.5f * static_cast<float>(i) - 1.0f;
  }

  ETDumpGen etdump;
  etdump.create_event_block("forward");
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(
        execute_traced(*handle, {x.evalue(), y.evalue(), z.evalue()}, &etdump),
        Error::Ok);
    for (int i = 0; i < 6; ++i) {
      EXPECT_FLOAT_EQ(z.floats()[i], x.floats()[i] + y.floats()[i]) << i;
    }
  }
  EXPECT_EQ(etdump.get_num_blocks(), 1u);

  ETDumpResult result = etdump.get_etdump_data();
  ASSERT_NE(result.buf, nullptr);
  ASSERT_GT(result.size, 0u);
  // Event names are stored as flatbuffer strings: the delegate's name must
  // be in the dump, i.e. the event was recorded by name.
  const std::string_view dump(static_cast<const char*>(result.buf),
                              result.size);
  EXPECT_NE(dump.find("AscendBackend::execute"), std::string_view::npos);
  std::free(result.buf);
}

// The add model's .om has one op, the ONNX node "n0" (onnx_builder.h names
// nodes so): one event per execute, named after it, by name only.
TEST_F(BackendEtdump, EachOmOpIsADelegateEventNamedAfterTheOp) {
  const uint64_t subscribes = hooks_.calls("aclprofModelSubscribe");
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  for (int i = 0; i < 6; ++i) x.floats()[i] = static_cast<float>(i);

  // Untraced: no subscription, no event.
  ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}), Error::Ok);
  EXPECT_EQ(hooks_.calls("aclprofModelSubscribe"), subscribes);

  RecordingETDump etdump;
  etdump.create_event_block("forward");
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(
        execute_traced(*handle, {x.evalue(), y.evalue(), z.evalue()}, &etdump),
        Error::Ok);
    EXPECT_FLOAT_EQ(z.floats()[5], 5.0f);
  }
  // Subscribed once, at the first traced execute.
  EXPECT_EQ(hooks_.calls("aclprofModelSubscribe"), subscribes + 1);
  EXPECT_EQ(etdump.names, std::vector<std::string>(3, "n0"));
  for (auto index : etdump.indexes) {
    EXPECT_EQ(index, executorch::runtime::kUnsetDelegateDebugIntId);
  }
  EXPECT_TRUE(etdump.ordered);
  ETDumpResult result = etdump.get_etdump_data();
  ASSERT_NE(result.buf, nullptr);
  std::free(result.buf);

  // An untraced execute of a subscribed model logs nothing, and its records
  // are not taken for the next traced execute's.
  ASSERT_EQ(execute(*handle, {x.evalue(), y.evalue(), z.evalue()}), Error::Ok);
  RecordingETDump second;
  second.create_event_block("forward");
  ASSERT_EQ(
      execute_traced(*handle, {x.evalue(), y.evalue(), z.evalue()}, &second),
      Error::Ok);
  EXPECT_EQ(second.names, std::vector<std::string>{"n0"});
  std::free(second.get_etdump_data().buf);

  // Destroy unsubscribes before the unload (a strict aclFinalize in
  // TearDown finds nothing left).
  const uint64_t unsubscribes = hooks_.calls("aclprofModelUnSubscribe");
  destroy(*handle);
  EXPECT_EQ(hooks_.calls("aclprofModelUnSubscribe"), unsubscribes + 1);
}

// A subscription the library refuses leaves the model running unprofiled.
TEST_F(BackendEtdump, ARefusedSubscriptionStillRuns) {
  auto handle = init(add_blob());
  ASSERT_TRUE(handle.ok());
  HostTensor x(ScalarType::Float, {2, 3});
  HostTensor y(ScalarType::Float, {2, 3});
  HostTensor z(ScalarType::Float, {2, 3});
  x.floats()[0] = 1.0f;
  y.floats()[0] = 2.0f;
  hooks_.inject("aclprofModelSubscribe", 0, ACL_ERROR_FAILURE);
  RecordingETDump etdump;
  etdump.create_event_block("forward");
  ASSERT_EQ(
      execute_traced(*handle, {x.evalue(), y.evalue(), z.evalue()}, &etdump),
      Error::Ok);
  hooks_.clear();
  EXPECT_FLOAT_EQ(z.floats()[0], 3.0f);
  EXPECT_TRUE(etdump.names.empty());
  std::free(etdump.get_etdump_data().buf);
  const uint64_t unsubscribes = hooks_.calls("aclprofModelUnSubscribe");
  destroy(*handle);
  EXPECT_EQ(hooks_.calls("aclprofModelUnSubscribe"), unsubscribes);
}

}  // namespace
}  // namespace executorch::backends::ascend::testing
