// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// SHA-256 (OpenSSL's libcrypto), streamed: weight files are named by the hash
// of their content, computed while their bytes go by.
#pragma once

#include <cstddef>
#include <string>

namespace ascend_emu {
namespace atc {

class Sha256 {
 public:
  Sha256();  // throws std::runtime_error if libcrypto cannot set up
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(const void* data, size_t size);
  // The digest as 64 lowercase hex digits; call once, after the last Update.
  std::string HexDigest();

 private:
  void* ctx_;  // EVP_MD_CTX, kept out of this header
};

}  // namespace atc
}  // namespace ascend_emu
