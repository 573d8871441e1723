// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The Aipp kernel in dynamic mode (docs/aipp.md, "Dynamic AIPP"): its
// parameters are data (the ascend_dynamic_aipp_data input, CANN's layout in
// ascend_emu/aipp_params.h), so Run checks them. Valid parameters give what
// the static path gives for the same config; fuzzed ones either throw with a
// reason or write the output and nothing past it.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ascend_emu/aipp_params.h"
#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {
namespace {

namespace ap = ascend_emu::aipp;

Attrs DynamicAttrs(int64_t batch, int64_t h, int64_t w, int64_t c) {
  Attrs a;
  a.Int("aipp_mode", 2)
      .Int("batch", batch)
      .Ints("output_hw", {h, w})
      .Int("channels", c)
      .Int("to", static_cast<int64_t>(DType::kFloat32));
  return a;
}

// Parameters for one RGB888_U8 image of h x w cropped at (y, x) to ch x cw,
// swapped, normalised with mean 10 and var_reci 0.5 (as aclmdlSetInputAIPP
// writes them).
std::vector<uint8_t> RgbParams(int32_t h, int32_t w, int32_t y, int32_t x,
                               int32_t ch, int32_t cw) {
  std::vector<uint8_t> p(ap::BufferBytes(1), 0);
  ap::Write<uint8_t>(p.data(), ap::kInputFormat, ap::kCceRgb888);
  ap::Write<int8_t>(p.data(), ap::kBatchNum, 1);
  ap::Write<int8_t>(p.data(), ap::kRbuvSwap, 1);
  ap::Write<int32_t>(p.data(), ap::kSrcW, w);
  ap::Write<int32_t>(p.data(), ap::kSrcH, h);
  uint8_t* r = p.data() + ap::kHeadBytes;
  ap::Write<int8_t>(r, ap::kCropSwitch, 1);
  ap::Write<int32_t>(r, ap::kCropStartW, x);
  ap::Write<int32_t>(r, ap::kCropStartH, y);
  ap::Write<int32_t>(r, ap::kCropW, cw);
  ap::Write<int32_t>(r, ap::kCropH, ch);
  for (size_t k = 0; k < 4; ++k) {
    ap::Write<int16_t>(r, ap::kMean + 2 * k, 10);
    ap::Write<uint16_t>(r, ap::kVarReci + 2 * k, ap::ToHalfBits(0.5f));
  }
  return p;
}

TEST(KernelsAippDynamic, MatchesTheStaticPath) {
  const int64_t h = 5, w = 6;
  std::vector<uint8_t> frame(static_cast<size_t>(h * w * 3 + 7));
  for (size_t i = 0; i < frame.size(); ++i)
    frame[i] = static_cast<uint8_t>(i * 29 % 256);
  const std::vector<HostTensor> dyn_in = {
      HostTensor::Of(DType::kUInt8, S({1, static_cast<int64_t>(frame.size())}),
                     frame),
      HostTensor::Of(DType::kUInt8,
                     S({static_cast<int64_t>(ap::BufferBytes(1))}),
                     RgbParams(5, 6, 1, 2, 4, 4))};
  const RunResult dyn = RunKernel("Aipp", DynamicAttrs(1, 4, 4, 3), dyn_in);
  ASSERT_EQ(dyn.error, "");

  Attrs st;
  st.Int("input_format", 3)
      .Ints("src_image_size", {h, w})
      .Ints("crop", {1, 2, 4, 4})
      .Ints("padding", {0, 0, 0, 0})
      .Float("padding_value", 0.0f)
      .Int("csc_switch", 0)
      .Int("rbuv_swap_switch", 1)
      .Ints("matrix", {0, 0, 0, 0, 0, 0, 0, 0, 0})
      .Ints("input_bias", {0, 0, 0})
      .Ints("output_bias", {0, 0, 0})
      .Ints("mean_chn", {10, 10, 10, 10})
      .Floats("min_chn", {0, 0, 0, 0})
      .Floats("var_reci_chn", {0.5f, 0.5f, 0.5f, 0.5f})
      .Int("channels", 3)
      .Int("to", static_cast<int64_t>(DType::kFloat32));
  std::vector<uint8_t> image(frame.begin(), frame.begin() + h * w * 3);
  const RunResult stat = RunKernel(
      "Aipp", st, {HostTensor::Of(DType::kUInt8, S({1, h, w, 3}), image)});
  ASSERT_EQ(stat.error, "");
  ASSERT_EQ(dyn.outputs.size(), 1u);
  EXPECT_EQ(dyn.outputs[0].bytes, stat.outputs[0].bytes);
}

TEST(KernelsAippDynamic, InferChecksTheShapes) {
  const HostTensor frame =
      HostTensor::Of(DType::kUInt8, S({1, 48}), std::vector<uint8_t>(48));
  const HostTensor params =
      HostTensor::Of(DType::kUInt8, S({160}), std::vector<uint8_t>(160));
  EXPECT_EQ(
      InferKernel("Aipp", DynamicAttrs(1, 4, 4, 3), {frame, params}).error, "");
  EXPECT_NE(InferKernel("Aipp", DynamicAttrs(1, 4, 4, 3), {frame}).error, "");
  EXPECT_NE(InferKernel("Aipp", DynamicAttrs(2, 4, 4, 3), {frame, params})
                .error.find("[>= 256]"),
            std::string::npos);
  const HostTensor flat4 =
      HostTensor::Of(DType::kUInt8, S({1, 4, 4, 3}), std::vector<uint8_t>(48));
  EXPECT_NE(InferKernel("Aipp", DynamicAttrs(1, 4, 4, 3), {flat4, params})
                .error.find("[1, max_src_image_size]"),
            std::string::npos);
  EXPECT_NE(
      InferKernel("Aipp", DynamicAttrs(1, 4, 4, 4), {frame, params}).error, "");
}

// Garbage in the parameter buffer (each byte of a valid one flipped now and
// then, or random): Run refuses with a reason or writes only its output.
TEST(KernelsAippDynamic, FuzzedParametersThrowOrStayInBounds) {
  std::mt19937 rng(7);
  const std::vector<uint8_t> valid = RgbParams(4, 4, 0, 0, 4, 4);
  int refused = 0, ran = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> params = valid;
    for (uint8_t& b : params) {
      if (rng() % 40 == 0) b = static_cast<uint8_t>(rng());
    }
    std::vector<uint8_t> frame(48 + rng() % 16);
    for (uint8_t& b : frame) b = static_cast<uint8_t>(rng());
    const int64_t oh = 2 + rng() % 4, ow = 2 + rng() % 4;
    const Attrs attrs = DynamicAttrs(1, oh, ow, 1 + rng() % 3);
    const std::vector<HostTensor> in = {
        HostTensor::Of(DType::kUInt8,
                       S({1, static_cast<int64_t>(frame.size())}), frame),
        HostTensor::Of(DType::kUInt8, S({160}), params)};
    const RunResult infer = InferKernel("Aipp", attrs, in);
    ASSERT_EQ(infer.error, "");
    // Run by hand: RunKernel has no way to report a throw.
    const KernelDef* k = FindKernel("Aipp");
    std::vector<TensorRef> refs(2);
    std::vector<std::vector<uint8_t>> bufs = {frame, params};
    for (size_t i = 0; i < 2; ++i) {
      refs[i].dtype = DType::kUInt8;
      refs[i].shape = in[i].shape;
      refs[i].data = bufs[i].data();
    }
    TensorRef out;
    out.dtype = infer.outputs[0].dtype;
    out.shape = infer.outputs[0].shape;
    std::vector<uint8_t> out_buf(out.nbytes() + 64, 0xA5);
    out.data = out_buf.data();
    const RunContext ctx{attrs.get(), refs.data(), 2, &out, 1, nullptr};
    try {
      k->run(ctx);
      ++ran;
    } catch (const std::runtime_error& e) {
      ++refused;
      EXPECT_EQ(std::string(e.what()).rfind("Aipp: ", 0), 0u) << e.what();
    }
    for (size_t i = out.nbytes(); i < out_buf.size(); ++i)
      ASSERT_EQ(out_buf[i], 0xA5) << "Run wrote past its output";
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace testing
}  // namespace ascend_emu
