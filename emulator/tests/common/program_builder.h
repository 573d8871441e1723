// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Pieces of an emulator Program (ascend_emu/program.h) for tests that build
// an .om in-process with the engine's own writer: the engine's sample
// programs and the ACL model tests share these, so there is one .om builder.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "ascend_emu/om_format.h"
#include "ascend_emu/program.h"

namespace ascend_emu {
namespace testing {

inline Shape Dims(std::initializer_list<int64_t> dims) {
  Shape s;
  for (int64_t d : dims) s.dims[s.rank++] = d;
  return s;
}

inline Attribute IntsAttr(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::kInts;
  a.ints = std::move(v);
  return a;
}

// Appends n bytes to the weights, aligned as the .om format wants, and
// returns their offset in *offset.
inline void AppendWeights(Program* p, const void* data, size_t n,
                          uint64_t* offset) {
  p->weights.resize((p->weights.size() + kOmAlignment - 1) / kOmAlignment *
                    kOmAlignment);
  *offset = p->weights.size();
  const uint8_t* b = static_cast<const uint8_t*>(data);
  p->weights.insert(p->weights.end(), b, b + n);
}

inline TensorInfo MakeTensor(const std::string& name, DType dtype, Shape shape,
                             TensorLocation location, uint64_t offset) {
  TensorInfo t;
  t.name = name;
  t.dtype = dtype;
  t.shape = shape;
  t.location = location;
  t.offset = offset;
  return t;
}

inline IoInfo MakeIo(const std::string& name, DType dtype, Shape shape,
                     uint32_t tensor) {
  IoInfo io;
  io.name = name;
  io.dtype = dtype;
  io.format = ACL_FORMAT_ND;
  io.shape = shape;
  io.tensor = tensor;
  return io;
}

inline OpInfo MakeOp(const std::string& type, const std::string& name,
                     std::vector<int32_t> inputs,
                     std::vector<int32_t> outputs) {
  OpInfo op;
  op.op_type = type;
  op.name = name;
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  return op;
}

}  // namespace testing
}  // namespace ascend_emu
