// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Attribute getters. A getter falls back when the attribute is absent or of
// another kind; kernels that must refuse a wrong kind check it themselves
// (CheckAttributes in kernel_util.h).
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace {

const Attribute* Find(const std::map<std::string, Attribute>& map,
                      const std::string& name, Attribute::Kind kind) {
  auto it = map.find(name);
  if (it == map.end() || it->second.kind != kind) return nullptr;
  return &it->second;
}

}  // namespace

int64_t Attributes::GetInt(const std::string& name, int64_t fallback) const {
  const Attribute* a = Find(map_, name, Attribute::Kind::kInt);
  return a ? a->i : fallback;
}

float Attributes::GetFloat(const std::string& name, float fallback) const {
  const Attribute* a = Find(map_, name, Attribute::Kind::kFloat);
  return a ? a->f : fallback;
}

std::string Attributes::GetString(const std::string& name,
                                  const std::string& fallback) const {
  const Attribute* a = Find(map_, name, Attribute::Kind::kString);
  return a ? a->s : fallback;
}

std::vector<int64_t> Attributes::GetInts(const std::string& name) const {
  const Attribute* a = Find(map_, name, Attribute::Kind::kInts);
  return a ? a->ints : std::vector<int64_t>{};
}

std::vector<float> Attributes::GetFloats(const std::string& name) const {
  const Attribute* a = Find(map_, name, Attribute::Kind::kFloats);
  return a ? a->floats : std::vector<float>{};
}

}  // namespace ascend_emu
