// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "cann_op_facts.h"

#include <cstring>
#include <iterator>

#include "ascend_emu/soc_versions.h"
#include "cann_op_facts_data.h"

namespace ascend_emu {
namespace atc {
namespace {

const CannOpFact* Find(const std::string& op_type) {
  for (const CannOpFact& f : kCannOpFacts) {
    if (op_type == f.op_type) return &f;
  }
  return nullptr;
}

// Whether ",<family>," is in the comma-delimited list `families`.
bool Lists(const char* families, const std::string& family) {
  if (family.empty()) return false;
  return std::strstr(families, ("," + family + ",").c_str()) != nullptr;
}

// An unknown name (refused elsewhere) counts as its own family.
std::string FamilyOf(const std::string& soc_version) {
  const std::string family = SocFamily(soc_version);
  return family.empty() ? soc_version : family;
}

}  // namespace

bool SocHasBf16(const std::string& soc_version) {
  return !Lists(kFamiliesWithoutBf16, FamilyOf(soc_version));
}

std::string NoBf16Reason(const std::string& soc_version) {
  const std::string family = FamilyOf(soc_version);
  for (const NoBf16Family& f : kNoBf16Families) {
    if (family == f.family) return f.reason;
  }
  return "";
}

bool OpHasFloat32(const std::string& op_type, const std::string& soc_version) {
  const CannOpFact* f = Find(op_type);
  return f == nullptr || !Lists(f->no_float32, FamilyOf(soc_version));
}

bool OpHasBfloat16(const std::string& op_type) {
  const CannOpFact* f = Find(op_type);
  return f == nullptr || !f->no_bfloat16;
}

std::string CheckAttributeFacts(const std::string& op_type,
                                const std::string& attribute,
                                const std::string& value, bool* refused) {
  for (const CannAttrFact& f : kCannAttrFacts) {
    if (op_type != f.op_type || attribute != f.attribute) continue;
    if (Lists(f.handled, value)) return "";
    *refused = f.refused;
    std::string handled(f.handled + 1);
    if (!handled.empty()) handled.pop_back();
    return "has " + attribute + "=" + value + ", which CANN's " + op_type +
           " parser " + (f.refused ? "refuses" : "ignores") + " (it handles " +
           handled + "; " + OpFactSource(op_type) + ")";
  }
  return "";
}

bool NeedsConstantInput(const std::string& op_type, int index) {
  const CannOpFact* f = Find(op_type);
  return f != nullptr && index >= 0 && index < 32 &&
         (f->constant_inputs >> index & 1u) != 0;
}

std::string OpUnavailableOnSoc(const std::string& op_type,
                               const std::string& soc_version, bool int8,
                               bool int4_weight, bool uint64_deq_scale) {
  const CannOpFact* f = Find(op_type);
  if (f == nullptr) return "";
  const std::string family = FamilyOf(soc_version);
  const std::string chip = soc_version + " (family " + family + ")";
  if (Lists(f->unsupported, family)) {
    return "CANN has no " + op_type + " on " + chip + " (" +
           f->unsupported_source + ")";
  }
  if (int8 && Lists(f->no_int8, family)) {
    return "CANN has no int8 " + op_type + " on " + chip + " (" +
           f->no_int8_source + ")";
  }
  if (int4_weight && Lists(f->no_int4_weight, family)) {
    return "CANN has no int4 (int32-packed) weights for " + op_type + " on " +
           chip + " (" + f->no_int4_weight_source + ")";
  }
  if (uint64_deq_scale && Lists(f->deq_scale_float16, family)) {
    return "CANN's " + op_type + " takes a float16 deq_scale on " + chip +
           ", not a uint64 one (" + f->deq_scale_float16_source + ")";
  }
  return "";
}

std::string OpFactSource(const std::string& op_type) {
  const CannOpFact* f = Find(op_type);
  return f == nullptr ? "" : f->source;
}

}  // namespace atc
}  // namespace ascend_emu
