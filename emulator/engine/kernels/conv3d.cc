// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Conv on [N, C, D, H, W] (CANN's Conv3D, which its ONNX parser picks for a
// 5-D input): group, pads, strides, dilations, auto_pad, optional bias, with
// ONNX's semantics. Each (image, group) is one GEMM, W_g [M/g, C/g*kD*kH*kW]
// x im2col(X_g) [C/g*kD*kH*kW, oD*oH*oW], as conv.cc's general 2-D path.
// Video and volumetric models are rare on the inference chips and the
// emulator's 3-D Convs are small, so there is no oneDNN or depthwise path:
// one exact path, float32 (float16 and bfloat16 through half_via_float.h).
#include <cstring>
#include <string>

#include "conv_geometry.h"
#include "eigen_maps.h"
#include "kernel_util.h"

namespace ascend_emu {
namespace kernels {
namespace {

// Fills col [cg*kD*kH*kW, oD*oH*oW] (row-major) from the channels of one
// group of one image; taps that fall in the padding are 0.
void Im2Col3D(const float* x, const Conv3DGeometry& g, float* col) {
  const Window3D& w = g.w;
  const int64_t plane = g.out_plane();
  for (int64_t c = 0; c < g.cg(); ++c) {
    const float* volume = x + c * g.in_plane();
    for (int64_t kd = 0; kd < w.kernel[0]; ++kd) {
      for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
        for (int64_t kw = 0; kw < w.kernel[2]; ++kw) {
          float* row = col;
          col += plane;
          const int64_t dd = kd * w.dilation[0] - w.pad_begin[0];
          const int64_t dh = kh * w.dilation[1] - w.pad_begin[1];
          const int64_t dw = kw * w.dilation[2] - w.pad_begin[2];
          for (int64_t od = 0; od < w.out[0]; ++od) {
            const int64_t id = od * w.stride[0] + dd;
            for (int64_t oh = 0; oh < w.out[1]; ++oh) {
              float* out = row + (od * w.out[1] + oh) * w.out[2];
              const int64_t ih = oh * w.stride[1] + dh;
              if (id < 0 || id >= w.in[0] || ih < 0 || ih >= w.in[1]) {
                std::memset(out, 0, static_cast<size_t>(w.out[2]) * 4);
                continue;
              }
              const float* in_row = volume + (id * w.in[1] + ih) * w.in[2];
              for (int64_t ow = 0; ow < w.out[2]; ++ow) {
                const int64_t iw = ow * w.stride[2] + dw;
                out[ow] = (iw >= 0 && iw < w.in[2]) ? in_row[iw] : 0.0f;
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace

std::string GetConv3DGeometry(const char* op, const Attributes& attrs,
                              const TensorRef* inputs, size_t num_inputs,
                              Conv3DGeometry* g) {
  const Shape& x = inputs[0].shape;
  if (x.rank != 5) {
    return Fail(op, "input must be 5-D (3-D conv), got " + x.ToString());
  }
  std::string err = GetConvChannels(op, attrs, inputs, num_inputs, g);
  if (!err.empty()) return err;
  WindowOptions opts;
  opts.allow_dilations = true;
  return ResolveWindow3D(op, attrs, 3, &x.dims[2], &inputs[1].shape.dims[2],
                         opts, &g->w);
}

int64_t Conv3DScratchBytes(const Conv3DGeometry& g) {
  int64_t bytes = 0;
  if (!MulBounded(g.col_rows(), g.out_plane(), &bytes) ||
      !MulBounded(bytes, sizeof(float), &bytes) || bytes > kMaxTensorBytes) {
    return -1;
  }
  return bytes;
}

void RunConv3D(const float* x, const float* w, const float* bias,
               const Conv3DGeometry& g, float* col, float* y) {
  const int64_t plane = g.out_plane();
  const int64_t rows = g.col_rows();
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.group; ++grp) {
      Im2Col3D(x + (n * g.c + grp * g.cg()) * g.in_plane(), g, col);
      Matrix(y + (n * g.m + grp * g.mg()) * plane, g.mg(), plane).noalias() =
          ConstMatrix(w + grp * g.mg() * rows, g.mg(), rows) *
          ConstMatrix(col, rows, plane);
    }
    if (bias != nullptr) {
      for (int64_t m = 0; m < g.m; ++m) {
        float* p = y + (n * g.m + m) * plane;
        for (int64_t i = 0; i < plane; ++i) p[i] += bias[m];
      }
    }
  }
}

}  // namespace kernels
}  // namespace ascend_emu
