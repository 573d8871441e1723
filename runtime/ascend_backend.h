// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// AscendBackend: the ExecuTorch BackendInterface for Huawei Ascend NPUs.
// It reads the delegate blob (the .om's named-data key) and the compile specs
// (SoC, default device), checks the SoC against the device, fetches the .om
// from named data and hands it to an AscendDelegate; ACL itself is reached
// through AclLibrary.
#pragma once

#include <executorch/runtime/backend/interface.h>

#include <atomic>

#include "workspace_option.h"

namespace executorch::backends::ascend {

// The name the Python AscendBackend (BackendDetails) writes into the .pte.
inline constexpr char kAscendBackendName[] = "AscendBackend";
// Backend option and load-time runtime spec: the device to run on (int).
inline constexpr char kDeviceIdOption[] = "device_id";
// Backend option and load-time runtime spec: who owns each model's work
// memory (string: "acl", "delegate" or "shared"; runtime/workspace_option.h).
inline constexpr char kWorkspaceOption[] = "workspace";

class AscendBackend final : public executorch::runtime::BackendInterface {
 public:
  bool is_available() const override;

  executorch::runtime::Result<executorch::runtime::DelegateHandle*> init(
      executorch::runtime::BackendInitContext& context,
      executorch::runtime::FreeableBuffer* processed,
      executorch::runtime::ArrayRef<executorch::runtime::CompileSpec>
          compile_specs) const override;

  executorch::runtime::Error execute(
      executorch::runtime::BackendExecutionContext& context,
      executorch::runtime::DelegateHandle* handle,
      executorch::runtime::Span<executorch::runtime::EValue*> args)
      const override;

  void destroy(executorch::runtime::DelegateHandle* handle) const override;

  // "device_id" (int >= 0, or -1 to go back to each program's own device),
  // "workspace" ("acl", "delegate" or "shared") and "verify_weights" (bool,
  // or the int -1 to go back to EXECUTORCH_ASCEND_VERIFY_WEIGHTS;
  // content_digest.h): defaults for delegates initialised afterwards; a
  // load-time option overrides them.
  executorch::runtime::Error set_option(
      executorch::runtime::BackendOptionContext& context,
      const executorch::runtime::Span<executorch::runtime::BackendOption>&
          options) override;
  // "device_id": the value set with set_option, -1 when none is set;
  // "workspace": the default mode's name ("acl" unless set);
  // "verify_weights": the default (from EXECUTORCH_ASCEND_VERIFY_WEIGHTS
  // unless set).
  executorch::runtime::Error get_option(
      executorch::runtime::BackendOptionContext& context,
      executorch::runtime::Span<executorch::runtime::BackendOption>& options)
      override;

 private:
  executorch::runtime::Result<int32_t> choose_device(
      const executorch::runtime::BackendInitContext& context,
      int32_t program_device) const;
  executorch::runtime::Result<WorkspaceMode> choose_workspace(
      const executorch::runtime::BackendInitContext& context) const;
  // The load-time option, else set_option's value, else the environment.
  executorch::runtime::Result<bool> choose_verify(
      const executorch::runtime::BackendInitContext& context) const;

  std::atomic<int> device_override_{-1};
  std::atomic<WorkspaceMode> workspace_default_{WorkspaceMode::kAcl};
  // -1: not set (the environment decides), else 0 or 1.
  std::atomic<int> verify_override_{-1};
};

}  // namespace executorch::backends::ascend
