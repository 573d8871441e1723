// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libFuzzer harness for atc's ONNX external-data reader: the input is one
// serialized TensorProto, made the graph's only initializer and marked
// EXTERNAL, read by ExternalData::Load against a fixed model folder that
// holds data files, a subfolder, and symlinks leading inside and outside it.
// Whatever the location/offset/length entries say, the reader must refuse
// with a message or hand back bytes that lie inside a file of that folder
// and are exactly dtype size x element count long.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "onnx/onnx_pb.h"
#include "onnx_external_data.h"
#include "onnx_tensor.h"

namespace {

std::string g_model;  // <folder>/model/m.onnx (only its folder is used)

void WriteFile(const std::string& path, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  for (size_t i = 0; i < size; ++i) std::fputc(static_cast<int>(i * 7), f);
  std::fclose(f);
}

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char tmpl[] = "/tmp/fuzz_atc_external_data_XXXXXX";
  Check(::mkdtemp(tmpl) != nullptr);
  const std::string root = tmpl;
  const std::string model = root + "/model";
  Check(::mkdir(model.c_str(), 0755) == 0);
  Check(::mkdir((model + "/sub").c_str(), 0755) == 0);
  // Larger than kInlineForOnnxChecksBytes, so both rewrites are reached.
  WriteFile(model + "/data.bin", 128 * 1024);
  WriteFile(model + "/sub/inner.bin", 100);
  WriteFile(model + "/empty.bin", 0);
  WriteFile(root + "/outside.bin", 4096);
  Check(::symlink("data.bin", (model + "/link_in").c_str()) == 0);
  Check(::symlink("../outside.bin", (model + "/link_out").c_str()) == 0);
  Check(::symlink("/etc/passwd", (model + "/link_abs").c_str()) == 0);
  g_model = model + "/m.onnx";
  static std::string cleanup;
  cleanup = "rm -rf '" + root + "'";
  std::atexit([] { (void)std::system(cleanup.c_str()); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onnx::ModelProto model;
  onnx::TensorProto* t = model.mutable_graph()->add_initializer();
  if (!t->ParseFromArray(data, static_cast<int>(size))) return 0;
  t->set_data_location(onnx::TensorProto::EXTERNAL);

  ascend_emu::atc::ExternalData external;
  const std::string err = external.Load(g_model, model.mutable_graph());
  const ascend_emu::atc::ByteView* bytes = external.Find(0);
  if (!err.empty()) return 0;
  Check(bytes != nullptr && bytes->file != nullptr);
  Check(bytes->data >= bytes->file->data() &&
        bytes->size <= bytes->file->size() &&
        static_cast<uint64_t>(bytes->data - bytes->file->data()) <=
            bytes->file->size() - bytes->size);
  ascend_emu::DType dtype;
  ascend_emu::Shape shape;
  uint64_t expected = 0;
  Check(ascend_emu::atc::DecodeTensorType(model.graph().initializer(0), &dtype,
                                          &shape, &expected)
            .empty());
  Check(bytes->size == expected);
  // Every byte handed back is readable (outside the mapping this faults).
  volatile uint8_t sum = 0;
  for (uint64_t i = 0; i < bytes->size; ++i) sum += bytes->data[i];
  (void)sum;
  // What libonnx sees: the bytes inline, or the resolved absolute path.
  const onnx::TensorProto& seen = model.graph().initializer(0);
  if (bytes->size <= ascend_emu::atc::kInlineForOnnxChecksBytes) {
    Check(seen.data_location() != onnx::TensorProto::EXTERNAL &&
          seen.raw_data().size() == bytes->size);
  } else {
    Check(seen.external_data_size() == 1 &&
          seen.external_data(0).value().compare(0, 1, "/") == 0);
  }
  return 0;
}
