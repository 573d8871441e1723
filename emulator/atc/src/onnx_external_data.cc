// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Reading ONNX external data safely. A model's external_data entries are
// attacker-controlled strings: the location is checked by spelling first,
// then resolved with realpath() so that a symlink cannot lead outside the
// model's folder, and the resolved file is opened without following links
// (O_NOFOLLOW), so a link swapped in afterwards is refused too.
#include "onnx_external_data.h"

#include <fcntl.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "onnx_loader.h"
#include "onnx_tensor.h"

namespace ascend_emu {
namespace atc {
namespace {

bool ParseU64(const std::string& text, uint64_t* value) {
  if (text.empty()) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;  // beyond 2^64 - 1
    v = v * 10 + digit;
  }
  *value = v;
  return true;
}

bool HasInlineData(const onnx::TensorProto& t) {
  return t.has_raw_data() || t.float_data_size() > 0 ||
         t.int32_data_size() > 0 || t.int64_data_size() > 0 ||
         t.double_data_size() > 0 || t.uint64_data_size() > 0 ||
         t.string_data_size() > 0;
}

// The folder a model path's relative locations are resolved against, as
// ONNX does: the directory part of the path as given.
std::string FolderOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string RealPath(const std::string& path, std::string* real) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return std::strerror(errno);
  *real = resolved;
  std::free(resolved);
  return "";
}

bool Inside(const std::string& path, const std::string& folder) {
  if (folder == "/") return true;
  return path.size() > folder.size() + 1 &&
         path.compare(0, folder.size(), folder) == 0 &&
         path[folder.size()] == '/';
}

}  // namespace

std::string ParseExternalDataInfo(const onnx::TensorProto& t,
                                  ExternalDataInfo* info) {
  *info = ExternalDataInfo();
  bool has_location = false;
  bool has_offset = false;
  for (const onnx::StringStringEntryProto& entry : t.external_data()) {
    const std::string& key = entry.key();
    const std::string& value = entry.value();
    bool* seen = nullptr;
    if (key == "location") {
      seen = &has_location;
    } else if (key == "offset") {
      seen = &has_offset;
    } else if (key == "length") {
      seen = &info->has_length;
    } else {
      continue;  // "checksum" and keys of future ONNX versions
    }
    if (*seen) return "gives external data key '" + key + "' twice";
    *seen = true;
    if (key == "location") {
      info->location = value;
    } else if (!ParseU64(value,
                         key == "offset" ? &info->offset : &info->length)) {
      return "has external data " + key + " '" + value +
             "', which is not a non-negative decimal integer";
    }
  }
  if (!has_location) return "uses ONNX external data without a 'location'";
  return "";
}

std::string CheckExternalLocation(const std::string& location) {
  if (location.empty()) return "has an empty external data location";
  if (location.find('\0') != std::string::npos) {
    return "has an external data location with a NUL byte";
  }
  if (location[0] == '/') {
    return "has external data location '" + location +
           "', an absolute path (ONNX external data must be relative to the "
           "model's folder)";
  }
  size_t start = 0;
  while (start <= location.size()) {
    size_t end = location.find('/', start);
    if (end == std::string::npos) end = location.size();
    if (location.compare(start, end - start, "..") == 0 && end - start == 2) {
      return "has external data location '" + location +
             "' with a '..' component (it must stay inside the model's "
             "folder)";
    }
    start = end + 1;
  }
  return "";
}

std::string ExternalData::Map(const std::string& location,
                              const MappedFile** file, std::string* real_path) {
  const std::string path = model_dir_ + "/" + location;
  std::string err = RealPath(path, real_path);
  if (!err.empty()) {
    return "cannot open its external data file '" + path + "': " + err;
  }
  if (!Inside(*real_path, model_dir_)) {
    return "has external data location '" + location +
           "', which resolves to '" + *real_path +
           "', outside the model's folder '" + model_dir_ +
           "' (a symlink must not lead out of it)";
  }
  auto it = files_.find(*real_path);
  if (it == files_.end()) {
    const int fd =
        ::open(real_path->c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
      return "cannot open its external data file '" + path +
             "': " + std::strerror(errno);
    }
    std::unique_ptr<MappedFile> mapped =
        MappedFile::FromFd(fd, *real_path, &err);
    if (mapped == nullptr) return "cannot read its external data: " + err;
    it = files_.emplace(*real_path, std::move(mapped)).first;
  }
  *file = it->second.get();
  return "";
}

std::string ExternalData::LoadOne(const onnx::TensorProto& t, ByteView* bytes,
                                  std::string* real_path) {
  const std::string who = "initializer '" + t.name() + "' ";
  if (HasInlineData(t)) {
    return who +
           "is stored as ONNX external data but also holds data in the model";
  }
  ExternalDataInfo info;
  std::string err = ParseExternalDataInfo(t, &info);
  if (err.empty()) err = CheckExternalLocation(info.location);
  if (!err.empty()) return who + err;

  DType dtype;
  Shape shape;
  uint64_t expected = 0;
  err = DecodeTensorType(t, &dtype, &shape, &expected);
  if (!err.empty()) return "initializer " + err;

  const MappedFile* file = nullptr;
  err = Map(info.location, &file, real_path);
  if (!err.empty()) return who + err;

  const std::string where =
      "'" + info.location + "' (" + std::to_string(file->size()) + " bytes)";
  if (info.offset > file->size()) {
    return who + "has external data offset " + std::to_string(info.offset) +
           " beyond the end of " + where;
  }
  const uint64_t left = file->size() - info.offset;
  if (info.has_length && info.length > left) {
    return who + "has external data offset " + std::to_string(info.offset) +
           " + length " + std::to_string(info.length) +
           ", which runs past the end of " + where;
  }
  const uint64_t length = info.has_length ? info.length : left;
  if (length != expected) {
    const std::string need = std::string(DTypeName(dtype)) + " " +
                             shape.ToString() + " needs " +
                             std::to_string(expected) + " bytes";
    if (!info.has_length) {
      return who + "has no external data length, and its file " + where +
             " holds " + std::to_string(length) + " bytes from offset " +
             std::to_string(info.offset) + ", but " + need;
    }
    return who + "has external data length " + std::to_string(length) +
           ", but " + need;
  }
  bytes->data = file->data() + info.offset;
  bytes->size = length;
  bytes->file = file;
  return "";
}

namespace {

// A tensor attribute (a Constant's value) stored as external data: no
// exporter writes one, and libonnx's checker would only stat() its location
// relative to the working directory.
std::string CheckNoExternalAttributes(const onnx::GraphProto& graph) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    for (const onnx::AttributeProto& a : node.attribute()) {
      bool external =
          a.has_t() && a.t().data_location() == onnx::TensorProto::EXTERNAL;
      for (const onnx::TensorProto& t : a.tensors()) {
        external = external || t.data_location() == onnx::TensorProto::EXTERNAL;
      }
      if (external) {
        return NodeLabel(node, i) + " has attribute '" + a.name() +
               "' stored as ONNX external data, which the emulator's atc "
               "reads only for graph initializers";
      }
    }
  }
  return "";
}

}  // namespace

std::string ExternalData::Load(const std::string& model_path,
                               onnx::GraphProto* graph) {
  std::string err = CheckNoExternalAttributes(*graph);
  if (!err.empty()) return err;
  bool any = false;
  for (const onnx::TensorProto& t : graph->initializer()) {
    any = any || t.data_location() == onnx::TensorProto::EXTERNAL;
  }
  if (!any) return "";
  err = RealPath(FolderOf(model_path), &model_dir_);
  if (!err.empty()) {
    return "cannot resolve the folder of --model '" + model_path + "': " + err;
  }

  for (int i = 0; i < graph->initializer_size(); ++i) {
    onnx::TensorProto* t = graph->mutable_initializer(i);
    if (t->data_location() != onnx::TensorProto::EXTERNAL) continue;
    ByteView bytes;
    std::string real_path;
    err = LoadOne(*t, &bytes, &real_path);
    if (!err.empty()) return err;
    tensors_[i] = bytes;

    // What libonnx sees (ExternalData::Load in the header says why).
    t->clear_external_data();
    if (bytes.size <= kInlineForOnnxChecksBytes) {
      t->set_data_location(onnx::TensorProto::DEFAULT);
      t->set_raw_data(bytes.data, bytes.size);
    } else {
      onnx::StringStringEntryProto* location = t->add_external_data();
      location->set_key("location");
      location->set_value(real_path);
    }
  }
  return "";
}

const ByteView* ExternalData::Find(int index) const {
  auto it = tensors_.find(index);
  return it == tensors_.end() ? nullptr : &it->second;
}

}  // namespace atc
}  // namespace ascend_emu
