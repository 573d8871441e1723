// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Loading with a config handle (aclmdlCreateConfigHandle ..
// aclmdlLoadWithConfig) and external weight files: every value check with
// its code and message, each load type, weights bound to device memory (read
// in place, held once, pinned while loaded) or read from a weight folder,
// leaks reported by aclFinalize, fault injection.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl_test_util.h"
#include "model_io.h"
#include "test_models.h"

namespace ascend_emu::acl_test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// A config handle destroyed on scope exit.
class Config {
 public:
  Config() : handle_(aclmdlCreateConfigHandle()) {
    EXPECT_NE(handle_, nullptr) << LastError();
  }
  ~Config() {
    if (handle_ != nullptr) {
      EXPECT_EQ(aclmdlDestroyConfigHandle(handle_), ACL_SUCCESS);
    }
  }
  Config(const Config&) = delete;
  Config& operator=(const Config&) = delete;

  aclmdlConfigHandle* get() const { return handle_; }
  aclError Size(aclmdlConfigAttr attr, size_t value) {
    return aclmdlSetConfigOpt(handle_, attr, &value, sizeof(value));
  }
  aclError Ptr(aclmdlConfigAttr attr, const void* value) {
    return aclmdlSetConfigOpt(handle_, attr, &value, sizeof(value));
  }
  aclError Bind(const char* name, void* ptr, size_t size) {
    return aclmdlSetExternalWeightAddress(handle_, name, ptr, size);
  }
  // LOAD_TYPE, MEM_ADDR and MEM_SIZE for `image`.
  void FromMem(const std::vector<uint8_t>& image,
               size_t type = ACL_MDL_LOAD_FROM_MEM) {
    ASSERT_EQ(Size(ACL_MDL_LOAD_TYPE_SIZET, type), ACL_SUCCESS) << LastError();
    ASSERT_EQ(Ptr(ACL_MDL_MEM_ADDR_PTR, image.data()), ACL_SUCCESS);
    ASSERT_EQ(Size(ACL_MDL_MEM_SIZET, image.size()), ACL_SUCCESS);
  }
  aclError Load(uint32_t* id) { return aclmdlLoadWithConfig(handle_, id); }

 private:
  aclmdlConfigHandle* handle_;
};

// A temporary folder holding model.om and weight/<files>, removed on exit.
class ModelFolder {
 public:
  ModelFolder() {
    char path[] = "/tmp/acl_config_test_XXXXXX";
    EXPECT_NE(mkdtemp(path), nullptr);
    root_ = path;
  }
  ~ModelFolder() {
    for (const std::string& file : files_) std::remove(file.c_str());
    std::remove((root_ + "/weight").c_str());
    std::remove(root_.c_str());
  }
  std::string Write(const std::string& relative,
                    const std::vector<uint8_t>& bytes) {
    if (relative.rfind("weight/", 0) == 0) {
      mkdir((root_ + "/weight").c_str(), 0700);
    }
    const std::string path = root_ + "/" + relative;
    FILE* file = std::fopen(path.c_str(), "wb");
    EXPECT_NE(file, nullptr) << path;
    std::fwrite(bytes.data(), 1, bytes.size(), file);
    std::fclose(file);
    files_.push_back(path);
    return path;
  }
  std::string WeightFolder() const { return root_ + "/weight"; }

 private:
  std::string root_;
  std::vector<std::string> files_;
};

size_t FreeDeviceMemory() {
  size_t free_bytes = 0;
  size_t total = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
  return free_bytes;
}

class ModelConfigTest : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    image_ = BuildAddMulReluExternalOm("Ascend910B1");
    ASSERT_FALSE(image_.empty());
    file_ = ExternalWeightFile();
  }
  // Device memory holding the external weight file.
  void UploadWeights(const DeviceBuffer& memory) {
    ASSERT_EQ(aclrtMemcpy(memory.get(), memory.size(), file_.data(),
                          file_.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  void ExpectRunsRight(uint32_t id, const float* weights = kWeights) {
    ModelIo io;
    io.CopyInputs();
    ASSERT_EQ(aclmdlExecute(id, io.input(), io.output()), ACL_SUCCESS)
        << LastError();
    EXPECT_EQ(io.Output(), ExpectedAddMulRelu(kX, kY, weights));
  }
  std::vector<uint8_t> image_;
  std::vector<uint8_t> file_;
};

TEST_F(ModelConfigTest, CreateAndDestroy) {
  aclmdlConfigHandle* handle = aclmdlCreateConfigHandle();
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(aclmdlDestroyConfigHandle(handle), ACL_SUCCESS);
  EXPECT_EQ(aclmdlDestroyConfigHandle(handle), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("not a live model config handle"));
  EXPECT_EQ(aclmdlDestroyConfigHandle(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("handle is NULL"));
  size_t type = ACL_MDL_LOAD_FROM_MEM;
  EXPECT_EQ(
      aclmdlSetConfigOpt(handle, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)),
      ACL_ERROR_INVALID_PARAM);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadWithConfig(handle, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetExternalWeightAddress(handle, "w", &type, 32),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelConfigTest, SetConfigOptChecksEveryValue) {
  Config config;
  size_t size_value = 3;
  int32_t int_value = 0;
  const void* pointer = image_.data();
  // Wrong value sizes name the attribute and the size it takes.
  EXPECT_EQ(
      aclmdlSetConfigOpt(config.get(), ACL_MDL_LOAD_TYPE_SIZET, &size_value, 4),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(),
              AllOf(HasSubstr("ACL_MDL_LOAD_TYPE_SIZET (1)"),
                    HasSubstr("valueSize is 4"), HasSubstr("should be 8")));
  EXPECT_EQ(
      aclmdlSetConfigOpt(config.get(), ACL_MDL_PRIORITY_INT32, &int_value, 8),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_PRIORITY_INT32 (0)"));
  EXPECT_EQ(aclmdlSetConfigOpt(config.get(), ACL_MDL_MEM_ADDR_PTR, &pointer, 4),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("by the pointer's address"));
  // NULL value.
  EXPECT_EQ(aclmdlSetConfigOpt(config.get(), ACL_MDL_MEM_SIZET, nullptr, 8),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(),
              AllOf(HasSubstr("ACL_MDL_MEM_SIZET (4)"), HasSubstr("NULL")));
  // Unknown and unsupported attributes.
  EXPECT_EQ(aclmdlSetConfigOpt(config.get(), static_cast<aclmdlConfigAttr>(99),
                               &size_value, 8),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("attr 99 (not an aclmdlConfigAttr)"));
  EXPECT_EQ(aclmdlSetConfigOpt(config.get(), ACL_MDL_RESERVED, &size_value, 8),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_RESERVED"));
  for (aclmdlConfigAttr attr :
       {ACL_MDL_INPUTQ_NUM_SIZET, ACL_MDL_INPUTQ_ADDR_PTR,
        ACL_MDL_OUTPUTQ_NUM_SIZET, ACL_MDL_OUTPUTQ_ADDR_PTR,
        ACL_MDL_WORKSPACE_MEM_OPTIMIZE, ACL_MDL_MODEL_DESC_PTR}) {
    EXPECT_EQ(aclmdlSetConfigOpt(config.get(), attr, &size_value, 8),
              ACL_ERROR_INVALID_PARAM)
        << attr;
    EXPECT_THAT(LastError(), HasSubstr("not supported by the emulator"));
    EXPECT_THAT(LastError(), HasSubstr("(" + std::to_string(attr) + ")"));
  }
  // Values.
  for (int32_t priority : {-1, 8}) {
    EXPECT_EQ(aclmdlSetConfigOpt(config.get(), ACL_MDL_PRIORITY_INT32,
                                 &priority, sizeof(priority)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("outside [0, 7]"));
  }
  int_value = 7;
  EXPECT_EQ(aclmdlSetConfigOpt(config.get(), ACL_MDL_PRIORITY_INT32, &int_value,
                               sizeof(int_value)),
            ACL_SUCCESS);
  for (size_t type : {size_t{0}, size_t{7}}) {
    EXPECT_EQ(config.Size(ACL_MDL_LOAD_TYPE_SIZET, type),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("is not a load type"));
  }
  for (size_t type : {size_t{ACL_MDL_LOAD_FROM_FILE_WITH_Q},
                      size_t{ACL_MDL_LOAD_FROM_MEM_WITH_Q}}) {
    EXPECT_EQ(config.Size(ACL_MDL_LOAD_TYPE_SIZET, type),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("with queues"));
  }
  EXPECT_EQ(config.Ptr(ACL_MDL_PATH_PTR, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_PATH_PTR (2): the path is NULL"));
  EXPECT_EQ(config.Ptr(ACL_MDL_WEIGHT_PATH_PTR, ""), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_WEIGHT_PATH_PTR (14)"));
  EXPECT_EQ(config.Ptr(ACL_MDL_MEM_ADDR_PTR, nullptr), ACL_ERROR_INVALID_PARAM);
  // A NULL work or weight address leaves that memory to ACL, as in CANN.
  EXPECT_EQ(config.Ptr(ACL_MDL_WORKSPACE_ADDR_PTR, nullptr), ACL_SUCCESS);
  EXPECT_EQ(config.Ptr(ACL_MDL_WEIGHT_ADDR_PTR, nullptr), ACL_SUCCESS);
  // An unknown handle.
  int bogus = 0;
  EXPECT_EQ(aclmdlSetConfigOpt(reinterpret_cast<aclmdlConfigHandle*>(&bogus),
                               ACL_MDL_MEM_SIZET, &size_value, 8),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("not a live model config handle"));
}

TEST_F(ModelConfigTest, SetExternalWeightAddressChecksItsArguments) {
  Config config;
  DeviceBuffer memory(kExternalBindBytes);
  std::vector<uint8_t> host(kExternalBindBytes);
  EXPECT_EQ(config.Bind(nullptr, memory.get(), 96), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("weightFileName is NULL"));
  EXPECT_EQ(config.Bind("", memory.get(), 96), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(config.Bind("weight/weight_w", memory.get(), 96),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("is a path"));
  EXPECT_EQ(config.Bind(kExternalName, nullptr, 96), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(config.Bind(kExternalName, memory.get(), 0),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(config.Bind(kExternalName, memory.get(), 88),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("a multiple of 32"));
  EXPECT_EQ(config.Bind(kExternalName, host.data(), 96),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("host memory"));
  EXPECT_EQ(config.Bind(kExternalName, memory.get(), 128),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("runs past the end"));
  EXPECT_EQ(
      config.Bind(kExternalName, static_cast<uint8_t*>(memory.get()) + 32, 96),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(config.Bind(kExternalName, memory.get(), 96), ACL_SUCCESS);
  int bogus = 0;
  EXPECT_EQ(aclmdlSetExternalWeightAddress(
                reinterpret_cast<aclmdlConfigHandle*>(&bogus), kExternalName,
                memory.get(), 96),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelConfigTest, BoundWeightsAreReadInPlaceAndHeldOnce) {
  DeviceBuffer memory(kExternalBindBytes);
  UploadWeights(memory);
  size_t work = 0;
  size_t weight = 0;
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(image_.data(), image_.size(), &work, &weight),
      ACL_SUCCESS)
      << LastError();
  EXPECT_GT(work, 0u);
  EXPECT_EQ(weight, 0u);  // every weight is in the file
  const size_t free_before = FreeDeviceMemory();
  const uint64_t copied_before = Stats().bytes_host_to_device;
  uint32_t id = 0;
  {
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Bind(kExternalName, memory.get(), kExternalBindBytes),
              ACL_SUCCESS);
    ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  }  // the handle may go once the model is loaded
  // Only the work memory is new: the weights stay where they were bound.
  EXPECT_EQ(free_before - FreeDeviceMemory(), work);
  EXPECT_EQ(Stats().bytes_host_to_device, copied_before);
  ExpectRunsRight(id);
  // Every run reads the bound memory itself: new bytes there, new results.
  const float doubled[6] = {2.0f, -2.0f, 4.0f, -4.0f, 1.0f, 6.0f};
  const std::vector<uint8_t> changed = ExternalWeightFile(doubled);
  ASSERT_EQ(aclrtMemcpy(memory.get(), memory.size(), changed.data(),
                        changed.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ExpectRunsRight(id, doubled);
  // Bound memory cannot be freed under the model.
  EXPECT_EQ(aclrtFree(memory.get()), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(),
              HasSubstr("in use by loaded model " + std::to_string(id)));
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(FreeDeviceMemory(), free_before);
}  // and can be after the unload (DeviceBuffer)

TEST_F(ModelConfigTest, OneBindingServesTwoModels) {
  DeviceBuffer memory(kExternalBindBytes);
  UploadWeights(memory);
  uint32_t ids[2] = {};
  for (uint32_t& id : ids) {
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Bind(kExternalName, memory.get(), kExternalBindBytes),
              ACL_SUCCESS);
    ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  }
  ExpectRunsRight(ids[0]);
  ExpectRunsRight(ids[1]);
  ASSERT_EQ(aclmdlUnload(ids[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory.get()), ACL_ERROR_INVALID_PARAM);  // ids[1]
  ASSERT_EQ(aclmdlUnload(ids[1]), ACL_SUCCESS);
}

TEST_F(ModelConfigTest, BindingTheSameNameAgainReplacesIt) {
  void* wrong = nullptr;
  ASSERT_EQ(aclrtMalloc(&wrong, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  DeviceBuffer right(kExternalBindBytes);
  UploadWeights(right);
  Config config;
  config.FromMem(image_);
  // 32 bytes cannot hold the 88-byte file: the load works only if the
  // second binding replaced the first.
  ASSERT_EQ(config.Bind(kExternalName, wrong, 32), ACL_SUCCESS);
  ASSERT_EQ(config.Bind(kExternalName, right.get(), kExternalBindBytes),
            ACL_SUCCESS);
  uint32_t id = 0;
  ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  ExpectRunsRight(id);
  EXPECT_EQ(aclrtFree(wrong), ACL_SUCCESS);  // not used by the model
  EXPECT_EQ(aclrtFree(right.get()), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelConfigTest, LoadRefusesMissingOrWrongWeights) {
  uint32_t id = 0;
  {  // Neither bound nor a folder.
    Config config;
    config.FromMem(image_);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(),
                AllOf(HasSubstr("external weight file 'weight_w' (88 bytes)"),
                      HasSubstr("not bound"),
                      HasSubstr("aclmdlSetExternalWeightAddress")));
  }
  {  // Bound memory smaller than the file.
    DeviceBuffer small(64);
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Bind(kExternalName, small.get(), 64), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), AllOf(HasSubstr("'weight_w' has 88 bytes"),
                                   HasSubstr("holds 64")));
  }
  {  // A name the model does not read.
    DeviceBuffer memory(kExternalBindBytes);
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Bind(kExternalName, memory.get(), 96), ACL_SUCCESS);
    ASSERT_EQ(config.Bind("weight_other", memory.get(), 96), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), AllOf(HasSubstr("bound 'weight_other'"),
                                   HasSubstr("it reads: 'weight_w'")));
  }
  {  // Bound, then freed before the load.
    void* memory = nullptr;
    ASSERT_EQ(aclrtMalloc(&memory, 96, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Bind(kExternalName, memory, 96), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(memory), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("no longer allocated"));
  }
  // Without a config handle there is no way to give the weights.
  EXPECT_EQ(aclmdlLoadFromMem(image_.data(), image_.size(), &id),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("'weight_w'"));
  EXPECT_EQ(Stats().live_models, 0u);
}

TEST_F(ModelConfigTest, LoadWithConfigNeedsTheAttributesOfItsLoadType) {
  uint32_t id = 0;
  {
    Config config;
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(),
                HasSubstr("ACL_MDL_LOAD_TYPE_SIZET (1) is not set"));
    EXPECT_EQ(config.Load(nullptr), ACL_ERROR_INVALID_PARAM);
  }
  {
    Config config;
    ASSERT_EQ(config.Size(ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_MEM),
              ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_MEM_ADDR_PTR (3) is not set"));
    ASSERT_EQ(config.Ptr(ACL_MDL_MEM_ADDR_PTR, image_.data()), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_MEM_SIZET (4) is not set"));
    // Caller memory needs a _WITH_MEM load type.
    ASSERT_EQ(config.Size(ACL_MDL_MEM_SIZET, image_.size()), ACL_SUCCESS);
    ASSERT_EQ(config.Size(ACL_MDL_WORKSPACE_SIZET, 256), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_WORKSPACE_SIZET (8) is set"));
  }
  {
    Config config;
    ASSERT_EQ(config.Size(ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE),
              ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_PATH_PTR (2) is not set"));
    ASSERT_EQ(config.Ptr(ACL_MDL_PATH_PTR, "/nonexistent/model.om"),
              ACL_SUCCESS);
    ASSERT_EQ(config.Ptr(ACL_MDL_WEIGHT_PATH_PTR, "/tmp"), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("ACL_MDL_WEIGHT_PATH_PTR (14) must not "
                                       "be set when loading from a file"));
  }
  {
    Config config;
    ASSERT_EQ(config.Size(ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE),
              ACL_SUCCESS);
    ASSERT_EQ(config.Ptr(ACL_MDL_PATH_PTR, "/nonexistent/model.om"),
              ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
    EXPECT_THAT(LastError(), HasSubstr("/nonexistent/model.om"));
  }
  EXPECT_EQ(Stats().live_models, 0u);
}

TEST_F(ModelConfigTest, ModelsWithoutExternalWeightsLoadToo) {
  const std::vector<uint8_t> inline_image = BuildAddMulReluOm("Ascend910B1");
  Config config;
  config.FromMem(inline_image);
  int32_t priority = 3;
  ASSERT_EQ(aclmdlSetConfigOpt(config.get(), ACL_MDL_PRIORITY_INT32, &priority,
                               sizeof(priority)),
            ACL_SUCCESS);
  uint32_t id = 0;
  ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelConfigTest, CallerWorkAndWeightMemory) {
  const std::vector<uint8_t> inline_image = BuildAddMulReluOm("Ascend910B1");
  size_t work = 0;
  size_t weight = 0;
  ASSERT_EQ(aclmdlQuerySizeFromMem(inline_image.data(), inline_image.size(),
                                   &work, &weight),
            ACL_SUCCESS);
  DeviceBuffer work_memory(work);
  DeviceBuffer weight_memory(weight);
  uint32_t id = 0;
  {
    Config config;
    config.FromMem(inline_image, ACL_MDL_LOAD_FROM_MEM_WITH_MEM);
    ASSERT_EQ(config.Ptr(ACL_MDL_WORKSPACE_ADDR_PTR, work_memory.get()),
              ACL_SUCCESS);
    ASSERT_EQ(config.Size(ACL_MDL_WORKSPACE_SIZET, work - 1), ACL_SUCCESS);
    ASSERT_EQ(config.Ptr(ACL_MDL_WEIGHT_ADDR_PTR, weight_memory.get()),
              ACL_SUCCESS);
    ASSERT_EQ(config.Size(ACL_MDL_WEIGHT_SIZET, weight), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("work memory"));
    ASSERT_EQ(config.Size(ACL_MDL_WORKSPACE_SIZET, work), ACL_SUCCESS);
    const size_t free_before = FreeDeviceMemory();
    ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
    EXPECT_EQ(FreeDeviceMemory(), free_before);  // all caller memory
  }
  ExpectRunsRight(id);
  EXPECT_EQ(aclrtFree(work_memory.get()), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(weight_memory.get()), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);

  // With external weights: work memory from the caller, weights bound.
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(image_.data(), image_.size(), &work, &weight),
      ACL_SUCCESS);
  DeviceBuffer external_work(work);
  DeviceBuffer bound(kExternalBindBytes);
  UploadWeights(bound);
  Config config;
  config.FromMem(image_, ACL_MDL_LOAD_FROM_MEM_WITH_MEM);
  ASSERT_EQ(config.Ptr(ACL_MDL_WORKSPACE_ADDR_PTR, external_work.get()),
            ACL_SUCCESS);
  ASSERT_EQ(config.Size(ACL_MDL_WORKSPACE_SIZET, work), ACL_SUCCESS);
  ASSERT_EQ(config.Bind(kExternalName, bound.get(), kExternalBindBytes),
            ACL_SUCCESS);
  const size_t free_before = FreeDeviceMemory();
  ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  EXPECT_EQ(FreeDeviceMemory(), free_before);
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelConfigTest, WeightsFromAFolderAreChargedToTheDevice) {
  ModelFolder folder;
  folder.Write("weight/weight_w", file_);
  size_t work = 0;
  size_t weight = 0;
  ASSERT_EQ(
      aclmdlQuerySizeFromMem(image_.data(), image_.size(), &work, &weight),
      ACL_SUCCESS);
  const size_t free_before = FreeDeviceMemory();
  uint32_t id = 0;
  {
    Config config;
    config.FromMem(image_);
    const std::string path = folder.WeightFolder();
    ASSERT_EQ(config.Ptr(ACL_MDL_WEIGHT_PATH_PTR, path.c_str()), ACL_SUCCESS);
    ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  }
  // CANN reads the files into device memory it allocates: so does the
  // emulator, charging the device for them.
  EXPECT_EQ(free_before - FreeDeviceMemory(), work + kExternalFileBytes);
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(FreeDeviceMemory(), free_before);

  // A bound weight takes priority over the folder.
  DeviceBuffer bound(kExternalBindBytes);
  const float doubled[6] = {2.0f, -2.0f, 4.0f, -4.0f, 1.0f, 6.0f};
  const std::vector<uint8_t> changed = ExternalWeightFile(doubled);
  ASSERT_EQ(aclrtMemcpy(bound.get(), bound.size(), changed.data(),
                        changed.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  Config config;
  config.FromMem(image_);
  const std::string path = folder.WeightFolder();
  ASSERT_EQ(config.Ptr(ACL_MDL_WEIGHT_PATH_PTR, path.c_str()), ACL_SUCCESS);
  ASSERT_EQ(config.Bind(kExternalName, bound.get(), kExternalBindBytes),
            ACL_SUCCESS);
  ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  ExpectRunsRight(id, doubled);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelConfigTest, WeightFolderProblemsNameTheFile) {
  ModelFolder folder;
  const std::string path = folder.WeightFolder();
  uint32_t id = 0;
  {  // No such file.
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Ptr(ACL_MDL_WEIGHT_PATH_PTR, path.c_str()), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), AllOf(HasSubstr(path + "/weight_w"),
                                   HasSubstr("ACL_MDL_WEIGHT_PATH_PTR"),
                                   HasSubstr("No such file")));
  }
  {  // A file of another size.
    folder.Write("weight/weight_w",
                 std::vector<uint8_t>(file_.begin(), file_.end() - 4));
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Ptr(ACL_MDL_WEIGHT_PATH_PTR, path.c_str()), ACL_SUCCESS);
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(),
                AllOf(HasSubstr("has 84 bytes"), HasSubstr("expects 88")));
  }
  EXPECT_EQ(Stats().live_models, 0u);
}

TEST_F(ModelConfigTest, LoadFromFileFindsTheWeightFolderBesideIt) {
  ModelFolder folder;
  const std::string om = folder.Write("model.om", image_);
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile(om.c_str(), &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(LastError(), HasSubstr("the weight/ folder beside the .om"));
  folder.Write("weight/weight_w", file_);
  ASSERT_EQ(aclmdlLoadFromFile(om.c_str(), &id), ACL_SUCCESS) << LastError();
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);

  Config config;
  ASSERT_EQ(config.Size(ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE),
            ACL_SUCCESS);
  ASSERT_EQ(config.Ptr(ACL_MDL_PATH_PTR, om.c_str()), ACL_SUCCESS);
  ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  ExpectRunsRight(id);
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

TEST_F(ModelConfigTest, BoundMemoryOfAnotherDeviceIsRefused) {
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  setenv("EXECUTORCH_ASCEND_EMU_DEVICE_COUNT", "2", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* on_device_1 = nullptr;
  ASSERT_EQ(aclrtMalloc(&on_device_1, 96, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  {
    Config config;
    config.FromMem(image_);
    ASSERT_EQ(config.Bind(kExternalName, on_device_1, 96), ACL_SUCCESS);
    uint32_t id = 0;
    EXPECT_EQ(config.Load(&id), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(LastError(), HasSubstr("memory of device 1 but the model is "
                                       "loaded on device 0"));
  }
  EXPECT_EQ(aclrtFree(on_device_1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST_F(ModelConfigTest, LeakedConfigHandleIsReportedByFinalize) {
  aclmdlConfigHandle* handle = aclmdlCreateConfigHandle();
  ASSERT_NE(handle, nullptr);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  device_set_ = false;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_FAILURE);
  EXPECT_THAT(::testing::internal::GetCapturedStderr(),
              HasSubstr("leaked model config handle"));
  EXPECT_THAT(LastError(), HasSubstr("1 model config handle(s)"));
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);  // TearDown finalizes again
}

TEST_F(ModelConfigTest, EveryNewCallCanBeFaulted) {
  ASSERT_EQ(
      aclEmuInjectFault("aclmdlCreateConfigHandle", 0, ACL_ERROR_BAD_ALLOC),
      ACL_SUCCESS);
  EXPECT_EQ(aclmdlCreateConfigHandle(), nullptr);
  EXPECT_THAT(LastError(), HasSubstr("injected fault"));
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);

  DeviceBuffer memory(kExternalBindBytes);
  UploadWeights(memory);
  Config config;
  config.FromMem(image_);
  for (const char* function :
       {"aclmdlSetConfigOpt", "aclmdlSetExternalWeightAddress",
        "aclmdlLoadWithConfig", "aclmdlDestroyConfigHandle"}) {
    ASSERT_EQ(aclEmuInjectFault(function, 0, ACL_ERROR_RT_FAILURE),
              ACL_SUCCESS);
  }
  size_t type = ACL_MDL_LOAD_FROM_MEM;
  EXPECT_EQ(config.Size(ACL_MDL_LOAD_TYPE_SIZET, type), ACL_ERROR_RT_FAILURE);
  EXPECT_EQ(config.Bind(kExternalName, memory.get(), kExternalBindBytes),
            ACL_ERROR_RT_FAILURE);
  uint32_t id = 0;
  EXPECT_EQ(config.Load(&id), ACL_ERROR_RT_FAILURE);
  EXPECT_EQ(aclmdlDestroyConfigHandle(config.get()), ACL_ERROR_RT_FAILURE);
  EXPECT_EQ(Stats().live_models, 0u);
  ASSERT_EQ(aclEmuInjectFault(nullptr, 0, 0), ACL_SUCCESS);
  // A faulted call changed nothing: the handle still loads (the weight was
  // not bound, so it is bound now).
  ASSERT_EQ(config.Bind(kExternalName, memory.get(), kExternalBindBytes),
            ACL_SUCCESS);
  ASSERT_EQ(config.Load(&id), ACL_SUCCESS) << LastError();
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

}  // namespace
}  // namespace ascend_emu::acl_test
