// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A compiled emulator model: an .om image parsed, validated and ready to run.
// This is the only engine type libascendcl.so (emulator/acl) uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "ascend_emu/program.h"
#include "ascend_emu/tensor.h"

namespace ascend_emu {

struct IoDesc {
  std::string name;
  DType dtype;
  aclFormat
      format;  // ACL_FORMAT_NCHW for 4-D inputs (atc --input_format), else ND
  Shape shape;
  size_t size_bytes;
  // What aclmdlGetInputDims reports when it is not `shape` (rank 0: it is):
  // CANN describes a YUV420SP_U8 AIPP frame's Data node as [N, H, W, 3]
  // while its buffer is [N, H*3/2, W, 1], which aclmdlGetInputDimsV2 reports
  // (docs/aipp.md).
  Shape described;
  // The input's part in an Aipp step (aclmdlGetAippType): none, the frame of
  // a static one, the frame of a dynamic one, or a dynamic one's parameter
  // buffer (ascend_dynamic_aipp_data). For the two dynamic roles,
  // `aipp_link` is the index of the other input and `aipp_output` the model
  // input [N, C, H, W] the step writes.
  enum class Aipp : uint8_t { kNone, kStatic, kDynamicFrame, kDynamicData };
  Aipp aipp = Aipp::kNone;
  size_t aipp_link = 0;
  Shape aipp_output;
};

// Memory bound to one weight file (aclmdlSetExternalWeightAddress): read in
// place by every run, never copied; must outlive the Model.
struct WeightBinding {
  const void* data = nullptr;
  size_t size = 0;  // >= the file's size
};
using WeightBindings = std::map<std::string, WeightBinding>;

// Caller memory for the inline weights (aclmdlLoadFromMemWithMem's
// weightPtr/weightSize): the load copies the weight section there, once,
// and the model reads it there; it must outlive the Model. Null: the model
// allocates its own.
struct WeightMemory {
  void* data = nullptr;
  size_t size = 0;
};

// When one op of a run started and ended (steady clock, ns). Filled only for
// a run given a timing array (profiling, emulator/acl/profiling.cc).
struct OpTiming {
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

class Model {
 public:
  virtual ~Model() = default;

  // Parses an .om image (docs/om-format.md). Every field is bounds-checked
  // and every op re-validated with its kernel's Infer; on any problem returns
  // nullptr and sets *error. Does not keep a reference to `data`. Every
  // external weight file of the .om must be in `weights` (an unbound file, or
  // a binding smaller than the file, is an error naming the file); bindings
  // of files the .om does not name are errors too.
  //
  // The weight section is copied exactly once, from the image straight to
  // its memory (`memory`, or the model's own), never zero-filled first;
  // external weight files are never copied (docs/om-format.md, "Running").
  static std::unique_ptr<Model> Load(const void* data, size_t size,
                                     const WeightBindings& weights,
                                     const WeightMemory& memory,
                                     std::string* error);
  static std::unique_ptr<Model> Load(const void* data, size_t size,
                                     const WeightBindings& weights,
                                     std::string* error) {
    return Load(data, size, weights, WeightMemory{}, error);
  }
  // Load for an image ReadOmTables already parsed into `program`, its
  // weight section at `section` (still inside the image, which must stay
  // valid during the call): a loader that needed the program first (for
  // its external weight files and sizes) does not parse it twice.
  static std::unique_ptr<Model> LoadParsed(Program program,
                                           const OmWeightSection& section,
                                           const WeightBindings& weights,
                                           const WeightMemory& memory,
                                           std::string* error);
  // An .om with no external weights.
  static std::unique_ptr<Model> Load(const void* data, size_t size,
                                     std::string* error) {
    return Load(data, size, WeightBindings{}, error);
  }

  // The external weight files an .om image names, without loading it (so a
  // loader can read or bind them first). False and *error on a bad image.
  static bool ReadExternalWeights(const void* data, size_t size,
                                  std::vector<ExternalWeightDesc>* weights,
                                  std::string* error);

  // Bytes the model needs while running (activations and scratch) and for
  // its weights held in the .om (external weights not included): what
  // aclmdlQuerySizeFromMem reports.
  virtual size_t work_size() const = 0;
  virtual size_t weight_size() const = 0;
  // Where the inline weights were copied at load (weight_size() bytes):
  // the caller's WeightMemory or the model's own.
  virtual const uint8_t* weight_data() const = 0;
  virtual const std::string& soc_version() const = 0;
  virtual const std::vector<IoDesc>& inputs() const = 0;
  virtual const std::vector<IoDesc>& outputs() const = 0;
  virtual const std::vector<ExternalWeightDesc>& external_weights() const = 0;

  // Shape gears (atc --dynamic_batch_size / --dynamic_dims). A static model
  // has type kStatic and no gears. For a gear model, inputs() and outputs()
  // describe the model as ACL does: -1 in the dynamic dims of inputs, each
  // size the largest over the gears, outputs with the dims of the gear whose
  // output is largest; the last input is the gear input
  // (kGearInputName). gear_inputs(g) / gear_outputs(g) are gear g's own.
  virtual const GearTable& gear_table() const = 0;
  virtual size_t num_gears() const = 0;
  virtual const std::vector<IoDesc>& gear_inputs(size_t gear) const = 0;
  virtual const std::vector<IoDesc>& gear_outputs(size_t gear) const = 0;

  // Runs the program. inputs[i] holds inputs()[i].size_bytes bytes,
  // outputs[i] outputs()[i].size_bytes. `work` is work_size() bytes of
  // caller memory, or nullptr to use memory the model allocated at load.
  // Not reentrant for one Model (one model id runs on one stream at a time).
  // A gear model runs gear 0 here; RunGear picks the gear.
  virtual bool Run(const void* const* inputs, void* const* outputs, void* work,
                   std::string* error) = 0;
  // Runs gear `gear` (< num_gears(); 0 for a static model): reads and
  // writes only that gear's bytes of each buffer (gear_inputs(gear)[i].
  // size_bytes, gear_outputs(gear)[i].size_bytes).
  bool RunGear(size_t gear, const void* const* inputs, void* const* outputs,
               void* work, std::string* error) {
    return RunGearTimed(gear, inputs, outputs, work, nullptr, error);
  }
  // RunGear, and with `timings` non-null (num_ops(gear) entries) the start
  // and end of each op, in program order. Without timings the loop reads no
  // clock: profiling costs nothing unless asked for.
  virtual bool RunGearTimed(size_t gear, const void* const* inputs,
                            void* const* outputs, void* work, OpTiming* timings,
                            std::string* error) = 0;

  // The ops gear `gear` runs (< num_gears(); 0 for a static model), in
  // order: the .om op names (ONNX node names; a fused op's names joined
  // with '+') and op types, for profiling records.
  virtual size_t num_ops(size_t gear) const = 0;
  virtual const std::string& op_name(size_t gear, size_t index) const = 0;
  virtual const std::string& op_type(size_t gear, size_t index) const = 0;
};

}  // namespace ascend_emu
