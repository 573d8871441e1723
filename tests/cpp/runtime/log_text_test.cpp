// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// printable() (runtime/log_text.h): what the backend's log lines may carry.
// A log sink that requires UTF-8 (ExecuTorch's Python one) must never see an
// invalid sequence, and control bytes must not reach it raw.
#include "log_text.h"

#include <gtest/gtest.h>

#include <string>

#include "log.h"

namespace executorch::backends::ascend {
namespace {

TEST(LogText, AsciiIsKept) {
  EXPECT_EQ(printable("ascend/om/add 'x' 100%"), "ascend/om/add 'x' 100%");
  EXPECT_EQ(printable(""), "");
}

TEST(LogText, ValidMultiByteUtf8IsKept) {
  // 2, 3 and 4 bytes, and the extremes of the valid ranges.
  const std::string text =
      "caf\xC3\xA9 \xE6\xA8\xA1\xE5\x9E\x8B \xF0\x9F\x98\x80 \xC2\x80 "
      "\xED\x9F\xBF \xEE\x80\x80 \xF4\x8F\xBF\xBF";
  EXPECT_EQ(printable(text), text);
}

TEST(LogText, ControlCharactersAreEscaped) {
  EXPECT_EQ(printable(std::string("a\nb\rc\0d\x1B[2J\x7F", 12)),
            "a\\x0Ab\\x0Dc\\x00d\\x1B[2J\\x7F");
}

TEST(LogText, InvalidSequencesAreEscaped) {
  // A lone continuation byte, bytes never valid, a truncated sequence, a
  // lead byte followed by ASCII.
  EXPECT_EQ(printable("a\x80z"), "a\\x80z");
  EXPECT_EQ(printable("\xFF\xFE"), "\\xFF\\xFE");
  EXPECT_EQ(printable("\xE6\xA8"), "\\xE6\\xA8");
  EXPECT_EQ(printable("\xC3(x"), "\\xC3(x");
  EXPECT_EQ(printable("\xF5\x80\x80\x80"), "\\xF5\\x80\\x80\\x80");
}

TEST(LogText, OverlongFormsAreEscaped) {
  // '/' as 2, 3 and 4 bytes; NUL as C0 80 (modified UTF-8).
  EXPECT_EQ(printable("\xC0\xAF"), "\\xC0\\xAF");
  EXPECT_EQ(printable("\xE0\x80\xAF"), "\\xE0\\x80\\xAF");
  EXPECT_EQ(printable("\xF0\x80\x80\xAF"), "\\xF0\\x80\\x80\\xAF");
  EXPECT_EQ(printable("\xC0\x80"), "\\xC0\\x80");
}

TEST(LogText, SurrogatesAndCodePointsAboveTheRangeAreEscaped) {
  EXPECT_EQ(printable("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // U+D800
  EXPECT_EQ(printable("\xED\xBF\xBF"), "\\xED\\xBF\\xBF");  // U+DFFF
  EXPECT_EQ(printable("\xF4\x90\x80\x80"),
            "\\xF4\\x90\\x80\\x80");  // U+110000
}

TEST(LogText, LongTextIsCutWithAMarker) {
  EXPECT_EQ(printable("abcdefghij", 10), "abcdefghij");
  EXPECT_EQ(printable("abcdefghijk", 10), "abcdefg...");
  const std::string long_text(1000, 'k');
  const std::string cut = printable(long_text);
  EXPECT_EQ(cut.size(), kLogTextMaxBytes);
  EXPECT_EQ(cut.substr(cut.size() - 3), "...");
}

TEST(LogText, CutNeverSplitsACharacterOrAnEscape) {
  // 4-byte characters: a cut inside one would be invalid UTF-8.
  std::string smileys;
  for (int i = 0; i < 10; ++i) smileys += "\xF0\x9F\x98\x80";
  EXPECT_EQ(printable(smileys, 12), "\xF0\x9F\x98\x80\xF0\x9F\x98\x80...");
  // Escapes are whole: 10 bytes of budget hold one \xNN and "...", not two.
  EXPECT_EQ(printable("\xFF\xFF\xFF", 10), "\\xFF...");
}

TEST(LogText, FormattedMessagesAreEscapedAndBounded) {
  EXPECT_EQ(printable_format("named data '%s' not found (error 0x%x)",
                             "ascend/\xFFkey\n", 0x14u),
            "named data 'ascend/\\xFFkey\\x0A' not found (error 0x14)");
  const std::string long_name(500, '\xE9');  // 500 invalid bytes
  const std::string line = printable_format("key '%s'", long_name.c_str());
  EXPECT_LE(line.size(), kLogTextMaxBytes);
  EXPECT_EQ(line.substr(0, 9), "key '\\xE9");
  EXPECT_EQ(line.substr(line.size() - 3), "...");
}

TEST(LogText, TheLogMacrosAcceptUntrustedText) {
  // Reaches ExecuTorch's sink; the test is that the macros compile with any
  // arguments and the check macro returns its error.
  auto check = [](const char* key) -> executorch::runtime::Error {
    ASCEND_LOG(Info, "key '%s'", key);
    ASCEND_CHECK_OR_RETURN_ERROR(key[0] == 'a', InvalidProgram, "key '%s'",
                                 key);
    return executorch::runtime::Error::Ok;
  };
  EXPECT_EQ(check("ascend"), executorch::runtime::Error::Ok);
  EXPECT_EQ(check("\xFF\n"), executorch::runtime::Error::InvalidProgram);
}

}  // namespace
}  // namespace executorch::backends::ascend
