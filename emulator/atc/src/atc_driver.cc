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

#include <cerrno>
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
  std::string err;
  if (!ReadOm(image.data(), image.size(), &reread, &err)) {
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
  err = ValidateProgram(reread, reread.weights.data(), external);
  if (!err.empty()) return "internal error: the .om does not validate: " + err;
  return "";
}

bool Verbose(const AtcOptions& o) {
  return o.log == "info" || o.log == "debug";
}

std::string Compile(const AtcOptions& options, std::ostream& out) {
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
      return 1;
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
    return 1;
  }
  out << "ATC run success, welcome to the next use.\n";
  return 0;
}

}  // namespace atc
}  // namespace ascend_emu
