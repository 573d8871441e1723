// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The checks aclmdlSetInputAIPP makes of a dynamic AIPP parameter set
// against the emulated chip, as CANN's aipp_param_check.cpp does (hicann/ge
// commit ffdcbc9f, api/acl/acl_model/): which chips run dynamic AIPP and
// limit the padded width, each image's output size, the frame's bytes, and
// AippParamsCheck in CANN's order. model_aipp.cc holds the calls.
#pragma once

#include <cstdint>
#include <string>

#include "acl_api.h"
#include "state.h"

namespace ascend_emu::acl {

// What the emulated SoC's family allows (its NpuArch).
struct ArchRules {
  bool dynamic_aipp = false;
  bool padded_width_limit = false;
};

ArchRules RulesFor(const std::string& soc_name);

// Image n's AIPP output W and H (GetAippOutputHW); an error past the
// padded-width limit of the chip.
aclError OutputHW(const aclmdlAIPP& a, uint64_t n, const ArchRules& rules,
                  int64_t* w, int64_t* h);

// The bytes the set's images take in the frame (GetSrcImageSize), 0 for a
// format it does not size.
uint64_t SrcImageBytes(const aclmdlAIPP& a);

// AippParamsCheck (aipp_param_check.cpp), in its order.
aclError CheckParams(const aclmdlAIPP& a, const ArchRules& rules);

}  // namespace ascend_emu::acl
