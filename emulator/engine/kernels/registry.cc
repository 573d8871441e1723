// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The static op table, built from kernels.def: the emulator runs exactly the
// ops listed there, and atc refuses every other op type.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
// MaxPool's and GlobalAveragePool's layout agreement (pool.cc; float32 4-D
// only). Declared here, their only user, rather than in ops.h, which every
// kernel includes.
std::unique_ptr<PreparedOp> PrepareMaxPool(const PrepareContext& ctx);
std::unique_ptr<PreparedOp> PrepareGlobalAveragePool(const PrepareContext& ctx);
// The int8 MatMul's and Gemm's float weight (matmul.cc).
std::unique_ptr<PreparedOp> PrepareMatMul(const PrepareContext& ctx);
// The int8 Conv and its scales of FusedConvDequant (conv_int8_fused.cc).
std::unique_ptr<PreparedOp> PrepareFusedConvDequant(const PrepareContext& ctx);
// The int8 product's and the scales of FusedMatMulInt8
// (matmul_int8_fused.cc).
std::unique_ptr<PreparedOp> PrepareFusedMatMulInt8(const PrepareContext& ctx);
}  // namespace kernels

namespace {

using namespace kernels;  // NOLINT(build/namespaces): the table names them all

// The kernels with a PrepareFn (kernel.h): per-op state made once at load.
constexpr struct {
  const char* op_type;
  PrepareFn prepare;
} kPrepared[] = {
    {"Conv", &PrepareConv},
    {"FusedConv", &PrepareConv},
    {"FusedConvDequant", &PrepareFusedConvDequant},
    {"FusedMatMulInt8", &PrepareFusedMatMulInt8},
    {"MaxPool", &PrepareMaxPool},
    {"GlobalAveragePool", &PrepareGlobalAveragePool},
    {"MatMul", &PrepareMatMul},
    {"Gemm", &PrepareMatMul},
};

constexpr bool SameName(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return *a == *b;
}
constexpr PrepareFn PrepareFor(const char* op_type) {
  for (const auto& p : kPrepared) {
    if (SameName(p.op_type, op_type)) return p.prepare;
  }
  return nullptr;
}

#define ASCEND_EMU_KERNEL(Name, required, max, kind) \
  {#Name,                                            \
   &Infer##Name,                                     \
   &Run##Name,                                       \
   {required, max, InputKind::k##kind},              \
   PrepareFor(#Name)},
constexpr KernelDef kKernels[] = {
#include "kernels.def"
};
#undef ASCEND_EMU_KERNEL

// A row that contradicts its kind would make CheckInputArity let an absent
// input through (or refuse every node): refuse it at compile time.
constexpr bool ValidArity(const InputArity& a) {
  if (a.required > a.max) return false;
  if (a.kind == InputKind::kFixed) return a.required == a.max;
  return a.required < a.max;
}
constexpr bool AllArityValid() {
  for (const KernelDef& k : kKernels) {
    if (!ValidArity(k.arity)) return false;
  }
  return true;
}
static_assert(AllArityValid(), "a kernels.def row has an inconsistent arity");

std::string Range(size_t a, size_t b) {
  return a == b ? std::to_string(a)
                : std::to_string(a) + ".." + std::to_string(b);
}

}  // namespace

const KernelDef* FindKernel(const std::string& op_type) {
  for (const KernelDef& k : kKernels) {
    if (op_type == k.op_type) return &k;
  }
  return nullptr;
}

std::string CheckInputArity(const KernelDef& kernel,
                            const std::vector<TensorRef>& inputs) {
  const InputArity& a = kernel.arity;
  const std::string op = kernel.op_type;
  const size_t n = inputs.size();
  if (n < a.required || n > a.max) {
    return op + ": expects " + Range(a.required, a.max) + " inputs, got " +
           std::to_string(n);
  }
  for (size_t i = 0; i < n; ++i) {
    if (inputs[i].present()) continue;
    if (i < a.required) {
      return op + ": input " + std::to_string(i) + " is absent, but " + op +
             " requires inputs " + Range(0, a.required - 1);
    }
    if (a.kind == InputKind::kVariadic) {
      return op + ": input " + std::to_string(i) + " is absent, but every " +
             "input of " + op + " (variadic, " + Range(a.required, a.max) +
             " inputs) must be present";
    }
  }
  return "";
}

std::vector<std::string> KernelOpTypes() {
  std::vector<std::string> names;
  for (const KernelDef& k : kKernels) names.emplace_back(k.op_type);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace ascend_emu
