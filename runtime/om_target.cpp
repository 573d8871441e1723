// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "om_target.h"

#include <cctype>

#include "log.h"

namespace executorch::backends::ascend {

using executorch::runtime::Error;
using executorch::runtime::Result;

std::string soc_family(const std::string& soc) {
  std::string family = soc.substr(0, soc.find_first_of("_-"));
  // A variant is a digit run after a letter that itself follows the chip's
  // digits ("910B" + "1"); "Ascend910" alone has no variant to strip.
  size_t end = family.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(family[end - 1]))) {
    --end;
  }
  const bool variant =
      end < family.size() && end > 0 &&
      std::isalpha(static_cast<unsigned char>(family[end - 1])) &&
      family.find_first_of("0123456789") < end - 1;
  return variant ? family.substr(0, end) : family;
}

Result<const OmTarget*> choose_target(const DelegateBlob& blob,
                                      const char* device_soc) {
  ASCEND_CHECK_OR_RETURN_ERROR(!blob.targets.empty(), InvalidProgram,
                               "delegate blob has no compiled model");
  if (device_soc == nullptr || device_soc[0] == '\0') {
    return &blob.targets.front();
  }
  const std::string device(device_soc);
  for (const OmTarget& target : blob.targets) {
    if (target.soc_version == device) {
      return &target;
    }
  }
  const std::string family = soc_family(device);
  for (const OmTarget& target : blob.targets) {
    if (soc_family(target.soc_version) == family) {
      ASCEND_LOG(Info,
                 "the model was compiled for %s and runs on %s, another chip "
                 "of the same family",
                 target.soc_version.c_str(), device.c_str());
      return &target;
    }
  }
  std::string socs;
  for (const OmTarget& target : blob.targets) {
    socs += (socs.empty() ? "" : ", ") + target.soc_version;
  }
  // Two lines: ExecuTorch's log line holds about 250 bytes, and the list of
  // SoCs must not be cut.
  ASCEND_LOG(Error,
             "this program has .om files for %s (atc --soc_version); the "
             "device is %s (aclrtGetSocName)",
             socs.c_str(), device.c_str());
  ASCEND_LOG(Error,
             "an .om runs only on its own chip family: add one with "
             "'executorch-ascend compile model.pte --soc_version %s' (the "
             "program needs keep_onnx) or re-export for %s",
             device.c_str(), device.c_str());
  return Error::DelegateInvalidCompatibility;
}

}  // namespace executorch::backends::ascend
