// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// No-alloc cases for the data-movement, normalization, Resize, GridSample and
// ConvTranspose kernels (kernels_test_noalloc.cc runs them): each uses the
// attributes and constant operands its Run re-reads.
#pragma once

#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

template <typename CaseT>
void AppendMovementNoAllocCases(std::vector<CaseT>* c) {
  const HostTensor x4 = RandF32(S({1, 2, 5, 5}), 1);
  auto ints = [](std::vector<int64_t> v) {
    return HostTensor::I64(S({static_cast<int64_t>(v.size())}), v).Const();
  };
  Attrs axis1;
  axis1.Int("axis", 1);
  c->push_back({"Gather", axis1, {x4, HostTensor::I64(S({3}), {0, -1, 9})}});
  c->push_back(
      {"GatherElements", axis1, {x4, HostTensor::I64(S({1, 1, 1, 1}), {1})}});
  c->push_back(
      {"Slice",
       Attrs(),
       {x4, ints({4, 0}), ints({0, 5}), ints({-1, 2}), ints({-2, 1})}});
  c->push_back({"Split", axis1, {x4, ints({2})}});
  c->push_back({"Squeeze", Attrs(), {x4, ints({0})}});
  c->push_back({"Unsqueeze", Attrs(), {x4, ints({-1})}});
  c->push_back({"Expand", Attrs(), {x4, ints({2, 1, 1, 1})}});
  c->push_back({"Tile", Attrs(), {x4, ints({1, 2, 1, 2})}});
  Attrs reflect;
  reflect.Str("mode", "reflect");
  c->push_back({"Pad", reflect, {x4, ints({0, 0, 2, 1, 0, 0, 1, 2})}});
  Attrs resize;
  resize.Str("mode", "linear")
      .Str("coordinate_transformation_mode", "pytorch_half_pixel")
      .Str("nearest_mode", "floor");
  c->push_back(
      {"Resize",
       resize,
       {x4, HostTensor::Absent(), HostTensor::Absent(), ints({1, 2, 7, 3})}});
  Attrs grid;
  grid.Str("mode", "bilinear")
      .Str("padding_mode", "reflection")
      .Int("align_corners", 1);
  c->push_back({"GridSample", grid, {x4, RandF32(S({1, 3, 4, 2}), 5)}});
  Attrs ct;
  ct.Ints("strides", {2, 2}).Ints("pads", {1, 1, 0, 0}).Int("group", 2);
  c->push_back({"ConvTranspose",
                ct,
                {x4, RandF32(S({2, 3, 3, 3}), 2), RandF32(S({6}), 3)}});
  Attrs ln;
  ln.Int("axis", -2).Float("epsilon", 1e-3f);
  c->push_back({"LayerNormalization",
                ln,
                {x4, RandF32(S({5, 5}), 2), RandF32(S({5, 5}), 3)}});
  const HostTensor p2 = RandF32(S({2}), 4);
  c->push_back({"BatchNormalization", Attrs(), {x4, p2, p2, p2, p2}});
}

}  // namespace testing
}  // namespace ascend_emu
