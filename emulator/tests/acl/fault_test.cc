// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Fault injection through aclEmuInjectFault and EXECUTORCH_ASCEND_EMU_FAULT.
#include <cstdlib>
#include <string_view>

#include "acl_test_util.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

using FaultEnvTest = AclEnvTest;
using FaultTest = AclTest;

struct ListedFunction {
  const char* name;
  bool faultable;
};
constexpr ListedFunction kListed[] = {
#define ACL_FUNCTION(ret, name, params, user, faults) \
  {#name, std::string_view(#faults) == "FAULTS"},
#include "acl_functions.def"
#undef ACL_FUNCTION
};

// The FAULTS column of acl_functions.def is what aclEmuInjectFault accepts.
TEST_F(FaultTest, InjectableExactlyWhereTheListSaysSo) {
  for (const ListedFunction& f : kListed) {
    EXPECT_EQ(aclEmuInjectFault(f.name, 0, ACL_ERROR_FAILURE) == ACL_SUCCESS,
              f.faultable)
        << f.name;
  }
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);
}

TEST_F(FaultTest, FunctionSucceedsAfterTimesThenFailsUntilCleared) {
  ASSERT_EQ(aclEmuInjectFault("aclrtMalloc", 1, ACL_ERROR_RT_MEMORY_ALLOCATION),
            ACL_SUCCESS);
  void* first = nullptr;
  ASSERT_EQ(aclrtMalloc(&first, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* second = nullptr;
  EXPECT_EQ(aclrtMalloc(&second, 8, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_THAT(LastError(), HasSubstr("injected fault"));
  EXPECT_EQ(aclrtMalloc(&second, 8, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(Stats().live_device_allocs, 1u);  // failed calls did nothing
  // Other functions are unaffected.
  EXPECT_EQ(aclrtFree(first), ACL_SUCCESS);
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&second, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(second), ACL_SUCCESS);
}

// aclEmuGetCallCount counts every entry of a fault-injectable function,
// failed ones included, and only of that function.
TEST_F(FaultTest, CallCountsCountEachFunctionsCalls) {
  uint64_t malloc_before = 0;
  uint64_t free_before = 0;
  ASSERT_EQ(aclEmuGetCallCount("aclrtMalloc", &malloc_before), ACL_SUCCESS);
  ASSERT_EQ(aclEmuGetCallCount("aclrtFree", &free_before), ACL_SUCCESS);
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclEmuInjectFault("aclrtMalloc", 0, ACL_ERROR_RT_FAILURE),
            ACL_SUCCESS);
  void* refused = nullptr;
  EXPECT_NE(aclrtMalloc(&refused, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);
  uint64_t malloc_after = 0;
  uint64_t free_after = 0;
  ASSERT_EQ(aclEmuGetCallCount("aclrtMalloc", &malloc_after), ACL_SUCCESS);
  ASSERT_EQ(aclEmuGetCallCount("aclrtFree", &free_after), ACL_SUCCESS);
  EXPECT_EQ(malloc_after - malloc_before, 2u);
  EXPECT_EQ(free_after, free_before);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  ASSERT_EQ(aclEmuGetCallCount("aclrtFree", &free_after), ACL_SUCCESS);
  EXPECT_EQ(free_after - free_before, 1u);
  // Only fault-injectable functions are counted; anything else is refused.
  uint64_t count = 0;
  EXPECT_EQ(aclEmuGetCallCount("aclmdlGetNumInputs", &count),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclEmuGetCallCount(nullptr, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclEmuGetCallCount("aclrtMalloc", nullptr),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(FaultTest, CreatorsFailByReturningNull) {
  ASSERT_EQ(aclEmuInjectFault("aclCreateDataBuffer", 0, ACL_ERROR_BAD_ALLOC),
            ACL_SUCCESS);
  ASSERT_EQ(aclEmuInjectFault("aclmdlCreateDataset", 0, ACL_ERROR_BAD_ALLOC),
            ACL_SUCCESS);
  ASSERT_EQ(aclEmuInjectFault("aclmdlCreateDesc", 0, ACL_ERROR_BAD_ALLOC),
            ACL_SUCCESS);
  char bytes[4] = {};
  EXPECT_EQ(aclCreateDataBuffer(bytes, 4), nullptr);
  EXPECT_EQ(aclmdlCreateDataset(), nullptr);
  EXPECT_EQ(aclmdlCreateDesc(), nullptr);
  EXPECT_THAT(LastError(), HasSubstr("aclmdlCreateDesc"));
  aclEmuStats stats = Stats();
  EXPECT_EQ(stats.live_data_buffers + stats.live_datasets + stats.live_descs,
            0u);
}

TEST_F(FaultTest, InjectFaultValidatesItsArguments) {
  EXPECT_EQ(aclEmuInjectFault("aclNoSuchFunction", 0, 1),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("aclNoSuchFunction"));
  EXPECT_EQ(aclEmuInjectFault("aclrtMalloc", -1, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclEmuInjectFault("aclrtMalloc", 0, ACL_SUCCESS),
            ACL_ERROR_INVALID_PARAM);
  // Getters that cannot return an error code are not injectable.
  EXPECT_EQ(aclEmuInjectFault("aclmdlGetNumInputs", 0, 1),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(FaultEnvTest, EnvironmentFaultsApplyFromInit) {
  setenv("EXECUTORCH_ASCEND_EMU_FAULT",
         "aclrtSetDevice:1:200002,aclmdlCreateDataset:0:100000", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_INVALID_DEVICE);
  EXPECT_EQ(aclmdlCreateDataset(), nullptr);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  // Faults end with the session: the next one starts clean.
  unsetenv("EXECUTORCH_ASCEND_EMU_FAULT");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(FaultEnvTest, InitAndFinalizeCanBeFaulted) {
  ASSERT_EQ(aclEmuInjectFault("aclInit", 0, ACL_ERROR_FAILURE), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_FAILURE);
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclEmuInjectFault("aclFinalize", 0, ACL_ERROR_FAILURE),
            ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_FAILURE);
  EXPECT_NE(aclrtGetSocName(), nullptr);  // still initialized
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
