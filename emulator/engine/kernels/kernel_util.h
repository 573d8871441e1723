// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Validation helpers every kernel's Infer uses, and the few small helpers
// kernels of several families share. Infer also runs on untrusted .om data,
// so shapes, counts, dtypes and attributes are all checked here before any
// Run can touch memory.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include "ascend_emu/kernel.h"
#include "ascend_emu/tensor.h"

namespace ascend_emu {
namespace kernels {

// No single tensor or scratch buffer may exceed this many bytes (1 TiB). Far
// above any real model, far below int64 overflow, so sums and products of a
// few such sizes stay exact.
constexpr int64_t kMaxTensorBytes = int64_t{1} << 40;

// `bytes` rounded up to a multiple of 64: where each part of an op's
// scratch starts (the arena gives the scratch 64-byte aligned).
inline size_t Align64(int64_t bytes) {
  return static_cast<size_t>((bytes + 63) / 64 * 64);
}

// "<op>: <message>", the form of every Infer error.
std::string Fail(const char* op, const std::string& message);

// a * b for non-negative a, b; false when the product exceeds
// kMaxTensorBytes (so the caller refuses instead of overflowing).
bool MulBounded(int64_t a, int64_t b, int64_t* out);

// "" when `shape` has a rank in [0, kMaxRank], non-negative dims and at most
// kMaxTensorBytes / elem_size elements.
std::string ValidateShape(const Shape& shape, size_t elem_size);

// Checks the number of inputs (min..max), that the first `min` are present,
// and that every present input has a valid dtype and shape.
std::string CheckInputs(const char* op, const InferContext& ctx, size_t min,
                        size_t max);

// Refuses attributes the op does not know and known ones of the wrong kind.
std::string CheckAttributes(
    const char* op, const Attributes& attrs,
    std::initializer_list<std::pair<const char*, Attribute::Kind>> allowed);

// Sizes ctx.outputs to `count`. A caller that pre-sized outputs to the node's
// output count gets a refusal when the node asks for outputs the kernel does
// not produce (e.g. MaxPool's Indices).
std::string PrepareOutputs(const char* op, InferContext& ctx, size_t count);

// Sets output `index` and validates its size.
std::string SetOutput(const char* op, InferContext& ctx, size_t index,
                      DType dtype, const Shape& shape);

// Optional input `i` of n, present only when the node has it and it is not
// named "".
inline const TensorRef* OptionalInput(const TensorRef* inputs, size_t n,
                                      size_t i) {
  return i < n && inputs[i].present() ? &inputs[i] : nullptr;
}

// Copies src's bytes to dst (same size) unless the interpreter ran the op in
// place: the Run of every op that only changes the shape.
void CopyBytes(const TensorRef& src, const TensorRef& dst);

// Maps axis from [-rank, rank + extra) to [0, rank + extra); false if outside.
bool NormalizeAxis(int64_t axis, int32_t rank, int32_t extra, int32_t* out);

// Numpy/ONNX multidirectional broadcast of a and b; false if incompatible.
bool BroadcastShapes(const Shape& a, const Shape& b, Shape* out);

// Row-major element strides of `shape` aligned to the right of an output of
// rank `out_rank`, with 0 for broadcast (size-1 or missing) dims.
void BroadcastStrides(const Shape& shape, int32_t out_rank,
                      int64_t strides[kMaxRank]);

// Allocation-free attribute access, used by Infer and Run alike (Run is the
// hot path): Attributes' getters return copies, and a std::map lookup by a
// name longer than the small-string buffer would allocate. Absent attributes
// and attributes of another kind read as absent (CheckAttributes has already
// refused wrong kinds in Infer).
const Attribute* FindAttr(const Attributes& attrs, const char* name,
                          Attribute::Kind kind);
inline bool HasAttr(const Attributes& attrs, const char* name,
                    Attribute::Kind kind) {
  return FindAttr(attrs, name, kind) != nullptr;
}
int64_t AttrInt(const Attributes& attrs, const char* name, int64_t fallback);
float AttrFloat(const Attributes& attrs, const char* name, float fallback);
// The string, or `fallback` when absent.
const char* AttrString(const Attributes& attrs, const char* name,
                       const char* fallback);

// A view of an ints attribute stored in Attributes (valid while they live).
struct IntsView {
  const int64_t* data = nullptr;
  size_t size = 0;
  bool present = false;
  int64_t operator[](size_t i) const { return data[i]; }
};
IntsView AttrInts(const Attributes& attrs, const char* name);

inline Shape MakeShape(std::initializer_list<int64_t> dims) {
  Shape s;
  for (int64_t d : dims) s.dims[s.rank++] = d;
  return s;
}

// A shape as [outer, len, inner] around `axis`: the geometry of the ops
// that work along one axis (ArgMax/ArgMin, TopK).
struct AxisSplit {
  int64_t outer = 1, len = 1, inner = 1;
};
inline AxisSplit SplitAroundAxis(const Shape& s, int32_t axis) {
  AxisSplit a;
  for (int32_t i = 0; i < axis; ++i) a.outer *= s.dims[i];
  a.len = s.dims[axis];
  for (int32_t i = axis + 1; i < s.rank; ++i) a.inner *= s.dims[i];
  return a;
}

}  // namespace kernels
}  // namespace ascend_emu
