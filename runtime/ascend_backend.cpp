// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "ascend_backend.h"

#include <emulator_ids.h>
#include <executorch/runtime/core/event_tracer_hooks_delegate.h>

#include <array>
#include <cstring>
#include <new>

#include "acl_library.h"
#include "ascend_delegate.h"
#include "compile_options.h"
#include "content_digest.h"
#include "delegate_blob.h"
#include "log.h"
#include "om_target.h"

namespace executorch::backends::ascend {

using executorch::runtime::ArrayRef;
using executorch::runtime::BackendExecutionContext;
using executorch::runtime::BackendInitContext;
using executorch::runtime::BackendOption;
using executorch::runtime::BackendOptionContext;
using executorch::runtime::CompileSpec;
using executorch::runtime::DelegateHandle;
using executorch::runtime::Error;
using executorch::runtime::EValue;
using executorch::runtime::FreeableBuffer;
using executorch::runtime::Result;
using executorch::runtime::Span;

namespace {

bool has_emulator_magic(const void* om, size_t size) {
  return size >= EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE &&
         std::memcmp(om, EXECUTORCH_ASCEND_EMU_OM_MAGIC,
                     EXECUTORCH_ASCEND_EMU_OM_MAGIC_SIZE) == 0;
}

// The .om and the ACL library must come from the same world: the emulator's
// .om (its magic, the one marker of an emulator build) is a format real CANN
// cannot run, and the emulator runs nothing else.
Error check_om_matches_library(const void* om, size_t size,
                               const AclLibrary& library) {
  const bool emulator_om = has_emulator_magic(om, size);
  ASCEND_CHECK_OR_RETURN_ERROR(
      !emulator_om || library.is_emulator(), DelegateInvalidCompatibility,
      "this model's .om was built by the CANN emulator's atc and cannot run "
      "on real CANN (%s); re-export the model with CANN's atc",
      library.path().c_str());
  ASCEND_CHECK_OR_RETURN_ERROR(
      emulator_om || !library.is_emulator(), DelegateInvalidCompatibility,
      "this model's .om was built by CANN's atc; the CANN emulator (%s) runs "
      "only .om files from its own atc",
      library.path().c_str());
  return Error::Ok;
}

}  // namespace

bool AscendBackend::is_available() const {
  return AclLibrary::get().available();
}

Result<int32_t> AscendBackend::choose_device(const BackendInitContext& context,
                                             int32_t program_device) const {
  int32_t device = program_device;
  const char* source = "the compile specs";
  const Result<int> runtime_spec =
      context.get_runtime_spec<int>(kDeviceIdOption);
  if (runtime_spec.ok()) {
    device = runtime_spec.get();
    source = "the load-time backend option";
  } else if (runtime_spec.error() != Error::NotFound) {
    ASCEND_LOG(Error, "load-time option '%s' must be an int", kDeviceIdOption);
    return Error::InvalidArgument;
  } else if (const int override_device = device_override_.load();
             override_device >= 0) {
    device = override_device;
    source = "set_option";
  }
  const uint32_t count = AclLibrary::get().device_count();
  ASCEND_CHECK_OR_RETURN_ERROR(
      device >= 0 && static_cast<uint32_t>(device) < count, InvalidArgument,
      "device_id %d (from %s) is out of range: %u device(s) present", device,
      source, count);
  return device;
}

Result<WorkspaceMode> AscendBackend::choose_workspace(
    const BackendInitContext& context) const {
  const Result<const char*> runtime_spec =
      context.get_runtime_spec<const char*>(kWorkspaceOption);
  if (runtime_spec.ok()) {
    return parse_workspace_mode(runtime_spec.get(),
                                "the load-time backend option");
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      runtime_spec.error() == Error::NotFound, InvalidArgument,
      "load-time option '%s' must be a string: 'acl', 'delegate' or 'shared'",
      kWorkspaceOption);
  return workspace_default_.load();
}

Result<bool> AscendBackend::choose_verify(
    const BackendInitContext& context) const {
  const Result<bool> runtime_spec =
      context.get_runtime_spec<bool>(kVerifyWeightsOption);
  if (runtime_spec.ok()) {
    return runtime_spec.get();
  }
  ASCEND_CHECK_OR_RETURN_ERROR(
      runtime_spec.error() == Error::NotFound, InvalidArgument,
      "load-time option '%s' must be a bool", kVerifyWeightsOption);
  const int override_verify = verify_override_.load();
  if (override_verify >= 0) {
    return override_verify == 1;
  }
  return verify_weights_from_environment();
}

Result<DelegateHandle*> AscendBackend::init(
    BackendInitContext& context, FreeableBuffer* processed,
    ArrayRef<CompileSpec> compile_specs) const {
  const AclLibrary& library = AclLibrary::get();
  ASCEND_CHECK_OR_RETURN_ERROR(library.available(), NotFound,
                               "ACL is not available: %s",
                               library.unavailable_reason().c_str());
  ASCEND_CHECK_OR_RETURN_ERROR(processed != nullptr, InvalidArgument,
                               "no delegate blob");
  const Result<const void*> blob_data = processed->data_safe();
  if (!blob_data.ok()) {
    return Error::InvalidProgram;
  }
  Result<DelegateBlob> blob =
      read_delegate_blob(blob_data.get(), processed->size());
  // Everything needed is copied out of the blob: give its memory back now.
  processed->Free();
  if (!blob.ok()) {
    return blob.error();
  }
  const Result<RuntimeCompileSpecs> specs = read_compile_specs(compile_specs);
  if (!specs.ok()) {
    return specs.error();
  }
  // A program may carry an .om per SoC: the device's (or its family's).
  const Result<const OmTarget*> target =
      choose_target(blob.get(), library.api().aclrtGetSocName());
  if (!target.ok()) {
    return target.error();
  }
  const OmTarget& chosen = *target.get();

  const auto* named_data = context.get_named_data_map();
  ASCEND_CHECK_OR_RETURN_ERROR(
      named_data != nullptr, NotFound,
      "no named data map, so the compiled model '%s' cannot be found; if the "
      "model was exported with an external data tag, load its .ptd file with "
      "the .pte",
      chosen.om_key.c_str());
  // Zero-copy where the data loader maps the file; held only until ACL has
  // loaded the model (aclmdlLoadFromMem copies what it needs).
  Result<FreeableBuffer> om = named_data->get_data(chosen.om_key.c_str());
  if (!om.ok()) {
    ASCEND_LOG(Error,
               "named data '%s' (the compiled model) not found (error 0x%x); "
               "if the model was exported with an external data tag, load "
               "its .ptd file with the .pte",
               chosen.om_key.c_str(), static_cast<unsigned>(om.error()));
    return om.error() == Error::NotFound ? Error::NotFound : om.error();
  }
  const Result<const void*> om_data = om->data_safe();
  ASCEND_CHECK_OR_RETURN_ERROR(
      om_data.ok() && om_data.get() != nullptr && om->size() != 0,
      InvalidProgram, "named data '%s' is empty", chosen.om_key.c_str());
  const Result<bool> verify = choose_verify(context);
  if (!verify.ok()) {
    return verify.error();
  }
  Error error = Error::Ok;
  if (verify.get()) {
    error = verify_content(om_data.get(), om->size(), chosen.om_key,
                           "the compiled model for " + chosen.soc_version);
    if (error != Error::Ok) {
      return error;
    }
  }
  error = check_om_matches_library(om_data.get(), om->size(), library);
  if (error != Error::Ok) {
    return error;
  }
  // Checked before any device memory is touched: binding external weights
  // needs the config-handle calls, which older CANN releases lack.
  ASCEND_CHECK_OR_RETURN_ERROR(
      chosen.weights.empty() || library.api().has_config_load(),
      DelegateInvalidCompatibility,
      "this model reads %zu external weight file(s), which needs "
      "aclmdlSetExternalWeightAddress and aclmdlLoadWithConfig; the ACL "
      "library %s lacks them (an older CANN): upgrade CANN, or re-export with "
      "AscendCompileSpec(external_weight=0) to compile the weights into the "
      ".om",
      chosen.weights.size(), library.path().c_str());
  const Result<int32_t> device = choose_device(context, specs->device_id);
  if (!device.ok()) {
    return device.error();
  }
  const Result<WorkspaceMode> workspace = choose_workspace(context);
  if (!workspace.ok()) {
    return workspace.error();
  }

  // The handle itself lives in the method's runtime allocator, which is freed
  // with the method; its members (vectors of I/O slots, strings) use the heap
  // at init only, because their sizes come from the model and the runtime
  // allocator cannot free. execute() allocates nothing.
  auto* allocator = context.get_runtime_allocator();
  void* memory = allocator == nullptr
                     ? nullptr
                     : allocator->allocate(sizeof(AscendDelegate),
                                           alignof(AscendDelegate));
  ASCEND_CHECK_OR_RETURN_ERROR(
      memory != nullptr, MemoryAllocationFailed,
      "the runtime allocator has no room for the delegate handle (%zu bytes)",
      sizeof(AscendDelegate));
  auto* delegate = new (memory) AscendDelegate(library);
  ModelSource source;
  source.om = om_data.get();
  source.om_size = om->size();
  source.weights = &chosen.weights;
  source.states = &blob->states;
  source.named_data = named_data;
  LoadOptions options;
  options.device_id = device.get();
  options.workspace = workspace.get();
  // One method instance: its runtime allocator and its name.
  options.method_allocator = allocator;
  options.method_name = context.get_method_name();
  options.verify_weights = verify.get();
  error = delegate->load(source, options);
  om->Free();
  if (error != Error::Ok) {
    delegate->~AscendDelegate();
    return error;
  }
  return delegate;
}

Error AscendBackend::execute(BackendExecutionContext& context,
                             DelegateHandle* handle, Span<EValue*> args) const {
  ASCEND_CHECK_OR_RETURN_ERROR(handle != nullptr, DelegateInvalidHandle,
                               "execute with a null handle");
  // A delegate event is identified by a name or by a debug index, never both:
  // ETDumpGen asserts that exactly one is set, so the index is the unset one
  // (-1; the hook takes it as a DebugHandle and hands the tracer -1 again).
  auto entry = executorch::runtime::event_tracer_start_profiling_delegate(
      context.event_tracer(), "AscendBackend::execute",
      executorch::runtime::kUnsetDelegateDebugIntId);
  const Error error =
      static_cast<AscendDelegate*>(handle)->run(args, context.event_tracer());
  executorch::runtime::event_tracer_end_profiling_delegate(
      context.event_tracer(), entry);
  return error;
}

void AscendBackend::destroy(DelegateHandle* handle) const {
  if (handle != nullptr) {
    // The memory belongs to the runtime allocator; only the destructor runs.
    static_cast<AscendDelegate*>(handle)->~AscendDelegate();
  }
}

Error AscendBackend::set_option(BackendOptionContext& /*context*/,
                                const Span<BackendOption>& options) {
  for (const BackendOption& option : options) {
    if (std::strcmp(option.key, kWorkspaceOption) == 0) {
      const auto* value = std::get_if<
          std::array<char, executorch::runtime::kMaxOptionValueLength>>(
          &option.value);
      ASCEND_CHECK_OR_RETURN_ERROR(
          value != nullptr, InvalidArgument,
          "option '%s' must be a string: 'acl', 'delegate' or 'shared'",
          kWorkspaceOption);
      const Result<WorkspaceMode> mode =
          parse_workspace_mode(value->data(), "set_option");
      if (!mode.ok()) {
        return mode.error();
      }
      workspace_default_.store(mode.get());
      continue;
    }
    if (std::strcmp(option.key, kVerifyWeightsOption) == 0) {
      // A bool, or the int -1 to go back to the environment's choice.
      const bool* value = std::get_if<bool>(&option.value);
      const int* clear = std::get_if<int>(&option.value);
      ASCEND_CHECK_OR_RETURN_ERROR(
          value != nullptr || (clear != nullptr && *clear == -1),
          InvalidArgument,
          "option '%s' must be a bool (or the int -1 to go back to %s)",
          kVerifyWeightsOption, kVerifyWeightsVariable);
      verify_override_.store(value != nullptr ? (*value ? 1 : 0) : -1);
      continue;
    }
    ASCEND_CHECK_OR_RETURN_ERROR(std::strcmp(option.key, kDeviceIdOption) == 0,
                                 InvalidArgument, "unknown option '%s'",
                                 option.key);
    const int* value = std::get_if<int>(&option.value);
    ASCEND_CHECK_OR_RETURN_ERROR(
        value != nullptr && *value >= -1, InvalidArgument,
        "option '%s' must be an int >= 0 (or -1 to use each model's own "
        "device)",
        kDeviceIdOption);
    device_override_.store(*value);
  }
  return Error::Ok;
}

Error AscendBackend::get_option(BackendOptionContext& /*context*/,
                                Span<BackendOption>& options) {
  for (BackendOption& option : options) {
    if (std::strcmp(option.key, kWorkspaceOption) == 0) {
      std::array<char, executorch::runtime::kMaxOptionValueLength> name{};
      std::strncpy(name.data(), workspace_mode_name(workspace_default_.load()),
                   name.size() - 1);
      option.value = name;
      continue;
    }
    if (std::strcmp(option.key, kVerifyWeightsOption) == 0) {
      const int override_verify = verify_override_.load();
      if (override_verify >= 0) {
        option.value = override_verify == 1;
        continue;
      }
      const Result<bool> from_environment = verify_weights_from_environment();
      if (!from_environment.ok()) {
        return from_environment.error();
      }
      option.value = from_environment.get();
      continue;
    }
    ASCEND_CHECK_OR_RETURN_ERROR(std::strcmp(option.key, kDeviceIdOption) == 0,
                                 InvalidArgument, "unknown option '%s'",
                                 option.key);
    option.value = device_override_.load();
  }
  return Error::Ok;
}

}  // namespace executorch::backends::ascend
