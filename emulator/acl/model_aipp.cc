// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Dynamic AIPP: the acl_mdl.h calls of a model compiled with an AIPP config
// of aipp_mode dynamic (docs/aipp.md). An aclmdlAIPP holds the parameters in
// CANN's layout (ascend_emu/aipp_params.h); each setter checks its values as
// CANN's does (hicann/ge commit ffdcbc9f, api/acl/acl_model/model/
// acl_aipp_om2.cpp, ranges from model_common.h); aclmdlSetInputAIPP makes
// the checks of acl_aipp.cpp and aipp_param_check.cpp against the model and
// writes the bytes into the dataset's buffer of the model's
// ACL_DYNAMIC_AIPP_NAME input, where the Aipp step reads them at execute.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "acl_api.h"
#include "aipp_param_check.h"
#include "api_call.h"
#include "ascend_emu/aipp_params.h"
#include "ascend_emu/soc_versions.h"
#include "errors.h"
#include "export.h"
#include "model_registry.h"
#include "state.h"

using ascend_emu::IoDesc;
using ascend_emu::acl::ApiCall;
using ascend_emu::acl::ContextRec;
using ascend_emu::acl::DevicePointer;
using ascend_emu::acl::Fail;
using ascend_emu::acl::ModelRec;
using ascend_emu::acl::State;
namespace aipp = ascend_emu::aipp;
using ascend_emu::acl::ArchRules;
using ascend_emu::acl::CheckParams;
using ascend_emu::acl::OutputHW;
using ascend_emu::acl::RulesFor;
using ascend_emu::acl::SrcImageBytes;

namespace {

// CANN's ranges (model_common.h).
constexpr int32_t kCscMatrixMin = -32677;
constexpr int32_t kCscMatrixMax = 32676;
constexpr int32_t kImageMin = 1;
constexpr int32_t kImageMax = 4096;
constexpr int32_t kScfMin = 16;
constexpr int32_t kScfOutWMax = 1920;
constexpr int32_t kPaddingMax = 32;
constexpr float kHalfMax = 65504.0f;  // float16's largest finite value

// The registry of live parameter sets: a stale or forged pointer is an
// error, never a wild write. Cleared (and reported) by aclFinalize.
std::map<const aclmdlAIPP*, std::unique_ptr<aclmdlAIPP>>& Live(State& state) {
  return state.aipps;
}

aclmdlAIPP* FindAipp(State& state, const aclmdlAIPP* aipp) {
  if (aipp == nullptr) {
    Fail(ACL_ERROR_INVALID_PARAM, "aippParmsSet is NULL");
    return nullptr;
  }
  auto it = Live(state).find(aipp);
  if (it == Live(state).end()) {
    Fail(ACL_ERROR_INVALID_PARAM,
         "aippParmsSet %p is not a live aclmdlAIPP (never created, or "
         "destroyed)",
         static_cast<const void*>(aipp));
    return nullptr;
  }
  return it->second.get();
}

aclError OutOfRange(const char* what, double value, double lo, double hi) {
  return Fail(ACL_ERROR_INVALID_PARAM,
              "[Check][%s]param:[%g] must be in range "
              "of [%g] and [%g]",
              what, value, lo, hi);
}

#define ACL_EMU_RANGE(value, lo, hi)                                       \
  do {                                                                     \
    if ((value) < (lo) || (value) > (hi))                                  \
      return OutOfRange(#value, static_cast<double>(value),                \
                        static_cast<double>(lo), static_cast<double>(hi)); \
  } while (false)

aclError CheckBatchIndex(const aclmdlAIPP& a, uint64_t batch_index) {
  if (batch_index >= a.batch_size) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "Set batch parameter Failed, batch_index (%llu) is greater "
                "than or equal to batch_number (%llu)",
                static_cast<unsigned long long>(batch_index),
                static_cast<unsigned long long>(a.batch_size));
  }
  return ACL_SUCCESS;
}

uint8_t* Record(aclmdlAIPP& a, uint64_t batch_index) {
  return a.bytes.data() + aipp::kHeadBytes +
         aipp::kImageBytes * static_cast<size_t>(batch_index);
}

uint16_t HalfBits(float v) { return aipp::ToHalfBits(v); }

// CceAippInputFormat of an aclAippInputFormat, or 0 for one CANN refuses
// (acl_aipp_om2.cpp's table).
uint8_t CceFormat(aclAippInputFormat format) {
  switch (format) {
    case ACL_YUV420SP_U8:
      return 1;
    case ACL_XRGB8888_U8:
      return 2;
    case ACL_RGB888_U8:
      return 5;
    case ACL_YUV400_U8:
      return 10;
    case ACL_NC1HWC0DI_FP16:
      return 3;
    case ACL_NC1HWC0DI_S8:
      return 4;
    case ACL_ARGB8888_U8:
      return 6;
    case ACL_YUYV_U8:
      return 7;
    case ACL_YUV422SP_U8:
      return 8;
    case ACL_AYUV444_U8:
      return 9;
    case ACL_RAW10:
      return 11;
    case ACL_RAW12:
      return 12;
    case ACL_RAW16:
      return 13;
    case ACL_RAW24:
      return 16;
    default:
      return 0;
  }
}

}  // namespace

extern "C" {

ACL_EMU_EXPORT aclmdlAIPP* aclmdlCreateAIPP(uint64_t batchSize) {
  ApiCall call(__func__);
  if (call.Enter() != ACL_SUCCESS) return nullptr;
  if (batchSize == 0) {
    Fail(ACL_ERROR_INVALID_PARAM, "the batchSize can't be zero");
    return nullptr;
  }
  if (batchSize > (std::numeric_limits<size_t>::max() - aipp::kHeadBytes) /
                      aipp::kImageBytes / 2) {
    Fail(ACL_ERROR_BAD_ALLOC,
         "aclmdlCreateAIPP fail, bad memory allocation, batchSize[%llu]",
         static_cast<unsigned long long>(batchSize));
    return nullptr;
  }
  auto created = std::make_unique<aclmdlAIPP>();
  created->batch_size = batchSize;
  created->bytes.assign(aipp::BufferBytes(batchSize), 0);
  // The batch number is an int8 in the head; CANN truncates as here.
  aipp::Write<int8_t>(created->bytes.data(), aipp::kBatchNum,
                      static_cast<int8_t>(batchSize));
  for (uint64_t n = 0; n < batchSize; ++n) {
    for (size_t c = 0; c < 4; ++c) {
      aipp::Write<uint16_t>(Record(*created, n), aipp::kVarReci + 2 * c,
                            HalfBits(1.0f));
    }
  }
  aclmdlAIPP* handle = created.get();
  call.state().aipps.emplace(handle, std::move(created));
  return handle;
}

ACL_EMU_EXPORT aclError aclmdlDestroyAIPP(const aclmdlAIPP* aippParmsSet) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (FindAipp(call.state(), aippParmsSet) == nullptr)
    return ACL_ERROR_INVALID_PARAM;
  call.state().aipps.erase(aippParmsSet);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlGetAippDataSize(uint64_t batchSize,
                                              size_t* size) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (size == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "size is NULL");
  if (batchSize == 0)
    return Fail(ACL_ERROR_INVALID_PARAM, "batchSize param must be positive.");
  if (batchSize > (std::numeric_limits<size_t>::max() - aipp::kHeadBytes) /
                      aipp::kImageBytes) {
    return Fail(ACL_ERROR_INVALID_PARAM, "batchSize %llu overflows the size",
                static_cast<unsigned long long>(batchSize));
  }
  *size = aipp::BufferBytes(batchSize);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPInputFormat(
    aclmdlAIPP* aippParmsSet, aclAippInputFormat inputFormat) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  const uint8_t cce = CceFormat(inputFormat);
  if (cce == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, "unsupported inputFormat[%d]",
                static_cast<int>(inputFormat));
  }
  aipp::Write<uint8_t>(a->bytes.data(), aipp::kInputFormat, cce);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPCscParams(
    aclmdlAIPP* aippParmsSet, int8_t cscSwitch, int16_t cscMatrixR0C0,
    int16_t cscMatrixR0C1, int16_t cscMatrixR0C2, int16_t cscMatrixR1C0,
    int16_t cscMatrixR1C1, int16_t cscMatrixR1C2, int16_t cscMatrixR2C0,
    int16_t cscMatrixR2C1, int16_t cscMatrixR2C2, uint8_t cscOutputBiasR0,
    uint8_t cscOutputBiasR1, uint8_t cscOutputBiasR2, uint8_t cscInputBiasR0,
    uint8_t cscInputBiasR1, uint8_t cscInputBiasR2) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  ACL_EMU_RANGE(cscSwitch, 0, 1);
  uint8_t* head = a->bytes.data();
  aipp::Write<int8_t>(head, aipp::kCscSwitch, cscSwitch);
  if (cscSwitch == 0) return ACL_SUCCESS;  // CANN ignores the rest then
  const int16_t matrix[9] = {cscMatrixR0C0, cscMatrixR0C1, cscMatrixR0C2,
                             cscMatrixR1C0, cscMatrixR1C1, cscMatrixR1C2,
                             cscMatrixR2C0, cscMatrixR2C1, cscMatrixR2C2};
  static const char* const kNames[9] = {
      "cscMatrixR0C0", "cscMatrixR0C1", "cscMatrixR0C2",
      "cscMatrixR1C0", "cscMatrixR1C1", "cscMatrixR1C2",
      "cscMatrixR2C0", "cscMatrixR2C1", "cscMatrixR2C2"};
  for (int i = 0; i < 9; ++i) {
    if (matrix[i] < kCscMatrixMin || matrix[i] > kCscMatrixMax)
      return OutOfRange(kNames[i], matrix[i], kCscMatrixMin, kCscMatrixMax);
  }
  for (int i = 0; i < 9; ++i) {
    aipp::Write<int16_t>(head, aipp::kMatrix + 2 * static_cast<size_t>(i),
                         matrix[i]);
  }
  const uint8_t out_bias[3] = {cscOutputBiasR0, cscOutputBiasR1,
                               cscOutputBiasR2};
  const uint8_t in_bias[3] = {cscInputBiasR0, cscInputBiasR1, cscInputBiasR2};
  for (size_t i = 0; i < 3; ++i) {
    aipp::Write<uint8_t>(head, aipp::kOutputBias + i, out_bias[i]);
    aipp::Write<uint8_t>(head, aipp::kInputBias + i, in_bias[i]);
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP* aippParmsSet,
                                                    int8_t rbuvSwapSwitch) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  ACL_EMU_RANGE(rbuvSwapSwitch, 0, 1);
  aipp::Write<int8_t>(a->bytes.data(), aipp::kRbuvSwap, rbuvSwapSwitch);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP* aippParmsSet,
                                                  int8_t axSwapSwitch) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  ACL_EMU_RANGE(axSwapSwitch, 0, 1);
  aipp::Write<int8_t>(a->bytes.data(), aipp::kAxSwap, axSwapSwitch);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP* aippParmsSet,
                                                  int32_t srcImageSizeW,
                                                  int32_t srcImageSizeH) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  ACL_EMU_RANGE(srcImageSizeW, kImageMin + 1, kImageMax);
  ACL_EMU_RANGE(srcImageSizeH, kImageMin, kImageMax);
  aipp::Write<int32_t>(a->bytes.data(), aipp::kSrcW, srcImageSizeW);
  aipp::Write<int32_t>(a->bytes.data(), aipp::kSrcH, srcImageSizeH);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPScfParams(
    aclmdlAIPP* aippParmsSet, int8_t scfSwitch, int32_t scfInputSizeW,
    int32_t scfInputSizeH, int32_t scfOutputSizeW, int32_t scfOutputSizeH,
    uint64_t batchIndex) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (aclError rc = CheckBatchIndex(*a, batchIndex)) return rc;
  ACL_EMU_RANGE(scfSwitch, 0, 1);
  uint8_t* rec = Record(*a, batchIndex);
  aipp::Write<int8_t>(rec, aipp::kScfSwitch, scfSwitch);
  if (scfSwitch == 0) return ACL_SUCCESS;
  ACL_EMU_RANGE(scfInputSizeW, kScfMin, kImageMax);
  ACL_EMU_RANGE(scfInputSizeH, kScfMin, kImageMax);
  ACL_EMU_RANGE(scfOutputSizeW, kScfMin, kScfOutWMax);
  ACL_EMU_RANGE(scfOutputSizeH, kScfMin, kImageMax);
  const int32_t sizes[4] = {scfInputSizeW, scfInputSizeH, scfOutputSizeW,
                            scfOutputSizeH};
  for (size_t i = 0; i < 4; ++i)
    aipp::Write<int32_t>(rec, aipp::kScfSizes + 4 * i, sizes[i]);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPCropParams(
    aclmdlAIPP* aippParmsSet, int8_t cropSwitch, int32_t cropStartPosW,
    int32_t cropStartPosH, int32_t cropSizeW, int32_t cropSizeH,
    uint64_t batchIndex) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (aclError rc = CheckBatchIndex(*a, batchIndex)) return rc;
  ACL_EMU_RANGE(cropSwitch, 0, 1);
  uint8_t* rec = Record(*a, batchIndex);
  aipp::Write<int8_t>(rec, aipp::kCropSwitch, cropSwitch);
  if (cropSwitch == 0) return ACL_SUCCESS;
  ACL_EMU_RANGE(cropStartPosW, kImageMin - 1, kImageMax - 1);
  ACL_EMU_RANGE(cropStartPosH, kImageMin - 1, kImageMax - 1);
  ACL_EMU_RANGE(cropSizeW, kImageMin, kImageMax);
  ACL_EMU_RANGE(cropSizeH, kImageMin, kImageMax);
  aipp::Write<int32_t>(rec, aipp::kCropStartW, cropStartPosW);
  aipp::Write<int32_t>(rec, aipp::kCropStartH, cropStartPosH);
  aipp::Write<int32_t>(rec, aipp::kCropW, cropSizeW);
  aipp::Write<int32_t>(rec, aipp::kCropH, cropSizeH);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPPaddingParams(
    aclmdlAIPP* aippParmsSet, int8_t paddingSwitch, int32_t paddingSizeTop,
    int32_t paddingSizeBottom, int32_t paddingSizeLeft,
    int32_t paddingSizeRight, uint64_t batchIndex) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (aclError rc = CheckBatchIndex(*a, batchIndex)) return rc;
  ACL_EMU_RANGE(paddingSwitch, 0, 1);
  uint8_t* rec = Record(*a, batchIndex);
  aipp::Write<int8_t>(rec, aipp::kPaddingSwitch, paddingSwitch);
  if (paddingSwitch == 0) return ACL_SUCCESS;
  ACL_EMU_RANGE(paddingSizeTop, 0, kPaddingMax);
  ACL_EMU_RANGE(paddingSizeBottom, 0, kPaddingMax);
  ACL_EMU_RANGE(paddingSizeLeft, 0, kPaddingMax);
  ACL_EMU_RANGE(paddingSizeRight, 0, kPaddingMax);
  const int32_t sizes[4] = {paddingSizeTop, paddingSizeBottom, paddingSizeLeft,
                            paddingSizeRight};
  for (size_t i = 0; i < 4; ++i)
    aipp::Write<int32_t>(rec, aipp::kPadding + 4 * i, sizes[i]);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP* aippParmsSet,
                                                  int16_t dtcPixelMeanChn0,
                                                  int16_t dtcPixelMeanChn1,
                                                  int16_t dtcPixelMeanChn2,
                                                  int16_t dtcPixelMeanChn3,
                                                  uint64_t batchIndex) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (aclError rc = CheckBatchIndex(*a, batchIndex)) return rc;
  ACL_EMU_RANGE(dtcPixelMeanChn0, 0, 255);
  ACL_EMU_RANGE(dtcPixelMeanChn1, 0, 255);
  ACL_EMU_RANGE(dtcPixelMeanChn2, 0, 255);
  ACL_EMU_RANGE(dtcPixelMeanChn3, 0, 255);
  const int16_t mean[4] = {dtcPixelMeanChn0, dtcPixelMeanChn1, dtcPixelMeanChn2,
                           dtcPixelMeanChn3};
  uint8_t* rec = Record(*a, batchIndex);
  for (size_t i = 0; i < 4; ++i)
    aipp::Write<int16_t>(rec, aipp::kMean + 2 * i, mean[i]);
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPDtcPixelMin(
    aclmdlAIPP* aippParmsSet, float dtcPixelMinChn0, float dtcPixelMinChn1,
    float dtcPixelMinChn2, float dtcPixelMinChn3, uint64_t batchIndex) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (aclError rc = CheckBatchIndex(*a, batchIndex)) return rc;
  // CANN compares (v < min || v > max): a NaN passes, and saturates.
  ACL_EMU_RANGE(dtcPixelMinChn0, 0.0f, 255.0f);
  ACL_EMU_RANGE(dtcPixelMinChn1, 0.0f, 255.0f);
  ACL_EMU_RANGE(dtcPixelMinChn2, 0.0f, 255.0f);
  ACL_EMU_RANGE(dtcPixelMinChn3, 0.0f, 255.0f);
  const float min[4] = {dtcPixelMinChn0, dtcPixelMinChn1, dtcPixelMinChn2,
                        dtcPixelMinChn3};
  uint8_t* rec = Record(*a, batchIndex);
  for (size_t i = 0; i < 4; ++i)
    aipp::Write<uint16_t>(rec, aipp::kMin + 2 * i, HalfBits(min[i]));
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP* aippParmsSet,
                                                  float dtcPixelVarReciChn0,
                                                  float dtcPixelVarReciChn1,
                                                  float dtcPixelVarReciChn2,
                                                  float dtcPixelVarReciChn3,
                                                  uint64_t batchIndex) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  aclmdlAIPP* a = FindAipp(call.state(), aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  if (aclError rc = CheckBatchIndex(*a, batchIndex)) return rc;
  ACL_EMU_RANGE(dtcPixelVarReciChn0, -kHalfMax, kHalfMax);
  ACL_EMU_RANGE(dtcPixelVarReciChn1, -kHalfMax, kHalfMax);
  ACL_EMU_RANGE(dtcPixelVarReciChn2, -kHalfMax, kHalfMax);
  ACL_EMU_RANGE(dtcPixelVarReciChn3, -kHalfMax, kHalfMax);
  const float var[4] = {dtcPixelVarReciChn0, dtcPixelVarReciChn1,
                        dtcPixelVarReciChn2, dtcPixelVarReciChn3};
  uint8_t* rec = Record(*a, batchIndex);
  for (size_t i = 0; i < 4; ++i)
    aipp::Write<uint16_t>(rec, aipp::kVarReci + 2 * i, HalfBits(var[i]));
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlGetAippType(uint32_t modelId, size_t index,
                                          aclmdlInputAippType* type,
                                          size_t* dynamicAttachedDataIndex) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (type == nullptr || dynamicAttachedDataIndex == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                type == nullptr ? "type" : "dynamicAttachedDataIndex");
  }
  State& state = call.state();
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context))
    return rc;
  ModelRec* record = nullptr;
  if (aclError rc =
          ascend_emu::acl::FindModelInContext(state, modelId, context, &record))
    return rc;
  const std::vector<IoDesc>& inputs = record->model->inputs();
  if (index >= inputs.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "input param is invalid, index[%zu] should be smaller than %zu",
                index, inputs.size());
  }
  *dynamicAttachedDataIndex = ACL_INVALID_NODE_INDEX;
  switch (inputs[index].aipp) {
    case IoDesc::Aipp::kStatic:
      *type = ACL_DATA_WITH_STATIC_AIPP;
      break;
    case IoDesc::Aipp::kDynamicFrame:
      *type = ACL_DATA_WITH_DYNAMIC_AIPP;
      *dynamicAttachedDataIndex = inputs[index].aipp_link;
      break;
    case IoDesc::Aipp::kDynamicData:
      *type = ACL_DYNAMIC_AIPP_NODE;
      break;
    default:
      *type = ACL_DATA_WITHOUT_AIPP;
      break;
  }
  return ACL_SUCCESS;
}

ACL_EMU_EXPORT aclError aclmdlSetInputAIPP(uint32_t modelId,
                                           aclmdlDataset* dataset, size_t index,
                                           const aclmdlAIPP* aippParmsSet) {
  ApiCall call(__func__);
  if (aclError rc = call.Enter()) return rc;
  if (dataset == nullptr)
    return Fail(ACL_ERROR_INVALID_PARAM, "dataset is NULL");
  State& state = call.state();
  const aclmdlAIPP* a = FindAipp(state, aippParmsSet);
  if (a == nullptr) return ACL_ERROR_INVALID_PARAM;
  ContextRec* context = nullptr;
  if (aclError rc = ascend_emu::acl::RequireCurrentContext(state, &context))
    return rc;
  ModelRec* record = nullptr;
  if (aclError rc =
          ascend_emu::acl::FindModelInContext(state, modelId, context, &record))
    return rc;
  const std::vector<IoDesc>& inputs = record->model->inputs();
  if (index >= inputs.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "input param is invalid, index[%zu] should be smaller than %zu",
                index, inputs.size());
  }
  const IoDesc& data = inputs[index];
  if (data.aipp != IoDesc::Aipp::kDynamicData) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "Dynamic AIPP data index %zu is invalid, parameters "
                "verification failed (input '%s' is not a dynamic AIPP "
                "input: aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_AIPP_NAME, "
                "&index), or aclmdlGetAippType)",
                index, data.name.c_str());
  }
  // GetAndCheckAippParams: the image fits max_src_image_size (the frame
  // input's size), the output is the model input's, then AippParamsCheck.
  const IoDesc& frame = inputs[data.aipp_link];
  const uint64_t image_bytes = SrcImageBytes(*a);
  if (image_bytes > frame.size_bytes) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the dynamic aipp size[%llu] is bigger than "
                "max_src_image_size[%zu]",
                static_cast<unsigned long long>(image_bytes), frame.size_bytes);
  }
  const ArchRules rules = RulesFor(state.config.soc_name);
  int64_t ow = 0, oh = 0;
  if (aclError rc = OutputHW(*a, 0, rules, &ow, &oh)) return rc;
  const ascend_emu::Shape& model = data.aipp_output;  // [N, C, H, W]
  if (model.rank == 4 &&
      (static_cast<int64_t>(a->batch_size) != model.dims[0] ||
       ow != model.dims[3] || oh != model.dims[2])) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aipp output shape set by ACL must be equal to aipp output "
                "shape in the model! AclAippBatchSize = %llu, AclAippOutputW = "
                "%lld, AclAippOutputH = %lld, ModelAippBatchSize = %lld, "
                "ModelAippOutputW = %lld, ModelAippOutputH = %lld.",
                static_cast<unsigned long long>(a->batch_size),
                static_cast<long long>(ow), static_cast<long long>(oh),
                static_cast<long long>(model.dims[0]),
                static_cast<long long>(model.dims[3]),
                static_cast<long long>(model.dims[2]));
  }
  if (aclError rc = CheckParams(*a, rules)) return rc;

  aclDataBuffer* found = nullptr;
  if (aclError rc =
          ascend_emu::acl::FindDatasetBuffer(state, dataset, index, &found))
    return rc;
  const aclDataBuffer& buffer = *found;
  // GeExecutor::SetDynamicAippData.
  if (a->bytes.size() > buffer.size) {
    return Fail(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID,
                "input dynamic aipp param len [%zu] is larger than aipp_data "
                "size [%zu]",
                a->bytes.size(), buffer.size);
  }
  const DevicePointer device =
      ascend_emu::acl::ClassifyPointer(state, buffer.data);
  if (device.alloc == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the dynamic AIPP input buffer %p is host memory: model inputs "
                "are device memory (aclrtMalloc)",
                buffer.data);
  }
  if (device.remaining < a->bytes.size()) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "the dynamic AIPP input buffer claims %zu bytes but its device "
                "allocation holds only %zu from %p",
                buffer.size, device.remaining, buffer.data);
  }
  std::memcpy(buffer.data, a->bytes.data(), a->bytes.size());
  return ACL_SUCCESS;
}

}  // extern "C"
