// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "content_digest.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::Result;

namespace {

constexpr size_t kDigestBytes = 32;
constexpr size_t kHexDigits = 2 * kDigestBytes;

// The two libcrypto calls, by their C ABI (stable from OpenSSL 1.1 to 3.x):
// EVP_MD and ENGINE are opaque, so no OpenSSL header is needed to build.
struct Crypto {
  using Sha256Fn = const void* (*)();
  using DigestFn = int (*)(const void* data, size_t count, unsigned char* md,
                           unsigned int* size, const void* type, void* engine);
  Sha256Fn sha256 = nullptr;
  DigestFn digest = nullptr;
  std::string unavailable;  // why not, when the calls are missing
};

const Crypto& crypto() {
  static Crypto loaded;
  static std::once_flag once;
  std::call_once(once, [] {
    // OpenSSL 3 (Debian 12, Ubuntu 22.04+, openEuler 24.03) first, then 1.1
    // (openEuler 22.03, EulerOS, Kylin V10), then the development link.
    for (const char* name :
         {"libcrypto.so.3", "libcrypto.so.1.1", "libcrypto.so"}) {
      void* handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) continue;
      loaded.sha256 =
          reinterpret_cast<Crypto::Sha256Fn>(dlsym(handle, "EVP_sha256"));
      loaded.digest =
          reinterpret_cast<Crypto::DigestFn>(dlsym(handle, "EVP_Digest"));
      if (loaded.sha256 != nullptr && loaded.digest != nullptr) return;
      dlclose(handle);
      loaded.sha256 = nullptr;
      loaded.digest = nullptr;
    }
    loaded.unavailable =
        "OpenSSL's libcrypto (libcrypto.so.3 or libcrypto.so.1.1) could not "
        "be loaded";
  });
  return loaded;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// The digest `key` names: its last 64 characters after the last '/'.
bool digest_of_key(const std::string& key, unsigned char* out) {
  const size_t slash = key.rfind('/');
  const size_t start = slash == std::string::npos ? 0 : slash + 1;
  if (key.size() - start != kHexDigits) return false;
  for (size_t i = 0; i < kDigestBytes; ++i) {
    const int high = hex_value(key[start + 2 * i]);
    const int low = hex_value(key[start + 2 * i + 1]);
    if (high < 0 || low < 0) return false;
    out[i] = static_cast<unsigned char>(high * 16 + low);
  }
  return true;
}

std::string hex(const unsigned char* digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text(kHexDigits, '0');
  for (size_t i = 0; i < kDigestBytes; ++i) {
    text[2 * i] = kDigits[digest[i] >> 4];
    text[2 * i + 1] = kDigits[digest[i] & 15];
  }
  return text;
}

}  // namespace

Error verify_content(const void* data, size_t size, const std::string& key,
                     const std::string& what) {
  unsigned char expected[kDigestBytes];
  ASCEND_CHECK_OR_RETURN_ERROR(
      digest_of_key(key, expected), InvalidProgram,
      "named data '%s' (%s) cannot be verified: its key does not end in a "
      "SHA-256 (64 lower-case hex digits)",
      key.c_str(), what.c_str());
  const Crypto& library = crypto();
  ASCEND_CHECK_OR_RETURN_ERROR(
      library.digest != nullptr, NotSupported,
      "named data '%s' (%s) cannot be verified: %s; install OpenSSL, or load "
      "without the '%s' option",
      key.c_str(), what.c_str(), library.unavailable.c_str(),
      kVerifyWeightsOption);
  unsigned char actual[kDigestBytes];
  unsigned int length = 0;
  // EVP_Digest reads nothing for an empty input, but wants a valid pointer.
  static const unsigned char kEmpty = 0;
  const int ok = library.digest(data != nullptr ? data : &kEmpty, size, actual,
                                &length, library.sha256(), nullptr);
  ASCEND_CHECK_OR_RETURN_ERROR(
      ok == 1 && length == kDigestBytes, NotSupported,
      "named data '%s' (%s) cannot be verified: libcrypto's EVP_Digest failed",
      key.c_str(), what.c_str());
  ASCEND_CHECK_OR_RETURN_ERROR(
      std::memcmp(actual, expected, kDigestBytes) == 0, InvalidExternalData,
      "named data '%s' (%s, %zu bytes) is corrupted: its SHA-256 is %s, not "
      "the one its key names; re-copy the .pte/.ptd files or re-export the "
      "program",
      key.c_str(), what.c_str(), size, hex(actual).c_str());
  return Error::Ok;
}

Result<bool> verify_weights_from_environment() {
  const char* value = std::getenv(kVerifyWeightsVariable);
  if (value == nullptr || value[0] == '\0' || std::strcmp(value, "0") == 0) {
    return false;
  }
  ASCEND_CHECK_OR_RETURN_ERROR(std::strcmp(value, "1") == 0, InvalidArgument,
                               "%s='%s' must be '1' (verify) or '0' (do not)",
                               kVerifyWeightsVariable, value);
  return true;
}

}  // namespace executorch::backends::ascend
