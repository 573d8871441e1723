// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shape gears through ACL, as the backend would use them: a model compiled
// by the emulator's atc with --dynamic_batch_size / --dynamic_dims, its
// description (-1 dims, largest sizes, the gear input), the Set* calls that
// fill the gear input, execute at every gear against a CPU reference, and
// aclmdlGetCurOutputDims.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "acl_test_util.h"
#include "onnx_builder.h"

namespace ascend_emu::acl_test {
namespace {

using ascend_emu::testing::OnnxBuilder;
using ::testing::HasSubstr;

constexpr size_t kUnused = static_cast<size_t>(-1);

std::vector<float> Ramp(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = offset + scale * static_cast<float>((i * 7) % 23);
  }
  return v;
}

// y = Relu(x @ W + b), x float32 [batch, 4].
OnnxBuilder MatMulAddRelu(std::vector<float>* w, std::vector<float>* bias) {
  *w = Ramp(12, 0.25f, -1.5f);
  *bias = {0.5f, -0.25f, 0.0f};
  OnnxBuilder b;
  b.Input("x", {-1, 4}).OutputNoShape("y", 2);
  b.InitF32("W", {4, 3}, *w);
  b.InitF32("b", {3}, *bias);
  b.Node("MatMul", {"x", "W"}, {"m"}, "matmul");
  b.Node("Add", {"m", "b"}, {"s"}, "add");
  b.Node("Relu", {"s"}, {"y"}, "relu");
  return b;
}

// a [2, S], b [T, 2]: y = MatMul(b, Reshape(a, [0, -1])) [T, S],
// z = Reshape(y, [-1]).
OnnxBuilder TwoInputReshape() {
  OnnxBuilder b;
  b.Input("a", {2, -1}).Input("b", {-1, 2});
  b.OutputNoShape("y", 2).OutputNoShape("z", 1);
  b.ConstI64("keep", {0, -1});
  b.ConstI64("flat", {-1});
  b.Node("Reshape", {"a", "keep"}, {"a2"}, "reshape_keep");
  b.Node("MatMul", {"b", "a2"}, {"y"}, "matmul");
  b.Node("Reshape", {"y", "flat"}, {"z"}, "reshape_flat");
  return b;
}

std::vector<int64_t> Dims(const aclmdlIODims& d) {
  return std::vector<int64_t>(d.dims, d.dims + d.dimCount);
}

class AclGears : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    char dir[] = "/tmp/acl_gears_test_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override {
    if (desc_ != nullptr) {
      EXPECT_EQ(aclmdlDestroyDesc(desc_), ACL_SUCCESS);
    }
    if (id_ != 0) {
      EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    }
    for (aclDataBuffer* b : data_buffers_) aclDestroyDataBuffer(b);
    for (aclmdlDataset* d : datasets_) aclmdlDestroyDataset(d);
    buffers_.clear();
    std::system(("rm -rf '" + dir_ + "'").c_str());
    AclTest::TearDown();
  }

  // Compiles `model` with atc and `options` into <name>.om.
  void Compile(const OnnxBuilder& model, const std::string& options,
               const std::string& name) {
    model.Save(dir_ + "/" + name + ".onnx");
    const std::string command = std::string("'") + ATC_BINARY +
                                "' --framework=5 --model='" + dir_ + "/" +
                                name + ".onnx' --output='" + dir_ + "/" + name +
                                "' --soc_version=Ascend910B1 "
                                "--precision_mode=must_keep_origin_dtype " +
                                options + " >'" + dir_ + "/atc.log' 2>&1";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "atc failed: " << command;
  }
  // The work and weight sizes aclmdlQuerySizeFromMem gives for <name>.om.
  std::pair<size_t, size_t> QuerySizes(const std::string& name) {
    std::ifstream in(dir_ + "/" + name + ".om", std::ios::binary);
    const std::vector<char> om((std::istreambuf_iterator<char>(in)), {});
    size_t work = 0;
    size_t weight = 0;
    EXPECT_EQ(aclmdlQuerySizeFromMem(om.data(), om.size(), &work, &weight),
              ACL_SUCCESS)
        << LastError();
    return {work, weight};
  }
  // Compiles `model` with atc and `options`, loads it, reads its desc.
  void Load(const OnnxBuilder& model, const std::string& options) {
    ASSERT_NO_FATAL_FAILURE(Compile(model, options, "net"));
    ASSERT_EQ(aclmdlLoadFromFile((dir_ + "/net.om").c_str(), &id_), ACL_SUCCESS)
        << LastError();
    desc_ = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(desc_, id_), ACL_SUCCESS);
  }

  // A device buffer of `bytes`, its data buffer and a dataset of all of
  // them, in order.
  aclmdlDataset* Dataset(const std::vector<size_t>& sizes) {
    aclmdlDataset* d = aclmdlCreateDataset();
    datasets_.push_back(d);
    for (size_t bytes : sizes) {
      buffers_.push_back(std::make_unique<DeviceBuffer>(bytes));
      aclDataBuffer* b = aclCreateDataBuffer(buffers_.back()->get(), bytes);
      data_buffers_.push_back(b);
      EXPECT_EQ(aclmdlAddDatasetBuffer(d, b), ACL_SUCCESS);
    }
    return d;
  }
  void* Addr(aclmdlDataset* d, size_t i) {
    return aclGetDataBufferAddr(aclmdlGetDatasetBuffer(d, i));
  }
  void Upload(aclmdlDataset* d, size_t i, const void* data, size_t bytes) {
    ASSERT_EQ(
        aclrtMemcpy(Addr(d, i), bytes, data, bytes, ACL_MEMCPY_HOST_TO_DEVICE),
        ACL_SUCCESS);
  }
  std::vector<float> Download(aclmdlDataset* d, size_t i, size_t n) {
    std::vector<float> v(n);
    EXPECT_EQ(aclrtMemcpy(v.data(), n * 4, Addr(d, i), n * 4,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return v;
  }
  void Fill(aclmdlDataset* d, size_t i, size_t n, float value) {
    std::vector<float> v(n, value);
    Upload(d, i, v.data(), n * 4);
  }
  std::vector<int64_t> CurOutputDims(size_t index) {
    aclmdlIODims dims;
    EXPECT_EQ(aclmdlGetCurOutputDims(desc_, index, &dims), ACL_SUCCESS)
        << LastError();
    return Dims(dims);
  }

  std::string dir_;
  uint32_t id_ = 0;
  aclmdlDesc* desc_ = nullptr;
  std::vector<std::unique_ptr<DeviceBuffer>> buffers_;
  std::vector<aclDataBuffer*> data_buffers_;
  std::vector<aclmdlDataset*> datasets_;
};

TEST_F(AclGears, DynamicBatchSize) {
  std::vector<float> w, bias;
  ASSERT_NO_FATAL_FAILURE(Load(MatMulAddRelu(&w, &bias),
                               "--input_shape=x:-1,4 "
                               "--dynamic_batch_size=1,2,4"));
  // The description: the gear input last, -1 in the batch, largest sizes.
  ASSERT_EQ(aclmdlGetNumInputs(desc_), 2u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc_, 1), ACL_DYNAMIC_TENSOR_NAME);
  size_t index = 99;
  ASSERT_EQ(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &index),
            ACL_SUCCESS);
  EXPECT_EQ(index, 1u);
  EXPECT_EQ(aclmdlGetInputIndexByName(desc_, "nope", &index),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("cannot find tensor name[nope]"));
  EXPECT_EQ(aclmdlGetInputDataType(desc_, 1), ACL_INT32);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 1), 4u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 4u * 4 * 4);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc_, 0), 4u * 3 * 4);
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(Dims(dims), (std::vector<int64_t>{-1, 4}));
  ASSERT_EQ(aclmdlGetOutputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(Dims(dims), (std::vector<int64_t>{4, 3}));
  aclmdlBatch batch;
  ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
  ASSERT_EQ(batch.batchCount, 3u);
  EXPECT_EQ(batch.batch[0], 1u);
  EXPECT_EQ(batch.batch[1], 2u);
  EXPECT_EQ(batch.batch[2], 4u);
  size_t gears = 99;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, kUnused, &gears),
            ACL_SUCCESS);
  EXPECT_EQ(gears, 0u);  // a batch model has no dynamic-dims gears
  // No gear chosen yet: the largest output dims.
  EXPECT_EQ(CurOutputDims(0), (std::vector<int64_t>{4, 3}));

  aclmdlDataset* in = Dataset({4 * 4 * 4, 4});
  aclmdlDataset* out = Dataset({4 * 3 * 4});
  const std::vector<float> x = Ramp(16, 0.3f, -2.0f);
  Upload(in, 0, x.data(), x.size() * 4);
  for (uint64_t n : {1, 2, 4}) {
    ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, in, 1, n), ACL_SUCCESS)
        << LastError();
    uint32_t written = 0;
    ASSERT_EQ(
        aclrtMemcpy(&written, 4, Addr(in, 1), 4, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS);
    EXPECT_EQ(written, n);  // a 4-byte buffer gets a uint32
    EXPECT_EQ(CurOutputDims(0), (std::vector<int64_t>{int64_t(n), 3}));
    Fill(out, 0, 12, -7.0f);
    ASSERT_EQ(aclmdlExecute(id_, in, out), ACL_SUCCESS) << LastError();
    const std::vector<float> y = Download(out, 0, 12);
    for (size_t r = 0; r < 4; ++r) {
      for (size_t c = 0; c < 3; ++c) {
        float acc = bias[c];
        for (size_t k = 0; k < 4; ++k) acc += x[r * 4 + k] * w[k * 3 + c];
        const float want = r < n ? std::max(0.0f, acc) : -7.0f;
        EXPECT_NEAR(y[r * 3 + c], want, 1e-5f) << "batch " << n << " " << r;
      }
    }
  }

  // A value that is not a gear, through Set* or written by hand.
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, 1, 3),
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("batch size 3 is not a gear"));
  EXPECT_THAT(LastError(), HasSubstr("1, 2, 4"));
  const uint32_t three = 3;
  Upload(in, 1, &three, 4);
  EXPECT_EQ(aclmdlExecute(id_, in, out),
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("holds 3, which is not a gear"));
  EXPECT_THAT(LastError(), HasSubstr("(gears: 1, 2, 4)"));
  EXPECT_EQ(CurOutputDims(0), (std::vector<int64_t>{4, 3}));  // still gear 4

  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, 1, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, nullptr, 1, 2),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, 0, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("not the gear input"));
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, 2, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_ + 1, in, 1, 2),
            ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  aclmdlIODims one = {};
  one.dimCount = 2;
  one.dims[0] = 2;
  one.dims[1] = 4;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in, 1, &one),
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("--dynamic_batch_size"));

  // An 8-byte gear buffer gets a uint64; buffers of the gear's own size do.
  aclmdlDataset* small = Dataset({1 * 4 * 4, 8});
  Upload(small, 0, x.data(), 16);
  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, small, 1, 1), ACL_SUCCESS);
  uint64_t wide = 0;
  ASSERT_EQ(aclrtMemcpy(&wide, 8, Addr(small, 1), 8, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(wide, 1u);
  aclmdlDataset* small_out = Dataset({3 * 4});
  EXPECT_EQ(aclmdlExecute(id_, small, small_out), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, small, 1, 2), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, small, small_out), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("holds 16 bytes but the model needs 32"));
}

TEST_F(AclGears, DynamicDims) {
  ASSERT_NO_FATAL_FAILURE(Load(TwoInputReshape(),
                               "--input_shape='a:2,-1;b:-1,2' "
                               "--input_format=ND "
                               "--dynamic_dims='1,1;3,2;8,8'"));
  ASSERT_EQ(aclmdlGetNumInputs(desc_), 3u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc_, 2), ACL_DYNAMIC_TENSOR_NAME);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 2), 8u);  // int32 [2]
  aclmdlIODims dims;
  ASSERT_EQ(aclmdlGetInputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(Dims(dims), (std::vector<int64_t>{2, -1}));
  ASSERT_EQ(aclmdlGetInputDims(desc_, 1, &dims), ACL_SUCCESS);
  EXPECT_EQ(Dims(dims), (std::vector<int64_t>{-1, 2}));
  size_t count = 0;
  EXPECT_EQ(aclmdlGetInputDynamicGearCount(desc_, 0, &count),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("index must be -1"));
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, kUnused, &count),
            ACL_SUCCESS);
  ASSERT_EQ(count, 3u);
  aclmdlBatch batch;
  ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 0u);
  std::vector<aclmdlIODims> all(3);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, kUnused, all.data(), 2),
            ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlGetInputDynamicDims(desc_, kUnused, all.data(), 3),
            ACL_SUCCESS);
  EXPECT_EQ(Dims(all[0]), (std::vector<int64_t>{2, 1, 1, 2}));
  EXPECT_EQ(Dims(all[1]), (std::vector<int64_t>{2, 3, 2, 2}));
  EXPECT_EQ(Dims(all[2]), (std::vector<int64_t>{2, 8, 8, 2}));

  aclmdlDataset* in = Dataset({2 * 8 * 4, 8 * 2 * 4, 8});
  aclmdlDataset* out = Dataset({64 * 4, 64 * 4});
  const std::vector<float> a = Ramp(16, 0.5f, -3.0f);
  const std::vector<float> b = Ramp(16, 0.2f, 1.0f);
  const int64_t gears[3][2] = {{1, 1}, {3, 2}, {8, 8}};
  for (size_t g = 0; g < 3; ++g) {
    const int64_t s = gears[g][0];
    const int64_t t = gears[g][1];
    // The inputs hold just the gear's shapes, at the start of each buffer.
    Upload(in, 0, a.data(), static_cast<size_t>(2 * s) * 4);
    Upload(in, 1, b.data(), static_cast<size_t>(2 * t) * 4);
    ASSERT_EQ(aclmdlSetInputDynamicDims(id_, in, 2, &all[g]), ACL_SUCCESS)
        << LastError();
    uint64_t written[2] = {};
    ASSERT_EQ(
        aclrtMemcpy(written, 8, Addr(in, 2), 8, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS);
    // An 8-byte buffer holding two values: two uint32.
    const uint32_t* pair = reinterpret_cast<const uint32_t*>(written);
    EXPECT_EQ(pair[0], uint32_t(s));
    EXPECT_EQ(pair[1], uint32_t(t));
    Fill(out, 0, 64, -7.0f);
    Fill(out, 1, 64, -7.0f);
    ASSERT_EQ(aclmdlExecute(id_, in, out), ACL_SUCCESS) << LastError();
    EXPECT_EQ(CurOutputDims(0), (std::vector<int64_t>{t, s}));
    EXPECT_EQ(CurOutputDims(1), (std::vector<int64_t>{t * s}));
    const std::vector<float> y = Download(out, 0, 64);
    const std::vector<float> z = Download(out, 1, 64);
    for (int64_t r = 0; r < t; ++r) {
      for (int64_t c = 0; c < s; ++c) {
        const float want = b[r * 2] * a[c] + b[r * 2 + 1] * a[s + c];
        EXPECT_NEAR(y[r * s + c], want, 1e-5f) << g << " " << r << " " << c;
        EXPECT_NEAR(z[r * s + c], want, 1e-5f) << g << " " << r << " " << c;
      }
    }
    if (t * s < 64) {
      EXPECT_EQ(y[static_cast<size_t>(t * s)], -7.0f)
          << "wrote past gear " << g;
    }
  }

  aclmdlIODims bad = all[1];
  bad.dims[1] = 5;  // (5, 2) is not a gear
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in, 2, &bad),
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("[5,2] are not a gear"));
  EXPECT_THAT(LastError(), HasSubstr("[1,1], [3,2], [8,8]"));
  bad = all[1];
  bad.dims[0] = 3;  // a static dim
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in, 2, &bad),
            ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("Static dims should be same"));
  bad = all[1];
  bad.dimCount = 3;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in, 2, &bad),
            ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
  bad.dimCount = 0;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in, 2, &bad),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, 2, 1),
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  // A gear buffer too small for two values.
  aclmdlDataset* tiny = Dataset({2 * 8 * 4, 8 * 2 * 4, 4});
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, tiny, 2, &all[0]),
            ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
}

TEST_F(AclGears, WorkSizeIsTheLargestGearsAndWeightsAreShared) {
  std::vector<float> w, bias;
  const OnnxBuilder model = MatMulAddRelu(&w, &bias);
  ASSERT_NO_FATAL_FAILURE(Compile(
      model, "--input_shape=x:-1,4 --dynamic_batch_size=1,8,2", "gears"));
  ASSERT_NO_FATAL_FAILURE(Compile(model, "--input_shape=x:8,4", "batch8"));
  ASSERT_NO_FATAL_FAILURE(Compile(model, "--input_shape=x:1,4", "batch1"));
  const auto gears = QuerySizes("gears");
  const auto batch8 = QuerySizes("batch8");
  EXPECT_EQ(gears, batch8);  // the arena of batch 8, one copy of W and b
  EXPECT_GT(gears.first, QuerySizes("batch1").first);
}

TEST_F(AclGears, StaticModelsHaveNoGears) {
  std::vector<float> w, bias;
  ASSERT_NO_FATAL_FAILURE(
      Load(MatMulAddRelu(&w, &bias), "--input_shape=x:2,4"));
  ASSERT_EQ(aclmdlGetNumInputs(desc_), 1u);
  EXPECT_EQ(CurOutputDims(0), (std::vector<int64_t>{2, 3}));
  size_t count = 9;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, kUnused, &count),
            ACL_SUCCESS);
  EXPECT_EQ(count, 0u);
  aclmdlBatch batch;
  batch.batchCount = 9;
  ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 0u);
  aclmdlDataset* in = Dataset({2 * 4 * 4});
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in, 0, 2),
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_THAT(LastError(), HasSubstr("no gears"));
  aclmdlIODims dims;
  EXPECT_EQ(aclmdlGetCurOutputDims(nullptr, 0, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetCurOutputDims(desc_, 1, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetCurOutputDims(desc_, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
  const uint32_t id = id_;
  id_ = 0;
  EXPECT_EQ(aclmdlGetCurOutputDims(desc_, 0, &dims),
            ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_THAT(LastError(), HasSubstr(std::to_string(id)));
}

// y = Relu(x @ W + b), x [batch, 4], W [4, 8] and b [8] stored as ONNX
// external data in w.data (W at 0, b at 128: both 32-byte multiples).
OnnxBuilder ExternalMatMulAddRelu(std::vector<float>* w,
                                  std::vector<float>* bias) {
  *w = Ramp(32, 0.25f, -1.5f);
  *bias = Ramp(8, 0.1f, -0.3f);
  OnnxBuilder b;
  b.Input("x", {-1, 4}).OutputNoShape("y", 2);
  b.InitExternal("W", onnx::TensorProto::FLOAT, {4, 8},
                 {{"location", "w.data"}, {"length", "128"}});
  b.InitExternal("b", onnx::TensorProto::FLOAT, {8},
                 {{"location", "w.data"}, {"offset", "128"}, {"length", "32"}});
  b.Node("MatMul", {"x", "W"}, {"m"}, "matmul");
  b.Node("Add", {"m", "b"}, {"s"}, "add");
  b.Node("Relu", {"s"}, {"y"}, "relu");
  return b;
}

class AclGearsExternal : public AclGears {
 protected:
  void CompileExternal(int mode) {
    const OnnxBuilder model = ExternalMatMulAddRelu(&w_, &bias_);
    std::ofstream data(dir_ + "/w.data", std::ios::binary);
    data.write(reinterpret_cast<const char*>(w_.data()), 128);
    data.write(reinterpret_cast<const char*>(bias_.data()), 32);
    data.close();
    ASSERT_NO_FATAL_FAILURE(
        Compile(model,
                "--input_shape=x:-1,4 --dynamic_batch_size=1,2,4 "
                "--external_weight=" +
                    std::to_string(mode),
                "net"));
  }
  // The files atc wrote into weight/, as "weight/<name>".
  std::vector<std::string> WeightFiles() {
    std::vector<std::string> names;
    const std::string list = dir_ + "/files.txt";
    std::system(("ls '" + dir_ + "/weight' >'" + list + "'").c_str());
    std::ifstream in(list);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) names.push_back("weight/" + line);
    }
    return names;
  }
  std::vector<uint8_t> ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
  }
  // Runs the loaded model (id_) at every gear against the CPU reference.
  void RunEveryGear() {
    desc_ = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(desc_, id_), ACL_SUCCESS);
    aclmdlDataset* in = Dataset({4 * 4 * 4, 4});
    aclmdlDataset* out = Dataset({4 * 8 * 4});
    const std::vector<float> x = Ramp(16, 0.3f, -2.0f);
    Upload(in, 0, x.data(), x.size() * 4);
    for (uint64_t n : {1, 2, 4}) {
      ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, in, 1, n), ACL_SUCCESS)
          << LastError();
      EXPECT_EQ(CurOutputDims(0), (std::vector<int64_t>{int64_t(n), 8}));
      Fill(out, 0, 32, -7.0f);
      ASSERT_EQ(aclmdlExecute(id_, in, out), ACL_SUCCESS) << LastError();
      const std::vector<float> y = Download(out, 0, 32);
      for (size_t r = 0; r < 4; ++r) {
        for (size_t c = 0; c < 8; ++c) {
          float acc = bias_[c];
          for (size_t k = 0; k < 4; ++k) acc += x[r * 4 + k] * w_[k * 8 + c];
          const float want = r < n ? std::max(0.0f, acc) : -7.0f;
          EXPECT_NEAR(y[r * 8 + c], want, 1e-5f) << "batch " << n << " " << r;
        }
      }
    }
  }
  std::vector<float> w_, bias_;
};

TEST_F(AclGearsExternal, EachFileModeLoadsFromFileAtEveryGear) {
  for (int mode : {1, 2}) {
    ASSERT_NO_FATAL_FAILURE(CompileExternal(mode));
    // Written once for all three gears: two files, or one combined.
    EXPECT_EQ(WeightFiles().size(), mode == 1 ? 2u : 1u) << mode;
    const auto [work, weight] = QuerySizes("net");
    EXPECT_GT(work, 0u);
    EXPECT_EQ(weight, 0u) << mode;  // every weight is in the files
    ASSERT_EQ(aclmdlLoadFromFile((dir_ + "/net.om").c_str(), &id_), ACL_SUCCESS)
        << LastError();
    ASSERT_NO_FATAL_FAILURE(RunEveryGear());
    ASSERT_EQ(aclmdlDestroyDesc(desc_), ACL_SUCCESS);
    desc_ = nullptr;
    ASSERT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
    id_ = 0;
    std::system(("rm -rf '" + dir_ + "/weight'").c_str());
  }
}

TEST_F(AclGearsExternal, BoundWeightsServeEveryGear) {
  ASSERT_NO_FATAL_FAILURE(CompileExternal(2));
  const std::vector<std::string> files = WeightFiles();
  ASSERT_EQ(files.size(), 1u);
  const std::vector<uint8_t> file = ReadFile(dir_ + "/" + files[0]);
  ASSERT_EQ(file.size(), 160u);
  const std::vector<uint8_t> image = ReadFile(dir_ + "/net.om");
  DeviceBuffer memory(file.size());
  ASSERT_EQ(aclrtMemcpy(memory.get(), file.size(), file.data(), file.size(),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  // The model no longer needs its folder: the bound memory is the weights.
  std::system(("rm -rf '" + dir_ + "/weight'").c_str());
  aclmdlConfigHandle* handle = aclmdlCreateConfigHandle();
  ASSERT_NE(handle, nullptr);
  size_t type = ACL_MDL_LOAD_FROM_MEM;
  const void* addr = image.data();
  size_t size = image.size();
  ASSERT_EQ(
      aclmdlSetConfigOpt(handle, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)),
      ACL_SUCCESS);
  ASSERT_EQ(
      aclmdlSetConfigOpt(handle, ACL_MDL_MEM_ADDR_PTR, &addr, sizeof(addr)),
      ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetConfigOpt(handle, ACL_MDL_MEM_SIZET, &size, sizeof(size)),
            ACL_SUCCESS);
  const std::string name = files[0].substr(std::string("weight/").size());
  ASSERT_EQ(aclmdlSetExternalWeightAddress(handle, name.c_str(), memory.get(),
                                           file.size()),
            ACL_SUCCESS)
      << LastError();
  ASSERT_EQ(aclmdlLoadWithConfig(handle, &id_), ACL_SUCCESS) << LastError();
  EXPECT_EQ(aclmdlDestroyConfigHandle(handle), ACL_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(RunEveryGear());
  // Unloaded before the bound memory is freed.
  EXPECT_EQ(aclmdlDestroyDesc(desc_), ACL_SUCCESS);
  desc_ = nullptr;
  EXPECT_EQ(aclmdlUnload(id_), ACL_SUCCESS);
  id_ = 0;
}

}  // namespace
}  // namespace ascend_emu::acl_test
