// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// MatMul (1-D promotion, batch broadcasting) and Gemm (transposes, alpha,
// beta, C broadcasting) against naive triple loops.
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

// Naive numpy.matmul.
std::vector<float> NaiveMatMul(const HostTensor& a, const HostTensor& b,
                               const Shape& out) {
  Shape sa = a.shape;
  Shape sb = b.shape;
  // 1-D promotion.
  if (sa.rank == 1) sa = S({1, sa.dims[0]});
  if (sb.rank == 1) sb = S({sb.dims[0], 1});
  const int64_t m = sa.dims[sa.rank - 2];
  const int64_t k = sa.dims[sa.rank - 1];
  const int64_t n = sb.dims[sb.rank - 1];
  // Batch shape of the result, recomputed by the oracle itself.
  const int32_t br = std::max(sa.rank, sb.rank) - 2;
  Shape batch;
  batch.rank = br;
  for (int32_t i = 0; i < br; ++i) {
    const int32_t ia = i - (br - (sa.rank - 2));
    const int32_t ib = i - (br - (sb.rank - 2));
    const int64_t da = ia >= 0 ? sa.dims[ia] : 1;
    const int64_t db = ib >= 0 ? sb.dims[ib] : 1;
    batch.dims[i] = da == 1 ? db : da;
  }
  std::vector<float> fa = a.f32(), fb = b.f32();
  std::vector<float> y(static_cast<size_t>(batch.numel() * m * n));
  EXPECT_EQ(static_cast<int64_t>(y.size()), out.numel());
  for (int64_t bi = 0; bi < batch.numel(); ++bi) {
    std::vector<int64_t> idx = Unravel(bi, batch);
    int64_t oa = 0, ob = 0;
    for (int32_t i = 0; i < sa.rank - 2; ++i) {
      const int64_t d = sa.dims[i];
      oa = oa * d + (d == 1 ? 0 : idx[i + br - (sa.rank - 2)]);
    }
    for (int32_t i = 0; i < sb.rank - 2; ++i) {
      const int64_t d = sb.dims[i];
      ob = ob * d + (d == 1 ? 0 : idx[i + br - (sb.rank - 2)]);
    }
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < n; ++c) {
        double s = 0;
        for (int64_t t = 0; t < k; ++t) {
          s += static_cast<double>(fa[oa * m * k + r * k + t]) *
               fb[ob * k * n + t * n + c];
        }
        y[bi * m * n + r * n + c] = static_cast<float>(s);
      }
    }
  }
  return y;
}

struct MatMulCase {
  std::vector<int64_t> a, b, out;
};

TEST(KernelsMatMul, MatchesNumpySemantics) {
  const MatMulCase cases[] = {
      {{3, 4}, {4, 5}, {3, 5}},
      {{1, 1}, {1, 1}, {1, 1}},
      {{4}, {4, 5}, {5}},
      {{3, 4}, {4}, {3}},
      {{4}, {4}, {}},
      {{2, 3, 4}, {4, 5}, {2, 3, 5}},
      {{2, 7, 3, 4}, {4, 6}, {2, 7, 3, 6}},
      {{4}, {2, 4, 5}, {2, 5}},
      {{2, 3, 4}, {4}, {2, 3}},
      {{2, 3, 4}, {2, 4, 5}, {2, 3, 5}},
      {{3, 4}, {2, 4, 5}, {2, 3, 5}},
      {{2, 1, 3, 4}, {1, 5, 4, 2}, {2, 5, 3, 2}},
      {{1, 3, 4}, {6, 4, 2}, {6, 3, 2}},
      {{2, 3, 0}, {0, 4}, {2, 3, 4}},
      {{0, 3, 4}, {4, 2}, {0, 3, 2}},
      {{17, 33}, {33, 65}, {17, 65}},
      {{5, 64, 128}, {5, 128, 48}, {5, 64, 48}},
      // Attention's shapes on oneDNN: per-head scores and context, odd
      // sizes (no multiple of a SIMD width), broadcast heads.
      {{1, 4, 64, 32}, {1, 4, 32, 64}, {1, 4, 64, 64}},
      {{2, 3, 17, 9}, {3, 9, 5}, {2, 3, 17, 5}},
      {{1, 129, 67}, {67, 131}, {1, 129, 131}},
      {{3, 1, 1, 40}, {1, 2, 40, 33}, {3, 2, 1, 33}},
  };
  uint32_t seed = 100;
  for (const MatMulCase& c : cases) {
    HostTensor a = RandF32(S(c.a), seed++);
    HostTensor b = RandF32(S(c.b), seed++);
    RunResult r = RunKernel("MatMul", Attrs(), {a, b});
    ASSERT_EQ(r.error, "") << S(c.a).ToString() << " x " << S(c.b).ToString();
    ASSERT_EQ(r.outputs[0].shape, S(c.out)) << S(c.a).ToString();
    ExpectNear(r.outputs[0].f32(), NaiveMatMul(a, b, S(c.out)), 1e-4f);
  }
}

TEST(KernelsMatMul, InferRejections) {
  HostTensor a = RandF32(S({2, 3}), 1);
  EXPECT_INFER_FAILS(InferKernel("MatMul", Attrs(), {a, RandF32(S({4, 2}), 2)}),
                     "MatMul: shapes [2, 3] and [4, 2] are not compatible");
  EXPECT_INFER_FAILS(
      InferKernel("MatMul", Attrs(),
                  {RandF32(S({2, 2, 3}), 1), RandF32(S({3, 3, 4}), 2)}),
      "not compatible");
  EXPECT_INFER_FAILS(InferKernel("MatMul", Attrs(), {RandF32(S({}), 1), a}),
                     "rank >= 1");
  EXPECT_INFER_FAILS(
      InferKernel("MatMul", Attrs(), {a, HostTensor::I64(S({3}), {1, 2, 3})}),
      "float32 only");
  EXPECT_INFER_FAILS(InferKernel("MatMul", Attrs(), {a}), "expects 2 inputs");
}

std::vector<float> NaiveGemm(const HostTensor& a, const HostTensor& b,
                             const HostTensor* c, bool ta, bool tb, float alpha,
                             float beta) {
  const int64_t m = ta ? a.shape.dims[1] : a.shape.dims[0];
  const int64_t k = ta ? a.shape.dims[0] : a.shape.dims[1];
  const int64_t n = tb ? b.shape.dims[0] : b.shape.dims[1];
  std::vector<float> fa = a.f32(), fb = b.f32();
  std::vector<float> y(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t t = 0; t < k; ++t) {
        const float av = ta ? fa[t * m + i] : fa[i * k + t];
        const float bv = tb ? fb[j * k + t] : fb[t * n + j];
        s += static_cast<double>(av) * bv;
      }
      double cv = 0;
      if (c != nullptr) {
        std::vector<float> fc = c->f32();
        const Shape& cs = c->shape;
        const int64_t ci = cs.rank == 2 && cs.dims[0] != 1 ? i : 0;
        const int64_t cj = cs.rank >= 1 && cs.dims[cs.rank - 1] != 1 ? j : 0;
        const int64_t cols = cs.rank >= 1 ? cs.dims[cs.rank - 1] : 1;
        cv = fc[ci * cols + cj];
      }
      y[i * n + j] = static_cast<float>(alpha * s + beta * cv);
    }
  }
  return y;
}

TEST(KernelsGemm, TransposesAlphaBetaAndBroadcastC) {
  const int64_t m = 5, k = 7, n = 3;
  const std::vector<std::vector<int64_t>> c_shapes = {
      {}, {n}, {1}, {m, n}, {1, n}, {m, 1}, {1, 1}};
  uint32_t seed = 500;
  for (int ta = 0; ta < 2; ++ta) {
    for (int tb = 0; tb < 2; ++tb) {
      for (size_t ci = 0; ci <= c_shapes.size(); ++ci) {
        const bool has_c = ci < c_shapes.size();
        HostTensor a = RandF32(ta ? S({k, m}) : S({m, k}), seed++);
        HostTensor b = RandF32(tb ? S({n, k}) : S({k, n}), seed++);
        HostTensor c =
            has_c ? RandF32(S(c_shapes[ci]), seed++) : HostTensor::Absent();
        Attrs at;
        at.Int("transA", ta).Int("transB", tb);
        const float alpha = 1.0f + 0.5f * ta, beta = 1.0f - 0.25f * tb;
        if (alpha != 1.0f) at.Float("alpha", alpha);
        if (beta != 1.0f) at.Float("beta", beta);
        std::vector<HostTensor> in = {a, b};
        if (has_c || ta == 1) in.push_back(c);  // absent C or no 3rd input
        RunResult r = RunKernel("Gemm", at, in);
        ASSERT_EQ(r.error, "");
        ASSERT_EQ(r.outputs[0].shape, S({m, n}));
        ExpectNear(r.outputs[0].f32(),
                   NaiveGemm(a, b, has_c ? &c : nullptr, ta, tb, alpha, beta),
                   1e-5f);
      }
    }
  }
}

TEST(KernelsGemm, BetaZeroIgnoresC) {
  HostTensor a = RandF32(S({2, 3}), 1);
  HostTensor b = RandF32(S({3, 2}), 2);
  HostTensor c = HostTensor::F32(S({2}), {std::nanf(""), 100.0f});
  Attrs at;
  at.Float("beta", 0.0f);
  RunResult r = RunKernel("Gemm", at, {a, b, c});
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), NaiveGemm(a, b, nullptr, false, false, 1, 0));
}

TEST(KernelsGemm, LargeOddTransposedAndEmptyK) {
  uint32_t seed = 900;
  for (int ta = 0; ta < 2; ++ta) {
    for (int tb = 0; tb < 2; ++tb) {
      const int64_t m = 33, k = 129, n = 65;
      HostTensor a = RandF32(ta ? S({k, m}) : S({m, k}), seed++);
      HostTensor b = RandF32(tb ? S({n, k}) : S({k, n}), seed++);
      HostTensor c = RandF32(S({n}), seed++);
      Attrs at;
      at.Int("transA", ta).Int("transB", tb).Float("alpha", 0.5f);
      RunResult r = RunKernel("Gemm", at, {a, b, c});
      ASSERT_EQ(r.error, "");
      ExpectNear(r.outputs[0].f32(), NaiveGemm(a, b, &c, ta, tb, 0.5f, 1.0f),
                 1e-4f);
    }
  }
  // K == 0: the product is empty, so Y = beta * C (and 0 without C).
  HostTensor a = RandF32(S({3, 0}), 1);
  HostTensor b = RandF32(S({0, 2}), 2);
  HostTensor c = HostTensor::F32(S({3, 2}), {1, 2, 3, 4, 5, 6});
  Attrs at;
  at.Float("beta", 0.5f);
  RunResult r = RunKernel("Gemm", at, {a, b, c});
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), {0.5f, 1, 1.5f, 2, 2.5f, 3});
  r = RunKernel("Gemm", Attrs(), {a, b});
  ASSERT_EQ(r.error, "");
  ExpectNear(r.outputs[0].f32(), std::vector<float>(6, 0.0f));
}

TEST(KernelsGemm, InferRejections) {
  HostTensor a = RandF32(S({2, 3}), 1);
  HostTensor b = RandF32(S({3, 4}), 2);
  EXPECT_INFER_FAILS(InferKernel("Gemm", Attrs(), {a, a}),
                     "Gemm: inner dimensions differ");
  EXPECT_INFER_FAILS(InferKernel("Gemm", Attrs(), {a, b, RandF32(S({3}), 3)}),
                     "Gemm: C [3] does not broadcast to [2, 4]");
  EXPECT_INFER_FAILS(
      InferKernel("Gemm", Attrs(), {a, b, RandF32(S({2, 4, 1}), 3)}),
      "does not broadcast");
  // C broadcasts unidirectionally: [2, 1] grows to Y, [4, 1] cannot.
  EXPECT_EQ(InferKernel("Gemm", Attrs(), {a, b, RandF32(S({2, 1}), 3)}).error,
            "");
  EXPECT_INFER_FAILS(
      InferKernel("Gemm", Attrs(), {a, b, RandF32(S({4, 1}), 3)}),
      "does not broadcast");
  EXPECT_INFER_FAILS(
      InferKernel("Gemm", Attrs(), {RandF32(S({2, 3, 1}), 1), b}),
      "must be 2-D");
  Attrs bad;
  bad.Int("transA", 2);
  EXPECT_INFER_FAILS(InferKernel("Gemm", bad, {a, b}), "transA and transB");
  Attrs wrong_kind;
  wrong_kind.Int("alpha", 2);
  EXPECT_INFER_FAILS(InferKernel("Gemm", wrong_kind, {a, b}),
                     "attribute 'alpha' must be of kind float");
  EXPECT_INFER_FAILS(InferKernel("Gemm", Attrs(), {a}), "expects 2..3 inputs");
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
