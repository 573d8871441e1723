// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Device I/O for the test models of test_models.h (inputs x, y; output z),
// shared by the model tests.
#pragma once

#include <vector>

#include "acl_test_util.h"
#include "test_models.h"

namespace ascend_emu::acl_test {

inline const std::vector<float> kX = {1, 2, 3, -4, 5, -6};
inline const std::vector<float> kY = {0.5f, -3, 1, 1, 2, 10};

// Device buffers for x, y and z with their data buffers and datasets;
// everything released in the destructor.
class ModelIo {
 public:
  explicit ModelIo(size_t x_bytes = kTensorBytes, size_t y_bytes = kTensorBytes,
                   size_t z_bytes = kTensorBytes)
      : x_(x_bytes), y_(y_bytes), z_(z_bytes) {
    input_ = aclmdlCreateDataset();
    output_ = aclmdlCreateDataset();
    Add(input_, x_.get(), x_bytes);
    Add(input_, y_.get(), y_bytes);
    Add(output_, z_.get(), z_bytes);
  }
  ~ModelIo() {
    for (aclDataBuffer* buffer : buffers_) {
      EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
    }
    EXPECT_EQ(aclmdlDestroyDataset(input_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlDestroyDataset(output_), ACL_SUCCESS);
  }
  void Add(aclmdlDataset* dataset, void* data, size_t size) {
    aclDataBuffer* buffer = aclCreateDataBuffer(data, size);
    buffers_.push_back(buffer);
    EXPECT_EQ(aclmdlAddDatasetBuffer(dataset, buffer), ACL_SUCCESS);
  }
  void* x() { return x_.get(); }
  void CopyInputs() {
    ASSERT_EQ(aclrtMemcpy(x_.get(), x_.size(), kX.data(), kTensorBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(y_.get(), y_.size(), kY.data(), kTensorBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  std::vector<float> Output() {
    std::vector<float> z(6, -1.0f);
    EXPECT_EQ(aclrtMemcpy(z.data(), kTensorBytes, z_.get(), kTensorBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return z;
  }
  aclmdlDataset* input() { return input_; }
  aclmdlDataset* output() { return output_; }

 private:
  DeviceBuffer x_;
  DeviceBuffer y_;
  DeviceBuffer z_;
  aclmdlDataset* input_ = nullptr;
  aclmdlDataset* output_ = nullptr;
  std::vector<aclDataBuffer*> buffers_;
};

// The Conv + MatMul model of BuildConvMatMulOm with its device I/O (x, a in;
// y, z out) and host inputs; Run() is the four copies and the execute a
// caller makes per call, outputs left in y() and z().
class ConvMatMulIo {
 public:
  static constexpr size_t kXBytes = kConvC * kConvH * kConvH * sizeof(float);
  static constexpr size_t kABytes = kMatM * kMatK * sizeof(float);
  static constexpr size_t kZBytes = kMatM * kMatN * sizeof(float);

  ConvMatMulIo()
      : io_(kXBytes, kABytes, kXBytes),
        z_dev_(kZBytes),
        x_(ConvMatMulWeight(kXBytes / sizeof(float), 3)),
        a_(ConvMatMulWeight(kABytes / sizeof(float), 4)),
        y_(x_.size()),
        z_(kZBytes / sizeof(float)) {
    io_.Add(io_.output(), z_dev_.get(), kZBytes);
    dx_ = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io_.input(), 0));
    da_ = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io_.input(), 1));
    dy_ = aclGetDataBufferAddr(aclmdlGetDatasetBuffer(io_.output(), 0));
  }
  void Run(uint32_t id) {
    ASSERT_EQ(aclrtMemcpy(dx_, kXBytes, x_.data(), kXBytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(da_, kABytes, a_.data(), kABytes,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id, io_.input(), io_.output()), ACL_SUCCESS)
        << LastError();
    ASSERT_EQ(aclrtMemcpy(y_.data(), kXBytes, dy_, kXBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(z_.data(), kZBytes, z_dev_.get(), kZBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
  }
  const std::vector<float>& x() const { return x_; }
  const std::vector<float>& a() const { return a_; }
  const std::vector<float>& y() const { return y_; }
  const std::vector<float>& z() const { return z_; }

 private:
  ModelIo io_;
  DeviceBuffer z_dev_;
  std::vector<float> x_, a_, y_, z_;
  void* dx_ = nullptr;  // the device buffers of x, a and y
  void* da_ = nullptr;
  void* dy_ = nullptr;
};

}  // namespace ascend_emu::acl_test
