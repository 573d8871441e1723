// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for ascend_emu::Model::Load behind the .om checksum: the
// input's size field and CRC trailer are rewritten first (ResealOm), so
// mutations reach the fields the CRC would otherwise reject. A model that
// loads is run on zeroed buffers sized from its own descriptions.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/model.h"
#include "ascend_emu/om_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> image(data, data + size);
  ascend_emu::ResealOm(
      &image);  // too short to reseal: Load must refuse it anyway
  std::string error;
  std::unique_ptr<ascend_emu::Model> model =
      ascend_emu::Model::Load(image.data(), image.size(), &error);
  if (!model) return 0;

  std::vector<std::vector<uint8_t>> in(model->inputs().size());
  std::vector<std::vector<uint8_t>> out(model->outputs().size());
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  for (size_t i = 0; i < in.size(); ++i) {
    in[i].assign(model->inputs()[i].size_bytes, 0);
    in_ptrs.push_back(in[i].data());
  }
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].assign(model->outputs()[i].size_bytes, 0);
    out_ptrs.push_back(out[i].data());
  }
  model->Run(in_ptrs.data(), out_ptrs.data(), nullptr, &error);
  return 0;
}
