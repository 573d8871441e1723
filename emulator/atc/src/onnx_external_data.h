// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// ONNX external data: graph initializers whose bytes live in files beside the
// .onnx (TensorProto.data_location = EXTERNAL; external_data entries
// `location`, `offset`, `length`), the way models over protobuf's 2 GB limit
// are stored. The files are untrusted input like the model: every location
// must stay inside the model's folder and every range inside its file, and
// the files are mapped, never read into memory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "mapped_file.h"
#include "onnx/onnx_pb.h"

namespace ascend_emu {
namespace atc {

// What one initializer's external_data entries say.
struct ExternalDataInfo {
  std::string location;  // relative to the model's folder
  uint64_t offset = 0;
  bool has_length = false;  // absent: from `offset` to the end of the file
  uint64_t length = 0;
};

// Reads the entries of a tensor stored as external data: `location`
// (required), `offset` and `length` (decimal integers). `checksum` (a SHA-1
// of the whole file) and keys ONNX does not define are ignored, as ONNX's
// own loader does; a key given twice is refused. Returns "" or the problem,
// phrased to follow the tensor's name ("initializer 'w' " + problem).
std::string ParseExternalDataInfo(const onnx::TensorProto& tensor,
                                  ExternalDataInfo* info);

// A location must be a relative path that cannot leave the model's folder by
// its spelling: not empty, no NUL byte, not absolute, no `..` component.
// (Symlinks are checked on the resolved path.) Returns "" or the problem,
// phrased like ParseExternalDataInfo's.
std::string CheckExternalLocation(const std::string& location);

// Initializers at most this large are also copied into the model proto for
// libonnx (see ExternalData::Load).
constexpr uint64_t kInlineForOnnxChecksBytes = 64 * 1024;

// The external data of one model: the mapped files and, for every graph
// initializer stored as external data, its bytes inside them.
class ExternalData {
 public:
  // Reads every graph initializer of `graph` stored as external data, for
  // the model file `model_path`: parses its entries, resolves the location
  // against the model's folder (refusing one that leaves it, through `..` or
  // a symlink), maps the file (each file once), and checks that the range
  // lies inside the file and holds exactly dtype size x element count bytes.
  // Then rewrites those initializers for libonnx's checker and shape
  // inference, which look only at the proto: small ones (up to
  // kInlineForOnnxChecksBytes, where shape tensors are) get their bytes as
  // raw_data, so shape inference can read them; larger ones get the
  // resolved absolute location, which the checker stats. The compiler takes
  // the bytes from here, never from the rewritten proto.
  // Returns "" or the first problem, naming the initializer.
  std::string Load(const std::string& model_path, onnx::GraphProto* graph);

  // The bytes of initializer number `index` of the graph, when it is stored
  // as external data; nullptr otherwise.
  const ByteView* Find(int index) const;

  size_t num_tensors() const { return tensors_.size(); }
  size_t num_files() const { return files_.size(); }

 private:
  std::string LoadOne(const onnx::TensorProto& tensor, ByteView* bytes,
                      std::string* real_path);
  std::string Map(const std::string& location, const MappedFile** file,
                  std::string* real_path);

  std::string model_dir_;  // the model's folder, resolved (no symlinks)
  std::map<std::string, std::unique_ptr<MappedFile>> files_;  // by real path
  std::map<int, ByteView> tensors_;  // by initializer index
};

}  // namespace atc
}  // namespace ascend_emu
