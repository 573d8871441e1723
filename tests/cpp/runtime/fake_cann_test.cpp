// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The backend with a library that looks like real CANN (no aclEmuVersion;
// tests/cpp/runtime/fake_acl/fake_acl.cpp): an emulator-built .om must be
// refused before any device resource is created, and a CANN-built .om must
// get past that check. Run twice (EXPECT_CONFIG_LOAD): with the config-handle
// calls, and as an older CANN without them, where a model with external
// weights is refused before anything is created and others still load.
#include <dlfcn.h>
#include <emulator_ids.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "acl_library.h"
#include "backend_test_support.h"
#include "program_spec.h"

namespace executorch::backends::ascend {
namespace {

using executorch::runtime::BackendInitContext;
using executorch::runtime::Error;

int resources_created() {
  void* lib = dlopen(AclLibrary::get().layout().runtime.c_str(),
                     RTLD_NOW | RTLD_NOLOAD);
  if (lib == nullptr) {
    return -1;
  }
  auto fn = reinterpret_cast<int (*)()>(dlsym(lib, "fakeAclResourcesCreated"));
  const int count = fn != nullptr ? fn() : -1;
  dlclose(lib);
  return count;
}

std::vector<uint8_t> om_bytes(bool emulator_magic) {
  std::vector<uint8_t> om(64, 0x5A);
  if (emulator_magic) {
    std::memcpy(om.data(), EXECUTORCH_ASCEND_EMU_OM_MAGIC,
                EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE);
  }
  return om;
}

bool expect_config_load() {
  const char* value = std::getenv("EXPECT_CONFIG_LOAD");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

Error init_with(bool emulator_magic, const char* soc = "Ascend910B1",
                bool external_weight = false) {
  testing::BlobSpec spec;
  spec.soc_version = soc;
  if (external_weight) {
    spec.weights.push_back({"weight_w", "ascend/weight/w", 64});
  }
  testing::ProcessedBlob processed(testing::write_blob(spec));
  const testing::CompileSpecs compile_specs(spec);
  testing::BytesNamedDataMap data;
  data.add(spec.om_key, om_bytes(emulator_magic));
  if (external_weight) {
    data.add("ascend/weight/w", std::vector<uint8_t>(64, 0x11));
  }
  testing::Arena arena;
  BackendInitContext context(arena.get(), nullptr, "forward", &data);
  auto handle = testing::registered_backend()->init(context, processed.get(),
                                                    compile_specs.get());
  EXPECT_TRUE(processed.freed());
  EXPECT_EQ(data.outstanding(), 0);
  if (handle.ok()) {
    testing::registered_backend()->destroy(handle.get());
    return Error::Ok;
  }
  return handle.error();
}

TEST(FakeCann, LooksLikeRealCann) {
  const AclLibrary& library = AclLibrary::get();
  ASSERT_TRUE(library.available()) << library.unavailable_reason();
  EXPECT_FALSE(library.is_emulator());
  EXPECT_TRUE(testing::registered_backend()->is_available());
}

// The fake lacks the profiling API; CANN's libmsprofiler.so beside it (a
// double, fake_msprofiler.cpp) has it: the backend takes it from there.
TEST(FakeCann, ProfilingApiComesFromLibmsprofilerBesideIt) {
  const AclLibrary& library = AclLibrary::get();
  ASSERT_TRUE(library.available()) << library.unavailable_reason();
  EXPECT_TRUE(library.api().has_profiling());
  EXPECT_NE(library.api().aclprofModelSubscribe, nullptr);
  const std::string& path = library.profiling_path();
  const std::string name = "/libmsprofiler.so";
  ASSERT_GE(path.size(), name.size()) << path;
  EXPECT_EQ(path.substr(path.size() - name.size()), name) << path;
}

TEST(FakeCann, EmulatorOmIsRefused) {
  const int before = resources_created();
  ASSERT_GE(before, 0);
  EXPECT_EQ(init_with(/*emulator_magic=*/true),
            Error::DelegateInvalidCompatibility);
  EXPECT_EQ(resources_created(), before);
}

TEST(FakeCann, OmOfAnotherChipFamilyIsRefused) {
  // The fake reports Ascend910B1, like a 910B card.
  const int before = resources_created();
  EXPECT_EQ(init_with(/*emulator_magic=*/false, "Ascend310P3"),
            Error::DelegateInvalidCompatibility);
  EXPECT_EQ(resources_created(), before);
}

TEST(FakeCann, CannOmPassesTheCompatibilityCheck) {
  // The fake model description has no inputs or outputs, so init succeeds
  // once the model is loaded: proof the .om was not refused as
  // emulator-built.
  const int before = resources_created();
  EXPECT_EQ(init_with(/*emulator_magic=*/false), Error::Ok);
  EXPECT_GT(resources_created(), before);
}

TEST(FakeCann, ConfigLoadCallsAreOptional) {
  const AclLibrary& library = AclLibrary::get();
  ASSERT_TRUE(library.available()) << library.unavailable_reason();
  EXPECT_EQ(library.api().has_config_load(), expect_config_load());
}

TEST(FakeCann, ExternalWeightsNeedTheConfigLoadCalls) {
  const int before = resources_created();
  const Error error = init_with(/*emulator_magic=*/false, "Ascend910B1",
                                /*external_weight=*/true);
  if (expect_config_load()) {
    EXPECT_EQ(error, Error::Ok);
    EXPECT_GT(resources_created(), before);
  } else {
    EXPECT_EQ(error, Error::DelegateInvalidCompatibility);
    EXPECT_EQ(resources_created(), before);
  }
}

}  // namespace
}  // namespace executorch::backends::ascend
