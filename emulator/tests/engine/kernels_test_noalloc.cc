// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Run is the interpreter's hot path: it must not allocate. This binary
// replaces the global operator new to count calls, and runs every kernel on
// small inputs with the attributes that exercise its attribute reads.
// (Eigen's and oneDNN's GEMMs may still take a malloc'd workspace for their
// products; that is outside operator new and documented. oneDNN JIT-compiles
// its kernels at a process's first GEMM: MatMul, Gemm and QuantBatchMatMul are
// warmed up.)
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "kernels_noalloc_movement.h"
#include "kernels_test_util.h"

// GCC cannot see that these replacements pair malloc with free.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
  ascend_emu::testing::g_operator_new_calls.fetch_add(1);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// The nothrow form too (std::stable_sort's temporary buffer takes it): left
// to the runtime, its memory would come back through the replaced delete
// below, a new/free mismatch under ASan.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ascend_emu::testing::g_operator_new_calls.fetch_add(1);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace ascend_emu {
namespace testing {
namespace {

struct Case {
  const char* op;
  Attrs attrs;
  std::vector<HostTensor> inputs;
  size_t outputs = 1;
};

std::vector<Case> Cases() {
  HostTensor x4 = RandF32(S({1, 2, 5, 5}), 1);
  std::vector<Case> c;
  c.push_back({"Add", Attrs(), {RandF32(S({2, 3}), 1), RandF32(S({3}), 2)}});
  c.push_back(
      {"Div",
       Attrs(),
       {HostTensor::I64(S({2}), {4, 6}), HostTensor::I64(S({1}), {2})}});
  c.push_back({"Relu", Attrs(), {x4}});
  c.push_back({"MatMul",
               Attrs(),
               {RandF32(S({2, 3, 4}), 1), RandF32(S({2, 4, 2}), 2)}});
  Attrs qbmm;
  qbmm.Int("dtype", 27).Int("transpose_x1", 1).Int("transpose_x2", 1);
  c.push_back(
      {"QuantBatchMatMul",
       qbmm,
       {HostTensor::Of(DType::kInt8, S({2, 8, 3}), std::vector<int8_t>(48, 3)),
        HostTensor::Of(DType::kInt8, S({4, 8}), std::vector<int8_t>(32, -2)),
        RandF32(S({4}), 1), HostTensor::Absent(), RandF32(S({4}), 2)}});
  Attrs gemm;
  gemm.Int("transA", 1)
      .Int("transB", 1)
      .Float("alpha", 2.0f)
      .Float("beta", 0.5f);
  c.push_back(
      {"Gemm",
       gemm,
       {RandF32(S({4, 3}), 1), RandF32(S({2, 4}), 2), RandF32(S({2}), 3)}});
  Attrs conv;
  conv.Ints("kernel_shape", {3, 3})
      .Ints("pads", {1, 1, 1, 1})
      .Ints("strides", {2, 2})
      .Ints("dilations", {1, 1})
      .Int("group", 2);
  c.push_back(
      {"Conv", conv, {x4, RandF32(S({4, 1, 3, 3}), 2), RandF32(S({4}), 3)}});
  Attrs same;
  same.Str("auto_pad", "SAME_LOWER").Ints("kernel_shape", {3, 3});
  c.push_back({"Conv", same, {x4, RandF32(S({2, 2, 3, 3}), 2)}});
  Attrs pool;
  pool.Ints("kernel_shape", {3, 3})
      .Ints("strides", {2, 2})
      .Ints("pads", {1, 1, 1, 1})
      .Int("ceil_mode", 1);
  c.push_back({"MaxPool", pool, {x4}});
  Attrs avg = pool;
  avg.Int("count_include_pad", 1);
  c.push_back({"AveragePool", avg, {x4}});
  c.push_back({"GlobalAveragePool", Attrs(), {x4}});
  c.push_back(
      {"Reshape", Attrs(), {x4, HostTensor::I64(S({2}), {2, -1}).Const()}});
  Attrs perm;
  perm.Ints("perm", {0, 2, 3, 1});
  c.push_back({"Transpose", perm, {x4}});
  Attrs axis;
  axis.Int("axis", -1);
  c.push_back({"Flatten", axis, {x4}});
  c.push_back({"Concat", axis, {x4, x4}});
  c.push_back({"Softmax", axis, {x4}});
  c.push_back({"LogSoftmax", axis, {x4}});
  c.push_back({"Identity", Attrs(), {x4}});
  Attrs reduce;
  reduce.Ints("axes", {2, 3}).Int("keepdims", 0).Int("noop_with_empty_axes", 0);
  c.push_back({"ReduceMean", reduce, {x4}});
  // float16 through float scratch, and the natively typed math kernels.
  HostTensor h4 = HostTensor::Of<uint16_t>(DType::kFloat16, S({1, 2, 5, 5}),
                                           std::vector<uint16_t>(50, 0x3c00));
  c.push_back(
      {"Conv",
       conv,
       {h4, HostTensor::Of<uint16_t>(DType::kFloat16, S({4, 1, 3, 3}),
                                     std::vector<uint16_t>(36, 0x3c00))}});
  c.push_back({"Softmax", axis, {h4}});
  c.push_back({"NPUDynamicQuant", Attrs(), {h4}, 2});
  c.push_back({"Add", Attrs(), {h4, h4}});
  c.push_back({"Sigmoid", Attrs(), {h4}});
  c.push_back(
      {"ReduceSum", Attrs(), {x4, HostTensor::I64(S({1}), {1}).Const()}});
  Attrs argmax;
  argmax.Int("axis", 1);
  c.push_back({"ArgMax", argmax, {x4}});
  // TopK sorts an index array in its scratch (no std::stable_sort buffer).
  c.push_back({"TopK", argmax, {x4, HostTensor::I64(S({1}), {2}).Const()}});
  c.push_back({"TopK", Attrs(), {h4, HostTensor::I64(S({1}), {5}).Const()}});
  c.push_back({"Where",
               Attrs(),
               {HostTensor::Of<uint8_t>(DType::kBool, S({5}), {1, 0, 1, 0, 1}),
                x4, RandF32(S({}), 3)}});
  Attrs detect;
  detect.Int("detect_positive", 0).Int("detect_negative", 1);
  c.push_back({"IsInf", detect, {x4}});
  c.push_back({"IsNaN", Attrs(), {h4}});
  c.push_back({"Xor",
               Attrs(),
               {HostTensor::Of<uint8_t>(DType::kBool, S({2, 1}), {1, 0}),
                HostTensor::Of<uint8_t>(DType::kBool, S({3}), {0, 1, 1})}});
  Attrs to_half;
  to_half.Int("to", 10);
  c.push_back({"Cast", to_half, {x4}});
  AppendMovementNoAllocCases(&c);
  return c;
}

TEST(KernelsNoAlloc, RunDoesNotCallOperatorNew) {
  // The counter works: a vector allocation is seen.
  const long before = g_operator_new_calls.load();
  std::vector<int>* v = new std::vector<int>(10);
  delete v;
  // (At least one: the compiler may merge the two allocations of a
  // new-expression it sees through, as GCC does with -march=native.)
  ASSERT_GE(g_operator_new_calls.load() - before, 1);

  for (const Case& c : Cases()) {
    // oneDNN JIT-compiles its GEMM kernels at the first GEMM of a process
    // (a model's first run): MatMul, Gemm and QuantBatchMatMul (the int8
    // MatMul's product) are counted from their second run on.
    const std::string op = c.op;
    if (op == "MatMul" || op == "Gemm" || op == "QuantBatchMatMul") {
      ASSERT_EQ(RunKernel(c.op, c.attrs, c.inputs, c.outputs).error, "")
          << c.op;
    }
    RunResult r = RunKernel(c.op, c.attrs, c.inputs, c.outputs);
    ASSERT_EQ(r.error, "") << c.op;
    EXPECT_EQ(r.run_new_calls, 0) << c.op << " allocated in Run";
  }
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
