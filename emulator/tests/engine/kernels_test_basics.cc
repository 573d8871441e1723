// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// DType/Shape helpers, attribute getters and the registry.
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

TEST(KernelsBasics, DTypeSizesAndNames) {
  EXPECT_EQ(DTypeSize(DType::kFloat32), 4u);
  EXPECT_EQ(DTypeSize(DType::kFloat16), 2u);
  EXPECT_EQ(DTypeSize(DType::kInt64), 8u);
  EXPECT_EQ(DTypeSize(DType::kInt32), 4u);
  EXPECT_EQ(DTypeSize(DType::kBool), 1u);
  EXPECT_EQ(DTypeSize(DType::kInt8), 1u);
  EXPECT_EQ(DTypeSize(DType::kUInt8), 1u);
  EXPECT_EQ(DTypeSize(DType::kUInt64), 8u);
  EXPECT_STREQ(DTypeName(DType::kUInt64), "uint64");
  EXPECT_TRUE(IsValidDType(ACL_UINT64));
  EXPECT_EQ(DTypeSize(static_cast<DType>(77)), 0u);
  EXPECT_STREQ(DTypeName(DType::kFloat32), "float32");
  EXPECT_STREQ(DTypeName(DType::kInt64), "int64");
  EXPECT_STREQ(DTypeName(static_cast<DType>(-5)), "invalid");
  EXPECT_TRUE(IsValidDType(ACL_FLOAT));
  EXPECT_TRUE(IsValidDType(ACL_INT64));
  EXPECT_FALSE(IsValidDType(ACL_DOUBLE));
  EXPECT_FALSE(IsValidDType(-1));
}

TEST(KernelsBasics, ShapeHelpers) {
  EXPECT_EQ(S({}).numel(), 1);
  EXPECT_EQ(S({2, 3, 4}).numel(), 24);
  EXPECT_EQ(S({2, 0, 4}).numel(), 0);
  EXPECT_EQ(S({2, 3, 4}).ToString(), "[2, 3, 4]");
  EXPECT_EQ(S({}).ToString(), "[]");
  EXPECT_EQ(S({2, 3}), S({2, 3}));
  EXPECT_NE(S({2, 3}), S({3, 2}));
  EXPECT_NE(S({2, 3}), S({2, 3, 1}));
  Shape a = S({2, 3});
  Shape b = S({2, 3});
  b.dims[5] = 9;  // beyond rank: ignored
  EXPECT_EQ(a, b);
}

TEST(KernelsBasics, AttributeGettersFallBackOnAbsentOrWrongKind) {
  Attrs a;
  a.Int("i", 7).Float("f", 2.5f).Str("s", "SAME_UPPER").Ints("v", {1, 2});
  const Attributes& at = a.get();
  EXPECT_EQ(at.GetInt("i", 0), 7);
  EXPECT_EQ(at.GetInt("missing", 3), 3);
  EXPECT_EQ(at.GetInt("f", 4), 4);  // wrong kind
  EXPECT_FLOAT_EQ(at.GetFloat("f", 0.0f), 2.5f);
  EXPECT_FLOAT_EQ(at.GetFloat("i", 1.5f), 1.5f);
  EXPECT_EQ(at.GetString("s", ""), "SAME_UPPER");
  EXPECT_EQ(at.GetString("i", "x"), "x");
  EXPECT_EQ(at.GetInts("v"), (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(at.GetInts("i").empty());
  EXPECT_TRUE(at.GetFloats("v").empty());
  EXPECT_TRUE(at.Has("v"));
  EXPECT_FALSE(at.Has("w"));
}

TEST(KernelsBasics, RegistryListsSortedOpsAndFindsThem) {
  std::vector<std::string> ops = KernelOpTypes();
  ASSERT_FALSE(ops.empty());
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
  EXPECT_EQ(std::adjacent_find(ops.begin(), ops.end()), ops.end());
  for (const std::string& op : ops) {
    const KernelDef* k = FindKernel(op);
    ASSERT_NE(k, nullptr) << op;
    EXPECT_EQ(op, k->op_type);
    EXPECT_NE(k->infer, nullptr);
    EXPECT_NE(k->run, nullptr);
  }
  EXPECT_EQ(FindKernel("NoSuchOp"), nullptr);
  EXPECT_EQ(FindKernel("add"), nullptr);  // op types are case-sensitive
}

TEST(KernelsBasics, InferRejectsInvalidInputShapesForEveryOp) {
  for (const std::string& op : KernelOpTypes()) {
    HostTensor bad;
    bad.shape = S({2, -3});
    RunResult r = InferKernel(op, Attrs(), {bad, bad});
    EXPECT_FALSE(r.error.empty()) << op;
    EXPECT_EQ(r.error.rfind(op + ":", 0), 0u)
        << "message must name the op: " << r.error;
    HostTensor huge;
    huge.shape = S({int64_t{1} << 40, int64_t{1} << 40});
    r = InferKernel(op, Attrs(), {huge, huge});
    EXPECT_FALSE(r.error.empty()) << op;
    HostTensor rank9;
    rank9.shape.rank = 9;
    r = InferKernel(op, Attrs(), {rank9, rank9});
    EXPECT_FALSE(r.error.empty()) << op;
    HostTensor bad_dtype = RandF32(S({2}), 1);
    bad_dtype.dtype = static_cast<DType>(99);
    r = InferKernel(op, Attrs(), {bad_dtype, bad_dtype});
    EXPECT_FALSE(r.error.empty()) << op;
    r = InferKernel(op, Attrs(), {});
    EXPECT_FALSE(r.error.empty()) << op;
  }
}

// The arity table (kernels.def) and each kernel's own count check must
// agree: a row wider than its Infer would let the loader pass a node the
// kernel was never written for, a narrower one refuses valid nodes.
TEST(KernelsBasics, InferAcceptsTheInputCountsOfItsArityRow) {
  for (const std::string& op : KernelOpTypes()) {
    const InputArity a = FindKernel(op)->arity;
    SCOPED_TRACE(op);
    const HostTensor x = RandF32(S({1, 2, 3, 3}), 1);
    for (size_t n : {size_t{a.required}, size_t{a.max}}) {
      const RunResult r =
          InferKernel(op, Attrs(), std::vector<HostTensor>(n, x));
      EXPECT_EQ(r.error.find("inputs, got"), std::string::npos) << r.error;
    }
    const RunResult over =
        InferKernel(op, Attrs(), std::vector<HostTensor>(a.max + 1u, x));
    EXPECT_NE(over.error.find("inputs, got"), std::string::npos) << over.error;
  }
}

TEST(KernelsBasics, InferRejectsUnknownAttributesForEveryOp) {
  for (const std::string& op : KernelOpTypes()) {
    Attrs a;
    a.Int("no_such_attribute", 1);
    RunResult r = InferKernel(op, a, {RandF32(S({1, 2, 3, 3}), 1)});
    EXPECT_FALSE(r.error.empty()) << op;
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
