// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "ascend_emu/soc_versions.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "ascend_emu/om_format.h"
#include "soc_versions_data.h"  // generated: kSocVersionTable

namespace ascend_emu {
namespace {

// Levenshtein distance, two rows.
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1);
  std::vector<size_t> cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

const std::vector<SocVersion>& SocVersions() {
  static const std::vector<SocVersion> kTable(std::begin(kSocVersionTable),
                                              std::end(kSocVersionTable));
  return kTable;
}

bool IsKnownSocVersion(const std::string& name) {
  return !SocFamily(name).empty();
}

std::string SocFamily(const std::string& name) {
  for (const SocVersion& soc : SocVersions()) {
    if (name == soc.name) return soc.family;
  }
  return "";
}

// The .om format's own bounds (om_format.h) hold every chip's gears.
constexpr bool GearLimitsFitTheOm() {
  if (kMinGearsData < OmLimits::kMinGears) return false;
  if (kMaxGearsData > OmLimits::kMaxGears) return false;
  for (const FamilyGears& f : kMaxGearsByFamily) {
    if (f.max > OmLimits::kMaxGears) return false;
  }
  return true;
}
static_assert(GearLimitsFitTheOm(),
              "soc_versions.json's gear_limits exceed OmLimits (om_format.h)");

size_t MinGears() { return kMinGearsData; }

size_t MaxGears(const std::string& soc_version) {
  const std::string family = SocFamily(soc_version);
  for (const FamilyGears& f : kMaxGearsByFamily) {
    if (f.family != nullptr && family == f.family) return f.max;
  }
  return kMaxGearsData;
}

std::vector<std::string> NearestSocVersions(const std::string& name,
                                            size_t count) {
  // Long or hostile input: no suggestion rather than quadratic work.
  if (name.empty() || name.size() > 64) return {};
  // Nearest first; among equally near names, the one sharing the longer
  // prefix (Ascend310P2: the 310P chips before Ascend310B2), then list
  // order. soc_versions.py ranks the same way.
  struct Scored {
    size_t distance;
    size_t prefix;
    std::string name;
  };
  std::vector<Scored> scored;
  for (const SocVersion& soc : SocVersions()) {
    const std::string candidate = soc.name;
    const size_t d = EditDistance(name, candidate);
    if (d > std::max<size_t>(1, name.size() / 2)) continue;
    size_t prefix = 0;
    while (prefix < name.size() && prefix < candidate.size() &&
           name[prefix] == candidate[prefix]) {
      ++prefix;
    }
    scored.push_back({d, prefix, candidate});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const Scored& x, const Scored& y) {
                     if (x.distance != y.distance) {
                       return x.distance < y.distance;
                     }
                     return x.prefix > y.prefix;
                   });
  std::vector<std::string> nearest;
  for (size_t i = 0; i < scored.size() && i < count; ++i) {
    nearest.push_back(scored[i].name);
  }
  return nearest;
}

std::string SocVersionError(const std::string& what, const std::string& name) {
  if (IsKnownSocVersion(name)) return "";
  std::string error = what + "='" + name +
                      "' is not a SoC name CANN knows (its platform_config "
                      "lists " +
                      std::to_string(SocVersions().size()) +
                      ", e.g. Ascend910B1, Ascend310P3)";
  const std::vector<std::string> nearest = NearestSocVersions(name);
  if (!nearest.empty()) {
    error += "; did you mean";
    for (size_t i = 0; i < nearest.size(); ++i) {
      error += (i == 0 ? " " : ", ") + nearest[i];
    }
    error += "?";
  }
  return error;
}

}  // namespace ascend_emu
