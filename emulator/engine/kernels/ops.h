// Infer and Run of every kernel, grouped by the file that defines them. Only
// registry.cc (the table) and the kernels' own files include this.
#pragma once

#include <string>

#include "ascend_emu/kernel.h"

namespace ascend_emu {
namespace kernels {

#define ASCEND_EMU_DECLARE_KERNEL(Name)       \
  std::string Infer##Name(InferContext& ctx); \
  void Run##Name(const RunContext& ctx)

// elementwise.cc
ASCEND_EMU_DECLARE_KERNEL(Add);
ASCEND_EMU_DECLARE_KERNEL(Sub);
ASCEND_EMU_DECLARE_KERNEL(Mul);
ASCEND_EMU_DECLARE_KERNEL(Div);
ASCEND_EMU_DECLARE_KERNEL(Relu);

// matmul.cc
ASCEND_EMU_DECLARE_KERNEL(MatMul);
ASCEND_EMU_DECLARE_KERNEL(Gemm);

// conv.cc
ASCEND_EMU_DECLARE_KERNEL(Conv);

// pool.cc
ASCEND_EMU_DECLARE_KERNEL(MaxPool);
ASCEND_EMU_DECLARE_KERNEL(AveragePool);
ASCEND_EMU_DECLARE_KERNEL(GlobalAveragePool);

// shape.cc
ASCEND_EMU_DECLARE_KERNEL(Reshape);
ASCEND_EMU_DECLARE_KERNEL(Transpose);
ASCEND_EMU_DECLARE_KERNEL(Flatten);
ASCEND_EMU_DECLARE_KERNEL(Concat);
ASCEND_EMU_DECLARE_KERNEL(Identity);

// reduce.cc
ASCEND_EMU_DECLARE_KERNEL(ReduceMean);
ASCEND_EMU_DECLARE_KERNEL(Softmax);

#undef ASCEND_EMU_DECLARE_KERNEL

}  // namespace kernels
}  // namespace ascend_emu
