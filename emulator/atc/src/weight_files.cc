// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Writing weight files. Every file is written under a temporary name,
// flushed to disk and only then renamed to its content-hash name, so a name
// in weight/ always stands for a complete file; each constant passes by once
// (hashed and written in the same pass) in chunks whose pages are released
// right after.
#include "weight_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sha256.h"

namespace ascend_emu {
namespace atc {
namespace {

// Bytes of a constant handled (hashed, written, released) per step.
constexpr uint64_t kChunkBytes = uint64_t{16} << 20;

uint64_t AlignUp(uint64_t v) {
  return (v + kOmAlignment - 1) / kOmAlignment * kOmAlignment;
}

// A file being written under a temporary name; removed when destroyed
// unless handed over with released() (to Publish, which renames it).
class TempFile {
 public:
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) ::unlink(path_.c_str());
  }

  std::string Open(const std::string& dir) {
    static int counter = 0;
    path_ = dir + "/.weight_tmp_" + std::to_string(::getpid()) + "_" +
            std::to_string(counter++);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      const std::string reason = std::strerror(errno);
      path_.clear();
      return "cannot write a weight file in '" + dir + "': " + reason;
    }
    return "";
  }

  std::string Write(const uint8_t* p, uint64_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, std::min<uint64_t>(n, kChunkBytes));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return Failed();
      p += w;
      n -= static_cast<uint64_t>(w);
    }
    return "";
  }

  // Flushes the file to disk and closes it.
  std::string Close() {
    if (::fsync(fd_) != 0) return Failed();
    // The bytes are on disk: leave the page cache to other work.
    (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return Failed();
    return "";
  }

  const std::string& path() const { return path_; }
  void released() { path_.clear(); }

 private:
  std::string Failed() const {
    return "cannot write weight file '" + path_ + "': " + std::strerror(errno);
  }

  int fd_ = -1;
  std::string path_;
};

// Feeds `bytes` to `hash` and (when not null) `out`, chunk by chunk,
// releasing each chunk's pages once done.
std::string Stream(const ByteView& bytes, Sha256* hash, TempFile* out) {
  for (uint64_t done = 0; done < bytes.size;) {
    const uint64_t n = std::min(kChunkBytes, bytes.size - done);
    const uint8_t* p = bytes.data + done;
    hash->Update(p, static_cast<size_t>(n));
    if (out != nullptr) {
      std::string err = out->Write(p, n);
      if (!err.empty()) return err;
    }
    ByteView{p, n, bytes.file}.Release();
    done += n;
  }
  return "";
}

// The same bytes (one initializer used twice, or two initializers naming
// the same range of one file) need to be stored once whatever the mode.
using SourceKey = std::pair<const uint8_t*, uint64_t>;

}  // namespace

std::string WeightDirFor(const std::string& om_path) {
  const size_t slash = om_path.rfind('/');
  if (slash == std::string::npos) return "weight";
  return om_path.substr(0, slash + 1) + "weight";
}

WeightFiles::~WeightFiles() {
  if (!committed_) Discard();
}

void WeightFiles::Discard() {
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    ::unlink(it->c_str());
  }
  created_.clear();
  // Only when empty: other .om files may keep their weights here too.
  if (created_dir_) ::rmdir(dir_.c_str());
  created_dir_ = false;
}

std::string WeightFiles::MakeDir() {
  if (::mkdir(dir_.c_str(), 0755) == 0) {
    created_dir_ = true;
    return "";
  }
  const int saved = errno;
  struct stat st;
  if (saved == EEXIST && ::stat(dir_.c_str(), &st) == 0 &&
      S_ISDIR(st.st_mode)) {
    return "";
  }
  return "cannot create the weight folder '" + dir_ + "': " +
         (saved == EEXIST ? std::string("it exists and is not a folder")
                          : std::strerror(saved));
}

std::string WeightFiles::Publish(const std::string& tmp,
                                 const std::string& name, uint64_t size) {
  const std::string path = dir_ + "/" + name;
  paths_.push_back(path);
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<uint64_t>(st.st_size) == size) {
    ::unlink(tmp.c_str());  // the same content is there already
    return "";
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tmp.c_str());
    return "cannot write weight file '" + path + "': " + reason;
  }
  created_.push_back(path);
  return "";
}

std::string WeightFiles::PlaceEach(
    const std::vector<PendingFileConstant>& consts, bool write,
    Program* program) {
  std::map<SourceKey, uint32_t> by_source;
  std::map<std::string, uint32_t> by_hash;
  for (const PendingFileConstant& c : consts) {
    const SourceKey key(c.bytes.data, c.bytes.size);
    auto known = by_source.find(key);
    if (known == by_source.end()) {
      Sha256 hash;
      TempFile tmp;
      std::string err = write ? tmp.Open(dir_) : "";
      if (err.empty()) err = Stream(c.bytes, &hash, write ? &tmp : nullptr);
      if (err.empty() && write) err = tmp.Close();
      if (!err.empty()) return err;
      const std::string hex = hash.HexDigest();
      auto same = by_hash.find(hex);
      if (same == by_hash.end()) {
        const std::string name = "weight_" + hex;
        if (write) {
          const std::string path = tmp.path();
          tmp.released();
          err = Publish(path, name, c.bytes.size);
          if (!err.empty()) return err;
        }
        const uint32_t file =
            static_cast<uint32_t>(program->external_weights.size());
        program->external_weights.push_back({name, c.bytes.size});
        same = by_hash.emplace(hex, file).first;
      }
      known = by_source.emplace(key, same->second).first;
    }
    TensorInfo& t = program->tensors[c.tensor];
    t.file = known->second;
    t.offset = 0;
  }
  return "";
}

std::string WeightFiles::PlaceCombined(
    const std::vector<PendingFileConstant>& consts, bool write,
    Program* program) {
  std::map<SourceKey, uint64_t> offsets;
  std::vector<const PendingFileConstant*> layout;
  uint64_t size = 0;
  for (const PendingFileConstant& c : consts) {
    const SourceKey key(c.bytes.data, c.bytes.size);
    auto it = offsets.find(key);
    if (it == offsets.end()) {
      size = AlignUp(size);
      it = offsets.emplace(key, size).first;
      layout.push_back(&c);
      size += c.bytes.size;
    }
    TensorInfo& t = program->tensors[c.tensor];
    t.file = 0;
    t.offset = it->second;
  }

  static const uint8_t kZeros[kOmAlignment] = {};
  Sha256 hash;
  TempFile tmp;
  std::string err = write ? tmp.Open(dir_) : "";
  uint64_t at = 0;
  for (size_t i = 0; err.empty() && i < layout.size(); ++i) {
    const PendingFileConstant& c = *layout[i];
    const uint64_t pad = offsets.at({c.bytes.data, c.bytes.size}) - at;
    hash.Update(kZeros, static_cast<size_t>(pad));
    if (write) err = tmp.Write(kZeros, pad);
    if (err.empty()) err = Stream(c.bytes, &hash, write ? &tmp : nullptr);
    at += pad + c.bytes.size;
  }
  if (err.empty() && write) err = tmp.Close();
  if (!err.empty()) return err;
  const std::string name = "weight_combined_" + hash.HexDigest();
  if (write) {
    const std::string path = tmp.path();
    tmp.released();
    err = Publish(path, name, size);
    if (!err.empty()) return err;
  }
  program->external_weights.push_back({name, size});
  return "";
}

std::string WeightFiles::Place(int mode,
                               const std::vector<PendingFileConstant>& consts,
                               const std::string& dir, bool write,
                               Program* program) {
  dir_ = dir;
  program->external_weights.clear();
  if (consts.empty()) return "";
  std::string err = write ? MakeDir() : "";
  if (err.empty()) {
    err = mode == 2 ? PlaceCombined(consts, write, program)
                    : PlaceEach(consts, write, program);
  }
  if (err.empty() && write) {
    // The renames themselves reach the disk with the folder.
    const int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      (void)::fsync(fd);
      ::close(fd);
    }
  }
  if (!err.empty()) Discard();
  return err;
}

}  // namespace atc
}  // namespace ascend_emu
