// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The atc pipeline. Nothing is written unless every step succeeded, and the
// .om appears atomically (temp file + rename), so a failed or interrupted
// run never leaves a half-written model where the toolchain looks for one.
// With --external_weight=1|2 the weight files are written first (each
// complete before it gets its name), then the .om; if anything fails after
// them, the files this run created are removed again.
#include "atc_driver.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "ascend_emu/program_check.h"
#include "atc_options.h"
#include "graph_compiler.h"
#include "mapped_file.h"
#include "onnx_loader.h"
#include "weight_files.h"

namespace ascend_emu {
namespace atc {
namespace {

std::string WriteAtomically(const std::string& path,
                            const std::vector<uint8_t>& bytes) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    return "cannot write '" + path + "': " + std::strerror(errno);
  }
  bool ok = bytes.empty() ||
            std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = std::fflush(f) == 0 && ok;
  ok = ::fsync(::fileno(f)) == 0 && ok;
  const int saved = errno;
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(ok ? errno : saved);
    std::remove(tmp.c_str());
    return "cannot write '" + path + "': " + reason;
  }
  return "";
}

// The weight section where validation may read it: in the image it sits at
// whatever file offset the format gives it, and the kernels' Infer reads
// int64 constants (Reshape's shape, Split's sizes) in place, which must not be
// misaligned (UBSan). A misaligned section is copied to malloc's alignment,
// as every loader's device memory is; an aligned one is read in place.
const uint8_t* AlignedWeights(const OmWeightSection& weights,
                              std::vector<uint64_t>* copy) {
  constexpr uintptr_t kAlign = alignof(std::max_align_t);
  if (weights.size == 0 ||
      reinterpret_cast<uintptr_t>(weights.data) % kAlign == 0) {
    return weights.data;
  }
  copy->resize((weights.size + sizeof(uint64_t) - 1) / sizeof(uint64_t));
  std::memcpy(copy->data(), weights.data, weights.size);
  return reinterpret_cast<const uint8_t*>(copy->data());
}

// The engine must accept what atc writes: the image is checked with the
// loader's own reader and validator before the .om lands on disk, its
// FileConstants against the weight files as written (mapped back from
// disk). A pre-check writes no files, so there each FileConstant is checked
// as a file of its own holding its source bytes.
std::string SelfCheck(const std::vector<uint8_t>& image,
                      const WeightFiles& weight_files,
                      const std::vector<PendingFileConstant>& file_constants,
                      bool written) {
  Program reread;
  OmWeightSection weights;  // read in place: no second copy of the weights
  std::string err;
  if (!ReadOmTables(image.data(), image.size(), &reread, &weights, &err)) {
    return "internal error: the .om does not read back: " + err;
  }
  std::vector<std::unique_ptr<MappedFile>> mapped;
  std::vector<const uint8_t*> external;
  if (written) {
    for (const std::string& path : weight_files.paths()) {
      mapped.push_back(MappedFile::Open(path, &err));
      if (mapped.back() == nullptr) {
        return "cannot read back the weight file just written: " + err;
      }
      external.push_back(mapped.back()->data());
    }
  } else {
    reread.external_weights.clear();
    for (const PendingFileConstant& c : file_constants) {
      TensorInfo& t = reread.tensors.at(c.tensor);
      t.file = static_cast<uint32_t>(reread.external_weights.size());
      t.offset = 0;
      reread.external_weights.push_back(
          {"pre_check_" + std::to_string(t.file), c.bytes.size});
      external.push_back(c.bytes.data);
    }
  }
  std::vector<uint64_t> aligned;
  err = ValidateProgram(reread, AlignedWeights(weights, &aligned), weights.size,
                        external);
  if (!err.empty()) return "internal error: the .om does not validate: " + err;
  return "";
}

// SelfCheck for a gear model: without written files (--mode=3) each
// FileConstant k is checked against its own bytes, in every gear.
std::string SelfCheckGears(
    const std::vector<uint8_t>& image, const WeightFiles& weight_files,
    const std::vector<PendingFileConstant>& file_constants,
    const std::vector<std::vector<uint32_t>>& gear_file_tensors, bool written) {
  if (written || file_constants.empty()) {
    return SelfCheck(image, weight_files, {}, written);
  }
  Program reread;
  OmWeightSection weights;  // read in place: no second copy of the weights
  std::string err;
  if (!ReadOmTables(image.data(), image.size(), &reread, &weights, &err)) {
    return "internal error: the .om does not read back: " + err;
  }
  reread.external_weights.clear();
  std::vector<const uint8_t*> external;
  for (size_t k = 0; k < file_constants.size(); ++k) {
    reread.external_weights.push_back(
        {"pre_check_" + std::to_string(k), file_constants[k].bytes.size});
    external.push_back(file_constants[k].bytes.data);
  }
  for (size_t g = 0; g < reread.gears.size(); ++g) {
    for (size_t k = 0; k < file_constants.size(); ++k) {
      TensorInfo& t = reread.gears[g].tensors.at(gear_file_tensors.at(g)[k]);
      t.file = static_cast<uint32_t>(k);
      t.offset = 0;
    }
  }
  std::vector<uint64_t> aligned;
  err = ValidateProgram(reread, AlignedWeights(weights, &aligned), weights.size,
                        external);
  if (!err.empty()) return "internal error: the .om does not validate: " + err;
  return "";
}

bool Verbose(const AtcOptions& o) {
  return o.log == "info" || o.log == "debug";
}

// With --log=info: the options of CANN's atc that were checked and have no
// effect on what the emulator computes (docs/atc.md).
void NoteNoEffectOptions(const AtcOptions& o, std::ostream& out) {
  if (o.no_effect.empty()) return;
  out << "[INFO] no effect on the emulator's computation:";
  for (const auto& [name, value] : o.no_effect) {
    out << " --" << name << "=" << value;
  }
  out << "\n";
}

std::string GearLabel(const AtcOptions& o, size_t g) {
  std::string values;
  for (int64_t v : o.gears[g]) {
    values += (values.empty() ? "" : ",") + std::to_string(v);
  }
  return o.gear_type == DynamicType::kDynamicBatch
             ? "gear " + std::to_string(g) +
                   " of --dynamic_batch_size (batch " + values + ")"
             : "gear " + std::to_string(g) + " of --dynamic_dims (" + values +
                   ")";
}

// --input_shape with the -1s replaced by gear g's values.
AtcOptions OptionsForGear(const AtcOptions& o, size_t g) {
  AtcOptions gear = o;
  size_t k = 0;
  for (auto& entry : gear.input_shapes) {
    for (int64_t& d : entry.second) {
      if (d != -1) continue;
      d = o.gear_type == DynamicType::kDynamicBatch ? o.gears[g][0]
                                                    : o.gears[g][k];
      ++k;
    }
  }
  return gear;
}

int InputIndex(const Program& p, const std::string& name) {
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    if (p.inputs[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

// The model compiled once per gear (each gear checked and planned on its
// own, as CANN's atc compiles one static subgraph per gear), sharing the
// weights; each gear program gains the gear input, last.
// With --external_weight=1|2 every gear has the same FileConstants (the
// same initializers, met in the same op order): gear 0's are returned in
// `file_constants` (their bytes in `*external0`, kept mapped) and each gear's
// tensors of them, in the same order, in `gear_file_tensors`.
std::string CompileGearPrograms(
    const AtcOptions& options, int64_t* opset, Program* program,
    std::unique_ptr<ExternalData>* external0,
    std::vector<PendingFileConstant>* file_constants,
    std::vector<std::vector<uint32_t>>* gear_file_tensors) {
  *program = Program();
  file_constants->clear();
  gear_file_tensors->clear();
  uint64_t shared_bytes = 0;
  for (size_t g = 0; g < options.gears.size(); ++g) {
    const AtcOptions gear_options = OptionsForGear(options, g);
    onnx::ModelProto model;
    auto external = std::make_unique<ExternalData>();
    std::string err =
        LoadOnnxModel(gear_options, &model, opset, external.get());
    Program gear;
    std::vector<PendingFileConstant> gear_constants;
    uint64_t shared = 0;
    if (err.empty()) {
      err = CompileGraph(model, *opset, gear_options, *external, &gear,
                         &gear_constants, &shared);
    }
    if (err.empty() && g > 0) {
      bool same = gear_constants.size() == file_constants->size();
      for (size_t k = 0; same && k < gear_constants.size(); ++k) {
        const TensorInfo& a =
            program->gears[0].tensors.at((*file_constants)[k].tensor);
        const TensorInfo& b = gear.tensors.at(gear_constants[k].tensor);
        same = a.name == b.name &&
               gear_constants[k].bytes.size == (*file_constants)[k].bytes.size;
      }
      if (!same) {
        err = "internal error: the FileConstants differ from gear 0's";
      }
    }
    if (!err.empty()) return "at " + GearLabel(options, g) + ": " + err;
    if (g == 0) {
      if (gear.inputs.size() != options.input_shapes.size()) {
        std::string names;
        for (const IoInfo& io : gear.inputs) {
          names += (names.empty() ? "" : ", ") + io.name;
        }
        return std::string(options.gear_type == DynamicType::kDynamicBatch
                               ? "--dynamic_batch_size"
                               : "--dynamic_dims") +
               " needs --input_shape to give every input: the model has " +
               std::to_string(gear.inputs.size()) + " (" + names +
               "), --input_shape names " +
               std::to_string(options.input_shapes.size());
      }
      if (InputIndex(gear, kGearInputName) >= 0) {
        return "input '" + std::string(kGearInputName) +
               "' has the name of the gear input atc adds "
               "(ACL_DYNAMIC_TENSOR_NAME): rename it";
      }
      program->soc_version = gear.soc_version;
      program->producer = gear.producer;
      program->weights = gear.weights;
      shared_bytes = shared;
    } else {
      // The first `shared` bytes (every constant of the model) are the same
      // at every gear; the folded constants after them (Shape arithmetic)
      // are the gear's own and are appended, their tensors moved there.
      if (shared != shared_bytes || gear.weights.size() < shared ||
          !std::equal(gear.weights.begin(), gear.weights.begin() + shared,
                      program->weights.begin())) {
        return "internal error: " + GearLabel(options, g) +
               " has other weights than gear 0";
      }
      if (gear.weights.size() > shared) {
        program->weights.resize((program->weights.size() + kOmAlignment - 1) /
                                kOmAlignment * kOmAlignment);
        const uint64_t base = program->weights.size();
        program->weights.insert(program->weights.end(),
                                gear.weights.begin() + shared,
                                gear.weights.end());
        for (TensorInfo& t : gear.tensors) {
          if (t.location == TensorLocation::kWeight && t.offset >= shared) {
            t.offset = t.offset - shared + base;
          }
        }
      }
    }
    std::vector<uint8_t>().swap(gear.weights);
    gear_file_tensors->emplace_back();
    for (const PendingFileConstant& c : gear_constants) {
      gear_file_tensors->back().push_back(c.tensor);
    }
    if (g == 0) {
      *file_constants = std::move(gear_constants);
      *external0 = std::move(external);
    }
    // The gear input: int32 [values per gear], read by no op.
    const size_t per_gear = options.gears[g].size();
    TensorInfo t;
    t.name = kGearInputName;
    t.dtype = DType::kInt32;
    t.shape.rank = 1;
    t.shape.dims[0] = static_cast<int64_t>(per_gear);
    t.location = TensorLocation::kInput;
    t.offset = gear.inputs.size();
    IoInfo io;
    io.name = kGearInputName;
    io.dtype = DType::kInt32;
    io.format = ACL_FORMAT_ND;
    io.shape = t.shape;
    io.tensor = static_cast<uint32_t>(gear.tensors.size());
    gear.tensors.push_back(t);
    gear.inputs.push_back(io);
    program->gears.push_back(std::move(gear));
  }
  GearTable& table = program->gear_table;
  table.type = options.gear_type;
  table.values = options.gears;
  for (const auto& [name, dims] : options.input_shapes) {
    const int index = InputIndex(program->gears[0], name);
    if (index < 0) return "internal error: input '" + name + "' not found";
    table.shape_order.push_back(static_cast<uint32_t>(index));
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] == -1) {
        table.positions.emplace_back(static_cast<uint32_t>(index),
                                     static_cast<uint32_t>(d));
      }
    }
  }
  return "";
}

std::string CompileGears(const AtcOptions& options, std::ostream& out) {
  int64_t opset = 0;
  Program program;
  std::unique_ptr<ExternalData> external;  // mapped until the end
  std::vector<PendingFileConstant> file_constants;
  std::vector<std::vector<uint32_t>> gear_file_tensors;
  std::string err = CompileGearPrograms(options, &opset, &program, &external,
                                        &file_constants, &gear_file_tensors);
  if (!err.empty()) return err;
  const std::string path = OmPathFor(options.output);
  // The weight files are written once, laid out for gear 0; every gear's
  // FileConstants refer to the same files and offsets, and the file list is
  // the model's (the top level), shared by the gears.
  WeightFiles weight_files;  // removes its files unless committed
  err = weight_files.Place(options.external_weight, file_constants,
                           WeightDirFor(path), options.mode == 0,
                           &program.gears[0]);
  if (!err.empty()) return err;
  program.external_weights = std::move(program.gears[0].external_weights);
  program.gears[0].external_weights.clear();
  for (size_t g = 1; g < program.gears.size(); ++g) {
    for (size_t k = 0; k < file_constants.size(); ++k) {
      const TensorInfo& from =
          program.gears[0].tensors[file_constants[k].tensor];
      TensorInfo& to = program.gears[g].tensors[gear_file_tensors[g][k]];
      to.file = from.file;
      to.offset = from.offset;
    }
  }
  std::vector<uint8_t> image;
  if (!WriteOm(program, &image, &err)) return err;
  err = SelfCheckGears(image, weight_files, file_constants, gear_file_tensors,
                       options.mode == 0);
  if (!err.empty()) return err;
  if (Verbose(options)) {
    NoteNoEffectOptions(options, out);
    out << "[INFO] ai.onnx opset " << opset << ", " << program.gears.size()
        << " gears, weights " << program.weights.size() << " bytes, .om "
        << image.size() << " bytes\n";
    for (size_t g = 0; g < program.gears.size(); ++g) {
      const Program& gear = program.gears[g];
      out << "[INFO] " << GearLabel(options, g) << ": " << gear.ops.size()
          << " ops, arena " << gear.arena_size << " bytes\n";
    }
  }
  if (options.mode == 3) {
    if (Verbose(options))
      out << "[INFO] --mode=3: pre-check only, nothing written\n";
    return "";
  }
  err = WriteAtomically(path, image);
  if (!err.empty()) return err;
  weight_files.Commit();
  if (Verbose(options)) out << "[INFO] wrote " << path << "\n";
  return "";
}

std::string DimsText(const Shape& shape) {
  std::string s;
  for (int32_t i = 0; i < shape.rank; ++i) {
    s += (i ? "," : "") + std::to_string(shape.dims[i]);
  }
  return s;
}

void PrintIo(std::ostream& out, const char* kind, size_t i, const IoInfo& io,
             const Shape& shape) {
  out << "  " << kind << " " << i << " '" << io.name << "' "
      << DTypeName(io.dtype) << " [" << DimsText(shape) << "]\n";
}

// The ops a program runs, in order: "ops: N", then one line each,
// "  op <i> '<name>' <type>" (the name is the ONNX node's, or a fused op's
// names joined with '+'). The profiling debug map reads these
// (src/executorch_ascend/serialization/debug_map.py).
void PrintOps(std::ostream& out, const Program& p) {
  out << "ops: " << p.ops.size() << "\n";
  for (size_t i = 0; i < p.ops.size(); ++i) {
    out << "  op " << i << " '" << p.ops[i].name << "' " << p.ops[i].op_type
        << "\n";
  }
}

// --mode=6: what an .om holds (inputs, outputs, its ops and, for a gear
// model, the gear table and each gear's shapes; the ops of gear 0, which
// every gear shares).
std::string ShowModelInfo(const AtcOptions& options, std::ostream& out) {
  std::unique_ptr<MappedFile> file;
  std::string err;
  file = MappedFile::Open(options.om, &err);
  if (file == nullptr) return "cannot read --om '" + options.om + "': " + err;
  Program p;
  if (!ReadOm(file->data(), file->size(), &p, &err)) {
    return "--om '" + options.om + "': " + err;
  }
  out << "soc_version: " << p.soc_version << "\n"
      << "producer: " << p.producer << "\n"
      << "weights: " << p.weights.size() << " bytes, "
      << p.external_weights.size() << " weight file(s)\n";
  const GearTable& t = p.gear_table;
  if (p.gears.empty()) {
    out << "dynamic: none (static shapes)\n";
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      PrintIo(out, "input", i, p.inputs[i], p.inputs[i].shape);
    }
    for (size_t i = 0; i < p.outputs.size(); ++i) {
      PrintIo(out, "output", i, p.outputs[i], p.outputs[i].shape);
    }
    PrintOps(out, p);
    return "";
  }
  out << "dynamic: "
      << (t.type == DynamicType::kDynamicBatch ? "dynamic_batch_size"
                                               : "dynamic_dims")
      << ", " << p.gears.size() << " gears, gear input '" << kGearInputName
      << "' (input " << p.gears[0].inputs.size() - 1 << ")\n";
  const Program& first = p.gears[0];
  for (size_t i = 0; i < first.inputs.size(); ++i) {
    Shape shape = first.inputs[i].shape;
    for (const auto& [input, dim] : t.positions) {
      if (input == i && static_cast<int32_t>(dim) < shape.rank) {
        shape.dims[dim] = -1;
      }
    }
    PrintIo(out, "input", i, first.inputs[i], shape);
  }
  for (size_t g = 0; g < p.gears.size(); ++g) {
    std::string values;
    for (int64_t v : t.values[g]) {
      values += (values.empty() ? "" : ",") + std::to_string(v);
    }
    out << "gear " << g << ": " << values << "\n";
    const Program& gear = p.gears[g];
    for (size_t i = 0; i + 1 < gear.inputs.size(); ++i) {
      PrintIo(out, "input", i, gear.inputs[i], gear.inputs[i].shape);
    }
    for (size_t i = 0; i < gear.outputs.size(); ++i) {
      PrintIo(out, "output", i, gear.outputs[i], gear.outputs[i].shape);
    }
  }
  PrintOps(out, first);
  return "";
}

std::string Compile(const AtcOptions& given, std::ostream& out) {
  if (given.mode == 6) return ShowModelInfo(given, out);
  AtcOptions options = given;
  if (!options.insert_op_conf.empty()) {
    std::string err = ReadAippConfig(options.insert_op_conf, &options.aipp);
    if (!err.empty()) return err;
    if (!options.gears.empty()) {
      return "--insert_op_conf with shape gears (--dynamic_batch_size, "
             "--dynamic_dims) is not emulated";
    }
  }
  if (!options.gears.empty()) return CompileGears(options, out);
  onnx::ModelProto model;
  int64_t opset = 0;
  ExternalData external;  // the mapped external data, used until the end
  std::string err = LoadOnnxModel(options, &model, &opset, &external);
  if (!err.empty()) return err;

  Program program;
  std::vector<PendingFileConstant> file_constants;
  err =
      CompileGraph(model, opset, options, external, &program, &file_constants);
  if (!err.empty()) return err;

  const std::string path = OmPathFor(options.output);
  WeightFiles weight_files;  // removes its files unless committed
  err = weight_files.Place(options.external_weight, file_constants,
                           WeightDirFor(path), options.mode == 0, &program);
  if (!err.empty()) return err;

  std::vector<uint8_t> image;
  if (!WriteOm(program, &image, &err)) return err;
  err = SelfCheck(image, weight_files, file_constants, options.mode == 0);
  if (!err.empty()) return err;

  if (Verbose(options)) {
    NoteNoEffectOptions(options, out);
    out << "[INFO] ai.onnx opset " << opset << ", " << program.ops.size()
        << " ops, " << program.tensors.size() << " tensors, arena "
        << program.arena_size << " bytes, weights " << program.weights.size()
        << " bytes, .om " << image.size() << " bytes\n";
    if (!file_constants.empty()) {
      uint64_t bytes = 0;
      for (const ExternalWeightDesc& w : program.external_weights) {
        bytes += w.size_bytes;
      }
      out << "[INFO] --external_weight=" << options.external_weight << ": "
          << file_constants.size() << " FileConstants in "
          << program.external_weights.size() << " weight file(s) of " << bytes
          << " bytes in " << WeightDirFor(path) << "/\n";
    }
  }
  if (options.mode == 3) {
    if (Verbose(options))
      out << "[INFO] --mode=3: pre-check only, nothing written\n";
    return "";
  }
  err = WriteAtomically(path, image);
  if (!err.empty()) return err;
  weight_files.Commit();
  if (Verbose(options)) out << "[INFO] wrote " << path << "\n";
  return "";
}

}  // namespace

std::string OmPathFor(const std::string& output) {
  const std::string suffix = ".om";
  if (output.size() > suffix.size() &&
      output.compare(output.size() - suffix.size(), suffix.size(), suffix) ==
          0) {
    return output;
  }
  return output + suffix;
}

int RunAtc(const std::vector<std::string>& args, std::ostream& out,
           std::ostream& err) {
  AtcOptions options;
  std::string error;
  switch (ParseAtcOptions(args, &options, &error)) {
    case ParseStatus::kHelp:
      out << AtcUsage();
      return 0;
    case ParseStatus::kError:
      err << "ATC run failed: " << error << "\n"
          << "Try 'atc --help' for more information.\n";
      return kAtcFailureExit;
    case ParseStatus::kOk:
      break;
  }
  try {
    error = Compile(options, out);
  } catch (const std::bad_alloc&) {
    error = "out of memory";
  } catch (const std::exception& e) {
    error = std::string("internal error: ") + e.what();
  }
  if (!error.empty()) {
    err << "ATC run failed: " << error << "\n";
    return kAtcFailureExit;
  }
  out << "ATC run success, welcome to the next use.\n";
  return 0;
}

}  // namespace atc
}  // namespace ascend_emu
