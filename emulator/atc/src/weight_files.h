// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The weight files of atc --external_weight=1|2: where the FileConstants of a
// compiled program live, in a folder weight/ beside the .om, named by the
// SHA-256 of their content so that .om files sharing the folder (one per
// partition) also share identical files.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ascend_emu/program.h"
#include "mapped_file.h"

namespace ascend_emu {
namespace atc {

// A FileConstant of a compiled program (a Program tensor of location
// kExternal) whose file and offset are still to be laid out.
struct PendingFileConstant {
  uint32_t tensor = 0;
  ByteView bytes;
  // Bytes atc computed (a constant rounded for a precision mode) that
  // `bytes` points into: kept alive with the constant, after the graph
  // compiler that made them is gone. Null for bytes in a mapped file.
  std::shared_ptr<const std::vector<uint8_t>> owner;
};

// "<folder of om_path>/weight" ("weight" for an .om in the current folder).
std::string WeightDirFor(const std::string& om_path);

// Lays out, hashes and writes the weight files of one atc run, and removes
// the ones it created again unless the run commits (the .om was written).
class WeightFiles {
 public:
  WeightFiles() = default;
  ~WeightFiles();  // Discard() unless Commit() was called
  WeightFiles(const WeightFiles&) = delete;
  WeightFiles& operator=(const WeightFiles&) = delete;

  // Mode 1: one file per distinct content, "weight_<sha256 hex>", each
  // constant at offset 0 (constants with identical bytes share a file).
  // Mode 2: one file "weight_combined_<sha256 hex of the file>" holding every
  // constant at a 64-byte-aligned offset (zero padding between them).
  // Fills program->external_weights and each constant's tensor file and
  // offset. With `write`, the files are written into `dir` (created when
  // missing), each to a temporary name first and renamed once complete; a
  // file of that name and size already there is left as it is (the name is
  // its content's hash). Without, only the names are computed (--mode=3).
  // The bytes are streamed in chunks and released after use, so the
  // constants are never all resident at once. Returns "" or the problem.
  std::string Place(int mode, const std::vector<PendingFileConstant>& consts,
                    const std::string& dir, bool write, Program* program);

  // Every file of program->external_weights, as a path (after Place).
  const std::vector<std::string>& paths() const { return paths_; }

  // The .om is written: keep the files.
  void Commit() { committed_ = true; }
  // Removes the files this run created (not the ones it found), and the
  // folder when this run created it.
  void Discard();

 private:
  std::string PlaceEach(const std::vector<PendingFileConstant>& consts,
                        bool write, Program* program);
  std::string PlaceCombined(const std::vector<PendingFileConstant>& consts,
                            bool write, Program* program);
  std::string MakeDir();
  // Gives the complete temporary file `tmp` its final name `name` in dir_.
  std::string Publish(const std::string& tmp, const std::string& name,
                      uint64_t size);

  std::string dir_;
  bool created_dir_ = false;
  std::vector<std::string> created_;  // paths this run created
  std::vector<std::string> paths_;
  bool committed_ = false;
};

}  // namespace atc
}  // namespace ascend_emu
