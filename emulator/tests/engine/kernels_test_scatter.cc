// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ScatterND against a naive loop over index tuples, for reduction "none" and
// "add", several index depths, negative, duplicate and out-of-range indices
// (which must be skipped, never written outside the output), fp16 and int64
// data, and Infer's refusals.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels_test_dtypes.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

// The expected output: data, then each in-range tuple applied in order.
std::vector<float> NaiveScatter(const HostTensor& data, const HostTensor& ind,
                                const std::vector<float>& upd, bool add) {
  std::vector<float> out = data.f32();
  const std::vector<int64_t> iv = ind.values<int64_t>();
  const std::vector<int64_t> st = Strides(data.shape);
  const int64_t k = ind.shape.dims[ind.shape.rank - 1];
  int64_t slice = 1;
  for (int d = static_cast<int>(k); d < data.shape.rank; ++d) {
    slice *= data.shape.dims[d];
  }
  const int64_t tuples = static_cast<int64_t>(iv.size()) / k;
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = 0;
    bool ok = true;
    for (int64_t j = 0; j < k; ++j) {
      int64_t i = iv[t * k + j];
      const int64_t dim = data.shape.dims[j];
      if (i < 0) i += dim;
      if (i < 0 || i >= dim) ok = false;
      off += i * st[j];
    }
    if (!ok) continue;
    for (int64_t e = 0; e < slice; ++e) {
      float& o = out[off + e];
      o = add ? o + upd[t * slice + e] : upd[t * slice + e];
    }
  }
  return out;
}

Attrs Reduction(const std::string& r) {
  Attrs a;
  if (!r.empty()) a.Str("reduction", r);
  return a;
}

TEST(KernelsScatter, SeveralDepthsAgainstNaiveLoops) {
  struct Case {
    std::vector<int64_t> data;
    std::vector<int64_t> ind_shape;
    std::vector<int64_t> ind;
  };
  const std::vector<Case> cases = {
      {{5, 3, 2}, {2, 1}, {4, -5}},              // whole rows
      {{5, 3, 2}, {3, 2}, {0, 1, -1, 2, 2, 0}},  // [.., 2] -> pairs
      {{5, 3, 2},
       {2, 2, 3},
       {0, 0, 0, 4, 2, 1,  // scalars, batched
        1, 1, 1, -2, -3, -1}},
      {{4}, {3, 1}, {3, 0, -2}},  // 1-D data
      {{2, 3}, {1, 1, 1}, {1}},   // extra index batch dim
  };
  for (const Case& c : cases) {
    const HostTensor data = RandF32(S(c.data), 3);
    const HostTensor ind = HostTensor::I64(S(c.ind_shape), c.ind);
    std::vector<int64_t> ushape(c.ind_shape.begin(), c.ind_shape.end() - 1);
    for (size_t d = c.ind_shape.back(); d < c.data.size(); ++d) {
      ushape.push_back(c.data[d]);
    }
    const HostTensor upd = RandF32(S(ushape), 7);
    for (const std::string r : {"", "none", "add"}) {
      RunResult res = RunKernel("ScatterND", Reduction(r), {data, ind, upd});
      ASSERT_EQ(res.error, "") << r;
      EXPECT_EQ(res.outputs[0].shape, data.shape);
      EXPECT_EQ(res.run_new_calls, 0) << "Run must not allocate";
      EXPECT_EQ(res.outputs[0].f32(),
                NaiveScatter(data, ind, upd.f32(), r == "add"))
          << "data " << S(c.data).ToString() << " reduction '" << r << "'";
    }
  }
}

TEST(KernelsScatter, DuplicatesLastWriteWinsOrAccumulate) {
  const HostTensor data = HostTensor::F32(S({3, 2}), {1, 1, 2, 2, 3, 3});
  const HostTensor ind = HostTensor::I64(S({3, 1}), {1, -2, 0});
  const HostTensor upd = HostTensor::F32(S({3, 2}), {10, 20, 30, 40, 50, 60});
  RunResult r = RunKernel("ScatterND", Reduction("none"), {data, ind, upd});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{50, 60, 30, 40, 3, 3}));
  r = RunKernel("ScatterND", Reduction("add"), {data, ind, upd});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{51, 61, 42, 62, 3, 3}));
}

TEST(KernelsScatter, OutOfRangeTuplesAreSkipped) {
  const HostTensor data = HostTensor::F32(S({3, 2}), {1, 1, 2, 2, 3, 3});
  // (3,0) and (-4,1) and (0,2) and a huge index are all outside.
  const HostTensor ind =
      HostTensor::I64(S({5, 2}), {3, 0, -4, 1, 0, 2, 1000000000000, 0, 2, -1});
  const HostTensor upd = HostTensor::F32(S({5}), {9, 9, 9, 9, 7});
  for (const std::string r : {"none", "add"}) {
    RunResult res = RunKernel("ScatterND", Reduction(r), {data, ind, upd});
    ASSERT_EQ(res.error, "");
    EXPECT_EQ(res.outputs[0].f32(),
              (std::vector<float>{1, 1, 2, 2, 3, r == "add" ? 10.0f : 7.0f}))
        << r;
  }
}

TEST(KernelsScatter, Float16AddAndInt64Data) {
  const HostTensor data = F16(S({2, 2}), {1.5f, 2.0f, -1.0f, 0.25f});
  const HostTensor upd = F16(S({1, 2}), {0.5f, 3.0f});
  const HostTensor ind = HostTensor::I64(S({1, 1}), {1});
  RunResult r = RunKernel("ScatterND", Reduction("add"), {data, ind, upd});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
  EXPECT_EQ(HalfValues(r.outputs[0]),
            (std::vector<float>{1.5f, 2.0f, -0.5f, 3.25f}));

  const HostTensor di =
      HostTensor::Of<int64_t>(DType::kInt64, S({3}), {1, 2, 3});
  const HostTensor ui =
      HostTensor::Of<int64_t>(DType::kInt64, S({2}), {40, 50});
  r = RunKernel("ScatterND", Reduction("none"),
                {di, HostTensor::I64(S({2, 1}), {0, -1}), ui});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(), (std::vector<int64_t>{40, 2, 50}));
}

TEST(KernelsScatter, InferRefusals) {
  const HostTensor data = HostTensor::F32(S({3, 2}), {0, 0, 0, 0, 0, 0});
  const HostTensor ind = HostTensor::I64(S({2, 1}), {0, 1});
  const HostTensor upd = HostTensor::F32(S({2, 2}), {1, 2, 3, 4});
  auto refused = [&](const Attrs& a, const std::vector<HostTensor>& in,
                     const std::string& why) {
    const RunResult r = InferKernel("ScatterND", a, in);
    EXPECT_NE(r.error.find(why), std::string::npos)
        << "got '" << r.error << "', want '" << why << "'";
  };
  refused(Reduction("mul"), {data, ind, upd},
          "reduction=\"mul\" is not supported");
  refused(Reduction("max"), {data, ind, upd}, "reduction \"max\"");
  Attrs bad;
  bad.Int("reduction", 1);
  refused(bad, {data, ind, upd}, "ScatterND");
  refused(Attrs(), {data, ind}, "ScatterND");
  refused(Attrs(),
          {data, ind, HostTensor::F32(S({2, 3}), std::vector<float>(6))},
          "updates [2, 3] must be [2, 2]");
  refused(Attrs(),
          {data, HostTensor::I64(S({1, 3}), {0, 0, 0}),
           HostTensor::F32(S({1}), {1})},
          "last dim must be in [1, 2]");
  refused(Attrs(),
          {data, HostTensor::I64(S({2, 0}), {}),
           HostTensor::F32(S({2, 3, 2}), std::vector<float>(12))},
          "last dim must be in [1, 2]");
  refused(Attrs(), {data, HostTensor::I64(S({}), {0}), upd},
          "indices must have rank >= 1");
  refused(
      Attrs(),
      {data, HostTensor::Of<int32_t>(DType::kInt32, S({2, 1}), {0, 1}), upd},
      "indices must be int64");
  refused(Attrs(),
          {data, ind,
           HostTensor::Of<int64_t>(DType::kInt64, S({2, 2}), {1, 2, 3, 4})},
          "updates dtype int64 differs from data dtype float32");
  refused(Attrs(),
          {HostTensor::Of<uint8_t>(DType::kBool, S({2}), {0, 1}),
           HostTensor::I64(S({1, 1}), {0}),
           HostTensor::Of<uint8_t>(DType::kBool, S({1}), {1})},
          "unsupported dtype");
  EXPECT_EQ(InferKernel("ScatterND", Attrs(), {data, ind, upd}).error, "");
}

// ScatterElements in plain loops: out = data, then each update applied at its
// own coordinates with the axis one from indices (negatives wrapped, out of
// range skipped), in order.
std::vector<double> NaiveScatterElements(const std::vector<double>& data,
                                         const Shape& ds,
                                         const std::vector<int64_t>& idx,
                                         const std::vector<double>& upd,
                                         const Shape& is, int32_t axis,
                                         const std::string& reduction) {
  std::vector<double> out = data;
  const std::vector<int64_t> st = Strides(ds);
  for (int64_t e = 0; e < is.numel(); ++e) {
    std::vector<int64_t> c = Unravel(e, is);
    int64_t i = idx[e];
    if (i < 0) i += ds.dims[axis];
    if (i < 0 || i >= ds.dims[axis]) continue;
    c[axis] = i;
    int64_t at = 0;
    for (int32_t d = 0; d < ds.rank; ++d) at += c[d] * st[d];
    if (reduction == "add") {
      out[at] += upd[e];
    } else if (reduction == "mul") {
      out[at] *= upd[e];
    } else {
      out[at] = upd[e];
    }
  }
  return out;
}

// Every axis of a 3-D data, indices smaller than data off the axis, with
// duplicates, negatives and out-of-range entries; none, add, mul; int64 and
// int32 indices.
TEST(KernelsScatter, ScatterElementsEveryAxisAndReduction) {
  const Shape ds = S({3, 4, 5});
  const Shape is = S({2, 3, 4});
  std::mt19937 gen(17);
  for (int32_t axis = 0; axis < 3; ++axis) {
    for (const std::string reduction : {"none", "add", "mul"}) {
      for (bool i32 : {false, true}) {
        std::vector<double> data(ds.numel()), upd(is.numel());
        std::vector<float> dataf(data.size()), updf(upd.size());
        std::uniform_int_distribution<int> small(-4, 4);
        for (size_t i = 0; i < data.size(); ++i)
          data[i] = dataf[i] = small(gen);
        for (size_t i = 0; i < upd.size(); ++i) upd[i] = updf[i] = small(gen);
        // Mostly in range (with negatives), some just outside either end.
        const int64_t dim = ds.dims[axis];
        std::uniform_int_distribution<int64_t> pick(-dim - 1, dim);
        std::vector<int64_t> idx(is.numel());
        std::vector<int32_t> idx32(idx.size());
        for (size_t i = 0; i < idx.size(); ++i) idx32[i] = idx[i] = pick(gen);
        Attrs a;
        a.Int("axis", axis - 3 * (axis == 2)).Str("reduction", reduction);
        const HostTensor ind =
            i32 ? HostTensor::Of<int32_t>(DType::kInt32, is, idx32)
                : HostTensor::I64(is, idx);
        RunResult r = RunKernel(
            "ScatterElements", a,
            {HostTensor::F32(ds, dataf), ind, HostTensor::F32(is, updf)});
        ASSERT_EQ(r.error, "");
        ASSERT_EQ(r.outputs[0].shape, ds);
        const std::vector<double> want =
            NaiveScatterElements(data, ds, idx, upd, is, axis, reduction);
        const std::vector<float> got = r.outputs[0].f32();
        for (size_t i = 0; i < got.size(); ++i) {
          ASSERT_EQ(got[i], static_cast<float>(want[i]))
              << "axis " << axis << " " << reduction << " i32 " << i32 << " at "
              << i;
        }
      }
    }
  }
}

// index_put(accumulate=True) as the lowering emits it: every duplicate adds;
// float16 rounds once per add as CANN's fp16 kernel would; int64 data.
TEST(KernelsScatter, ScatterElementsAddsDuplicatesInEveryDtype) {
  Attrs add;
  add.Str("reduction", "add");
  const HostTensor ind = HostTensor::I64(S({4, 2}), {1, 0, 1, 2, 1, 0, 0, 2});
  RunResult r =
      RunKernel("ScatterElements", add,
                {HostTensor::F32(S({3, 2}), {0, 0, 0, 0, 0, 0}), ind,
                 HostTensor::F32(S({4, 2}), {1, 2, 3, 4, 5, 6, 7, 8})});
  ASSERT_EQ(r.error, "");
  // Rows 1, 0, 2 of data: column 0 gets 1 + 3 + 5 at row 1 and 7 at row 0,
  // column 1 gets 2 + 6 at row 0 and 4 + 8 at row 2.
  EXPECT_EQ(r.outputs[0].f32(), (std::vector<float>{7, 8, 9, 0, 0, 12}));
  r = RunKernel("ScatterElements", add,
                {F16(S({3, 2}), {0.5f, 0, 0, 0, 0, 0}), ind,
                 F16(S({4, 2}), {1, 2, 3, 4, 5, 6, 7, 8})});
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.outputs[0].dtype, DType::kFloat16);
  EXPECT_EQ(HalfValues(r.outputs[0]),
            (std::vector<float>{7.5f, 8, 9, 0, 0, 12}));
  r = RunKernel(
      "ScatterElements", add,
      {HostTensor::Of<int64_t>(DType::kInt64, S({3, 2}), {0, 0, 0, 0, 0, 0}),
       ind,
       HostTensor::Of<int64_t>(DType::kInt64, S({4, 2}),
                               {1, 2, 3, 4, 5, 6, 7, 8})});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.outputs[0].values<int64_t>(),
            (std::vector<int64_t>{7, 8, 9, 0, 0, 12}));
}

TEST(KernelsScatter, ScatterElementsRefusals) {
  const HostTensor data = HostTensor::F32(S({3, 2}), {0, 0, 0, 0, 0, 0});
  const HostTensor ind = HostTensor::I64(S({2, 2}), {0, 1, 1, 0});
  const HostTensor upd = HostTensor::F32(S({2, 2}), {1, 2, 3, 4});
  auto refused = [&](const Attrs& a, const std::vector<HostTensor>& in,
                     const std::string& why) {
    const RunResult r = InferKernel("ScatterElements", a, in);
    EXPECT_NE(r.error.find(why), std::string::npos)
        << "got '" << r.error << "', want '" << why << "'";
  };
  Attrs max;
  max.Str("reduction", "max");
  refused(max, {data, ind, upd}, "reduction \"max\" is not supported");
  Attrs axis;
  axis.Int("axis", 2);
  refused(axis, {data, ind, upd}, "axis 2 is out of range for [3, 2]");
  refused(Attrs(),
          {data, ind, HostTensor::F32(S({2, 1}), std::vector<float>(2))},
          "must have the shape of indices");
  refused(Attrs(),
          {data, HostTensor::I64(S({2, 3}), {0, 0, 0, 0, 0, 0}),
           HostTensor::F32(S({2, 3}), std::vector<float>(6))},
          "no dim larger than data");
  refused(Attrs(), {data, HostTensor::F32(S({2, 2}), {0, 0, 0, 0}), upd},
          "indices must be int32 or int64");
  EXPECT_EQ(InferKernel("ScatterElements", Attrs(), {data, ind, upd}).error,
            "");
  // Taller than data along the axis is allowed (ONNX bounds only the others).
  EXPECT_EQ(
      InferKernel("ScatterElements", Attrs(),
                  {data, HostTensor::I64(S({4, 2}), std::vector<int64_t>(8)),
                   HostTensor::F32(S({4, 2}), std::vector<float>(8))})
          .error,
      "");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
