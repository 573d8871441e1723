// The static op table: the emulator runs exactly the ops listed here, and atc
// refuses every other op type.
#include <cstring>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ops.h"

namespace ascend_emu {
namespace {

using namespace kernels;  // NOLINT(build/namespaces): the table names them all

#define ASCEND_EMU_KERNEL(Name) \
  { #Name, &Infer##Name, &Run##Name }

// Kept sorted by op type.
constexpr KernelDef kKernels[] = {
    ASCEND_EMU_KERNEL(Add),        ASCEND_EMU_KERNEL(AveragePool),
    ASCEND_EMU_KERNEL(Concat),     ASCEND_EMU_KERNEL(Conv),
    ASCEND_EMU_KERNEL(Div),        ASCEND_EMU_KERNEL(Flatten),
    ASCEND_EMU_KERNEL(Gemm),       ASCEND_EMU_KERNEL(GlobalAveragePool),
    ASCEND_EMU_KERNEL(Identity),   ASCEND_EMU_KERNEL(MatMul),
    ASCEND_EMU_KERNEL(MaxPool),    ASCEND_EMU_KERNEL(Mul),
    ASCEND_EMU_KERNEL(ReduceMean), ASCEND_EMU_KERNEL(Relu),
    ASCEND_EMU_KERNEL(Reshape),    ASCEND_EMU_KERNEL(Softmax),
    ASCEND_EMU_KERNEL(Sub),        ASCEND_EMU_KERNEL(Transpose),
};

#undef ASCEND_EMU_KERNEL

}  // namespace

const KernelDef* FindKernel(const std::string& op_type) {
  for (const KernelDef& k : kKernels) {
    if (op_type == k.op_type) return &k;
  }
  return nullptr;
}

std::vector<std::string> KernelOpTypes() {
  std::vector<std::string> names;
  for (const KernelDef& k : kKernels) names.emplace_back(k.op_type);
  return names;
}

}  // namespace ascend_emu
