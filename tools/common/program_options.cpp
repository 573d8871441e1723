// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "program_options.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>

namespace executorch::backends::ascend::tools {

bool parse_arguments(int argc, char** argv, ProgramOptions* program,
                     const std::vector<OwnOption>& own, std::string* error) {
  error->clear();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      program->help = true;
      return true;
    }
    std::string value;
    const size_t equals = arg.find('=');
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      value = arg.substr(equals + 1);
      arg = arg.substr(0, equals);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      *error = "missing value for " + arg;
      return false;
    }
    if (arg == "--model") {
      program->model = value;
    } else if (arg == "--data") {
      program->data = value;
    } else if (arg == "--method") {
      program->method = value;
    } else if (arg == "--verification") {
      if (!parse_verification(value, &program->verification)) {
        *error =
            "--verification needs 'minimal' or 'internal', got '" + value + "'";
        return false;
      }
    } else {
      const auto it =
          std::find_if(own.begin(), own.end(),
                       [&arg](const OwnOption& o) { return arg == o.name; });
      *error =
          it == own.end() ? "unknown argument '" + arg + "'" : it->take(value);
      if (!error->empty()) {
        return false;
      }
    }
  }
  return check_program_options(*program, error);
}

bool check_program_options(const ProgramOptions& program, std::string* error) {
  if (program.model.empty()) {
    *error = "--model is required";
    return false;
  }
  if (program.method.empty()) {
    *error = "--method must not be empty";
    return false;
  }
  return true;
}

bool parse_verification(const std::string& text, Verification* out) {
  if (text == "minimal") {
    *out = Verification::kMinimal;
    return true;
  }
  if (text == "internal") {
    *out = Verification::kInternalConsistency;
    return true;
  }
  return false;
}

bool parse_integer(const std::string& text, long long min, long long max,
                   long long* out) {
  if (text.empty()) {
    return false;
  }
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < min || value > max) {
    return false;
  }
  *out = value;
  return true;
}

std::string int_option(const char* name, const std::string& value, int min,
                       int* out) {
  long long number = 0;
  if (!parse_integer(value, min, std::numeric_limits<int>::max(), &number)) {
    return std::string(name) + " needs an integer >= " + std::to_string(min) +
           ", got '" + value + "'";
  }
  *out = static_cast<int>(number);
  return "";
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) {
      break;
    }
    start = comma + 1;
  }
  return parts;
}

}  // namespace executorch::backends::ascend::tools
