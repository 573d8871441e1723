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
    ASCEND_EMU_KERNEL(Abs),
    ASCEND_EMU_KERNEL(Add),
    ASCEND_EMU_KERNEL(And),
    ASCEND_EMU_KERNEL(ArgMax),
    ASCEND_EMU_KERNEL(ArgMin),
    ASCEND_EMU_KERNEL(AveragePool),
    ASCEND_EMU_KERNEL(BatchNormalization),
    ASCEND_EMU_KERNEL(Cast),
    ASCEND_EMU_KERNEL(Ceil),
    ASCEND_EMU_KERNEL(Clip),
    ASCEND_EMU_KERNEL(Concat),
    ASCEND_EMU_KERNEL(Conv),
    ASCEND_EMU_KERNEL(ConvTranspose),
    ASCEND_EMU_KERNEL(Cos),
    ASCEND_EMU_KERNEL(CumSum),
    ASCEND_EMU_KERNEL(Div),
    ASCEND_EMU_KERNEL(Elu),
    ASCEND_EMU_KERNEL(Equal),
    ASCEND_EMU_KERNEL(Erf),
    ASCEND_EMU_KERNEL(Exp),
    ASCEND_EMU_KERNEL(Expand),
    ASCEND_EMU_KERNEL(Flatten),
    ASCEND_EMU_KERNEL(Floor),
    ASCEND_EMU_KERNEL(Gather),
    ASCEND_EMU_KERNEL(GatherElements),
    ASCEND_EMU_KERNEL(Gemm),
    ASCEND_EMU_KERNEL(GlobalAveragePool),
    ASCEND_EMU_KERNEL(Greater),
    ASCEND_EMU_KERNEL(GreaterOrEqual),
    ASCEND_EMU_KERNEL(HardSigmoid),
    ASCEND_EMU_KERNEL(HardSwish),
    ASCEND_EMU_KERNEL(Identity),
    ASCEND_EMU_KERNEL(IsInf),
    ASCEND_EMU_KERNEL(IsNaN),
    ASCEND_EMU_KERNEL(LayerNormalization),
    ASCEND_EMU_KERNEL(LeakyRelu),
    ASCEND_EMU_KERNEL(Less),
    ASCEND_EMU_KERNEL(LessOrEqual),
    ASCEND_EMU_KERNEL(Log),
    ASCEND_EMU_KERNEL(MatMul),
    ASCEND_EMU_KERNEL(Max),
    ASCEND_EMU_KERNEL(MaxPool),
    ASCEND_EMU_KERNEL(Min),
    ASCEND_EMU_KERNEL(Mod),
    ASCEND_EMU_KERNEL(Mul),
    ASCEND_EMU_KERNEL(Neg),
    ASCEND_EMU_KERNEL(Not),
    ASCEND_EMU_KERNEL(Or),
    ASCEND_EMU_KERNEL(Pad),
    ASCEND_EMU_KERNEL(Pow),
    ASCEND_EMU_KERNEL(Reciprocal),
    ASCEND_EMU_KERNEL(ReduceMax),
    ASCEND_EMU_KERNEL(ReduceMean),
    ASCEND_EMU_KERNEL(ReduceMin),
    ASCEND_EMU_KERNEL(ReduceSum),
    ASCEND_EMU_KERNEL(Relu),
    ASCEND_EMU_KERNEL(Reshape),
    ASCEND_EMU_KERNEL(Resize),
    ASCEND_EMU_KERNEL(Round),
    ASCEND_EMU_KERNEL(ScatterND),
    ASCEND_EMU_KERNEL(Sigmoid),
    ASCEND_EMU_KERNEL(Sign),
    ASCEND_EMU_KERNEL(Sin),
    ASCEND_EMU_KERNEL(Slice),
    ASCEND_EMU_KERNEL(Softmax),
    ASCEND_EMU_KERNEL(Split),
    ASCEND_EMU_KERNEL(Sqrt),
    ASCEND_EMU_KERNEL(Squeeze),
    ASCEND_EMU_KERNEL(Sub),
    ASCEND_EMU_KERNEL(Tanh),
    ASCEND_EMU_KERNEL(Tile),
    ASCEND_EMU_KERNEL(Transpose),
    ASCEND_EMU_KERNEL(Unsqueeze),
    ASCEND_EMU_KERNEL(Where),
    ASCEND_EMU_KERNEL(Xor),
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
