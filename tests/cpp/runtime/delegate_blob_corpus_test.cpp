// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The blob corpus (tests/data/blob_corpus/v<N>/, programs saved by the
// release that wrote blob version N; docs/blob-format.md, Compatibility): this
// reader reads every delegate blob in it, and what it reads names named data
// under the key schemes a saved program relies on. Running the programs
// themselves is tests/python/test_blob_compat.py's part.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "delegate_blob.h"

namespace executorch::backends::ascend {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus_blobs() {
  std::vector<fs::path> blobs;
  for (const auto& folder : fs::directory_iterator(ASCEND_BLOB_CORPUS_DIR)) {
    if (!folder.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(folder.path())) {
      if (file.path().extension() == ".blob") blobs.push_back(file.path());
    }
  }
  return blobs;
}

std::vector<uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `prefix` and 64 lowercase hex digits: the SHA-256 of the named data's bytes.
bool is_content_key(const std::string& key, const std::string& prefix) {
  if (key.size() != prefix.size() + 64 || key.compare(0, prefix.size(), prefix))
    return false;
  for (size_t i = prefix.size(); i < key.size(); ++i) {
    if (!std::isxdigit(static_cast<unsigned char>(key[i])) ||
        std::isupper(static_cast<unsigned char>(key[i]))) {
      return false;
    }
  }
  return true;
}

TEST(DelegateBlobCorpus, EverySavedBlobIsRead) {
  const std::vector<fs::path> blobs = corpus_blobs();
  ASSERT_FALSE(blobs.empty()) << "no .blob under " << ASCEND_BLOB_CORPUS_DIR;
  std::set<uint32_t> versions;
  for (const fs::path& path : blobs) {
    SCOPED_TRACE(path.string());
    const std::vector<uint8_t> bytes = read_file(path);
    ASSERT_GE(bytes.size(), 8u);
    // The u32 after the magic, little-endian; the folder is named after it.
    uint32_t version = 0;
    for (int i = 3; i >= 0; --i) version = (version << 8) | bytes[4 + i];
    EXPECT_EQ(path.parent_path().filename(), "v" + std::to_string(version));
    versions.insert(version);
    auto blob = read_delegate_blob(bytes.data(), bytes.size());
    ASSERT_TRUE(blob.ok()) << "error " << static_cast<int>(blob.error());
    for (const OmTarget& target : blob->targets) {
      EXPECT_TRUE(is_content_key(target.om_key, "ascend/om/")) << target.om_key;
      for (const ExternalWeight& weight : target.weights) {
        EXPECT_TRUE(is_content_key(weight.key, "ascend/weight/")) << weight.key;
      }
    }
    for (const DeviceStateEntry& state : blob->states) {
      EXPECT_TRUE(state.initial_key.empty() ||
                  is_content_key(state.initial_key, "ascend/state/"))
          << state.initial_key;
    }
    EXPECT_TRUE(blob->source_key.empty() ||
                is_content_key(blob->source_key, "ascend/source/"))
        << blob->source_key;
  }
  // The oldest version read and the current one each have their programs.
  EXPECT_EQ(versions.count(kBlobMinReadVersion), 1u);
  EXPECT_EQ(versions.count(kBlobVersion), 1u);
}

}  // namespace
}  // namespace executorch::backends::ascend
