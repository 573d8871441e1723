// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's SoC names (atc --soc_version, aclrtGetSocName) and their families.
// The list is src/executorch_ascend/soc_versions.json, the same file the
// Python compile spec reads; emulator/engine/CMakeLists.txt turns it into a
// table at build time (its facts: hicann/runtime platform_config, the commit
// the JSON names).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ascend_emu {

struct SocVersion {
  const char* name;    // CANN's SoC_version, e.g. Ascend310P3
  const char* family;  // CANN's Short_SoC_version, e.g. Ascend310P
};

// Every SoC name CANN knows, sorted by name.
const std::vector<SocVersion>& SocVersions();

bool IsKnownSocVersion(const std::string& name);

// The family of a known name, "" for an unknown one.
std::string SocFamily(const std::string& name);

// Up to `count` known names nearest to `name` by edit distance (at most
// half of its length away), nearest first; ties in the list's order.
std::vector<std::string> NearestSocVersions(const std::string& name,
                                            size_t count = 3);

// "" for a known name; else why not, naming `what` (e.g. "--soc_version")
// and the nearest known names.
std::string SocVersionError(const std::string& what, const std::string& name);

// How many gears (--dynamic_batch_size / --dynamic_dims profiles) atc takes
// for a SoC: at least MinGears(), at most MaxGears(soc), its family's own
// limit or the common one (the JSON's gear_limits, from CANN's GE docs).
size_t MinGears();
size_t MaxGears(const std::string& soc_version);

}  // namespace ascend_emu
