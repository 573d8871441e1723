// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Throughput of the emulator's Conv and MatMul reference kernels at a few
// sizes. These kernels are what an .om executes on the emulator, so their
// speed bounds the emulator's model latency; it says nothing about an NPU.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ascend_emu/tensor.h"

namespace {

using ascend_emu::Attribute;
using ascend_emu::Attributes;
using ascend_emu::DType;
using ascend_emu::InferContext;
using ascend_emu::KernelDef;
using ascend_emu::RunContext;
using ascend_emu::Shape;
using ascend_emu::TensorRef;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<void, FreeDeleter>;

// The interpreter hands kernels 64-byte aligned memory; do the same.
Buffer AlignedZeros(size_t bytes) {
  const size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (p == nullptr) throw std::bad_alloc();
  std::memset(p, 0, rounded == 0 ? 64 : rounded);
  return Buffer(p);
}

Shape MakeShape(std::initializer_list<int64_t> dims) {
  Shape s;
  for (int64_t d : dims) s.dims[s.rank++] = d;
  return s;
}

Attribute Ints(std::vector<int64_t> values) {
  Attribute a;
  a.kind = Attribute::Kind::kInts;
  a.ints = std::move(values);
  return a;
}

Attribute Int(int64_t value) {
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = value;
  return a;
}

// One op instance ready to Run: inputs filled with a pattern, outputs and
// scratch sized by the kernel's own Infer.
class KernelCase {
 public:
  KernelCase(const std::string& op, Attributes attrs,
             std::vector<Shape> input_shapes)
      : attrs_(std::move(attrs)) {
    kernel_ = ascend_emu::FindKernel(op);
    if (kernel_ == nullptr) throw std::runtime_error("no kernel for " + op);
    for (const Shape& shape : input_shapes) {
      TensorRef t;
      t.dtype = DType::kFloat32;
      t.shape = shape;
      buffers_.push_back(AlignedZeros(t.nbytes()));
      t.data = buffers_.back().get();
      float* values = t.as<float>();
      for (int64_t i = 0; i < shape.numel(); ++i) {
        values[i] = static_cast<float>(i % 17) * 0.125f - 1.0f;
      }
      inputs_.push_back(t);
    }
    InferContext ctx{attrs_, inputs_, outputs_};
    const std::string error = kernel_->infer(ctx);
    if (!error.empty()) throw std::runtime_error(op + " infer: " + error);
    for (TensorRef& out : outputs_) {
      buffers_.push_back(AlignedZeros(out.nbytes()));
      out.data = buffers_.back().get();
    }
    scratch_ = AlignedZeros(ctx.scratch_bytes);
  }

  void Run() {
    RunContext ctx{attrs_,          inputs_.data(),  inputs_.size(),
                   outputs_.data(), outputs_.size(), scratch_.get()};
    kernel_->run(ctx);
    benchmark::DoNotOptimize(outputs_[0].data);
    benchmark::ClobberMemory();
  }

 private:
  const KernelDef* kernel_ = nullptr;
  Attributes attrs_;
  std::vector<TensorRef> inputs_;
  std::vector<TensorRef> outputs_;
  std::vector<Buffer> buffers_;
  Buffer scratch_;
};

void Report(benchmark::State& state, double flops) {
  state.counters["FLOP/s"] =
      benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

// MatMul [M, K] x [K, N].
void BM_MatMul(benchmark::State& state) {
  const int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  KernelCase op("MatMul", Attributes{}, {MakeShape({m, k}), MakeShape({k, n})});
  for (auto _ : state) op.Run();
  Report(state, 2.0 * m * k * n);
}
BENCHMARK(BM_MatMul)
    ->ArgNames({"M", "K", "N"})
    ->Args({4, 64, 64})
    ->Args({64, 64, 64})
    ->Args({256, 256, 256})
    ->Args({1, 512, 1000});

// Conv NCHW, 3x3, stride 1, pad 1, with bias: [1, C, H, H] -> [1, F, H, H].
void BM_Conv3x3(benchmark::State& state) {
  const int64_t c = state.range(0), f = state.range(1), hw = state.range(2),
                group = state.range(3);
  Attributes attrs;
  attrs.map()["kernel_shape"] = Ints({3, 3});
  attrs.map()["pads"] = Ints({1, 1, 1, 1});
  attrs.map()["strides"] = Ints({1, 1});
  attrs.map()["dilations"] = Ints({1, 1});
  attrs.map()["group"] = Int(group);
  KernelCase op("Conv", std::move(attrs),
                {MakeShape({1, c, hw, hw}), MakeShape({f, c / group, 3, 3}),
                 MakeShape({f})});
  for (auto _ : state) op.Run();
  Report(state, 2.0 * f * (c / group) * 9 * hw * hw);
}
BENCHMARK(BM_Conv3x3)
    ->ArgNames({"C", "F", "HW", "group"})
    ->Args({3, 16, 64, 1})
    ->Args({16, 16, 32, 1})
    ->Args({64, 64, 32, 1})
    ->Args({128, 128, 16, 1})
    ->Args({64, 64, 32, 64});

}  // namespace

BENCHMARK_MAIN();
