// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The backend with an ACL library it cannot use. ctest runs this executable
// once per case, each in its own process (the library is resolved once per
// process), with EXECUTORCH_ASCEND_ACL_LIB pointing at: nothing, a library
// missing symbols, a CANN stub library, or the emulator with no device.
// EXPECTED_REASON holds a substring the reported reason must contain.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "acl_library.h"
#include "backend_test_support.h"
#include "program_spec.h"

namespace executorch::backends::ascend {
namespace {

using executorch::runtime::BackendInitContext;

std::string expected_reason() {
  const char* reason = std::getenv("EXPECTED_REASON");
  return reason != nullptr ? reason : "";
}

TEST(AclUnavailable, BackendIsRegisteredButNotAvailable) {
  auto* backend = testing::registered_backend();
  ASSERT_NE(backend, nullptr);
  EXPECT_FALSE(backend->is_available());
}

TEST(AclUnavailable, ReasonNamesTheProblem) {
  const AclLibrary& library = AclLibrary::get();
  ASSERT_FALSE(library.available());
  ASSERT_FALSE(expected_reason().empty()) << "EXPECTED_REASON not set";
  EXPECT_NE(library.unavailable_reason().find(expected_reason()),
            std::string::npos)
      << "reason: " << library.unavailable_reason();
}

TEST(AclUnavailable, InitFailsCleanly) {
  auto* backend = testing::registered_backend();
  ASSERT_NE(backend, nullptr);
  testing::BlobSpec spec;
  testing::ProcessedBlob processed(testing::write_blob(spec));
  testing::BytesNamedDataMap data;
  data.add(spec.om_key, {1, 2, 3});
  testing::Arena arena;
  BackendInitContext context(arena.get(), nullptr, "forward", &data);
  auto handle = backend->init(context, processed.get(), {});
  ASSERT_FALSE(handle.ok());
  EXPECT_EQ(handle.error(), executorch::runtime::Error::NotFound);
  EXPECT_EQ(data.outstanding(), 0);
}

}  // namespace
}  // namespace executorch::backends::ascend
