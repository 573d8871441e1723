// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// atc's --input_shape, --dynamic_batch_size and --dynamic_dims: the shapes
// and shape gears of a command line, checked by CANN's rules and limits.
#include <cerrno>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "ascend_emu/soc_versions.h"
#include "atc_options.h"

namespace ascend_emu {
namespace atc {
namespace {

bool ParseInt(const std::string& text, int64_t* value) {
  if (text.empty() || text.size() > 19) return false;
  size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (size_t k = i; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return false;
  }
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size()) return false;
  *value = v;
  return true;
}

constexpr const char* kExclusive =
    "--dynamic_batch_size, --dynamic_image_size, --input_shape_range, and "
    "--dynamic_dims are mutually exclusive.";

// One gear value: digits only, > 0 (CANN's "Dimension size %s is invalid.
// The value must be greater than 0.").
std::string ParseGearValue(const std::string& option, const std::string& text,
                           int64_t* value) {
  if (text.empty() || text.size() > 13 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return option + ": '" + text +
           "' is not a gear value (Dynamic dims must be a positive integer.)";
  }
  *value = std::strtoll(text.c_str(), nullptr, 10);
  if (*value <= 0) {
    return option + ": Dimension size " + text +
           " is invalid. The value must be greater than 0.";
  }
  if (*value > OmLimits::kMaxGearValue) {
    return option + ": gear value " + text + " is too large (at most 2^40)";
  }
  return "";
}

std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string CheckGearCount(const AtcOptions& o) {
  const size_t max = MaxGearsFor(o.soc_version);
  if (o.gears.size() < MinGears()) {
    return "--dynamic_batch_size, --dynamic_image_size, or --dynamic_dims "
           "has " +
           std::to_string(o.gears.size()) +
           " profiles, which is less than the minimum " +
           std::to_string(MinGears()) + ".";
  }
  if (o.gears.size() > max) {
    return "--dynamic_batch_size, --dynamic_image_size, or --dynamic_dims "
           "has " +
           std::to_string(o.gears.size()) +
           " profiles, which is greater than the maximum " +
           std::to_string(max) + " (for --soc_version=" + o.soc_version + ").";
  }
  std::set<std::vector<int64_t>> distinct(o.gears.begin(), o.gears.end());
  if (distinct.size() != o.gears.size()) {
    return "The --dynamic_batch_size, --dynamic_image_size, or --dynamic_dims "
           "argument has duplicate profiles.";
  }
  return "";
}

std::string ParseBatchGears(AtcOptions* o) {
  bool any = false;
  for (const auto& [name, dims] : o->input_shapes) {
    if (dims.empty()) {
      return "--dynamic_batch_size is included, but the dimension count of "
             "the dynamic-shape input configured in --input_shape is less "
             "than 1 ('" +
             name + "' is a scalar).";
    }
    for (size_t k = 1; k < dims.size(); ++k) {
      if (dims[k] == -1) {
        return "Value -1 for shape '" + name + "' index " + std::to_string(k) +
               " is invalid. When --dynamic_batch_size is included, only "
               "batch size N can be -1 in --input_shape (use --dynamic_dims "
               "for other dims).";
      }
    }
    any = any || dims[0] == -1;
  }
  if (!any) {
    return "--dynamic_batch_size is included, but none of the nodes "
           "specified in --input_shape has a batch size equaling -1.";
  }
  std::string text = o->dynamic_batch_size;
  if (text.find_first_not_of("0123456789,") != std::string::npos) {
    return "--dynamic_batch_size='" + text +
           "' is invalid: It can only contain digits and \",\".";
  }
  if (!text.empty() && text.back() == ',') text.pop_back();
  for (const std::string& item : Split(text, ',')) {
    int64_t v = 0;
    std::string err = ParseGearValue("--dynamic_batch_size", item, &v);
    if (!err.empty()) return err;
    o->gears.push_back({v});
  }
  o->gear_type = DynamicType::kDynamicBatch;
  return CheckGearCount(*o);
}

std::string ParseDimsGears(AtcOptions* o) {
  if (o->input_format != "ND") {
    return "--dynamic_dims sets dynamic dims of ND inputs: it needs "
           "--input_format=ND (got " +
           o->input_format + ")";
  }
  size_t dynamic = 0;
  for (const auto& entry : o->input_shapes) {
    for (int64_t d : entry.second) dynamic += d == -1 ? 1 : 0;
  }
  if (dynamic == 0) {
    return "--input_shape has no dynamic dim: At least one dim should be -1 "
           "when dynamic_dims is set.";
  }
  if (dynamic > OmLimits::kMaxGearPositions) {
    return "--input_shape has " + std::to_string(dynamic) +
           " dynamic dims; the emulator takes at most " +
           std::to_string(OmLimits::kMaxGearPositions) + " (ACL_MAX_DIM_CNT)";
  }
  std::string text = o->dynamic_dims;
  while (!text.empty() && text.back() == ';') text.pop_back();
  if (text.empty()) {
    return "Parameter --dynamic_dims is not configured or is empty.";
  }
  for (const std::string& gear : Split(text, ';')) {
    const std::vector<std::string> items = Split(gear, ',');
    if (items.size() != dynamic) {
      return "--dynamic_dims='" + o->dynamic_dims + "' is invalid: gear '" +
             gear + "' has " + std::to_string(items.size()) +
             " values, but --input_shape has " + std::to_string(dynamic) +
             " -1 (Each setting needs to be consistent with the number of -1 "
             "in the input shape.)";
    }
    std::vector<int64_t> values;
    for (const std::string& item : items) {
      int64_t v = 0;
      std::string err = ParseGearValue("--dynamic_dims", item, &v);
      if (!err.empty()) return err;
      values.push_back(v);
    }
    o->gears.push_back(std::move(values));
  }
  o->gear_type = DynamicType::kDynamicDims;
  return CheckGearCount(*o);
}

}  // namespace

size_t MaxGearsFor(const std::string& soc_version) {
  return MaxGears(soc_version);  // soc_versions.json's gear_limits
}

std::string ParseGears(AtcOptions* o) {
  o->gears.clear();
  o->gear_type = DynamicType::kStatic;
  const bool batch = !o->dynamic_batch_size.empty();
  const bool dims = !o->dynamic_dims.empty();
  if (batch && dims) return kExclusive;
  std::string dynamic_item;
  for (const auto& [name, dims_of] : o->input_shapes) {
    for (int64_t d : dims_of) {
      if (d == -1 && dynamic_item.empty()) dynamic_item = name;
    }
  }
  if (!batch && !dims) {
    if (dynamic_item.empty()) return "";
    return "--input_shape gives input '" + dynamic_item +
           "' a dynamic dim (-1) but neither --dynamic_batch_size nor "
           "--dynamic_dims is set: CANN would compile a dynamic-shape model "
           "(a shape range), which the emulator does not support; list the "
           "shapes to compile with --dynamic_batch_size or --dynamic_dims";
  }
  const char* option = batch ? "--dynamic_batch_size" : "--dynamic_dims";
  if (o->input_shapes.empty()) {
    return std::string(option) +
           " needs --input_shape with -1 in the dynamic dims (The "
           "input_shape cannot be empty in dynamic input size scenario.)";
  }
  return batch ? ParseBatchGears(o) : ParseDimsGears(o);
}

// One dim of an --input_shape entry, as CANN's atc reads it
// (compiler/api/aclgrph/option_utils.cc): a positive integer; -1, a dynamic
// dim (shape gears here); "lo~hi", a shape range, which makes CANN compile a
// dynamic-shape model the emulator does not emulate; 0 or another negative
// number, E10011; anything else (1.5, a), E10002.
static std::string CheckInputShapeDim(const std::string& item,
                                      const std::string& dim, int64_t* v) {
  const size_t tilde = dim.find('~');
  if (tilde != std::string::npos) {
    int64_t lo = 0;
    int64_t hi = 0;
    const bool range = ParseInt(dim.substr(0, tilde), &lo) &&
                       ParseInt(dim.substr(tilde + 1), &hi) && lo > 0 &&
                       (hi == -1 || hi >= lo);
    if (!range) {
      return "--input_shape: '" + dim + "' in '" + item +
             "' is not a dimension or a range lo~hi";
    }
    return "--input_shape '" + item + "' gives a shape range (" + dim +
           "): CANN's atc compiles a dynamic-shape model from it, which the "
           "emulator does not emulate; put -1 in the dynamic dims and list "
           "the shapes to compile with --dynamic_batch_size or --dynamic_dims";
  }
  if (!ParseInt(dim, v)) {
    // CANN's E10002 (option_utils.cc: a dim with a character other than a
    // digit, e.g. 1.5).
    return "Value " + item +
           " for parameter --input_shape is invalid. Reason: It is not a "
           "digit. The value must be formatted as \"input_name1:1,3,224,224\"."
           " ('" +
           dim + "' is not a dimension)";
  }
  if (*v <= 0 && *v != -1) {
    return "Value " + item +
           " for parameter --input_shape is invalid. Shape values must be "
           "positive integers. The error value in the shape is " +
           dim + ".";
  }
  return "";
}

std::string ParseInputShapes(
    const std::string& text,
    std::vector<std::pair<std::string, std::vector<int64_t>>>* shapes) {
  shapes->clear();
  std::set<std::string> seen;
  const std::vector<std::string> items = Split(text, ';');
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string& item = items[k];
    // An empty entry (";;", a trailing ';', or no value at all) is a typo or
    // a generator bug: refused rather than silently dropped, so a shape the
    // user meant to give cannot go missing.
    if (item.empty()) {
      return "--input_shape '" + text + "' has an empty entry (entry " +
             std::to_string(k + 1) + " of " + std::to_string(items.size()) +
             "): every ';'-separated entry must be name:dims";
    }
    // Names may contain ':' (e.g. "x:0"); the dims follow the last one.
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      return "--input_shape item '" + item + "' is not name:dims";
    }
    std::string name = item.substr(0, colon);
    const std::string dims_text = item.substr(colon + 1);
    std::vector<int64_t> dims;
    size_t d = 0;
    while (!dims_text.empty() && d <= dims_text.size()) {
      size_t comma = dims_text.find(',', d);
      if (comma == std::string::npos) comma = dims_text.size();
      int64_t v = 0;
      const std::string dim = dims_text.substr(d, comma - d);
      std::string err = CheckInputShapeDim(item, dim, &v);
      if (!err.empty()) return err;
      dims.push_back(v);
      d = comma + 1;
    }
    if (!seen.insert(name).second) {
      return "--input_shape names input '" + name + "' twice";
    }
    shapes->emplace_back(std::move(name), std::move(dims));
  }
  return "";
}

}  // namespace atc
}  // namespace ascend_emu
