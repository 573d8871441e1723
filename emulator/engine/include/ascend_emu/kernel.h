// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The contract between the emulator's interpreter and its reference kernels.
//
// A kernel implements one ONNX operator with ONNX semantics. It knows nothing
// about ACL, the .om format or memory planning: it gets attributes, input
// tensors and output tensors whose shapes were fixed by its own Infer
// function, and computes.
//
// Infer runs twice: in atc (to plan buffers and refuse what the emulator
// cannot run) and again when an .om is loaded (to validate every op of an
// untrusted file before any kernel touches memory). So a kernel's Run may
// trust that its tensors have exactly the shapes and dtypes Infer produced.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/tensor.h"

namespace ascend_emu {

struct Attribute {
  enum class Kind : int32_t {
    kInt = 1,
    kFloat = 2,
    kString = 3,
    kInts = 4,
    kFloats = 5
  };
  Kind kind = Kind::kInt;
  int64_t i = 0;
  float f = 0.0f;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
};

// ONNX attributes of one node, by name. Getters return the fallback when the
// attribute is absent and throw nothing: a wrong kind is reported by Has*().
class Attributes {
 public:
  std::map<std::string, Attribute>& map() { return map_; }
  const std::map<std::string, Attribute>& map() const { return map_; }

  bool Has(const std::string& name) const { return map_.count(name) != 0; }
  int64_t GetInt(const std::string& name, int64_t fallback) const;
  float GetFloat(const std::string& name, float fallback) const;
  std::string GetString(const std::string& name,
                        const std::string& fallback) const;
  // Empty vector when absent.
  std::vector<int64_t> GetInts(const std::string& name) const;
  std::vector<float> GetFloats(const std::string& name) const;

 private:
  std::map<std::string, Attribute> map_;
};

struct InferContext {
  const Attributes& attrs;
  // Inputs in ONNX order. Absent optional inputs have shape.rank == -1.
  // data is non-null only for constant inputs (initializers), which lets
  // ops like Reshape read their shape operand at compile time.
  const std::vector<TensorRef>& inputs;
  // Filled by Infer: dtype and shape of every output (data stays null).
  std::vector<TensorRef>& outputs;
  // Filled by Infer when the kernel needs scratch memory at run time.
  size_t scratch_bytes = 0;
};

// What a kernel made once for one op of a loaded model (PrepareFn): e.g. a
// library's convolution primitive and its weights reordered into the layout
// that primitive reads. Owned by the model, destroyed with it.
//
// Layouts between prepared ops: the loader (model.cc, AgreeLayouts) asks the
// producer of an activation that only prepared ops read (not a graph input or
// output) for a layout it would rather write, asks every reader whether it
// can read that, and when all agree tells each side once, before any run.
// The tensor's bytes are then in that layout (same size) while its shape in
// the .om stays the plain one: CANN's TransData elision done at load, which
// leaves the .om format alone (docs/emulator.md, "Layouts between ops").
enum class TensorLayout : uint8_t {
  kPlain = 0,  // row-major in the tensor's shape (what the .om says)
  kNhwc = 1,   // a 4-D [N, C, H, W] tensor stored as [N, H, W, C]
};

class PreparedOp {
 public:
  virtual ~PreparedOp() = default;
  // The layout this op would write output `index` in (kPlain: no other).
  virtual TensorLayout PreferredOutputLayout(size_t /*index*/) const {
    return TensorLayout::kPlain;
  }
  // Whether this op can read input `index` in `layout`.
  virtual bool CanReadInput(size_t /*index*/, TensorLayout /*layout*/) const {
    return false;
  }
  // The agreement, at load: output `index` is written, input `index` read,
  // in `layout` (one the op offered) from now on.
  virtual void UseOutputLayout(size_t /*index*/, TensorLayout /*layout*/) {}
  virtual void UseInputLayout(size_t /*index*/, TensorLayout /*layout*/) {}
};

struct RunContext {
  const Attributes& attrs;
  const TensorRef* inputs;
  size_t num_inputs;
  TensorRef* outputs;
  size_t num_outputs;
  void* scratch;  // scratch_bytes from Infer, 64-byte aligned
  // What the kernel's PrepareFn made for this op at load, or null: atc's
  // constant folding, the float16 wrappers and tests run without it, so a
  // kernel's Run must be correct (if slower) when it is null.
  const PreparedOp* prepared = nullptr;
};

// Called once per op when a model is loaded (after Infer validated it), for
// work that does not depend on the input data: inputs[i].data is non-null
// only for constant inputs (weights), which stay at that address, unchanged,
// for the model's lifetime. Returns null when there is nothing to prepare
// (e.g. a geometry the fast path does not take) and throws only on out of
// memory; Run then gets prepared == null.
struct PrepareContext {
  const Attributes& attrs;
  const std::vector<TensorRef>& inputs;
  const std::vector<TensorRef>& outputs;
};

// Returns "" on success, else a message naming the problem
// (e.g. "Conv: group 3 does not divide input channels 4").
using InferFn = std::string (*)(InferContext& ctx);
using RunFn = void (*)(const RunContext& ctx);
using PrepareFn = std::unique_ptr<PreparedOp> (*)(const PrepareContext& ctx);

// Which inputs a node of an op must have: one row of kernels.def per kernel
// (the one place an op's input arity is stated).
enum class InputKind : uint8_t {
  kFixed,     // exactly `required` inputs
  kOptional,  // inputs from `required` on may be absent (rank -1)
  kVariadic,  // up to `max` inputs, every one present
};
struct InputArity {
  uint16_t required;  // inputs 0..required-1 must be present
  uint16_t max;       // no node has more inputs
  InputKind kind;
};

struct KernelDef {
  const char* op_type;  // ONNX op type, e.g. "Conv"
  InferFn infer;
  RunFn run;
  InputArity arity;
  PrepareFn prepare;  // null for most kernels: nothing to prepare at load
};

// The kernel for an ONNX op type, or nullptr when the emulator has none.
const KernelDef* FindKernel(const std::string& op_type);

// "" when a node's inputs fit the kernel's arity (count in required..max, no
// required or variadic input absent), else "<Op>: input <i> ..." naming the
// problem. atc and the .om loader call it before Infer: a kernel's Infer and
// Run may index every input its arity requires without checking presence.
std::string CheckInputArity(const KernelDef& kernel,
                            const std::vector<TensorRef>& inputs);
// Every registered op type, sorted (for messages and documentation).
std::vector<std::string> KernelOpTypes();

// Threads the kernels may use (oneDNN's GEMMs), for the whole process: 1
// until set. libascendcl.so sets it at every aclInit from
// EXECUTORCH_ASCEND_EMU_NUM_THREADS (docs/emulator.md). Clamped to
// [1, kMaxKernelThreads]; takes effect for the next kernel call.
inline constexpr int kMaxKernelThreads = 256;
void SetKernelThreads(int threads);
int KernelThreads();

}  // namespace ascend_emu
