// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// What aipp_config.cc's parser and its checks share: the fields of
// domi.AippOpParams (insert_op.proto) with their types, the input format
// names, and protobuf's text rules for numbers. Private to atc.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ascend_emu {
namespace atc {

enum class FieldType {
  kModeEnum,
  kFormatEnum,
  kBool,
  kInt32,
  kUInt32,
  kFloat,
  kString
};

struct FieldDef {
  FieldType type;
  bool repeated;
};

// domi.AippOpParams (insert_op.proto): every field, its type, repeated or not.
const std::map<std::string, FieldDef>& AippFields();

// AippOpParams.InputFormat's names, by value (insert_op.proto).
const std::vector<std::string>& FormatNames();

// A number as protobuf's text parser reads one (decimal, hex, a float's
// trailing f); false for anything else.
bool ParseInt(const std::string& t, long long* v);
bool ParseFloat(const std::string& t, double* v);

}  // namespace atc
}  // namespace ascend_emu
