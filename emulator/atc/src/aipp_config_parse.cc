// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's AIPP configuration file read as protobuf's text parser reads
// domi.InsertNewOps (aipp_config.h; docs/aipp.md, "What atc does with the
// config", step 1); aipp_config.cc checks what it read.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "aipp_config.h"
#include "aipp_config_fields.h"

namespace ascend_emu {
namespace atc {

// domi.AippOpParams (insert_op.proto): every field, its type, repeated or not.
const std::map<std::string, FieldDef>& AippFields() {
  static const std::map<std::string, FieldDef> fields = [] {
    std::map<std::string, FieldDef> f;
    f["aipp_mode"] = {FieldType::kModeEnum, false};
    f["related_input_rank"] = {FieldType::kUInt32, false};
    f["related_input_name"] = {FieldType::kString, false};
    f["input_edge_idx"] = {FieldType::kUInt32, true};
    f["max_src_image_size"] = {FieldType::kUInt32, false};
    f["support_rotation"] = {FieldType::kBool, false};
    f["input_format"] = {FieldType::kFormatEnum, false};
    f["csc_switch"] = {FieldType::kBool, false};
    f["cpadding_value"] = {FieldType::kFloat, false};
    f["rbuv_swap_switch"] = {FieldType::kBool, false};
    f["ax_swap_switch"] = {FieldType::kBool, false};
    f["single_line_mode"] = {FieldType::kBool, false};
    for (const char* n :
         {"src_image_size_w", "src_image_size_h", "load_start_pos_w",
          "load_start_pos_h", "crop_size_w", "crop_size_h", "resize_output_w",
          "resize_output_h", "left_padding_size", "right_padding_size",
          "top_padding_size", "bottom_padding_size", "mean_chn_0", "mean_chn_1",
          "mean_chn_2", "mean_chn_3"}) {
      f[n] = {FieldType::kInt32, false};
    }
    for (const char* n : {"crop", "resize", "padding"}) {
      f[n] = {FieldType::kBool, false};
    }
    f["padding_value"] = {FieldType::kFloat, false};
    for (const char* n : {"min_chn_0", "min_chn_1", "min_chn_2", "min_chn_3"})
      f[n] = {FieldType::kFloat, false};
    for (const char* n : {"var_reci_chn_0", "var_reci_chn_1", "var_reci_chn_2",
                          "var_reci_chn_3"})
      f[n] = {FieldType::kFloat, true};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        f["matrix_r" + std::to_string(r) + "c" + std::to_string(c)] = {
            FieldType::kInt32, true};
      }
      f["output_bias_" + std::to_string(r)] = {FieldType::kInt32, true};
      f["input_bias_" + std::to_string(r)] = {FieldType::kInt32, true};
    }
    f["raw_rgbir_to_f16_n"] = {FieldType::kUInt32, false};
    return f;
  }();
  return fields;
}

// AippOpParams.InputFormat's names, by value (insert_op.proto).
const std::vector<std::string>& FormatNames() {
  static const std::vector<std::string> names = {
      "UNDEFINED", "YUV420SP_U8",    "XRGB8888_U8",  "RGB888_U8",
      "YUV400_U8", "NC1HWC0DI_FP16", "NC1HWC0DI_S8", "ARGB8888_U8",
      "YUYV_U8",   "YUV422SP_U8",    "AYUV444_U8",   "RAW10",
      "RAW12",     "RAW16",          "RAW24",        "RGB16",
      "RGB20",     "RGB24",          "RGB8_IR",      "RGB16_IR",
      "RGB24_IR"};
  return names;
}

bool ParseInt(const std::string& t, long long* v) {
  if (t.empty()) return false;
  errno = 0;
  char* end = nullptr;
  *v = std::strtoll(t.c_str(), &end, 0);
  return errno == 0 && end != nullptr && *end == '\0';
}

bool ParseFloat(const std::string& t, double* v) {
  std::string s = t;
  if (!s.empty() && (s.back() == 'f' || s.back() == 'F') &&
      s.find_first_of("xX") == std::string::npos && s != "inf" && s != "-inf")
    s.pop_back();
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end != nullptr && *end == '\0';
}

namespace {

struct Token {
  std::string text;
  bool is_string = false;
  int line = 0;
};

std::string Tokenize(const std::string& s, std::vector<Token>* out) {
  int line = 1;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      std::string text;
      while (j < s.size() && s[j] != c && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < s.size()) ++j;
        text += s[j++];
      }
      if (j >= s.size() || s[j] != c)
        return "line " + std::to_string(line) + ": unterminated string";
      out->push_back({text, true, line});
      i = j + 1;
    } else if (std::strchr("{}<>:;,[]", c) != nullptr) {
      out->push_back({std::string(1, c), false, line});
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               c == '-' || c == '+' || c == '.') {
      size_t j = i;
      while (j < s.size() &&
             (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' ||
              s[j] == '.' ||
              ((s[j] == '-' || s[j] == '+') &&
               (j == i || s[j - 1] == 'e' || s[j - 1] == 'E')))) {
        ++j;
      }
      out->push_back({s.substr(i, j - i), false, line});
      i = j;
    } else {
      return "line " + std::to_string(line) + ": unexpected character '" +
             std::string(1, c) + "'";
    }
  }
  return "";
}

// One scalar value of a field, as protobuf's text parser checks it.
std::string CheckScalar(const std::string& field, const FieldDef& def,
                        const Token& t) {
  const std::string at = "line " + std::to_string(t.line) + ": ";
  if (def.type == FieldType::kString) {
    return t.is_string ? "" : at + "Expected string, got: " + t.text;
  }
  if (t.is_string) return at + "Expected a value, got a string for " + field;
  long long i = 0;
  double d = 0;
  switch (def.type) {
    case FieldType::kModeEnum:
      if (t.text == "undefined" || t.text == "static" || t.text == "dynamic" ||
          t.text == "0" || t.text == "1" || t.text == "2")
        return "";
      return at + "Unknown enumeration value of \"" + t.text +
             "\" for field \"" + field + "\".";
    case FieldType::kFormatEnum: {
      for (size_t k = 0; k < FormatNames().size(); ++k) {
        if (t.text == FormatNames()[k] || t.text == std::to_string(k))
          return "";
      }
      return at + "Unknown enumeration value of \"" + t.text +
             "\" for field \"" + field + "\".";
    }
    case FieldType::kBool: {
      static const std::set<std::string> ok = {"true", "false", "True", "False",
                                               "t",    "f",     "1",    "0"};
      return ok.count(t.text) ? ""
                              : at + "Invalid value for boolean field \"" +
                                    field + "\". Value: \"" + t.text + "\".";
    }
    case FieldType::kInt32:
      if (!ParseInt(t.text, &i)) return at + "Expected integer, got: " + t.text;
      if (i < INT32_MIN || i > INT32_MAX)
        return at + "Integer out of range (" + t.text + ")";
      return "";
    case FieldType::kUInt32:
      if (!ParseInt(t.text, &i) || i < 0)
        return at + "Expected integer, got: " + t.text;
      if (i > UINT32_MAX) return at + "Integer out of range (" + t.text + ")";
      return "";
    case FieldType::kFloat:
      if (!ParseFloat(t.text, &d))
        return at + "Expected double, got: " + t.text;
      return "";
    case FieldType::kString:
      break;
  }
  return "";
}

class Parser {
 public:
  explicit Parser(const std::vector<Token>& t) : t_(t) {}

  std::string Run(std::vector<AippOp>* ops) {
    while (pos_ < t_.size()) {
      const Token& name = t_[pos_++];
      if (name.text != "aipp_op" && name.text != "multi_shape_op") {
        return At(name) +
               "Message type \"domi.InsertNewOps\" has no field "
               "named \"" +
               name.text + "\".";
      }
      if (Peek(":")) ++pos_;
      const Token* open = Next();
      if (open == nullptr || (open->text != "{" && open->text != "<"))
        return At(name) + "Expected \"{\" after " + name.text + ".";
      if (name.text == "multi_shape_op") {
        return At(name) +
               "multi_shape_op is not emulated (the emulator's atc "
               "reads aipp_op blocks only)";
      }
      AippOp op;
      op.line = name.line;
      std::string err = Block(open->text == "{" ? "}" : ">", &op);
      if (!err.empty()) return err;
      ops->push_back(std::move(op));
      Separator();
    }
    return "";
  }

 private:
  std::string At(const Token& t) const {
    return "line " + std::to_string(t.line) + ": ";
  }
  bool Peek(const char* s) const {
    return pos_ < t_.size() && !t_[pos_].is_string && t_[pos_].text == s;
  }
  const Token* Next() { return pos_ < t_.size() ? &t_[pos_++] : nullptr; }
  void Separator() {
    if (Peek(",") || Peek(";")) ++pos_;
  }

  std::string Block(const std::string& close, AippOp* op) {
    for (;;) {
      const Token* name = Next();
      if (name == nullptr)
        return "unexpected end of file: missing \"" + close + "\"";
      if (!name->is_string && name->text == close) return "";
      auto def = AippFields().find(name->text);
      if (name->is_string || def == AippFields().end()) {
        return At(*name) +
               "Message type \"domi.AippOpParams\" has no field "
               "named \"" +
               name->text + "\".";
      }
      if (!Peek(":")) {
        return At(*name) + "Expected \":\", found \"" +
               (pos_ < t_.size() ? t_[pos_].text : std::string("end of file")) +
               "\".";
      }
      ++pos_;
      std::vector<std::string>& values = op->fields[name->text];
      if (!def->second.repeated && !values.empty()) {
        return At(*name) + "Non-repeated field \"" + name->text +
               "\" is specified multiple times.";
      }
      if (def->second.repeated && Peek("[")) {
        ++pos_;
        while (!Peek("]")) {
          const Token* v = Next();
          if (v == nullptr) return "unexpected end of file in a list";
          std::string err = CheckScalar(name->text, def->second, *v);
          if (!err.empty()) return err;
          values.push_back(v->text);
          if (Peek(",")) ++pos_;
        }
        ++pos_;
      } else {
        const Token* v = Next();
        if (v == nullptr) return "unexpected end of file after " + name->text;
        std::string err = CheckScalar(name->text, def->second, *v);
        if (!err.empty()) return err;
        values.push_back(v->text);
      }
      Separator();
    }
  }

  const std::vector<Token>& t_;
  size_t pos_ = 0;
};

}  // namespace

std::string ParseAippConfig(const std::string& text, std::vector<AippOp>* ops) {
  std::vector<Token> tokens;
  std::string err = Tokenize(text, &tokens);
  if (!err.empty()) return err;
  return Parser(tokens).Run(ops);
}

std::string ReadAippConfig(const std::string& path, std::vector<AippOp>* ops) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "--insert_op_conf=" + path + ": cannot read the file";
  std::stringstream text;
  text << in.rdbuf();
  std::string err = ParseAippConfig(text.str(), ops);
  if (!err.empty())
    return "--insert_op_conf=" + path +
           ": not a CANN AIPP config (domi.InsertNewOps text): " + err;
  return "";
}

}  // namespace atc
}  // namespace ascend_emu
