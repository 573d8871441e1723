// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's profiling API for models (profiling.h; docs/emulator.md,
// "Profiling"). The rules and error codes follow CANN's libmsprofiler
// (hicann/runtime src/dfx/msprof): the two ways of profiling, aclprofInit ..
// aclprofFinalize and the model subscription, exclude each other
// (ACL_ERROR_PROF_API_CONFLICT); a model is subscribed once
// (ACL_ERROR_PROF_REPEAT_SUBSCRIBE); subscribing or unsubscribing an unknown
// model is ACL_ERROR_INVALID_MODEL_ID; the readers refuse a length that is
// not whole records and an index past the last one (ACL_ERROR_INVALID_PARAM;
// the time readers and aclprofGetModelId return 0 then, as documented).
#include "profiling.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <limits>
#include <memory>

#include "api_call.h"
#include "errors.h"
#include "export.h"
#include "state.h"

using ascend_emu::acl::ApiCall;
using ascend_emu::acl::Fail;
using ascend_emu::acl::ModelRec;
using ascend_emu::acl::OpRecord;
using ascend_emu::acl::State;
using ascend_emu::acl::Subscription;

namespace ascend_emu::acl {
namespace {

uint32_t Checksum(const OpRecord& record) {
  // FNV-1a over everything after the checksum itself.
  const auto* bytes = reinterpret_cast<const uint8_t*>(&record);
  uint32_t hash = 2166136261u;
  for (size_t i = sizeof(record.check); i < sizeof(record); ++i) {
    hash = (hash ^ bytes[i]) * 16777619u;
  }
  return hash;
}

bool ValidMetrics(int value) {
  return (value >= ACL_AICORE_ARITHMETIC_UTILIZATION &&
          value <= ACL_AICORE_L2_CACHE) ||
         value == ACL_AICORE_NONE;
}

bool AnySubscription(const State& state) {
  for (const auto& [id, model] : state.models) {
    if (model->subscription != nullptr) return true;
  }
  return false;
}

// Copies record `index` of `info` into *out after checking the buffer: whole
// records, the index inside, the checksum right.
aclError ReadRecord(const void* info, size_t length, uint32_t index,
                    OpRecord* out) {
  if (info == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "opInfo is NULL");
  }
  if (length % sizeof(OpRecord) != 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "opInfoLen %zu is not a whole number of %zu-byte op records "
                "(aclprofGetOpDescSize)",
                length, sizeof(OpRecord));
  }
  const size_t count = length / sizeof(OpRecord);
  if (index >= count) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "index %u is past the %zu op record(s) in opInfo", index,
                count);
  }
  std::memcpy(out, static_cast<const uint8_t*>(info) + index * sizeof *out,
              sizeof *out);
  if (out->check != Checksum(*out)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "op record %u is not a record the emulator wrote (its "
                "checksum does not match): pass the bytes read from the "
                "subscription's pipe, whole records",
                index);
  }
  return ACL_SUCCESS;
}

// The op a record names, through its model's live subscription.
aclError RecordOp(State& state, const OpRecord& record,
                  const std::string** name, const std::string** type) {
  auto found = state.models.find(record.model_id);
  if (found == state.models.end() || found->second->subscription == nullptr ||
      found->second->subscription->serial != record.subscription) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the op record's model %u is no longer subscribed "
                "(unsubscribed or unloaded since it ran): read op names "
                "before aclprofModelUnSubscribe",
                record.model_id);
  }
  const ascend_emu::Model& model = *found->second->model;
  const size_t gears = model.num_gears() == 0 ? 1 : model.num_gears();
  if (record.gear >= gears || record.op_index >= model.num_ops(record.gear)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the op record names op %u of gear %u, which model %u lacks",
                record.op_index, record.gear, record.model_id);
  }
  *name = &model.op_name(record.gear, record.op_index);
  *type = &model.op_type(record.gear, record.op_index);
  return ACL_SUCCESS;
}

aclError StringLength(const void* info, size_t length, uint32_t index,
                      size_t* out, bool want_name) {
  if (out == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "the length pointer is NULL");
  }
  OpRecord record;
  if (aclError rc = ReadRecord(info, length, index, &record)) return rc;
  const std::string* name = nullptr;
  const std::string* type = nullptr;
  if (aclError rc = RecordOp(GetState(), record, &name, &type)) return rc;
  *out = (want_name ? *name : *type).size() + 1;
  return ACL_SUCCESS;
}

aclError CopyString(const void* info, size_t length, uint32_t index, char* out,
                    size_t capacity, bool want_name) {
  if (out == nullptr || capacity == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the output buffer is NULL or has length 0");
  }
  OpRecord record;
  if (aclError rc = ReadRecord(info, length, index, &record)) return rc;
  const std::string* name = nullptr;
  const std::string* type = nullptr;
  if (aclError rc = RecordOp(GetState(), record, &name, &type)) return rc;
  const std::string& text = want_name ? *name : *type;
  if (text.size() + 1 > capacity) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the op %s '%s' needs %zu bytes with its NUL but the buffer "
                "has %zu (aclprofGetOp%sLen)",
                want_name ? "name" : "type", text.c_str(), text.size() + 1,
                capacity, want_name ? "Name" : "Type");
  }
  std::memcpy(out, text.c_str(), text.size() + 1);
  return ACL_SUCCESS;
}

enum class TimeField { kStart, kEnd, kDuration };

uint64_t RecordTime(const void* info, size_t length, uint32_t index,
                    TimeField field) {
  OpRecord record;
  if (ReadRecord(info, length, index, &record) != ACL_SUCCESS) return 0;
  switch (field) {
    case TimeField::kStart:
      return record.start_us;
    case TimeField::kEnd:
      return record.end_us;
    case TimeField::kDuration:
      return record.duration_us;
  }
  return 0;
}

uint64_t ToMicroseconds(uint64_t ns) { return ns / 1000; }

// The pipe has room for at least one more page: a write of up to PIPE_BUF
// bytes then completes at once (pipe(7)), so the execute never blocks on a
// reader that is not reading.
bool PipeHasRoom(int fd) {
  pollfd p{fd, POLLOUT, 0};
  return poll(&p, 1, 0) == 1 && (p.revents & POLLOUT) != 0;
}

}  // namespace

OpTiming* OpTimingsFor(ModelRec& model, size_t gear) {
  Subscription* subscription = model.subscription.get();
  if (subscription == nullptr) return nullptr;
  (void)gear;  // the arrays hold the largest gear's op count
  return subscription->timings.data();
}

void WriteOpRecords(ModelRec& model, size_t gear) {
  Subscription& subscription = *model.subscription;
  const size_t ops = model.model->num_ops(gear);
  for (size_t i = 0; i < ops; ++i) {
    OpRecord& record = subscription.records[i];
    std::memset(&record, 0, sizeof record);
    record.model_id = model.id;
    record.subscription = subscription.serial;
    record.gear = static_cast<uint32_t>(gear);
    record.op_index = static_cast<uint32_t>(i);
    if (subscription.time_info) {
      record.start_us = ToMicroseconds(subscription.timings[i].start_ns);
      record.end_us = ToMicroseconds(subscription.timings[i].end_ns);
      record.duration_us = record.end_us - record.start_us;
    }
    record.check = Checksum(record);
  }
  // PIPE_BUF bytes of whole records per write, each after a check for room.
  constexpr size_t kPerWrite = PIPE_BUF / sizeof(OpRecord);
  size_t written = 0;
  while (written < ops) {
    const size_t n = std::min(kPerWrite, ops - written);
    if (!PipeHasRoom(subscription.fd)) break;
    const ssize_t rc = write(subscription.fd, &subscription.records[written],
                             n * sizeof(OpRecord));
    if (rc != static_cast<ssize_t>(n * sizeof(OpRecord))) break;
    written += n;
  }
  subscription.dropped += ops - written;
}

void EndSubscription(State& state, ModelRec& model) {
  std::shared_ptr<Subscription> ended = std::move(model.subscription);
  if (ended == nullptr) return;
  for (const auto& [id, other] : state.models) {
    if (other->subscription != nullptr &&
        other->subscription->fd == ended->fd) {
      return;  // the pipe is still in use
    }
  }
  // CANN closes the write end at the last unsubscribe and marks the
  // caller's int (hicann/runtime ProfAclMgr::CloseSubscribeFd).
  close(ended->fd);
  if (ended->caller_fd != nullptr && *ended->caller_fd == ended->fd) {
    *ended->caller_fd = -1;
  }
}

}  // namespace ascend_emu::acl

extern "C" {

ACL_EMU_EXPORT aclError aclprofInit(const char* profilerResultPath,
                                    size_t length) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (profilerResultPath == nullptr || length == 0 ||
      length != strnlen(profilerResultPath, length + 1)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "profilerResultPath must be a path of `length` characters "
                "(got %s, length %zu)",
                profilerResultPath == nullptr ? "NULL" : "a string", length);
  }
  if (ascend_emu::acl::AnySubscription(state)) {
    return Fail(ACL_ERROR_PROF_API_CONFLICT,
                "a model is subscribed (aclprofModelSubscribe): the two ways "
                "of profiling do not mix; unsubscribe first");
  }
  if (state.prof_initialized) {
    return Fail(ACL_ERROR_REPEAT_INITIALIZE,
                "profiling is initialized already (aclprofInit)");
  }
  state.prof_initialized = true;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofFinalize(void) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (!state.prof_initialized) {
    return Fail(ACL_ERROR_PROF_NOT_RUN,
                "profiling is not initialized: call aclprofInit first");
  }
  for (auto& [handle, config] : state.prof_configs) config->started = false;
  state.prof_initialized = false;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclprofConfig* aclprofCreateConfig(
    uint32_t* deviceIdList, uint32_t deviceNums,
    aclprofAicoreMetrics aicoreMetrics, const aclprofAicoreEvents* aicoreEvents,
    uint64_t dataTypeConfig) {
  ApiCall call(__func__);
  if (call.EnterAnyTime() != ACL_SUCCESS) return nullptr;
  State& state = call.state();
  const int metrics = ascend_emu::acl::EnumValue(aicoreMetrics);
  if ((deviceIdList == nullptr) != (deviceNums == 0) ||
      deviceNums > static_cast<uint32_t>(state.config.device_count)) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "deviceIdList must hold deviceNums (1..%d) device ids (got %s, %u)",
         state.config.device_count, deviceIdList == nullptr ? "NULL" : "a list",
         deviceNums);
    return nullptr;
  }
  if (!ascend_emu::acl::ValidMetrics(metrics) || aicoreEvents != nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "aicoreMetrics %d is not an aclprofAicoreMetrics value, or "
         "aicoreEvents is not NULL (CANN takes only NULL)",
         metrics);
    return nullptr;
  }
  auto config = std::make_unique<aclprofConfig>();
  for (uint32_t i = 0; i < deviceNums; ++i) {
    if (deviceIdList[i] >= static_cast<uint32_t>(state.config.device_count)) {
      Fail(ACL_ERROR_INVALID_PARAM,
           "device id %u: the emulator has %d device(s)", deviceIdList[i],
           state.config.device_count);
      return nullptr;
    }
    config->devices.push_back(deviceIdList[i]);
  }
  config->metrics = aicoreMetrics;
  config->data_types = dataTypeConfig;
  aclprofConfig* handle = config.get();
  state.prof_configs[handle] = std::move(config);
  return handle;
}

ACL_EMU_EXPORT aclError
aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  if (call.state().prof_configs.erase(profilerConfig) == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "profilerConfig %p is not a live aclprofConfig",
                static_cast<const void*>(profilerConfig));
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofStart(const aclprofConfig* profilerConfig) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (!state.prof_initialized) {
    return Fail(ACL_ERROR_PROF_NOT_RUN,
                "profiling is not initialized: call aclprofInit first");
  }
  auto found = state.prof_configs.find(profilerConfig);
  if (found == state.prof_configs.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "profilerConfig %p is not a live aclprofConfig",
                static_cast<const void*>(profilerConfig));
  }
  if (found->second->started) {
    return Fail(ACL_ERROR_PROF_ALREADY_RUN,
                "this config is started already (aclprofStart)");
  }
  found->second->started = true;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofStop(const aclprofConfig* profilerConfig) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (!state.prof_initialized) {
    return Fail(ACL_ERROR_PROF_NOT_RUN,
                "profiling is not initialized: call aclprofInit first");
  }
  auto found = state.prof_configs.find(profilerConfig);
  if (found == state.prof_configs.end() || !found->second->started) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "profilerConfig %p is not a started aclprofConfig "
                "(aclprofStop takes the config aclprofStart took)",
                static_cast<const void*>(profilerConfig));
  }
  found->second->started = false;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclprofSubscribeConfig* aclprofCreateSubscribeConfig(
    int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics, void* fd) {
  ApiCall call(__func__);
  if (call.EnterAnyTime() != ACL_SUCCESS) return nullptr;
  const int metrics = ascend_emu::acl::EnumValue(aicoreMetrics);
  if (fd == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "fd is NULL: pass the address of the pipe's write end (int*)");
    return nullptr;
  }
  if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
    Fail(ACL_ERROR_INVALID_PARAM, "timeInfoSwitch %d is neither 0 nor 1",
         timeInfoSwitch);
    return nullptr;
  }
  if (!ascend_emu::acl::ValidMetrics(metrics)) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "aicoreMetrics %d is not an aclprofAicoreMetrics value", metrics);
    return nullptr;
  }
  auto config = std::make_unique<aclprofSubscribeConfig>();
  config->time_info = timeInfoSwitch == 1;
  config->metrics = aicoreMetrics;
  config->fd = static_cast<int*>(fd);
  aclprofSubscribeConfig* handle = config.get();
  call.state().subscribe_configs[handle] = std::move(config);
  return handle;
}

ACL_EMU_EXPORT aclError aclprofDestroySubscribeConfig(
    const aclprofSubscribeConfig* profSubscribeConfig) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  if (call.state().subscribe_configs.erase(profSubscribeConfig) == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "profSubscribeConfig %p is not a live aclprofSubscribeConfig",
                static_cast<const void*>(profSubscribeConfig));
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofModelSubscribe(
    uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (state.prof_initialized) {
    return Fail(ACL_ERROR_PROF_API_CONFLICT,
                "profiling is initialized (aclprofInit): the two ways of "
                "profiling do not mix; aclprofFinalize first");
  }
  auto model = state.models.find(modelId);
  if (model == state.models.end()) {
    return Fail(ACL_ERROR_INVALID_MODEL_ID, "model id %u is not loaded",
                modelId);
  }
  auto config = state.subscribe_configs.find(profSubscribeConfig);
  if (config == state.subscribe_configs.end()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "profSubscribeConfig %p is not a live aclprofSubscribeConfig",
                static_cast<const void*>(profSubscribeConfig));
  }
  ModelRec& record = *model->second;
  if (record.subscription != nullptr) {
    return Fail(ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
                "model %u is subscribed already", modelId);
  }
  const int fd = *config->second->fd;
  const int flags = fd < 0 ? -1 : fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the subscribe config's fd %d is not open for writing", fd);
  }
  const ascend_emu::Model& engine = *record.model;
  size_t most_ops = engine.num_ops(0);
  for (size_t g = 1; g < engine.num_gears(); ++g) {
    most_ops = std::max(most_ops, engine.num_ops(g));
  }
  auto subscription = std::make_shared<Subscription>();
  subscription->serial = state.next_serial++;
  subscription->fd = fd;
  subscription->caller_fd = config->second->fd;
  subscription->time_info = config->second->time_info;
  subscription->timings.resize(most_ops);
  subscription->records.resize(most_ops);
  record.subscription = std::move(subscription);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofModelUnSubscribe(uint32_t modelId) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  State& state = call.state();
  if (state.prof_initialized) {
    return Fail(ACL_ERROR_PROF_API_CONFLICT,
                "profiling is initialized (aclprofInit): the two ways of "
                "profiling do not mix");
  }
  auto model = state.models.find(modelId);
  if (model == state.models.end() || model->second->subscription == nullptr) {
    return Fail(ACL_ERROR_INVALID_MODEL_ID,
                "model id %u is not loaded, or not subscribed", modelId);
  }
  ascend_emu::acl::EndSubscription(state, *model->second);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofGetOpDescSize(size_t* opDescSize) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  if (opDescSize == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "opDescSize is NULL");
  }
  *opDescSize = sizeof(OpRecord);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen,
                                        uint32_t* opNumber) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  if (opInfo == nullptr || opNumber == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "opInfo or opNumber is NULL");
  }
  if (opInfoLen % sizeof(OpRecord) != 0 ||
      opInfoLen / sizeof(OpRecord) > std::numeric_limits<uint32_t>::max()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "opInfoLen %zu is not a whole number of %zu-byte op records "
                "(aclprofGetOpDescSize)",
                opInfoLen, sizeof(OpRecord));
  }
  const uint32_t count = static_cast<uint32_t>(opInfoLen / sizeof(OpRecord));
  OpRecord record;
  for (uint32_t i = 0; i < count; ++i) {
    if (aclError rc =
            ascend_emu::acl::ReadRecord(opInfo, opInfoLen, i, &record)) {
      return rc;
    }
  }
  *opNumber = count;
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclprofGetOpTypeLen(const void* opInfo,
                                            size_t opInfoLen, uint32_t index,
                                            size_t* opTypeLen) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  return ascend_emu::acl::StringLength(opInfo, opInfoLen, index, opTypeLen,
                                       /*want_name=*/false);
}

ACL_EMU_EXPORT aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen,
                                         uint32_t index, char* opType,
                                         size_t opTypeLen) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  return ascend_emu::acl::CopyString(opInfo, opInfoLen, index, opType,
                                     opTypeLen, /*want_name=*/false);
}

ACL_EMU_EXPORT aclError aclprofGetOpNameLen(const void* opInfo,
                                            size_t opInfoLen, uint32_t index,
                                            size_t* opNameLen) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  return ascend_emu::acl::StringLength(opInfo, opInfoLen, index, opNameLen,
                                       /*want_name=*/true);
}

ACL_EMU_EXPORT aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen,
                                         uint32_t index, char* opName,
                                         size_t opNameLen) {
  ApiCall call(__func__);
  if (aclError rc = call.EnterAnyTime()) return rc;
  return ascend_emu::acl::CopyString(opInfo, opInfoLen, index, opName,
                                     opNameLen, /*want_name=*/true);
}

ACL_EMU_EXPORT uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen,
                                          uint32_t index) {
  ApiCall call(__func__);
  return ascend_emu::acl::RecordTime(opInfo, opInfoLen, index,
                                     ascend_emu::acl::TimeField::kStart);
}

ACL_EMU_EXPORT uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen,
                                        uint32_t index) {
  ApiCall call(__func__);
  return ascend_emu::acl::RecordTime(opInfo, opInfoLen, index,
                                     ascend_emu::acl::TimeField::kEnd);
}

ACL_EMU_EXPORT uint64_t aclprofGetOpDuration(const void* opInfo,
                                             size_t opInfoLen, uint32_t index) {
  ApiCall call(__func__);
  return ascend_emu::acl::RecordTime(opInfo, opInfoLen, index,
                                     ascend_emu::acl::TimeField::kDuration);
}

ACL_EMU_EXPORT size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen,
                                        uint32_t index) {
  ApiCall call(__func__);
  OpRecord record;
  if (ascend_emu::acl::ReadRecord(opInfo, opInfoLen, index, &record) !=
      ACL_SUCCESS) {
    return 0;  // model ids start at 1
  }
  return record.model_id;
}

}  // extern "C"
