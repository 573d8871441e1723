// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
#include "spatial.h"

#include <cstring>
#include <string>

#include "kernel_util.h"

namespace ascend_emu {
namespace kernels {
std::string ReadInts(const char* op, const Attributes& attrs, const char* name,
                     size_t count, int64_t min, int64_t fallback,
                     int64_t* out) {
  const IntsView v = AttrInts(attrs, name);
  if (!v.present) {
    for (size_t i = 0; i < count; ++i) out[i] = fallback;
    return "";
  }
  if (v.size != count) {
    return Fail(op, std::string(name) + " must have " + std::to_string(count) +
                        " values, got " + std::to_string(v.size));
  }
  for (size_t i = 0; i < count; ++i) {
    if (v[i] < min || v[i] > kMaxTensorBytes) {
      return Fail(op, std::string(name) + " value " + std::to_string(v[i]) +
                          " is out of range");
    }
    out[i] = v[i];
  }
  return "";
}

std::string ResolveWindow(const char* op, const Attributes& attrs,
                          int32_t spatial_rank, const int64_t* in,
                          const int64_t* kernel, const WindowOptions& options,
                          Window2D* w) {
  if (spatial_rank < 1 || spatial_rank > 2) {
    return Fail(op, "only 1-D and 2-D windows are supported");
  }
  Window3D w3;
  std::string err =
      ResolveWindow3D(op, attrs, spatial_rank, in, kernel, options, &w3);
  if (!err.empty()) return err;
  // Both are right-aligned: the 2-D window is the 3-D one without depth.
  *w = Window2D();
  w->spatial_rank = spatial_rank;
  for (int a = 0; a < 2; ++a) {
    w->in[a] = w3.in[a + 1];
    w->kernel[a] = w3.kernel[a + 1];
    w->stride[a] = w3.stride[a + 1];
    w->dilation[a] = w3.dilation[a + 1];
    w->pad_begin[a] = w3.pad_begin[a + 1];
    w->pad_end[a] = w3.pad_end[a + 1];
    w->out[a] = w3.out[a + 1];
  }
  return "";
}

std::string ResolveWindow3D(const char* op, const Attributes& attrs,
                            int32_t spatial_rank, const int64_t* in,
                            const int64_t* kernel, const WindowOptions& options,
                            Window3D* w) {
  if (spatial_rank < 1 || spatial_rank > 3) {
    return Fail(op, "only 1-D, 2-D and 3-D windows are supported");
  }
  const size_t n = static_cast<size_t>(spatial_rank);
  const int32_t off = 3 - spatial_rank;  // fewer axes fill the trailing slots
  int64_t strides[3], dilations[3] = {1, 1, 1}, pads[6];
  std::string err = ReadInts(op, attrs, "strides", n, 1, 1, strides);
  if (err.empty() && options.allow_dilations) {
    err = ReadInts(op, attrs, "dilations", n, 1, 1, dilations);
  }
  if (err.empty()) err = ReadInts(op, attrs, "pads", 2 * n, 0, 0, pads);
  if (!err.empty()) return err;

  int64_t ceil_mode = 0;
  if (options.allow_ceil_mode) {
    ceil_mode = AttrInt(attrs, "ceil_mode", 0);
    if (ceil_mode != 0 && ceil_mode != 1) {
      return Fail(op, "ceil_mode must be 0 or 1");
    }
  }
  const char* pad_mode = AttrString(attrs, "auto_pad", "NOTSET");
  enum class AutoPad { kNotSet, kValid, kSameUpper, kSameLower } auto_pad;
  if (std::strcmp(pad_mode, "NOTSET") == 0) {
    auto_pad = AutoPad::kNotSet;
  } else if (std::strcmp(pad_mode, "VALID") == 0) {
    auto_pad = AutoPad::kValid;
  } else if (std::strcmp(pad_mode, "SAME_UPPER") == 0) {
    auto_pad = AutoPad::kSameUpper;
  } else if (std::strcmp(pad_mode, "SAME_LOWER") == 0) {
    auto_pad = AutoPad::kSameLower;
  } else {
    return Fail(op, std::string("unknown auto_pad '") + pad_mode + "'");
  }
  if (auto_pad != AutoPad::kNotSet) {
    for (size_t i = 0; i < 2 * n; ++i) {
      if (pads[i] != 0) {
        return Fail(op,
                    std::string("pads cannot be set together with auto_pad ") +
                        pad_mode);
      }
    }
    if (ceil_mode != 0) {
      return Fail(op, "ceil_mode requires auto_pad NOTSET");
    }
  }

  *w = Window3D();
  w->spatial_rank = spatial_rank;
  for (int32_t i = 0; i < spatial_rank; ++i) {
    const int32_t a = i + off;
    w->in[a] = in[i];
    w->kernel[a] = kernel[i];
    w->stride[a] = strides[i];
    w->dilation[a] = dilations[i];
    if (kernel[i] < 1) return Fail(op, "kernel dims must be >= 1");
    if (in[i] < 1) return Fail(op, "input spatial dims must be >= 1");
    int64_t ext = 0;  // dilated kernel extent
    if (!MulBounded(kernel[i] - 1, dilations[i], &ext)) {
      return Fail(op, "dilated kernel is too large");
    }
    ext += 1;
    int64_t pb = pads[i];
    int64_t pe = pads[i + n];
    int64_t out = 0;
    if (auto_pad == AutoPad::kNotSet || auto_pad == AutoPad::kValid) {
      const int64_t span = in[i] + pb + pe - ext;
      if (span < 0) {
        return Fail(op, "kernel extent " + std::to_string(ext) +
                            " exceeds padded input size " +
                            std::to_string(in[i] + pb + pe));
      }
      out = (ceil_mode ? (span + strides[i] - 1) / strides[i]
                       : span / strides[i]) +
            1;
      // The last window must start inside the input or its leading pad
      // (PyTorch and ONNX Runtime drop a window that starts in the end pad).
      if (ceil_mode && (out - 1) * strides[i] >= in[i] + pb) --out;
    } else {
      out = (in[i] + strides[i] - 1) / strides[i];
      int64_t total = (out - 1) * strides[i] + ext - in[i];
      if (total < 0) total = 0;
      pb = auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
      pe = total - pb;
    }
    if (out < 1) {
      return Fail(op, "input spatial size " + std::to_string(in[i]) +
                          " gives an empty output");
    }
    if (options.pads_below_kernel && (pb >= ext || pe >= ext)) {
      return Fail(op, "pads must be smaller than the kernel extent " +
                          std::to_string(ext));
    }
    w->pad_begin[a] = pb;
    w->pad_end[a] = pe;
    w->out[a] = out;
  }
  return "";
}

}  // namespace kernels
}  // namespace ascend_emu
