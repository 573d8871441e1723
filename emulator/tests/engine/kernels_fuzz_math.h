// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Random inputs and attributes for the math kernels (unary, binary,
// comparison, logic, IsInf/IsNaN, Where, Mod, Cast, ReduceSum/Max/Min,
// ArgMax/ArgMin, CumSum) in kernels_test_fuzz.cc: they take float16, int32 and
// bool as well, and some need bool conditions or constant axis operands, so the
// fuzzer builds those with every dtype and near-valid operands.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "kernels_test_util.h"

namespace ascend_emu {
namespace testing {

// A random tensor of `s` in one of float32, float16, int32, int64, bool.
template <typename F>
HostTensor MathFuzzTensor(F& f, const Shape& s, int dtype_pick) {
  const size_t n = static_cast<size_t>(s.numel());
  switch (dtype_pick) {
    case 0: {
      std::vector<Eigen::half> v(n);
      for (auto& x : v) x = Eigen::half(static_cast<float>(f.Int(-40, 40)) / 8);
      return HostTensor::Of(DType::kFloat16, s, v);
    }
    case 1: {
      std::vector<int32_t> v(n);
      for (auto& x : v) x = static_cast<int32_t>(f.Int(-5, 5));
      return HostTensor::Of(DType::kInt32, s, v);
    }
    case 2: {
      std::vector<int64_t> v(n);
      for (auto& x : v) x = f.Int(-5, 5);
      return HostTensor::I64(s, v);
    }
    case 3: {
      std::vector<uint8_t> v(n);
      for (auto& x : v) x = static_cast<uint8_t>(f.Int(0, 2));
      return HostTensor::Of(DType::kBool, s, v);
    }
    default:
      return RandF32(s, static_cast<uint32_t>(f.Int(0, 1 << 30)));
  }
}

inline bool IsMathFuzzOp(const std::string& op) {
  static const std::set<std::string> kOps = {
      "Abs",         "And",       "ArgMax",      "ArgMin",
      "Cast",        "Ceil",      "Clip",        "Cos",
      "CumSum",      "Elu",       "Equal",       "Erf",
      "Exp",         "Floor",     "Greater",     "GreaterOrEqual",
      "HardSigmoid", "HardSwish", "IsInf",       "IsNaN",
      "LeakyRelu",   "Less",      "LessOrEqual", "Log",
      "Max",         "Min",       "Mod",         "Neg",
      "Not",         "Or",        "Pow",         "Reciprocal",
      "ReduceMax",   "ReduceMin", "ReduceSum",   "Round",
      "Sigmoid",     "Sign",      "Sin",         "Sqrt",
      "Tanh",        "TopK",      "Where",       "Xor"};
  return kOps.count(op) != 0;
}

// Fills `in` and returns true when `op` is one of the math kernels. `F` is
// the fuzzer (Int(lo, hi), Coin(percent), RandomShape(max_rank)).
template <typename F>
bool MathFuzzInputs(F& f, const std::string& op, std::vector<HostTensor>* in) {
  if (!IsMathFuzzOp(op)) return false;
  // float32 half the time, each other dtype a tenth or more.
  auto pick = [&] { return static_cast<int>(f.Coin(50) ? 9 : f.Int(0, 3)); };
  auto near = [&](const Shape& like) {
    Shape s = like;
    if (f.Coin(20) && s.rank > 0) --s.rank;
    for (int32_t i = 0; i < s.rank; ++i) {
      if (f.Coin(25)) s.dims[i] = f.Coin() ? 1 : f.Int(0, 5);
    }
    return s;
  };
  auto axis_operand = [&](bool vector, int64_t lo, int64_t hi) {
    std::vector<int64_t> v(vector ? static_cast<size_t>(f.Int(0, 3)) : 1);
    for (int64_t& x : v) x = f.Int(lo, hi);
    HostTensor t = HostTensor::I64(
        vector ? S({static_cast<int64_t>(v.size())}) : S({}), v);
    if (!vector && f.Coin(10)) {
      t = HostTensor::Of(DType::kInt32, S({}),
                         std::vector<int32_t>{static_cast<int32_t>(v[0])});
    }
    return f.Coin(90) ? t.Const() : t;
  };
  int dt = pick();
  const Shape s0 = f.RandomShape(4);
  in->push_back(MathFuzzTensor(f, s0, dt));
  const bool same = f.Coin(90);
  if (op == "And" || op == "Or" || op == "Xor" || op == "Where") {
    dt = f.Coin(80) ? 3 : pick();
    (*in)[0] = MathFuzzTensor(f, s0, dt);
  }
  if (op == "Where") {
    const int xdt = pick();
    in->push_back(MathFuzzTensor(f, near(s0), xdt));
    in->push_back(MathFuzzTensor(f, near(s0), same ? xdt : pick()));
  } else if (op == "Clip") {
    for (int i = 0, n = static_cast<int>(f.Int(0, 2)); i < n; ++i) {
      if (f.Coin(20)) {
        in->push_back(HostTensor::Absent());
      } else {
        in->push_back(MathFuzzTensor(f, f.Coin(80) ? S({}) : near(s0),
                                     same ? dt : pick()));
      }
    }
  } else if (op == "Max" || op == "Min") {
    for (int i = 1, n = static_cast<int>(f.Int(1, 4)); i < n; ++i) {
      in->push_back(MathFuzzTensor(f, near(s0), same ? dt : pick()));
    }
  } else if (op == "Pow" || op == "Mod" || op == "And" || op == "Or" ||
             op == "Xor" || op == "Equal" || op == "Less" ||
             op == "LessOrEqual" || op == "Greater" || op == "GreaterOrEqual") {
    const int bdt = op == "Pow" && f.Coin(30) ? pick() : (same ? dt : pick());
    in->push_back(MathFuzzTensor(f, near(s0), bdt));
  } else if (op == "ReduceSum" || op == "ReduceMax" || op == "ReduceMin") {
    if (f.Coin(50)) in->push_back(axis_operand(true, -4, 4));
  } else if (op == "CumSum") {
    in->push_back(axis_operand(false, -4, 4));
  } else if (op == "TopK") {
    // K: mostly a constant [1] (accepted by any non-empty axis), else 0..6.
    const int64_t k = f.Coin(60) ? 1 : f.Int(0, 6);
    HostTensor kt = HostTensor::I64(S({1}), {k});
    in->push_back(f.Coin(90) ? kt.Const() : kt);
  }
  if (f.Coin(3)) in->push_back(f.RandomTensor(2));  // one input too many
  return true;
}

// Adds random values (valid and not) for the math kernels' attributes.
template <typename F>
void MathFuzzAttrs(F& f, const std::string& op, Attrs* a) {
  if (!IsMathFuzzOp(op)) return;
  if (op == "LeakyRelu" || op == "Elu" || op == "HardSigmoid") {
    if (f.Coin(40)) a->Float("alpha", 0.25f);
    if (op == "HardSigmoid" && f.Coin(40)) a->Float("beta", 0.75f);
  }
  if (op == "Mod" && f.Coin(60)) a->Int("fmod", f.Int(0, 2));
  if (op == "Cast" && f.Coin(95)) {
    const int64_t to[] = {1, 10, 6, 7, 9, 2, 11, 0, 3};
    a->Int("to", to[f.Int(0, 8)]);
  }
  if (op == "ArgMax" || op == "ArgMin") {
    if (f.Coin(60)) a->Int("axis", f.Int(-5, 5));
    if (f.Coin(40)) a->Int("keepdims", f.Int(0, 2));
    if (f.Coin(10)) a->Int("select_last_index", f.Int(0, 1));
  }
  if (op == "TopK") {
    if (f.Coin(60)) a->Int("axis", f.Int(-5, 5));
    if (f.Coin(30)) a->Int("largest", f.Int(0, 2));
    if (f.Coin(30)) a->Int("sorted", f.Int(0, 2));
  }
  if (op == "ReduceSum" || op == "ReduceMax" || op == "ReduceMin") {
    if (op != "ReduceSum" && f.Coin(40)) {
      std::vector<int64_t> axes(static_cast<size_t>(f.Int(0, 3)));
      for (int64_t& x : axes) x = f.Int(-4, 4);
      a->Ints("axes", axes);
    }
    if (f.Coin(40)) a->Int("keepdims", f.Int(0, 2));
    if (f.Coin(20)) a->Int("noop_with_empty_axes", f.Int(0, 1));
  }
  if (op == "IsInf") {
    if (f.Coin(40)) a->Int("detect_positive", f.Int(-1, 2));
    if (f.Coin(40)) a->Int("detect_negative", f.Int(0, 1));
  }
  if (op == "CumSum") {
    if (f.Coin(40)) a->Int("exclusive", f.Int(0, 2));
    if (f.Coin(40)) a->Int("reverse", f.Int(0, 1));
  }
}

}  // namespace testing
}  // namespace ascend_emu
