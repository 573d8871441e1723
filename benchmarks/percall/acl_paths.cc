// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The emulator paths of percall_paths.h: the bare ACL sequence, the engine's
// own Run on the same .om, and the plain memcpy of the same bytes.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "acl_api.h"
#include "ascend_emu/model.h"
#include "percall_paths.h"

namespace ascend_percall {
namespace {

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

// 64-byte aligned like device memory, so the two copies compare fairly.
struct Aligned {
  explicit Aligned(size_t bytes)
      : data(static_cast<float*>(
            std::aligned_alloc(64, (bytes + 63) / 64 * 64))) {}
  ~Aligned() { std::free(data); }
  Aligned(const Aligned&) = delete;
  Aligned& operator=(const Aligned&) = delete;
  float* data;
};

// The ACL functions the sequence and its set-up use, from the library.
struct Acl {
#define ACL_FN(name) decltype(&::name) name = nullptr;
// clang-format 14 reflows this list differently on each run: kept by hand.
// clang-format off
#define ACL_FNS(X)                                                   \
  X(aclInit) X(aclGetRecentErrMsg) X(aclrtSetDevice)                 \
  X(aclrtCreateContext) X(aclrtSetCurrentContext) X(aclrtMalloc)     \
  X(aclrtMemcpy) X(aclCreateDataBuffer) X(aclmdlCreateDataset)       \
  X(aclmdlAddDatasetBuffer) X(aclmdlLoadFromMem) X(aclmdlExecute)
  // clang-format on
  ACL_FNS(ACL_FN)
#undef ACL_FN
  bool Resolve(void* handle) {
    bool ok = true;
#define ACL_RESOLVE(name)                                                      \
  name = reinterpret_cast<decltype(name)>(dlsym(handle, #name));               \
  if (name == nullptr) {                                                       \
    std::fprintf(stderr, "percall: %s missing from the ACL library\n", #name); \
    ok = false;                                                                \
  }
    ACL_FNS(ACL_RESOLVE)
#undef ACL_RESOLVE
    return ok;
  }
};

class AclSequence : public Path {
 public:
  const char* name() const override { return "acl_sequence"; }

  bool SetUp(const ModelFiles& model, const std::string& library) {
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr || !acl_.Resolve(handle)) {
      std::fprintf(stderr, "percall: cannot use ACL library '%s': %s\n",
                   library.c_str(), handle == nullptr ? dlerror() : "");
      return false;
    }
    aclError rc = acl_.aclInit(nullptr);
    if (rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE) return Fail(rc);
    if ((rc = acl_.aclrtSetDevice(0)) != ACL_SUCCESS) return Fail(rc);
    // A context of its own, as the backend has: the two paths alternate.
    if ((rc = acl_.aclrtCreateContext(&context_, 0)) != ACL_SUCCESS) {
      return Fail(rc);
    }
    std::vector<uint8_t> om = ReadFile(model.dir + "/" + model.name + ".om");
    if ((rc = acl_.aclmdlLoadFromMem(om.data(), om.size(), &model_id_)) !=
        ACL_SUCCESS) {
      return Fail(rc);
    }
    input_ = acl_.aclmdlCreateDataset();
    output_ = acl_.aclmdlCreateDataset();
    for (const auto& values : model.inputs) {
      host_inputs_.push_back(&values);
      if (!AddBuffer(input_, values.size() * sizeof(float), &device_inputs_)) {
        return false;
      }
    }
    output_bytes_ = model.expected.size() * sizeof(float);
    std::vector<void*> outputs;
    if (!AddBuffer(output_, output_bytes_, &outputs)) return false;
    device_output_ = outputs[0];
    host_output_.resize(model.expected.size());
    return true;
  }

  void BeginRound() override { acl_.aclrtSetCurrentContext(context_); }

  bool Call() override {
    for (size_t i = 0; i < device_inputs_.size(); ++i) {
      const size_t bytes = host_inputs_[i]->size() * sizeof(float);
      if (aclError rc = acl_.aclrtMemcpy(device_inputs_[i], bytes,
                                         host_inputs_[i]->data(), bytes,
                                         ACL_MEMCPY_HOST_TO_DEVICE)) {
        return Fail(rc);
      }
    }
    if (aclError rc = acl_.aclmdlExecute(model_id_, input_, output_)) {
      return Fail(rc);
    }
    if (aclError rc =
            acl_.aclrtMemcpy(host_output_.data(), output_bytes_, device_output_,
                             output_bytes_, ACL_MEMCPY_DEVICE_TO_HOST)) {
      return Fail(rc);
    }
    return true;
  }

  const float* output() const override { return host_output_.data(); }

 private:
  bool AddBuffer(aclmdlDataset* dataset, size_t bytes,
                 std::vector<void*>* device) {
    void* memory = nullptr;
    if (aclError rc =
            acl_.aclrtMalloc(&memory, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) {
      return Fail(rc);
    }
    device->push_back(memory);
    aclDataBuffer* buffer = acl_.aclCreateDataBuffer(memory, bytes);
    if (aclError rc = acl_.aclmdlAddDatasetBuffer(dataset, buffer)) {
      return Fail(rc);
    }
    return true;
  }
  bool Fail(aclError rc) {
    const char* message = acl_.aclGetRecentErrMsg();
    std::fprintf(stderr, "percall: ACL error %d: %s\n", rc,
                 message != nullptr ? message : "");
    return false;
  }

  // Never released: the process ends after the benchmark, and releasing in
  // the right context beside the backend's is not what is measured.
  Acl acl_;
  aclrtContext context_ = nullptr;
  uint32_t model_id_ = 0;
  aclmdlDataset* input_ = nullptr;
  aclmdlDataset* output_ = nullptr;
  std::vector<const std::vector<float>*> host_inputs_;
  std::vector<void*> device_inputs_;
  void* device_output_ = nullptr;
  size_t output_bytes_ = 0;
  std::vector<float> host_output_;
};

class ModelWork : public Path {
 public:
  const char* name() const override { return "model_work"; }

  bool SetUp(const ModelFiles& model) {
    std::vector<uint8_t> om = ReadFile(model.dir + "/" + model.name + ".om");
    std::string error;
    model_ = ascend_emu::Model::Load(om.data(), om.size(), &error);
    if (model_ == nullptr) {
      std::fprintf(stderr, "percall: %s.om: %s\n", model.name.c_str(),
                   error.c_str());
      return false;
    }
    for (const auto& values : model.inputs) {
      buffers_.push_back(std::make_unique<Aligned>(values.size() * 4));
      std::memcpy(buffers_.back()->data, values.data(), values.size() * 4);
      inputs_.push_back(buffers_.back()->data);
    }
    buffers_.push_back(std::make_unique<Aligned>(model.expected.size() * 4));
    output_ = buffers_.back()->data;
    return true;
  }

  bool Call() override {
    if (!model_->Run(inputs_.data(), &output_, nullptr, &error_)) {
      std::fprintf(stderr, "percall: model_work: %s\n", error_.c_str());
      return false;
    }
    return true;
  }

  const float* output() const override {
    return static_cast<const float*>(output_);
  }

 private:
  std::unique_ptr<ascend_emu::Model> model_;
  std::vector<std::unique_ptr<Aligned>> buffers_;
  std::vector<const void*> inputs_;
  void* output_ = nullptr;
  std::string error_;
};

// Through a volatile pointer, so the compiler makes the same library call
// the emulator makes (no inlined copy of a known size).
void* (*volatile g_memcpy)(void*, const void*, size_t) = std::memcpy;

class PlainMemcpy : public Path {
 public:
  const char* name() const override { return "plain_memcpy"; }

  bool SetUp(const ModelFiles& model) {
    for (const auto& values : model.inputs) {
      device_.push_back(std::make_unique<Aligned>(values.size() * 4));
      inputs_.push_back(&values);
    }
    device_.push_back(std::make_unique<Aligned>(model.expected.size() * 4));
    std::memcpy(device_.back()->data, model.expected.data(),
                model.expected.size() * 4);
    output_.resize(model.expected.size());
    return true;
  }

  bool Call() override {
    for (size_t i = 0; i < inputs_.size(); ++i) {
      g_memcpy(device_[i]->data, inputs_[i]->data(), inputs_[i]->size() * 4);
    }
    g_memcpy(output_.data(), device_.back()->data, output_.size() * 4);
    return true;
  }

  // The expected output, copied back: checks the copy, not a model.
  const float* output() const override { return output_.data(); }

 private:
  std::vector<std::unique_ptr<Aligned>> device_;
  std::vector<const std::vector<float>*> inputs_;
  std::vector<float> output_;
};

}  // namespace

std::unique_ptr<Path> MakeAclSequence(const ModelFiles& model,
                                      const std::string& acl_library) {
  auto path = std::make_unique<AclSequence>();
  if (!path->SetUp(model, acl_library)) return nullptr;
  return path;
}

std::unique_ptr<Path> MakeModelWork(const ModelFiles& model) {
  auto path = std::make_unique<ModelWork>();
  if (!path->SetUp(model)) return nullptr;
  return path;
}

std::unique_ptr<Path> MakePlainMemcpy(const ModelFiles& model) {
  auto path = std::make_unique<PlainMemcpy>();
  if (!path->SetUp(model)) return nullptr;
  return path;
}

}  // namespace ascend_percall
