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
using ascend_emu::PrepareContext;
using ascend_emu::PreparedOp;
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
// scratch sized by the kernel's own Infer; `prepared` runs the kernel's
// PrepareFn as a model load does (Conv: the oneDNN path), else Run goes
// without it (Conv: the emulator's own im2col + Eigen / depthwise path).
class KernelCase {
 public:
  KernelCase(const std::string& op, Attributes attrs,
             std::vector<Shape> input_shapes, bool prepared = false)
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
    if (prepared && kernel_->prepare != nullptr) {
      prepared_ = kernel_->prepare(PrepareContext{attrs_, inputs_, outputs_});
      if (prepared_ == nullptr) throw std::runtime_error(op + ": not prepared");
    }
  }

  void Run() {
    RunContext ctx{attrs_,          inputs_.data(),  inputs_.size(),
                   outputs_.data(), outputs_.size(), scratch_.get(),
                   prepared_.get()};
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
  std::unique_ptr<PreparedOp> prepared_;
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

// Conv NCHW, kxk, pad k/2, with bias: [1, C, H, H] -> [1, F, H/stride,
// H/stride]; onednn 1 is the path a loaded model takes (prepared at load),
// 0 the emulator's own (im2col + Eigen GEMM; depthwise: direct).
void BM_Conv(benchmark::State& state) {
  const int64_t c = state.range(0), f = state.range(1), hw = state.range(2),
                group = state.range(3), k = state.range(4),
                stride = state.range(5);
  const int64_t pad = k / 2, out = (hw + 2 * pad - k) / stride + 1;
  Attributes attrs;
  attrs.map()["kernel_shape"] = Ints({k, k});
  attrs.map()["pads"] = Ints({pad, pad, pad, pad});
  attrs.map()["strides"] = Ints({stride, stride});
  attrs.map()["dilations"] = Ints({1, 1});
  attrs.map()["group"] = Int(group);
  KernelCase op("Conv", std::move(attrs),
                {MakeShape({1, c, hw, hw}), MakeShape({f, c / group, k, k}),
                 MakeShape({f})},
                state.range(6) != 0);
  for (auto _ : state) op.Run();
  Report(state, 2.0 * f * (c / group) * k * k * out * out);
}
void ConvArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"C", "F", "HW", "group", "k", "stride", "onednn"});
  for (int64_t onednn : {0, 1}) {
    b->Args({3, 16, 64, 1, 3, 1, onednn});
    b->Args({16, 16, 32, 1, 3, 1, onednn});
    b->Args({64, 64, 32, 1, 3, 1, onednn});
    b->Args({128, 128, 16, 1, 3, 1, onednn});
    // Depthwise: RunDepthwise either way (PrepareConv leaves it to it).
    if (onednn == 0) b->Args({64, 64, 32, 64, 3, 1, onednn});
    // Depthwise stride 2 (MobileNet's downsampling), [1, 64, 64, 64] -> 32.
    if (onednn == 0) b->Args({64, 64, 64, 64, 3, 2, onednn});
    // Depthwise 7x7 (ConvNeXt's at [1, 3, 64, 64]): stage 1 and stage 3.
    if (onednn == 0) b->Args({32, 32, 16, 32, 7, 1, onednn});
    if (onednn == 0) b->Args({128, 128, 4, 128, 7, 1, onednn});
    // ... and ConvNeXt-T's stage 1 at [1, 3, 224, 224]: past the flat
    // path's buffer, the generic rows.
    if (onednn == 0) b->Args({96, 96, 56, 96, 7, 1, onednn});
    // Depthwise 3x3 narrower than a vector (MobileNetV2's at [1, 3, 64, 64]).
    if (onednn == 0) b->Args({96, 96, 8, 96, 3, 1, onednn});
    if (onednn == 0) b->Args({192, 192, 4, 192, 3, 1, onednn});
    // Depthwise 5x5 stride 2 on a small plane (EfficientNet-B0's stage 3 at
    // [1, 3, 32, 32], width 0.25): the general rows.
    if (onednn == 0) b->Args({48, 48, 8, 48, 5, 2, onednn});
    if (onednn == 0) b->Args({192, 192, 5, 192, 5, 2, onednn});
    // MobileNetV1's last 3x3 planes at [1, 3, 32, 32] (width 0.25).
    if (onednn == 0) b->Args({256, 256, 2, 256, 3, 1, onednn});
    // and at [1, 3, 224, 224], width 1: [1, 144, 56, 56] -> 28.
    if (onednn == 0) b->Args({144, 144, 56, 144, 5, 2, onednn});
    // transformers ResNet at [1, 3, 224, 224]: stem, stage 1, stage 4, a
    // 1x1 stride-2 shortcut.
    b->Args({3, 16, 224, 1, 7, 2, onednn});
    b->Args({16, 16, 56, 1, 3, 1, onednn});
    b->Args({128, 128, 7, 1, 3, 1, onednn});
    b->Args({16, 32, 56, 1, 1, 2, onednn});
  }
}
BENCHMARK(BM_Conv)->Apply(ConvArgs)->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
