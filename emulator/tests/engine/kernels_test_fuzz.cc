// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Randomized robustness: every kernel gets random shapes, dtypes and
// attributes (many of them invalid). Infer must either refuse with a message
// naming the op, or accept, and then Run must stay inside its buffers: inputs
// are exactly sized heap buffers (AddressSanitizer builds catch over-reads),
// outputs and scratch carry guard zones that RunKernel checks.
#include <random>
#include <string>
#include <vector>

#include "kernels_fuzz_math.h"
#include "kernels_fuzz_movement.h"
#include "kernels_fuzz_quant.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

class Fuzzer {
 public:
  explicit Fuzzer(uint32_t seed) : gen_(seed) {}

  int64_t Int(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(gen_);
  }
  bool Coin(int percent = 50) { return Int(0, 99) < percent; }

  Shape RandomShape(int max_rank) {
    Shape s;
    s.rank = static_cast<int32_t>(Int(0, max_rank));
    for (int32_t i = 0; i < s.rank; ++i) s.dims[i] = Coin(8) ? 0 : Int(1, 5);
    return s;
  }

  HostTensor RandomTensor(int max_rank) {
    const Shape s = RandomShape(max_rank);
    if (Coin(10)) {
      std::vector<int64_t> v(static_cast<size_t>(s.numel()));
      for (int64_t& x : v) x = Int(-3, 5);
      return HostTensor::I64(s, v);
    }
    return RandF32(s, static_cast<uint32_t>(Int(0, 1 << 30)));
  }

  // A tensor of the same rank as `like` with each dim kept, set to 1 or
  // changed, so broadcasting and matching checks see near misses.
  HostTensor Near(const HostTensor& like) {
    Shape s = like.shape;
    if (Coin(20) && s.rank > 0) --s.rank;
    for (int32_t i = 0; i < s.rank; ++i) {
      if (Coin(25)) s.dims[i] = Coin() ? 1 : Int(0, 5);
    }
    return RandF32(s, static_cast<uint32_t>(Int(0, 1 << 30)));
  }

  std::vector<int64_t> Ints(int max_len, int64_t lo, int64_t hi) {
    std::vector<int64_t> v(static_cast<size_t>(Int(0, max_len)));
    for (int64_t& x : v) x = Int(lo, hi);
    return v;
  }

  // Random values for the attributes an op knows, plus the odd stranger.
  Attrs RandomAttrs(const std::string& op, int spatial) {
    Attrs a;
    const std::string known = KnownAttrs(op);
    auto maybe = [&](const char* name, auto fn) {
      if (known.find(std::string(" ") + name + " ") != std::string::npos &&
          Coin(40)) {
        fn(name);
      }
    };
    auto ints_of = [&](int n, int64_t lo, int64_t hi) {
      std::vector<int64_t> v(static_cast<size_t>(Coin(85) ? n : Int(0, 4)));
      for (int64_t& x : v) x = Int(lo, hi);
      return v;
    };
    maybe("axis", [&](const char* n) { a.Int(n, Int(-5, 5)); });
    maybe("axes", [&](const char* n) { a.Ints(n, Ints(3, -4, 4)); });
    maybe("keepdims", [&](const char* n) { a.Int(n, Int(-1, 2)); });
    maybe("noop_with_empty_axes", [&](const char* n) { a.Int(n, Int(0, 2)); });
    maybe("perm", [&](const char* n) { a.Ints(n, Ints(5, -1, 4)); });
    maybe("allowzero", [&](const char* n) { a.Int(n, Int(0, 2)); });
    maybe("transA", [&](const char* n) { a.Int(n, Int(0, 2)); });
    maybe("transB", [&](const char* n) { a.Int(n, Int(0, 2)); });
    maybe("alpha", [&](const char* n) { a.Float(n, 1.5f); });
    maybe("beta", [&](const char* n) { a.Float(n, Coin() ? 0.0f : 0.5f); });
    maybe("group", [&](const char* n) { a.Int(n, Int(0, 3)); });
    maybe("kernel_shape",
          [&](const char* n) { a.Ints(n, ints_of(spatial, 0, 4)); });
    maybe("strides", [&](const char* n) { a.Ints(n, ints_of(spatial, 0, 3)); });
    maybe("dilations",
          [&](const char* n) { a.Ints(n, ints_of(spatial, 0, 3)); });
    maybe("pads",
          [&](const char* n) { a.Ints(n, ints_of(2 * spatial, -1, 3)); });
    maybe("ceil_mode", [&](const char* n) { a.Int(n, Int(0, 2)); });
    maybe("count_include_pad", [&](const char* n) { a.Int(n, Int(0, 1)); });
    maybe("storage_order", [&](const char* n) { a.Int(n, Int(0, 1)); });
    maybe("auto_pad", [&](const char* n) {
      const char* modes[] = {"NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER",
                             "SAME"};
      a.Str(n, modes[Int(0, 4)]);
    });
    maybe("output_padding",
          [&](const char* n) { a.Ints(n, ints_of(spatial, 0, 2)); });
    maybe("epsilon", [&](const char* n) { a.Float(n, Coin() ? 1e-5f : 0.0f); });
    if (op == "GridSample") {
      maybe("mode", [&](const char* n) {
        const char* modes[] = {"bilinear", "nearest", "bicubic"};
        a.Str(n, modes[Int(0, 2)]);
      });
      maybe("padding_mode", [&](const char* n) {
        const char* modes[] = {"zeros", "border", "reflection", "wrap"};
        a.Str(n, modes[Int(0, 3)]);
      });
      maybe("align_corners", [&](const char* n) { a.Int(n, Int(-1, 2)); });
    } else {
      maybe("mode", [&](const char* n) {
        const char* modes[] = {"constant", "reflect", "edge",
                               "nearest",  "linear",  "cubic"};
        a.Str(n, modes[Int(0, 5)]);
      });
    }
    maybe("coordinate_transformation_mode", [&](const char* n) {
      const char* modes[] = {"half_pixel", "pytorch_half_pixel",
                             "align_corners", "asymmetric",
                             "tf_crop_and_resize"};
      a.Str(n, modes[Int(0, 4)]);
    });
    maybe("nearest_mode", [&](const char* n) {
      const char* modes[] = {"floor", "ceil", "round_prefer_floor",
                             "round_prefer_ceil", "bogus"};
      a.Str(n, modes[Int(0, 4)]);
    });
    MathFuzzAttrs(*this, op, &a);
    QuantFuzzAttrs(*this, op, &a);
    if (Coin(3)) a.Int("bogus", 1);
    return a;
  }

 private:
  static std::string KnownAttrs(const std::string& op) {
    if (op == "Conv") {
      return " auto_pad dilations group kernel_shape pads strides ";
    }
    if (op == "FusedConv") {
      return " activation auto_pad dilations group kernel_shape pads strides ";
    }
    if (op == "FusedConvDequant") {
      return " auto_pad dilations group kernel_shape pads strides ";
    }
    if (op == "MaxPool") {
      return " auto_pad ceil_mode dilations kernel_shape pads storage_order "
             "strides ";
    }
    if (op == "AveragePool") {
      return " auto_pad ceil_mode count_include_pad kernel_shape pads "
             "strides ";
    }
    if (op == "Gemm") return " alpha beta transA transB ";
    if (op == "ConvTranspose") {
      return " auto_pad dilations group kernel_shape output_padding pads "
             "strides ";
    }
    if (op == "Gather" || op == "GatherElements" || op == "Split") {
      return " axis ";
    }
    if (op == "LayerNormalization") return " axis epsilon ";
    if (op == "BatchNormalization") return " epsilon ";
    if (op == "Pad") return " mode ";
    if (op == "Resize") {
      return " coordinate_transformation_mode mode nearest_mode ";
    }
    if (op == "GridSample") return " align_corners mode padding_mode ";
    if (op == "ReduceMean") return " axes keepdims noop_with_empty_axes ";
    if (op == "Softmax" || op == "LogSoftmax" || op == "Flatten" ||
        op == "Concat" || op == "ScatterElements") {
      return " axis ";
    }
    if (op == "Transpose") return " perm ";
    if (op == "Reshape") return " allowzero ";
    return " ";
  }

  std::mt19937 gen_;
};

std::vector<HostTensor> RandomInputs(Fuzzer& f, const std::string& op) {
  std::vector<HostTensor> in;
  if (MovementFuzzInputs(f, op, &in)) return in;
  if (MathFuzzInputs(f, op, &in)) return in;
  if (QuantFuzzInputs(f, op, &in)) return in;
  if (op == "Conv" || op == "FusedConv" || op == "MaxPool" ||
      op == "AveragePool" || op == "GlobalAveragePool") {
    Shape s;
    s.rank = static_cast<int32_t>(f.Coin(85) ? 4 : f.Int(2, 5));
    for (int32_t i = 0; i < s.rank; ++i) s.dims[i] = f.Int(i < 2 ? 0 : 1, 6);
    in.push_back(RandF32(s, static_cast<uint32_t>(f.Int(0, 1 << 30))));
    if (op == "Conv" || op == "FusedConv") {
      Shape w = s;
      w.dims[0] = f.Int(0, 4);
      w.dims[1] = f.Coin(70) ? std::max<int64_t>(1, s.dims[1] / f.Int(1, 2))
                             : f.Int(0, 4);
      for (int32_t i = 2; i < w.rank; ++i) w.dims[i] = f.Int(f.Coin(90), 3);
      in.push_back(RandF32(w, 7));
      if (f.Coin()) in.push_back(RandF32(S({f.Coin(80) ? w.dims[0] : 3}), 8));
    }
    return in;
  }
  const int n = op == "Gemm"     ? static_cast<int>(f.Int(2, 3))
                : op == "Concat" ? static_cast<int>(f.Int(1, 4))
                : op == "Reshape" || op == "ReduceMean" ? 2
                : op == "Add" || op == "Sub" || op == "Mul" || op == "Div" ||
                        op == "MatMul"
                    ? 2
                    : 1;
  in.push_back(f.RandomTensor(op == "Gemm" ? 2 : 4));
  for (int i = 1; i < n; ++i) {
    if (op == "Reshape" || (op == "ReduceMean" && f.Coin(30))) {
      std::vector<int64_t> v = f.Ints(4, -2, 5);
      HostTensor t = HostTensor::I64(S({static_cast<int64_t>(v.size())}), v);
      in.push_back(f.Coin(90) ? t.Const() : t);
    } else if (op == "ReduceMean") {
      break;
    } else {
      in.push_back(f.Near(in[0]));
    }
  }
  if (f.Coin(3)) in.push_back(f.RandomTensor(2));  // one input too many
  return in;
}

// Aipp (docs/aipp.md): a config atc could write, now and then broken (a crop
// past the image, an odd YUV offset, a wrong frame), and a frame that
// mostly fits it.
void AippFuzzCase(Fuzzer& f, std::vector<HostTensor>* in, Attrs* a) {
  auto ints = [&f](size_t n, int64_t lo, int64_t hi) {
    std::vector<int64_t> v(f.Coin(97) ? n : n - 1);
    for (int64_t& x : v) x = f.Int(lo, hi);
    return v;
  };
  const int64_t format = f.Coin(10) ? f.Int(0, 5) : 1 + 2 * f.Int(0, 1);
  const int64_t h = 2 * f.Int(1, 4), w = 2 * f.Int(1, 4);
  const int64_t ch = f.Int(1, h), cw = f.Int(1, w);
  const int64_t cy = (f.Coin(90) ? f.Int(0, h - ch) : f.Int(0, h)) & ~1LL;
  const int64_t cx = f.Coin(90) ? f.Int(0, w - cw) : f.Int(0, w);
  a->Int("input_format", format)
      .Ints("src_image_size", {h, w})
      .Ints("crop", {cy, cx, ch, cw})
      .Ints("padding", {f.Int(0, 2), f.Int(0, 2), f.Int(0, 2),
                        f.Coin(95) ? f.Int(0, 2) : 33})
      .Float("padding_value", static_cast<float>(f.Int(-9, 9)))
      .Int("csc_switch", format == 4 ? 0 : f.Int(0, 1))
      .Int("rbuv_swap_switch", f.Int(0, 1))
      .Ints("matrix", ints(9, -300, 300))
      .Ints("input_bias", ints(3, 0, 255))
      .Ints("output_bias", ints(3, 0, 255))
      .Ints("mean_chn", ints(4, 0, 255))
      .Floats("min_chn", {0.5f, 0.0f, 1.25f, 0.0f})
      .Floats("var_reci_chn", {0.0171f, -2.0f, 1.0f, 1.0f})
      .Int("channels", format == 4 ? 1 : f.Int(1, 3))
      .Int("to", f.Coin() ? static_cast<int64_t>(DType::kFloat32)
                          : static_cast<int64_t>(DType::kFloat16));
  const int64_t rows = format == 1 ? h * 3 / 2 : h;
  Shape s =
      S({f.Int(1, 2), f.Coin(95) ? rows : rows + 1, w, format == 3 ? 3 : 1});
  std::vector<uint8_t> v(static_cast<size_t>(s.numel()));
  for (auto& x : v) x = static_cast<uint8_t>(f.Int(0, 255));
  in->push_back(f.Coin(97) ? HostTensor::Of(DType::kUInt8, s, v)
                           : f.RandomTensor(4));
}

TEST(KernelsFuzz, InferRefusesOrRunStaysInBounds) {
  Fuzzer f(12345);
  int accepted = 0;
  int refused = 0;
  for (const std::string& op : KernelOpTypes()) {
    int op_accepted = 0;
    for (int iter = 0; iter < 1500; ++iter) {
      std::vector<HostTensor> in;
      Attrs attrs;
      if (op == "Aipp") {
        AippFuzzCase(f, &in, &attrs);
      } else {
        in = RandomInputs(f, op);
        const int spatial = in[0].shape.rank >= 3 ? in[0].shape.rank - 2 : 2;
        attrs = f.RandomAttrs(op, spatial);
      }
      const bool failed_before = ::testing::Test::HasFailure();
      // Every other iteration prepared as at load (Conv: the oneDNN path).
      // One output each, but NPUDynamicQuant's two (y and scale).
      const size_t outputs = op == "NPUDynamicQuant" ? 2 : 1;
      RunResult r = RunKernel(op, attrs, in, outputs, iter % 2 == 1);
      if (!r.error.empty()) {
        ++refused;
        ASSERT_EQ(r.error.rfind(op + ": ", 0), 0u) << r.error;
        continue;
      }
      ++accepted;
      ++op_accepted;
      for (const HostTensor& out : r.outputs) {
        ASSERT_GE(out.shape.rank, 0) << op;
        for (int32_t d = 0; d < out.shape.rank; ++d) {
          ASSERT_GE(out.shape.dims[d], 0) << op;
        }
      }
      if (!failed_before && ::testing::Test::HasFailure()) {
        FAIL() << op << " failed on iteration " << iter;
      }
    }
    EXPECT_GE(op_accepted, 15) << op << " accepted too few random cases";
  }
  // Both branches must actually be exercised for the test to mean anything.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, 1000);
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
