// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// libcrypto's EVP digest interface (the low-level SHA256_* calls are
// deprecated in OpenSSL 3).
#include "sha256.h"

#include <openssl/evp.h>

#include <stdexcept>
#include <string>

namespace ascend_emu {
namespace atc {
namespace {

EVP_MD_CTX* Ctx(void* p) { return static_cast<EVP_MD_CTX*>(p); }

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr ||
      EVP_DigestInit_ex(Ctx(ctx_), EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(Ctx(ctx_));
    throw std::runtime_error("OpenSSL cannot set up SHA-256");
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(Ctx(ctx_)); }

void Sha256::Update(const void* data, size_t size) {
  if (size != 0 && EVP_DigestUpdate(Ctx(ctx_), data, size) != 1) {
    throw std::runtime_error("OpenSSL SHA-256 update failed");
  }
}

std::string Sha256::HexDigest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(Ctx(ctx_), digest, &n) != 1) {
    throw std::runtime_error("OpenSSL SHA-256 final failed");
  }
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < n; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

}  // namespace atc
}  // namespace ascend_emu
