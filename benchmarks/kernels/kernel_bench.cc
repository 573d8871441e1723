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
#include "conv_int8.h"  // the int8 Conv's path hooks

namespace ascend_emu::kernels {
void SetWeightQuantVectorDecodeForTest(bool on);  // weight_quant_matmul.cc
void SetMatMulInt8ViaFloatForTest(bool on);       // matmul_int8.cc
bool OnednnHasExactInt8();                        // onednn.cc
}  // namespace ascend_emu::kernels

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
  // dtypes: one per input (float32 where missing). float16 inputs hold
  // small values, int32 inputs values up to 1e6, the rest a byte pattern.
  KernelCase(const std::string& op, Attributes attrs,
             std::vector<Shape> input_shapes, bool prepared = false,
             std::vector<DType> dtypes = {})
      : attrs_(std::move(attrs)) {
    kernel_ = ascend_emu::FindKernel(op);
    if (kernel_ == nullptr) throw std::runtime_error("no kernel for " + op);
    for (size_t n = 0; n < input_shapes.size(); ++n) {
      const Shape& shape = input_shapes[n];
      TensorRef t;
      t.dtype = n < dtypes.size() ? dtypes[n] : DType::kFloat32;
      t.shape = shape;
      buffers_.push_back(AlignedZeros(t.nbytes()));
      t.data = buffers_.back().get();
      if (t.dtype == DType::kFloat32) {
        float* values = t.as<float>();
        for (int64_t i = 0; i < shape.numel(); ++i) {
          values[i] = static_cast<float>(i % 17) * 0.125f - 1.0f;
        }
      } else if (t.dtype == DType::kFloat16) {
        uint16_t* values = static_cast<uint16_t*>(t.data);
        for (int64_t i = 0; i < shape.numel(); ++i) {
          values[i] = static_cast<uint16_t>(0x2000 + (i * 37) % 2048);
        }
      } else if (t.dtype == DType::kInt32) {
        // int32 (AscendDequant's x, int4 weights): what an int8 conv sums to.
        int32_t* values = t.as<int32_t>();
        for (int64_t i = 0; i < shape.numel(); ++i) {
          values[i] = static_cast<int32_t>((i * 7919) % 2000001) - 1000000;
        }
      } else {
        uint8_t* bytes = static_cast<uint8_t*>(t.data);
        for (size_t i = 0; i < t.nbytes(); ++i) {
          bytes[i] = static_cast<uint8_t>((i * 37) % 251);
        }
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
    if (prepared) Prepare();
  }

  // The kernel's PrepareFn (again: after refilling a constant input).
  void Prepare() {
    if (kernel_->prepare == nullptr) return;
    prepared_ = kernel_->prepare(PrepareContext{attrs_, inputs_, outputs_});
    if (prepared_ == nullptr) throw std::runtime_error("not prepared");
  }

  // Input 0 and output 0 in `layout`, as model.cc's AgreeLayouts would
  // agree them with neighbours; false when the prepared op does not take it.
  bool Agree(ascend_emu::TensorLayout layout) {
    if (prepared_ == nullptr || !prepared_->CanReadInput(0, layout))
      return false;
    prepared_->UseInputLayout(0, layout);
    if (prepared_->PreferredOutputLayout(0) != layout) return false;
    prepared_->UseOutputLayout(0, layout);
    return true;
  }

  // An input's tensor, to refill before timing (deq_scale values, say).
  TensorRef& input(size_t n) { return inputs_.at(n); }

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
    ->Args({1, 512, 1000})
    ->Args({1, 2048, 2048})
    ->Args({8, 2048, 2048});

// NPUWeightQuantBatchMatmulV2 decode: x float16 [M, K], weight int8 [K, N]
// (int4 1: int32 [K, N / 8]), per-channel float16 scale [N].
void BM_WeightQuantMatmul(benchmark::State& state) {
  const int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  const bool int4 = state.range(3) != 0;
  ascend_emu::kernels::SetWeightQuantVectorDecodeForTest(state.range(4) != 0);
  KernelCase op(
      "NPUWeightQuantBatchMatmulV2", Attributes{},
      {MakeShape({m, k}), MakeShape({k, int4 ? n / 8 : n}), MakeShape({n})},
      false,
      {DType::kFloat16, int4 ? DType::kInt32 : DType::kInt8, DType::kFloat16});
  for (auto _ : state) op.Run();
  ascend_emu::kernels::SetWeightQuantVectorDecodeForTest(true);
  Report(state, 2.0 * m * k * n);
}
// vector 0: the reference loops (the kernel's test hook), 1: the vector
// decode (M <= 8).
void WeightQuantArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"M", "K", "N", "int4", "vector"});
  for (int64_t vec : {0, 1}) {
    b->Args({1, 2048, 2048, 0, vec});
    b->Args({1, 2048, 2048, 1, vec});
    b->Args({4, 2048, 2048, 0, vec});
    b->Args({8, 2048, 2048, 0, vec});
    b->Args({8, 2048, 2048, 1, vec});
  }
}
BENCHMARK(BM_WeightQuantMatmul)->Apply(WeightQuantArgs);

// The quantization ops on 1x64x56x56: AscendQuant float32 -> int8,
// AscendAntiQuant int8 -> float16, AscendDequant int32 -> float16 with a
// uint64 deq_scale per channel (op 0, 1, 2).
void BM_Quant(benchmark::State& state) {
  const int64_t which = state.range(0);
  const Shape shape = MakeShape({1, 64, 56, 56});
  Attributes attrs;
  Attribute scale;
  scale.kind = Attribute::Kind::kFloat;
  scale.f = 0.05f;
  if (which != 2) attrs.map()["scale"] = scale;
  std::unique_ptr<KernelCase> op;
  if (which == 0) {
    op = std::make_unique<KernelCase>("AscendQuant", attrs,
                                      std::vector<Shape>{shape});
  } else if (which == 1) {
    op = std::make_unique<KernelCase>("AscendAntiQuant", attrs,
                                      std::vector<Shape>{shape}, false,
                                      std::vector<DType>{DType::kInt8});
  } else {
    op = std::make_unique<KernelCase>(
        "AscendDequant", attrs, std::vector<Shape>{shape, MakeShape({64})},
        false, std::vector<DType>{DType::kInt32, DType::kUInt64});
    // Real scales (the byte pattern would make some inf or NaN, which take
    // the reference path).
    uint64_t* d = op->input(1).as<uint64_t>();
    for (int64_t i = 0; i < 64; ++i) {
      const float s = 1e-4f * static_cast<float>(1 + i % 13);
      uint32_t bits;
      std::memcpy(&bits, &s, sizeof bits);
      d[i] = bits;
    }
  }
  for (auto _ : state) op->Run();
  state.SetItemsProcessed(state.iterations() * shape.numel());
}
BENCHMARK(BM_Quant)->ArgNames({"op"})->DenseRange(0, 2);

// Cast float32 -> float16 (dir 0) and float16 -> float32 (dir 1) on
// 1x96x56x56: the Cast after each AscendDequant of an int8 model.
void BM_Cast(benchmark::State& state) {
  const bool to_half = state.range(0) == 0;
  const Shape shape = MakeShape({1, 96, 56, 56});
  Attributes attrs;
  attrs.map()["to"] = Int(to_half ? 10 : 1);
  KernelCase op(
      "Cast", attrs, std::vector<Shape>{shape}, false,
      std::vector<DType>{to_half ? DType::kFloat32 : DType::kFloat16});
  for (auto _ : state) op.Run();
  state.SetItemsProcessed(state.iterations() * shape.numel());
}
BENCHMARK(BM_Cast)->ArgNames({"dir"})->DenseRange(0, 1);

// AscendDequant int32 -> float16 with a uint64 deq_scale per channel on the
// small planes of a MobileNetV2's last blocks: [1, C, H, H] (H 4, 7, 8),
// scales of 1e-4 up (none special).
void BM_DequantPlanes(benchmark::State& state) {
  const int64_t c = state.range(0), h = state.range(1);
  const Shape shape = MakeShape({1, c, h, h});
  KernelCase op("AscendDequant", Attributes{},
                std::vector<Shape>{shape, MakeShape({c})}, false,
                std::vector<DType>{DType::kInt32, DType::kUInt64});
  uint64_t* d = op.input(1).as<uint64_t>();
  for (int64_t i = 0; i < c; ++i) {
    const float s = 1e-4f * static_cast<float>(1 + i % 13);
    uint32_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    d[i] = bits;
  }
  for (auto _ : state) op.Run();
  state.SetItemsProcessed(state.iterations() * shape.numel());
}
BENCHMARK(BM_DequantPlanes)
    ->ArgNames({"C", "H"})
    ->Args({960, 4})
    ->Args({320, 7})
    ->Args({160, 8});

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

// The int8 Conv (CANN's: int8 x and weight, int32 bias and output,
// offset_x 3) against the float32 one of the same shape, kxk, pad k/2:
// path 0 float32 (prepared: oneDNN, depthwise: the own kernels), 1 int8
// before the exact float paths (oneDNN's int8 where exact, else the
// reference loop), 2 int8 now (SetConvInt8ViaFloatForTest), 3 int8 now
// but never the pointwise path (pointwise_int8.h: a 1x1 Conv through float
// where oneDNN's int8 is inexact, as before that path). Run again with
// ONEDNN_MAX_CPU_ISA=AVX2 for a CPU without VNNI.
void BM_ConvInt8(benchmark::State& state) {
  const int64_t c = state.range(0), f = state.range(1), hw = state.range(2),
                group = state.range(3), k = state.range(4),
                stride = state.range(5), path = state.range(6);
  const int64_t pad = k / 2, out = (hw + 2 * pad - k) / stride + 1;
  Attributes attrs;
  attrs.map()["kernel_shape"] = Ints({k, k});
  attrs.map()["pads"] = Ints({pad, pad, pad, pad});
  attrs.map()["strides"] = Ints({stride, stride});
  attrs.map()["dilations"] = Ints({1, 1});
  attrs.map()["group"] = Int(group);
  if (path != 0) attrs.map()["offset_x"] = Int(3);
  const bool depthwise = group == c;
  ascend_emu::kernels::SetConvInt8ViaFloatForTest(path >= 2);
  ascend_emu::kernels::SetConvInt8PointwiseForTest(
      path == 3 ? ascend_emu::kernels::PointwiseUse::kNever
                : ascend_emu::kernels::PointwiseUse::kWhereOnednnInexact);
  std::vector<DType> dtypes;
  if (path != 0) dtypes = {DType::kInt8, DType::kInt8, DType::kInt32};
  // Depthwise: float32's own kernels (nothing prepared) and, for int8, the
  // channels-last path prepared at load (path 2).
  const bool prepared =
      path >= 2 ||
      (!depthwise && (path == 0 || ascend_emu::kernels::OnednnHasExactInt8()));
  KernelCase op("Conv", std::move(attrs),
                {MakeShape({1, c, hw, hw}), MakeShape({f, c / group, k, k}),
                 MakeShape({f})},
                prepared, dtypes);
  for (auto _ : state) op.Run();
  ascend_emu::kernels::SetConvInt8ViaFloatForTest(true);
  ascend_emu::kernels::SetConvInt8PointwiseForTest(
      ascend_emu::kernels::PointwiseUse::kWhereOnednnInexact);
  Report(state, 2.0 * f * (c / group) * k * k * out * out);
}
void ConvInt8Args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"C", "F", "HW", "group", "k", "stride", "path"});
  for (int64_t path : {0, 1, 2, 3}) {
    b->Args({64, 64, 56, 1, 3, 1, path});      // ResNet-18 stage 1
    b->Args({128, 128, 28, 1, 3, 1, path});    // stage 2
    b->Args({256, 256, 14, 1, 3, 1, path});    // stage 3
    b->Args({64, 256, 56, 1, 1, 1, path});     // a 1x1 expansion
    b->Args({16, 96, 32, 1, 1, 1, path});      // MobileNetV2 (0.5, 64 px)'s
    b->Args({96, 16, 16, 1, 1, 1, path});      // and its projection
    b->Args({3, 32, 224, 1, 3, 2, path});      // MobileNetV2's stem
    b->Args({64, 64, 32, 64, 3, 1, path});     // depthwise 3x3
    b->Args({96, 96, 56, 96, 3, 2, path});     // depthwise 3x3 stride 2
    b->Args({144, 144, 56, 144, 5, 2, path});  // depthwise 5x5 stride 2
    b->Args({256, 256, 2, 256, 3, 1, path});   // depthwise, tiny planes
    b->Args({64, 64, 28, 8, 3, 1, path});      // grouped, 8 per group
  }
}
BENCHMARK(BM_ConvInt8)->Apply(ConvInt8Args)->MeasureProcessCPUTime();

// MatMul [M, K] x [K, N], int8 (offset_x 3, int32 out) against float32:
// path 0 float32, 1 int8 before the float path, 2 int8 now (prepared).
void BM_MatMulInt8(benchmark::State& state) {
  const int64_t m = state.range(0), k = state.range(1), n = state.range(2),
                path = state.range(3);
  Attributes attrs;
  if (path != 0) attrs.map()["offset_x"] = Int(3);
  std::vector<DType> dtypes;
  if (path != 0) dtypes = {DType::kInt8, DType::kInt8};
  ascend_emu::kernels::SetMatMulInt8ViaFloatForTest(path == 2);
  const bool prepared = path == 2 && !ascend_emu::kernels::OnednnHasExactInt8();
  KernelCase op("MatMul", std::move(attrs),
                {MakeShape({m, k}), MakeShape({k, n})}, prepared, dtypes);
  ascend_emu::kernels::SetMatMulInt8ViaFloatForTest(true);
  for (auto _ : state) op.Run();
  Report(state, 2.0 * m * k * n);
}
void MatMulInt8Args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"M", "K", "N", "path"});
  for (int64_t path : {0, 1, 2}) {
    b->Args({128, 512, 512, path});
    b->Args({1, 2048, 2048, path});
    b->Args({8, 2048, 2048, path});
    b->Args({256, 768, 3072, path});
    // Classifier heads, one image: ResNet (small)'s and MobileNetV2's.
    b->Args({1, 128, 10, path});
    b->Args({1, 1280, 10, path});
  }
}
BENCHMARK(BM_MatMulInt8)->Apply(MatMulInt8Args)->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();

// MobileNetV2's int8 convolutions at 32x32 (1x1 16 -> 96; depthwise 3x3
// over 96 channels on an input padded to 34x34): the int8 Conv alone (fused
// 0) against FusedConvDequant (fused 1: AscendDequant with a uint64 scale
// per channel, Cast to float32 and Clip [0, 6] in the same pass; fused 2:
// the next layer's AscendQuant merged too, x and y agreed channels last
// where the op takes that, as between two int8 Convs of a loaded model).
void BM_ConvInt8Dequant(benchmark::State& state) {
  const bool depthwise = state.range(0) != 0;
  const int64_t fused = state.range(1);
  const int64_t c = depthwise ? 96 : 16, hw = depthwise ? 34 : 32;
  const int64_t k = depthwise ? 3 : 1, group = depthwise ? 96 : 1;
  Attributes attrs;
  attrs.map()["kernel_shape"] = Ints({k, k});
  attrs.map()["group"] = Int(group);
  std::vector<Shape> shapes = {MakeShape({1, c, hw, hw}),
                               MakeShape({96, c / group, k, k}),
                               MakeShape({96})};
  std::vector<DType> dtypes = {DType::kInt8, DType::kInt8, DType::kInt32};
  if (fused != 0) {
    attrs.map()["to"] = Int(1);
    Attribute act;
    act.kind = Attribute::Kind::kString;
    act.s = "Clip";
    attrs.map()["activation"] = act;
    Attribute params;
    params.kind = Attribute::Kind::kFloats;
    params.floats = {0.0f, 6.0f};
    attrs.map()["activation_params"] = params;
    // X, W, deq_scale, B.
    shapes.insert(shapes.begin() + 2, MakeShape({96}));
    dtypes.insert(dtypes.begin() + 2, DType::kUInt64);
  }
  if (fused == 2) {
    Attribute scale, offset;
    scale.kind = offset.kind = Attribute::Kind::kFloat;
    scale.f = 21.0f;
    offset.f = -3.0f;
    attrs.map()["quant_scale"] = scale;
    attrs.map()["quant_offset"] = offset;
  }
  KernelCase op(fused != 0 ? "FusedConvDequant" : "Conv", attrs, shapes,
                fused == 0 && !depthwise, dtypes);
  if (fused != 0) {
    uint64_t* d = op.input(2).as<uint64_t>();
    for (int64_t i = 0; i < 96; ++i) {
      const float s = 1e-4f * static_cast<float>(1 + i % 13);
      uint32_t bits;
      std::memcpy(&bits, &s, sizeof bits);
      d[i] = bits;
    }
    op.Prepare();
  }
  // Channels last where the prepared op takes it (the pointwise path,
  // pointwise_int8.h, reads and writes NCHW and keeps its plain layouts).
  if (fused == 2) op.Agree(ascend_emu::TensorLayout::kNhwc);
  for (auto _ : state) op.Run();
}
BENCHMARK(BM_ConvInt8Dequant)
    ->ArgNames({"depthwise", "fused"})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({1, 2});
