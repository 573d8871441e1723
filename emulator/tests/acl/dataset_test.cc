// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Data buffers and datasets are tracked handles: queries on NULL give
// NULL/0, and stale or forged handles are errors rather than reads.
#include "acl_test_util.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::HasSubstr;

using DatasetTest = AclTest;

TEST_F(DatasetTest, DataBufferRoundTrip) {
  char bytes[8] = {};
  aclDataBuffer* buffer = aclCreateDataBuffer(bytes, sizeof(bytes));
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), bytes);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof(bytes));
  EXPECT_EQ(Stats().live_data_buffers, 1u);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  EXPECT_EQ(Stats().live_data_buffers, 0u);
  // Stale handle: reported, not dereferenced.
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
  EXPECT_THAT(LastError(), HasSubstr("not a live data buffer"));
}

TEST_F(DatasetTest, NullQueriesGiveNullAndZero) {
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(nullptr), 0u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(nullptr, 0), nullptr);
  EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlDestroyDataset(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(DatasetTest, EmptyBufferIsAllowedButNullDataWithSizeIsNot) {
  aclDataBuffer* empty = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(aclDestroyDataBuffer(empty), ACL_SUCCESS);
  EXPECT_EQ(aclCreateDataBuffer(nullptr, 16), nullptr);
  EXPECT_THAT(LastError(), HasSubstr("data is NULL"));
}

TEST_F(DatasetTest, DatasetHoldsBorrowedBuffersInOrder) {
  char a[4] = {};
  char b[8] = {};
  aclmdlDataset* dataset = aclmdlCreateDataset();
  ASSERT_NE(dataset, nullptr);
  aclDataBuffer* first = aclCreateDataBuffer(a, sizeof(a));
  aclDataBuffer* second = aclCreateDataBuffer(b, sizeof(b));
  ASSERT_EQ(aclmdlAddDatasetBuffer(dataset, first), ACL_SUCCESS);
  ASSERT_EQ(aclmdlAddDatasetBuffer(dataset, second), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset), 2u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset, 0), first);
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset, 1), second);
  EXPECT_EQ(aclmdlGetDatasetBuffer(dataset, 2), nullptr);
  EXPECT_THAT(LastError(), HasSubstr("out of range"));
  EXPECT_EQ(aclmdlAddDatasetBuffer(dataset, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlAddDatasetBuffer(nullptr, first), ACL_ERROR_INVALID_PARAM);
  // Destroying the dataset leaves the buffers to their owner.
  ASSERT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS);
  EXPECT_EQ(Stats().live_data_buffers, 2u);
  EXPECT_EQ(aclmdlDestroyDataset(dataset), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(dataset), 0u);
  EXPECT_EQ(aclmdlAddDatasetBuffer(dataset, first), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclDestroyDataBuffer(first), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(second), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
