// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The library as the backend sees it: dlopen + dlsym. Every row of
// acl/acl_functions.def and of acl_emu_extras.def is exported; nothing else
// is.
#include <dlfcn.h>

#include "acl_test_util.h"

namespace ascend_emu::acl_test {
namespace {

// Every row of the two lists the linker version script is generated from.
constexpr const char* kExports[] = {
#define ACL_FUNCTION(ret, name, params, user, faults) #name,
#include "acl_functions.def"
#undef ACL_FUNCTION
#define ACL_EMU_EXTRA(ret, name, params) #name,
#include "acl_emu_extras.def"
#undef ACL_EMU_EXTRA
};

class ExportsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    handle_ = dlopen(ASCENDCL_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
  }
  void TearDown() override {
    if (handle_ != nullptr) dlclose(handle_);
  }
  void* handle_ = nullptr;
};

TEST_F(ExportsTest, EveryAclFunctionIsExported) {
  for (const char* name : kExports) {
    EXPECT_NE(dlsym(handle_, name), nullptr) << name;
  }
}

TEST_F(ExportsTest, InternalsAreNotExported) {
  EXPECT_EQ(dlsym(handle_, "_ZN10ascend_emu3acl8GetStateEv"), nullptr);
  EXPECT_EQ(dlsym(handle_,
                  "_ZN10ascend_emu5Model4LoadEPKvmPNSt7__cxx1112"
                  "basic_stringIcSt11char_traitsIcESaIcEEE"),
            nullptr);
}

TEST_F(ExportsTest, VersionIdentifiesTheEmulator) {
  auto version = reinterpret_cast<aclEmuVersionFn>(
      dlsym(handle_, EXECUTORCH_ASCEND_EMULATOR_SYMBOL));
  ASSERT_NE(version, nullptr);
  EXPECT_STREQ(version(), "executorch-ascend-emulator 1");
}

TEST_F(ExportsTest, DlopenedFunctionsShareStateWithTheLinkedOnes) {
  ResetEmulatorEnv();
  auto init = reinterpret_cast<decltype(&aclInit)>(dlsym(handle_, "aclInit"));
  auto finalize =
      reinterpret_cast<decltype(&aclFinalize)>(dlsym(handle_, "aclFinalize"));
  ASSERT_NE(init, nullptr);
  ASSERT_EQ(init(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(finalize(), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
