// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Named data checked against the SHA-256 its key names. Every named-data key
// the delegate blob refers to ends in the SHA-256 of its bytes (the .om:
// "ascend/om/<sha256>", an external weight: "ascend/weight/<sha256>", a
// state's initial value: "ascend/state/<sha256>"), so a corrupted .pte or .ptd
// is told from a good one by hashing what is about to be uploaded.
//
// The hash comes from OpenSSL's libcrypto (EVP_Digest, with the CPU's SHA
// instructions), opened with dlopen the first time a check runs: the backend
// links only ExecuTorch and libdl, and a host without libcrypto loads and
// runs programs as before; it only cannot verify them.
#pragma once

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>

#include <cstddef>
#include <string>

namespace executorch::backends::ascend {

// Backend option and load-time runtime spec (bool): check every named-data
// item a delegate uploads (its .om, external weights, states' initial
// values) against its key before the upload.
inline constexpr char kVerifyWeightsOption[] = "verify_weights";
// "1" turns the check on for delegates loaded without the option above (for
// tools and tests); "0" or unset leaves it off.
inline constexpr char kVerifyWeightsVariable[] =
    "EXECUTORCH_ASCEND_VERIFY_WEIGHTS";

// Ok when the SHA-256 of `size` bytes at `data` is the one `key` ends with
// (64 lower-case hex digits after the last '/'). Otherwise, logged with the
// key and `what` (e.g. "external weight 'weight_ab12'"):
//   InvalidExternalData  the bytes are not the ones the key names;
//   InvalidProgram       the key names no SHA-256;
//   NotSupported         libcrypto cannot be loaded.
executorch::runtime::Error verify_content(const void* data, size_t size,
                                          const std::string& key,
                                          const std::string& what);

// The value of kVerifyWeightsVariable: true for "1", false for "0" or unset.
// Anything else is InvalidArgument, logged.
executorch::runtime::Result<bool> verify_weights_from_environment();

}  // namespace executorch::backends::ascend
