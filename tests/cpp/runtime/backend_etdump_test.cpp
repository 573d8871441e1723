// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendBackend::execute with ExecuTorch's ETDump profiler attached: the
// delegate event must name itself without a debug index (ETDumpGen aborts the
// process when both are set), the run must still be right, and the event must
// be in the ETDump. Parsing the ETDump and its durations is done by the Python
// Inspector test (tests/python/test_etdump.py).
#include <executorch/devtools/etdump/etdump_flatcc.h>
#include <executorch/runtime/backend/backend_execution_context.h>

#include <cstdlib>
#include <string_view>

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

}  // namespace
}  // namespace executorch::backends::ascend::testing
