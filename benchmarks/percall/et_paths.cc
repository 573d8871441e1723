// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The ExecuTorch paths of percall_paths.h: a Method of a .pte through
// executorch::extension::Module, called as an application calls it after
// loading: set_input, execute, read the output. Method directly (not
// Module::execute, which builds a std::vector of outputs on every call).
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr.h>

#include <cstdio>
#include <cstring>

#include "percall_paths.h"

namespace ascend_percall {
namespace {

using executorch::aten::SizesType;
using executorch::extension::Module;
using executorch::extension::TensorPtr;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::Method;

class MethodPath : public Path {
 public:
  explicit MethodPath(std::string name) : name_(std::move(name)) {}
  const char* name() const override { return name_.c_str(); }

  bool SetUp(const ModelFiles& model, const std::string& pte) {
    module_ = std::make_unique<Module>(pte, Module::LoadMode::File);
    if (Error e = module_->load_method("forward"); e != Error::Ok) {
      std::fprintf(stderr, "percall: %s: load_method failed (%d)\n",
                   pte.c_str(), static_cast<int>(e));
      return false;
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    auto method = module_->method("forward");
#pragma GCC diagnostic pop
    if (!method.ok()) return false;
    method_ = method.get();
    for (const auto& values : model.inputs) {
      // Flat [1, n]: the exported models take [1, n] inputs.
      inputs_.push_back(executorch::extension::make_tensor_ptr(
          std::vector<SizesType>{1, static_cast<SizesType>(values.size())},
          const_cast<float*>(values.data()), {}, {}));
      evalues_.emplace_back(*inputs_.back());
    }
    output_.resize(model.expected.size());
    return true;
  }

  bool Call() override {
    for (size_t i = 0; i < evalues_.size(); ++i) {
      if (method_->set_input(evalues_[i], i) != Error::Ok) return false;
    }
    if (Error e = method_->execute(); e != Error::Ok) {
      std::fprintf(stderr, "percall: %s: execute failed (%d)\n", name_.c_str(),
                   static_cast<int>(e));
      return false;
    }
    const auto& out = method_->get_output(0).toTensor();
    std::memcpy(output_.data(), out.const_data_ptr<float>(),
                output_.size() * sizeof(float));
    return true;
  }

  const float* output() const override { return output_.data(); }

 private:
  std::string name_;
  std::unique_ptr<Module> module_;
  Method* method_ = nullptr;
  std::vector<TensorPtr> inputs_;
  std::vector<EValue> evalues_;
  std::vector<float> output_;
};

}  // namespace

std::unique_ptr<Path> MakeExecuTorchMethod(const ModelFiles& model,
                                           const std::string& suffix) {
  auto path = std::make_unique<MethodPath>(suffix);
  if (!path->SetUp(model,
                   model.dir + "/" + model.name + "_" + suffix + ".pte")) {
    return nullptr;
  }
  return path;
}

}  // namespace ascend_percall
