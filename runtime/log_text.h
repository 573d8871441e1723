// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Text that is safe to hand to a log sink. The backend quotes strings it does
// not control (delegate blob keys and names, named-data keys, .om tensor
// names, ACL messages that quote .om strings); a log sink may require valid
// UTF-8 (ExecuTorch's Python sink throws on anything else, which aborts the
// interpreter), and a control byte can forge or hide log lines.
#pragma once

#include <executorch/runtime/platform/compiler.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace executorch::backends::ascend {

// The longest text printable() returns by default. ExecuTorch formats a log
// line into 256 bytes and cuts what is longer at a byte, possibly inside a
// UTF-8 sequence; the backend's prefix plus this bound stays below that cut.
inline constexpr size_t kLogTextMaxBytes = 236;

// `text` with every byte that is not part of a valid UTF-8 sequence
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) and
// every ASCII control character (0x00-0x1F, 0x7F) written as \xNN. Valid
// multi-byte characters are kept. When the result would exceed `max_bytes`
// it ends, at a character boundary, with "..." (within max_bytes).
std::string printable(std::string_view text,
                      size_t max_bytes = kLogTextMaxBytes);

// printf-style formatting, then printable(): what every ASCEND_LOG line goes
// through, so no call site can pass an untrusted string to the sink raw.
ET_PRINTFLIKE(1, 2) std::string printable_format(const char* format, ...);

}  // namespace executorch::backends::ascend
