// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "log_text.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>

namespace executorch::backends::ascend {

namespace {

constexpr char kEllipsis[] = "...";
constexpr size_t kEllipsisBytes = sizeof(kEllipsis) - 1;

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence at text[at] (1..4), or 0 when the bytes
// there do not start one. The second-byte ranges exclude overlong forms (C0,
// C1, E0 80..9F, F0 80..8F), surrogates (ED A0..BF) and code points above
// U+10FFFF (F4 90.., F5..FF).
size_t utf8_sequence(std::string_view text, size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  if (lead < 0x80) {
    return 1;
  }
  size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() - at < length) {
    return 0;
  }
  const auto second = static_cast<unsigned char>(text[at + 1]);
  if (second < low || second > high) {
    return 0;
  }
  for (size_t i = 2; i < length; ++i) {
    if (!is_continuation(static_cast<unsigned char>(text[at + i]))) {
      return 0;
    }
  }
  return length;
}

}  // namespace

std::string printable(std::string_view text, size_t max_bytes) {
  std::string out;
  // Where the text is cut if it turns out too long: the end of the last
  // whole piece that leaves room for the marker.
  const size_t budget =
      max_bytes > kEllipsisBytes ? max_bytes - kEllipsisBytes : 0;
  size_t cut = 0;
  size_t at = 0;
  while (at < text.size() && out.size() <= max_bytes) {
    const size_t length = utf8_sequence(text, at);
    const auto byte = static_cast<unsigned char>(text[at]);
    if (length == 0 || byte < 0x20 || byte == 0x7F) {
      char escaped[5];
      std::snprintf(escaped, sizeof(escaped), "\\x%02X", byte);
      out.append(escaped, 4);
      at += 1;
    } else {
      out.append(text.substr(at, length));
      at += length;
    }
    if (out.size() <= budget) {
      cut = out.size();
    }
  }
  if (at == text.size() && out.size() <= max_bytes) {
    return out;
  }
  out.resize(cut);
  out.append(kEllipsis,
             max_bytes < kEllipsisBytes ? max_bytes : kEllipsisBytes);
  return out;
}

std::string printable_format(const char* format, ...) {
  // Formatted a little beyond the bound, so printable() sees that the text
  // goes on and marks the cut.
  char raw[kLogTextMaxBytes + 8];
  va_list args;
  va_start(args, format);
  const int length = std::vsnprintf(raw, sizeof(raw), format, args);
  va_end(args);
  if (length < 0) {
    return "(unformattable log message)";
  }
  const size_t used = static_cast<size_t>(length) < sizeof(raw)
                          ? static_cast<size_t>(length)
                          : sizeof(raw) - 1;
  return printable(std::string_view(raw, used));
}

}  // namespace executorch::backends::ascend
