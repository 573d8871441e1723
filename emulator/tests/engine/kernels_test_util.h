// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Test harness for the emulator's reference kernels: host tensors, an
// attribute builder, and RunKernel, which drives a kernel exactly as the
// interpreter does (Infer, then Run on buffers of the inferred sizes) and
// checks that Run wrote nothing past its outputs or scratch.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ascend_emu/kernel.h"
#include "ascend_emu/tensor.h"

namespace ascend_emu {
namespace testing {

inline Shape S(std::vector<int64_t> dims) {
  Shape s;
  for (int64_t d : dims) s.dims[s.rank++] = d;
  return s;
}

struct HostTensor {
  DType dtype = DType::kFloat32;
  Shape shape;
  std::vector<unsigned char> bytes;
  bool constant = false;  // visible to Infer (an initializer)

  static HostTensor Absent() {
    HostTensor t;
    t.shape.rank = -1;
    return t;
  }
  template <typename T>
  static HostTensor Of(DType dtype, const Shape& shape,
                       const std::vector<T>& values) {
    HostTensor t;
    t.dtype = dtype;
    t.shape = shape;
    t.bytes.resize(values.size() * sizeof(T));
    if (!values.empty())
      std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
  }
  static HostTensor F32(const Shape& shape, const std::vector<float>& v) {
    return Of(DType::kFloat32, shape, v);
  }
  static HostTensor I64(const Shape& shape, const std::vector<int64_t>& v) {
    return Of(DType::kInt64, shape, v);
  }
  HostTensor& Const() {
    constant = true;
    return *this;
  }
  template <typename T>
  std::vector<T> values() const {
    std::vector<T> v(bytes.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
    return v;
  }
  std::vector<float> f32() const { return values<float>(); }
};

inline std::vector<float> RandomFloats(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = dist(gen);
  return v;
}

// A constant 1-D int64 tensor: the operand form of Slice's starts, Split's
// split, Squeeze's axes, Expand's shape, Tile's repeats.
inline HostTensor Ints(std::vector<int64_t> v) {
  return HostTensor::I64(S({static_cast<int64_t>(v.size())}), v).Const();
}

inline HostTensor RandF32(const Shape& shape, uint32_t seed) {
  return HostTensor::F32(shape, RandomFloats(shape.numel(), seed));
}

class Attrs {
 public:
  Attrs& Int(const std::string& name, int64_t v) {
    Attribute& a = attrs_.map()[name];
    a.kind = Attribute::Kind::kInt;
    a.i = v;
    return *this;
  }
  Attrs& Float(const std::string& name, float v) {
    Attribute& a = attrs_.map()[name];
    a.kind = Attribute::Kind::kFloat;
    a.f = v;
    return *this;
  }
  Attrs& Str(const std::string& name, const std::string& v) {
    Attribute& a = attrs_.map()[name];
    a.kind = Attribute::Kind::kString;
    a.s = v;
    return *this;
  }
  Attrs& Ints(const std::string& name, std::vector<int64_t> v) {
    Attribute& a = attrs_.map()[name];
    a.kind = Attribute::Kind::kInts;
    a.ints = std::move(v);
    return *this;
  }
  Attrs& Floats(const std::string& name, std::vector<float> v) {
    Attribute& a = attrs_.map()[name];
    a.kind = Attribute::Kind::kFloats;
    a.floats = std::move(v);
    return *this;
  }
  const Attributes& get() const { return attrs_; }

 private:
  Attributes attrs_;
};

// Calls of the global operator new; counted only when a test binary
// replaces operator new (kernels_test_noalloc.cc does).
inline std::atomic<long> g_operator_new_calls{0};

struct RunResult {
  std::string error;  // Infer's message, "" when it succeeded
  std::vector<HostTensor> outputs;
  size_t scratch_bytes = 0;
  long run_new_calls = 0;  // operator new calls made by Run itself
  bool prepared = false;   // the kernel's PrepareFn made something
  bool agreed = false;     // the prepared op took every asked layout
};

// Layouts to agree with a prepared kernel before its run, as the loader does
// (model.cc, AgreeLayouts): per input and per output, kPlain for "not
// agreed". Inputs first: an op may offer an output layout only once its
// input's is agreed (MaxPool).
struct AgreedLayouts {
  std::vector<TensorLayout> inputs, outputs;
};

// The data of a float32 [N, C, H, W] tensor in NHWC order (the shape still
// says [N, C, H, W], as an agreed tensor's does), and back.
inline HostTensor ToNhwc(const HostTensor& x) {
  const int64_t n = x.shape.dims[0], c = x.shape.dims[1],
                plane = x.shape.dims[2] * x.shape.dims[3];
  const std::vector<float> v = x.f32();
  std::vector<float> t(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = 0; p < plane; ++p)
        t[(b * plane + p) * c + k] = v[(b * c + k) * plane + p];
  return HostTensor::F32(x.shape, t);
}
inline std::vector<float> FromNhwc(const HostTensor& x) {
  const int64_t n = x.shape.dims[0], c = x.shape.dims[1],
                plane = x.shape.dims[2] * x.shape.dims[3];
  const std::vector<float> v = x.f32();
  std::vector<float> t(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t p = 0; p < plane; ++p)
        t[(b * c + k) * plane + p] = v[(b * plane + p) * c + k];
  return t;
}

// Infer only (no Run): the error, and the output shapes in `result.outputs`.
inline RunResult InferKernel(const std::string& op, const Attrs& attrs,
                             const std::vector<HostTensor>& inputs,
                             size_t num_outputs = 1) {
  RunResult result;
  const KernelDef* k = FindKernel(op);
  if (k == nullptr) {
    result.error = "no kernel for " + op;
    return result;
  }
  std::vector<TensorRef> in(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    in[i].dtype = inputs[i].dtype;
    in[i].shape = inputs[i].shape;
    in[i].data = inputs[i].constant
                     ? const_cast<unsigned char*>(inputs[i].bytes.data())
                     : nullptr;
  }
  std::vector<TensorRef> out(num_outputs);
  InferContext ictx{attrs.get(), in, out};
  result.error = k->infer(ictx);
  result.scratch_bytes = ictx.scratch_bytes;
  for (const TensorRef& t : out) {
    HostTensor h;
    h.dtype = t.dtype;
    h.shape = t.shape;
    result.outputs.push_back(h);
  }
  return result;
}

// Infer then Run. Inputs are copied into buffers of exactly their size;
// outputs and scratch get a guard zone that must survive Run untouched.
// With `prepare`, the kernel's PrepareFn runs first, as at model load (every
// input's data is visible to it, as a weight's is), and Run gets its result.
// With `agreed` (and `prepare`), the layouts it names are agreed with the
// prepared op when it takes them all (`result.agreed`); the inputs' data
// must then be in those layouts already, and the outputs come in them.
inline RunResult RunKernel(const std::string& op, const Attrs& attrs,
                           const std::vector<HostTensor>& inputs,
                           size_t num_outputs = 1, bool prepare = false,
                           const AgreedLayouts* agreed = nullptr) {
  RunResult result = InferKernel(op, attrs, inputs, num_outputs);
  if (!result.error.empty()) return result;
  const KernelDef* k = FindKernel(op);
  constexpr size_t kGuard = 64;
  constexpr unsigned char kPoison = 0xA5;

  std::vector<std::vector<unsigned char>> in_bufs(inputs.size());
  std::vector<TensorRef> in(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(inputs[i].bytes.size(),
              inputs[i].shape.rank < 0
                  ? 0
                  : static_cast<size_t>(inputs[i].shape.numel()) *
                        DTypeSize(inputs[i].dtype))
        << "test bug: input " << i << " data does not match its shape";
    in_bufs[i] = inputs[i].bytes;
    in[i].dtype = inputs[i].dtype;
    in[i].shape = inputs[i].shape;
    in[i].data = in_bufs[i].empty() ? nullptr : in_bufs[i].data();
  }
  std::vector<std::vector<unsigned char>> out_bufs(result.outputs.size());
  std::vector<TensorRef> out(result.outputs.size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].dtype = result.outputs[i].dtype;
    out[i].shape = result.outputs[i].shape;
    out_bufs[i].assign(out[i].nbytes() + kGuard, kPoison);
    out[i].data = out_bufs[i].data();
  }
  const size_t scratch_size = (result.scratch_bytes + kGuard + 63) / 64 * 64;
  unsigned char* scratch =
      static_cast<unsigned char*>(std::aligned_alloc(64, scratch_size));
  std::memset(scratch, kPoison, scratch_size);

  std::unique_ptr<PreparedOp> prepared;
  if (prepare && k->prepare != nullptr) {
    prepared = k->prepare(PrepareContext{attrs.get(), in, out});
    result.prepared = prepared != nullptr;
  }
  if (agreed != nullptr && prepared != nullptr) {
    bool all = true;
    for (size_t i = 0; i < agreed->inputs.size(); ++i) {
      const TensorLayout l = agreed->inputs[i];
      if (l == TensorLayout::kPlain) continue;
      all = all && prepared->CanReadInput(i, l);
      if (all) prepared->UseInputLayout(i, l);
    }
    for (size_t i = 0; all && i < agreed->outputs.size(); ++i) {
      const TensorLayout l = agreed->outputs[i];
      if (l == TensorLayout::kPlain) continue;
      all = prepared->PreferredOutputLayout(i) == l;
      if (all) prepared->UseOutputLayout(i, l);
    }
    result.agreed = all;
    // An agreement taken in part runs in layouts the test did not ask for.
    if (!all) {
      std::free(scratch);
      return result;
    }
  }
  RunContext rctx{attrs.get(), in.data(), in.size(),     out.data(),
                  out.size(),  scratch,   prepared.get()};
  const long before = g_operator_new_calls.load();
  k->run(rctx);
  result.run_new_calls = g_operator_new_calls.load() - before;

  for (size_t i = result.scratch_bytes; i < scratch_size; ++i) {
    if (scratch[i] != kPoison) {
      ADD_FAILURE() << op << " wrote past its scratch at byte " << i;
      break;
    }
  }
  std::free(scratch);
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t n = out[i].nbytes();
    for (size_t j = n; j < out_bufs[i].size(); ++j) {
      if (out_bufs[i][j] != kPoison) {
        ADD_FAILURE() << op << " wrote past output " << i;
        break;
      }
    }
    result.outputs[i].bytes.assign(out_bufs[i].begin(),
                                   out_bufs[i].begin() + n);
  }
  return result;
}

// Row-major strides of a shape.
inline std::vector<int64_t> Strides(const Shape& s) {
  std::vector<int64_t> st(static_cast<size_t>(s.rank));
  int64_t acc = 1;
  for (int32_t i = s.rank - 1; i >= 0; --i) {
    st[i] = acc;
    acc *= s.dims[i];
  }
  return st;
}

// Multi-index of flat index `flat` in `s`.
inline std::vector<int64_t> Unravel(int64_t flat, const Shape& s) {
  std::vector<int64_t> idx(static_cast<size_t>(s.rank));
  for (int32_t i = s.rank - 1; i >= 0; --i) {
    idx[i] = flat % s.dims[i];
    flat /= s.dims[i];
  }
  return idx;
}

inline void ExpectNear(const std::vector<float>& got,
                       const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const float scale = std::max(1.0f, std::abs(want[i]));
    ASSERT_NEAR(got[i], want[i], tol * scale) << "at flat index " << i;
  }
}

// EXPECTs that Infer fails with a message containing `needle`.
#define EXPECT_INFER_FAILS(result, needle)                                  \
  do {                                                                      \
    const std::string& err_ = (result).error;                               \
    EXPECT_FALSE(err_.empty()) << "Infer accepted it";                      \
    EXPECT_NE(err_.find(needle), std::string::npos) << "message: " << err_; \
  } while (0)

}  // namespace testing
}  // namespace ascend_emu
