// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Shape gears: atc --dynamic_batch_size / --dynamic_dims with -1 in
// --input_shape. Option parsing and every refusal, the compiled gear model
// run at every gear against a CPU reference, and --mode=6.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "atc_options.h"
#include "atc_test_util.h"
#include "om_corruption.h"

namespace ascend_emu {
namespace {

using testing::AtcResult;
using testing::AtcTest;
using testing::OnnxBuilder;

// --- Options ---------------------------------------------------------------

const std::vector<std::string> kBase = {
    "--framework=5", "--model=m.onnx", "--output=out",
    "--soc_version=Ascend910B1", "--precision_mode=must_keep_origin_dtype"};

atc::ParseStatus Parse(const std::vector<std::string>& extra,
                       atc::AtcOptions* o, std::string* err,
                       std::vector<std::string> base = kBase) {
  for (const std::string& e : extra) {
    const std::string name = e.substr(0, e.find('='));
    base.erase(std::remove_if(base.begin(), base.end(),
                              [&](const std::string& b) {
                                return b.substr(0, b.find('=')) == name;
                              }),
               base.end());
  }
  base.insert(base.end(), extra.begin(), extra.end());
  return atc::ParseAtcOptions(base, o, err);
}

std::string Gears(size_t n) {
  std::string s;
  for (size_t i = 1; i <= n; ++i) s += (i > 1 ? "," : "") + std::to_string(i);
  return s;
}

TEST(AtcGearOptions, ParsesDynamicBatchSize) {
  atc::AtcOptions o;
  std::string err;
  ASSERT_EQ(Parse({"--input_shape=x:-1,4;y:-1,2;z:3",
                   "--dynamic_batch_size=1,2,4,"},  // CANN drops one ','
                  &o, &err),
            atc::ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.gear_type, DynamicType::kDynamicBatch);
  EXPECT_EQ(o.gears, (std::vector<std::vector<int64_t>>{{1}, {2}, {4}}));
  EXPECT_EQ(o.input_shapes[0].second, (std::vector<int64_t>{-1, 4}));
}

TEST(AtcGearOptions, ParsesDynamicDims) {
  atc::AtcOptions o;
  std::string err;
  ASSERT_EQ(Parse({"--input_shape=a:2,-1;b:-1,2", "--input_format=ND",
                   "--dynamic_dims=1,1;3,2;8,8;"},
                  &o, &err),
            atc::ParseStatus::kOk)
      << err;
  EXPECT_EQ(o.gear_type, DynamicType::kDynamicDims);
  EXPECT_EQ(o.gears,
            (std::vector<std::vector<int64_t>>{{1, 1}, {3, 2}, {8, 8}}));
}

TEST(AtcGearOptions, GearCountLimitFollowsTheChip) {
  atc::AtcOptions o;
  std::string err;
  EXPECT_EQ(
      Parse({"--input_shape=x:-1,4", "--dynamic_batch_size=" + Gears(100)}, &o,
            &err),
      atc::ParseStatus::kOk)
      << err;
  EXPECT_EQ(
      Parse({"--input_shape=x:-1,4", "--dynamic_batch_size=" + Gears(101)}, &o,
            &err),
      atc::ParseStatus::kError);
  EXPECT_NE(err.find("has 101 profiles, which is greater than the maximum 100"),
            std::string::npos)
      << err;
  // Ascend950 takes up to 256.
  EXPECT_EQ(Parse({"--input_shape=x:-1,4", "--soc_version=Ascend950PR_9599",
                   "--dynamic_batch_size=" + Gears(256)},
                  &o, &err),
            atc::ParseStatus::kOk)
      << err;
  EXPECT_EQ(Parse({"--input_shape=x:-1,4", "--soc_version=Ascend950PR_9599",
                   "--dynamic_batch_size=" + Gears(257)},
                  &o, &err),
            atc::ParseStatus::kError);
  EXPECT_NE(err.find("maximum 256"), std::string::npos) << err;
}

struct Refusal {
  std::vector<std::string> args;
  const char* expected;
};

TEST(AtcGearOptions, Refusals) {
  const Refusal cases[] = {
      {{"--input_shape=x:-1,4", "--dynamic_batch_size=1,2",
        "--dynamic_dims=1;2"},
       "are mutually exclusive"},
      {{"--input_shape=x:-1,4"},
       "neither --dynamic_batch_size nor --dynamic_dims is set"},
      {{"--dynamic_batch_size=1,2"}, "needs --input_shape"},
      {{"--input_shape=x:2,4", "--dynamic_batch_size=1,2"},
       "none of the nodes specified in --input_shape has a batch size "
       "equaling -1"},
      {{"--input_shape=x:-1,-1", "--dynamic_batch_size=1,2"},
       "only batch size N can be -1"},
      {{"--input_shape=x:4,-1", "--dynamic_batch_size=1,2"},
       "only batch size N can be -1"},
      {{"--input_shape=x:", "--dynamic_batch_size=1,2"}, "less than 1"},
      {{"--input_shape=x:-1,4", "--dynamic_batch_size=2"},
       "has 1 profiles, which is less than the minimum 2."},
      {{"--input_shape=x:-1,4", "--dynamic_batch_size=2,1,2"},
       "duplicate profiles"},
      {{"--input_shape=x:-1,4", "--dynamic_batch_size=0,2"},
       "Dimension size 0 is invalid. The value must be greater than 0."},
      {{"--input_shape=x:-1,4", "--dynamic_batch_size=1;2"},
       "It can only contain digits and \",\""},
      {{"--input_shape=x:-1,4", "--dynamic_batch_size=1,,2"},
       "is not a gear value"},
      {{"--input_shape=x:2,4", "--input_format=ND", "--dynamic_dims=1;2"},
       "At least one dim should be -1 when dynamic_dims is set."},
      {{"--input_shape=x:-1,-1", "--input_format=ND", "--dynamic_dims=1;2"},
       "Each setting needs to be consistent with the number of -1"},
      {{"--input_shape=x:-1,4", "--dynamic_dims=1;2"},
       "needs --input_format=ND"},
      {{"--input_shape=x:-1,4", "--input_format=ND", "--dynamic_dims=;"},
       "Parameter --dynamic_dims is not configured or is empty."},
      {{"--input_shape=x:-1,4", "--input_format=ND", "--dynamic_dims=1;a"},
       "is not a gear value"},
      {{"--input_shape=x:-1,4", "--input_format=ND", "--dynamic_dims=1;0"},
       "The value must be greater than 0."},
      {{"--input_shape=x:-1,-1", "--input_format=ND", "--dynamic_dims=1,2;1,2"},
       "duplicate profiles"},
      {{"--input_shape=x:-1,4", "--input_format=ND", "--dynamic_dims=3"},
       "less than the minimum 2."},
      {{"--mode=6"}, "--mode=6 needs --om="},
      {{"--om=a.om"}, "--om is read only with --mode=6"},
  };
  for (const Refusal& c : cases) {
    atc::AtcOptions o;
    std::string err;
    EXPECT_EQ(Parse(c.args, &o, &err), atc::ParseStatus::kError) << c.expected;
    EXPECT_NE(err.find(c.expected), std::string::npos)
        << "expected '" << c.expected << "', got '" << err << "'";
  }
}

// --- Compiled gear models ---------------------------------------------------

constexpr int64_t kK = 4;
constexpr int64_t kN = 3;

std::vector<float> Weights() { return testing::Ramp(kK * kN, 0.25f, -1.5f); }
std::vector<float> Bias() { return {0.5f, -0.25f, 0.0f}; }

// y = Relu(x @ W + b), x float32 [batch, 4] with a symbolic batch.
OnnxBuilder MatMulAddRelu() {
  OnnxBuilder b;
  b.Input("x", {-1, kK}).OutputNoShape("y", 2);
  b.InitF32("W", {kK, kN}, Weights());
  b.InitF32("b", {kN}, Bias());
  b.Node("MatMul", {"x", "W"}, {"m"}, "matmul");
  b.Node("Add", {"m", "b"}, {"s"}, "add");
  b.Node("Relu", {"s"}, {"y"}, "relu");
  return b;
}

std::vector<float> MatMulAddReluReference(const std::vector<float>& x,
                                          int64_t batch) {
  const std::vector<float> w = Weights();
  const std::vector<float> bias = Bias();
  std::vector<float> y(static_cast<size_t>(batch * kN));
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t c = 0; c < kN; ++c) {
      float acc = 0;
      for (int64_t k = 0; k < kK; ++k) acc += x[r * kK + k] * w[k * kN + c];
      y[r * kN + c] = std::max(0.0f, acc + bias[c]);
    }
  }
  return y;
}

// Runs gear `gear` of `model` on `inputs` (buffers of the model-level, i.e.
// largest, sizes); returns the outputs, each at its model-level size, -7
// where the gear does not write.
std::vector<std::vector<float>> RunGear(Model& model, size_t gear,
                                        std::vector<std::vector<float>> in) {
  std::vector<const void*> in_ptrs;
  for (size_t i = 0; i < in.size(); ++i) {
    in[i].resize(model.inputs()[i].size_bytes / sizeof(float), 0.0f);
    in_ptrs.push_back(in[i].data());
  }
  int32_t gear_value[8] = {};
  in_ptrs.push_back(gear_value);
  std::vector<std::vector<float>> out(model.outputs().size());
  std::vector<void*> out_ptrs;
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].assign(model.outputs()[i].size_bytes / sizeof(float), -7.0f);
    out_ptrs.push_back(out[i].data());
  }
  std::string error;
  EXPECT_TRUE(
      model.RunGear(gear, in_ptrs.data(), out_ptrs.data(), nullptr, &error))
      << error;
  return out;
}

class AtcGears : public AtcTest {};

TEST_F(AtcGears, DynamicBatchRunsEveryGear) {
  std::unique_ptr<Model> model =
      CompileAndLoad(MatMulAddRelu(), "batch",
                     {"--input_shape=x:-1,4", "--dynamic_batch_size=1,2,4"});
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->num_gears(), 3u);
  const GearTable& table = model->gear_table();
  EXPECT_EQ(table.type, DynamicType::kDynamicBatch);
  EXPECT_EQ(table.values, (std::vector<std::vector<int64_t>>{{1}, {2}, {4}}));
  // Inputs: x with -1 in the batch at the largest gear's size, then the gear
  // input, int32 [1].
  ASSERT_EQ(model->inputs().size(), 2u);
  EXPECT_EQ(model->inputs()[0].shape, testing::Dims({-1, kK}));
  EXPECT_EQ(model->inputs()[0].size_bytes, 4 * kK * sizeof(float));
  EXPECT_EQ(model->inputs()[1].name, "ascend_mbatch_shape_data");
  EXPECT_EQ(model->inputs()[1].dtype, DType::kInt32);
  EXPECT_EQ(model->inputs()[1].shape, testing::Dims({1}));
  EXPECT_EQ(model->outputs()[0].shape, testing::Dims({4, kN}));

  const std::vector<float> x = testing::Ramp(4 * kK, 0.3f, -2.0f);
  for (size_t g = 0; g < 3; ++g) {
    const int64_t batch = table.values[g][0];
    EXPECT_EQ(model->gear_inputs(g)[0].shape, testing::Dims({batch, kK}));
    EXPECT_EQ(model->gear_outputs(g)[0].shape, testing::Dims({batch, kN}));
    const std::vector<float> want = MatMulAddReluReference(x, batch);
    const std::vector<std::vector<float>> got = RunGear(*model, g, {x});
    for (size_t i = 0; i < got[0].size(); ++i) {
      if (i < want.size()) {
        EXPECT_NEAR(got[0][i], want[i], 1e-5f) << "batch " << batch << " " << i;
      } else {
        EXPECT_EQ(got[0][i], -7.0f) << "gear " << batch << " wrote past " << i;
      }
    }
  }
}

// a float32 [2, S], b float32 [T, 2]; y = MatMul(b, Reshape(a, [0, -1]))
// [T, S] and z = Reshape(y, [-1]) [T * S]. Gears list (S, T), the -1s of
// --input_shape=a:2,-1;b:-1,2 in order.
OnnxBuilder TwoInputReshape() {
  OnnxBuilder b;
  b.Input("a", {2, -1}).Input("b", {-1, 2});
  b.OutputNoShape("y", 2).OutputNoShape("z", 1);
  b.ConstI64("keep", {0, -1});
  b.ConstI64("flat", {-1});
  b.Node("Reshape", {"a", "keep"}, {"a2"}, "reshape_keep");
  b.Node("MatMul", {"b", "a2"}, {"y"}, "matmul");
  b.Node("Reshape", {"y", "flat"}, {"z"}, "reshape_flat");
  return b;
}

TEST_F(AtcGears, DynamicDimsRunsEveryGear) {
  std::unique_ptr<Model> model =
      CompileAndLoad(TwoInputReshape(), "dims",
                     {"--input_shape=a:2,-1;b:-1,2", "--input_format=ND",
                      "--dynamic_dims=1,1;3,2;8,8"});
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->num_gears(), 3u);
  const GearTable& table = model->gear_table();
  EXPECT_EQ(table.type, DynamicType::kDynamicDims);
  EXPECT_EQ(table.shape_order, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(table.positions,
            (std::vector<std::pair<uint32_t, uint32_t>>{{0, 1}, {1, 0}}));
  ASSERT_EQ(model->inputs().size(), 3u);
  EXPECT_EQ(model->inputs()[0].shape, testing::Dims({2, -1}));
  EXPECT_EQ(model->inputs()[1].shape, testing::Dims({-1, 2}));
  EXPECT_EQ(model->inputs()[2].shape, testing::Dims({2}));  // two values
  EXPECT_EQ(model->inputs()[0].size_bytes, 2 * 8 * sizeof(float));
  EXPECT_EQ(model->outputs()[1].shape, testing::Dims({64}));

  const std::vector<float> a = testing::Ramp(16, 0.5f, -3.0f);
  const std::vector<float> bm = testing::Ramp(16, 0.2f, 1.0f);
  for (size_t g = 0; g < 3; ++g) {
    const int64_t s = table.values[g][0];
    const int64_t t = table.values[g][1];
    EXPECT_EQ(model->gear_outputs(g)[0].shape, testing::Dims({t, s}));
    EXPECT_EQ(model->gear_outputs(g)[1].shape, testing::Dims({t * s}));
    const std::vector<std::vector<float>> got = RunGear(*model, g, {a, bm});
    for (int64_t r = 0; r < t; ++r) {
      for (int64_t c = 0; c < s; ++c) {
        // a is [2, S] row-major; b is [T, 2].
        const float want = bm[r * 2] * a[c] + bm[r * 2 + 1] * a[s + c];
        EXPECT_NEAR(got[0][r * s + c], want, 1e-5f) << g << " " << r << c;
        EXPECT_NEAR(got[1][r * s + c], want, 1e-5f) << g << " " << r << c;
      }
    }
    if (t * s < 64) {  // the gear writes only its own bytes
      EXPECT_EQ(got[1][static_cast<size_t>(t * s)], -7.0f) << g;
    }
  }
}

// x float32 [B, 4]. y = Reshape(x, Concat(Gather(Shape(x), [0]), [2, 2]))
// [B, 2, 2]; z = Reshape(x, Concat(Mul(Shape(x, end=1), 2), [2])) [2B, 2];
// w = Slice(x, 0, Shape(x, start=-1) - 1, axis 1) [B, 3]. The int64 chains
// start at a geared input's Shape: atc folds them per gear.
OnnxBuilder ShapeDerivedTargets() {
  OnnxBuilder b;
  b.Input("x", {-1, 4});
  b.OutputNoShape("y", 3).OutputNoShape("z", 2).OutputNoShape("w", 2);
  b.ConstI64("zero", {0});
  b.ConstI64("two", {2});
  b.ConstI64("one", {1});
  b.ConstI64("two_two", {2, 2});
  b.Node("Shape", {"x"}, {"shape"}, "shape");
  b.Node("Gather", {"shape", "zero"}, {"batch"}, "gather");
  OnnxBuilder::AttrInt(
      b.Node("Concat", {"batch", "two_two"}, {"target"}, "concat"), "axis", 0);
  b.Node("Reshape", {"x", "target"}, {"y"}, "reshape");
  onnx::NodeProto& first = b.Node("Shape", {"x"}, {"first"}, "shape_first");
  OnnxBuilder::AttrInt(first, "end", 1);
  b.Node("Mul", {"first", "two"}, {"rows"}, "mul");
  OnnxBuilder::AttrInt(
      b.Node("Concat", {"rows", "two"}, {"target2"}, "concat2"), "axis", 0);
  b.Node("Reshape", {"x", "target2"}, {"z"}, "reshape2");
  onnx::NodeProto& last = b.Node("Shape", {"x"}, {"last"}, "shape_last");
  OnnxBuilder::AttrInt(last, "start", -1);
  b.Node("Sub", {"last", "one"}, {"end"}, "sub");
  b.Node("Slice", {"x", "zero", "end", "one"}, {"w"}, "slice");
  return b;
}

TEST_F(AtcGears, ShapeDerivedTargetsFoldAtEveryGear) {
  for (const bool dims : {false, true}) {
    std::unique_ptr<Model> model = CompileAndLoad(
        ShapeDerivedTargets(), dims ? "shape_dims" : "shape_batch",
        dims ? std::vector<std::string>{"--input_shape=x:-1,4",
                                        "--input_format=ND",
                                        "--dynamic_dims=1;2;5"}
             : std::vector<std::string>{"--input_shape=x:-1,4",
                                        "--dynamic_batch_size=1,2,5"});
    ASSERT_NE(model, nullptr) << dims;
    ASSERT_EQ(model->num_gears(), 3u);
    const std::vector<float> x = testing::Ramp(5 * 4, 0.5f, -4.0f);
    for (size_t g = 0; g < 3; ++g) {
      const int64_t batch = model->gear_table().values[g][0];
      EXPECT_EQ(model->gear_outputs(g)[0].shape, testing::Dims({batch, 2, 2}));
      EXPECT_EQ(model->gear_outputs(g)[1].shape, testing::Dims({2 * batch, 2}));
      EXPECT_EQ(model->gear_outputs(g)[2].shape, testing::Dims({batch, 3}));
      const std::vector<std::vector<float>> got = RunGear(*model, g, {x});
      for (int64_t i = 0; i < batch * 4; ++i) {
        // Reshape keeps the row-major data.
        EXPECT_EQ(got[0][i], x[i]) << dims << " gear " << g << " " << i;
        EXPECT_EQ(got[1][i], x[i]) << dims << " gear " << g << " " << i;
      }
      for (int64_t r = 0; r < batch; ++r) {
        for (int64_t c = 0; c < 3; ++c) {
          EXPECT_EQ(got[2][r * 3 + c], x[r * 4 + c]) << dims << " " << g;
        }
      }
      if (batch < 5) {
        EXPECT_EQ(got[0][static_cast<size_t>(batch * 4)], -7.0f);
      }
    }
  }
}

TEST_F(AtcGears, AGraphWrongAtOneGearIsRefusedNamingTheGear) {
  // Reshape to a fixed [4, 2]: right for batch 2 only.
  OnnxBuilder b;
  b.Input("x", {-1, 4}).OutputNoShape("y", 2);
  b.ConstI64("shape", {4, 2});
  b.Node("Reshape", {"x", "shape"}, {"y"}, "reshape");
  AtcResult r =
      Compile(b, "bad", {"--input_shape=x:-1,4", "--dynamic_batch_size=2,3"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("at gear 1 of --dynamic_batch_size (batch 3): "),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(testing::FileExists(Path("bad.om")));
  // The graph itself is fine at batch 2.
  r = Compile(b, "good", {"--input_shape=x:2,4"});
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(AtcGears, EveryInputMustBeInTheInputShape) {
  OnnxBuilder b;
  b.Input("x", {-1, 4}).Input("y", {1, 4}).OutputNoShape("z", 2);
  b.Node("Add", {"x", "y"}, {"z"}, "add");
  AtcResult r =
      Compile(b, "m", {"--input_shape=x:-1,4", "--dynamic_batch_size=1,2"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("needs --input_shape to give every input"),
            std::string::npos)
      << r.err;
  r = Compile(b, "m",
              {"--input_shape=x:-1,4;y:1,4", "--dynamic_batch_size=1,2"});
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(AtcGears, AnInputNamedLikeTheGearInputIsRefused) {
  OnnxBuilder b;
  b.Input("ascend_mbatch_shape_data", {-1, 4}).OutputNoShape("y", 2);
  b.Node("Relu", {"ascend_mbatch_shape_data"}, {"y"}, "relu");
  AtcResult r = Compile(b, "m",
                        {"--input_shape=ascend_mbatch_shape_data:-1,4",
                         "--dynamic_batch_size=1,2"});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("has the name of the gear input"), std::string::npos)
      << r.err;
}

TEST_F(AtcGears, ModeSixShowsTheGears) {
  ASSERT_EQ(Compile(MatMulAddRelu(), "batch",
                    {"--input_shape=x:-1,4", "--dynamic_batch_size=1,2,4"})
                .code,
            0);
  AtcResult r = testing::RunAtcArgs({"--mode=6", "--om=" + Path("batch.om")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("dynamic: dynamic_batch_size, 3 gears, gear input "
                       "'ascend_mbatch_shape_data' (input 1)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("input 0 'x' float32 [-1,4]"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("gear 2: 4\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output 0 'y' float32 [4,3]"), std::string::npos)
      << r.out;
  // The ops, by name and type (gear 0's; every gear runs the same ops).
  EXPECT_NE(r.out.find("\nops: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("' Relu\n"), std::string::npos) << r.out;
  // A static model says so.
  ASSERT_EQ(Compile(MatMulAddRelu(), "static", {"--input_shape=x:2,4"}).code,
            0);
  r = testing::RunAtcArgs({"--mode=6", "--om=" + Path("static.om")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("dynamic: none"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  op 0 '"), std::string::npos) << r.out;
  r = testing::RunAtcArgs({"--mode=6", "--om=" + Path("batch.onnx")});
  EXPECT_EQ(r.code, atc::kAtcFailureExit);
  EXPECT_NE(r.err.find("not an emulator .om"), std::string::npos) << r.err;
}

TEST_F(AtcGears, ModeThreeWritesNothing) {
  AtcResult r =
      Compile(MatMulAddRelu(), "pre",
              {"--input_shape=x:-1,4", "--dynamic_batch_size=1,2", "--mode=3"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(testing::FileExists(Path("pre.om")));
}

TEST_F(AtcGears, ExternalWeightsAreWrittenOnceAndSharedByEveryGear) {
  // MatMulAddRelu with W and b stored as ONNX external data.
  const std::vector<float> w = Weights();
  const std::vector<float> bias = Bias();
  WriteFile("w.data", testing::AsBytes(w) + std::string(16, '\0') +
                          testing::AsBytes(bias));
  OnnxBuilder b;
  b.Input("x", {-1, kK}).OutputNoShape("y", 2);
  b.InitExternal("W", onnx::TensorProto::FLOAT, {kK, kN},
                 {{"location", "w.data"}, {"length", "48"}});
  b.InitExternal("b", onnx::TensorProto::FLOAT, {kN},
                 {{"location", "w.data"}, {"offset", "64"}, {"length", "12"}});
  b.Node("MatMul", {"x", "W"}, {"m"}, "matmul");
  b.Node("Add", {"m", "b"}, {"s"}, "add");
  b.Node("Relu", {"s"}, {"y"}, "relu");
  for (const char* mode : {"1", "2"}) {
    const std::string name = std::string("ext") + mode;
    AtcResult r = Compile(b, name,
                          {"--input_shape=x:-1,4", "--dynamic_batch_size=1,2,4",
                           std::string("--external_weight=") + mode});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::vector<uint8_t> om = testing::ReadBytes(Path(name + ".om"));
    Program p;
    std::string error;
    ASSERT_TRUE(ReadOm(om.data(), om.size(), &p, &error)) << error;
    ASSERT_EQ(p.gears.size(), 3u);
    EXPECT_TRUE(p.weights.empty()) << mode;  // every weight is in the files
    ASSERT_EQ(p.external_weights.size(), mode[0] == '1' ? 2u : 1u);
    // Every gear names the same files at the same offsets.
    std::vector<std::pair<uint32_t, uint64_t>> first;
    for (size_t g = 0; g < p.gears.size(); ++g) {
      EXPECT_TRUE(p.gears[g].external_weights.empty());
      std::vector<std::pair<uint32_t, uint64_t>> refs;
      for (const TensorInfo& t : p.gears[g].tensors) {
        if (t.location == TensorLocation::kExternal) {
          refs.emplace_back(t.file, t.offset);
        }
      }
      EXPECT_EQ(refs.size(), 2u);
      if (g == 0) first = refs;
      EXPECT_EQ(refs, first) << "gear " << g;
    }
    // Corrupt tables are still rejected, never crash.
    testing::CheckAllTruncations(om);
    const auto stats = testing::CheckRandomCorruptions(om, 2000, /*seed=*/5);
    EXPECT_GT(stats.rejected, stats.attempts / 2);
  }
}

TEST_F(AtcGears, CorruptedGearModelsNeverCrash) {
  ASSERT_EQ(Compile(TwoInputReshape(), "dims",
                    {"--input_shape=a:2,-1;b:-1,2", "--input_format=ND",
                     "--dynamic_dims=1,1;3,2"})
                .code,
            0);
  const std::vector<uint8_t> om = testing::ReadBytes(Path("dims.om"));
  testing::CheckAllTruncations(om);
  const auto stats = testing::CheckRandomCorruptions(om, 5000, /*seed=*/77);
  EXPECT_GT(stats.rejected, stats.attempts / 2);
}

}  // namespace
}  // namespace ascend_emu
