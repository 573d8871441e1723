// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Registers AscendBackend with ExecuTorch's backend registry when the shared
// library is loaded (a static initializer): linking or dlopen-ing
// libexecutorch_backend_ascend.so is all an application has to do.

#include "ascend_backend.h"
#include "log.h"

namespace executorch::backends::ascend {
namespace {

AscendBackend& backend_instance() {
  static AscendBackend backend;
  return backend;
}

const bool registered = [] {
  const executorch::runtime::Backend backend{kAscendBackendName,
                                             &backend_instance()};
  const executorch::runtime::Error error =
      executorch::runtime::register_backend(backend);
  if (error != executorch::runtime::Error::Ok) {
    ASCEND_LOG(Error, "registration failed with error 0x%x",
               static_cast<unsigned>(error));
    return false;
  }
  return true;
}();

}  // namespace
}  // namespace executorch::backends::ascend
