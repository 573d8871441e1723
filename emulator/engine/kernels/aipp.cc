// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Aipp: CANN's static AIPP (atc --insert_op_conf), the image pre-processing
// atc puts in front of a model input (docs/aipp.md). Input: the raw frame,
// uint8, NHWC: [N, H, W, 3] RGB888_U8, [N, H, W, 1] YUV400_U8, or
// [N, H*3/2, W, 1] YUV420SP_U8 (NV12: the Y plane, then H/2 rows of
// interleaved U, V). Output: [N, C, H', W'] float32 or float16, the model
// input atc replaced.
//
// Per output pixel, in the hardware order CANN's AIPP guide states
// (docs/zh/user_guides/atc_tools/AIPP/config_file_template.md): channel swap
// (rbuv_swap_switch), crop, colour-space conversion (csc_switch),
// normalisation (mean_chn/min_chn/var_reci_chn), padding. The attributes are
// the config as atc resolved it against the model input (aipp_config.cc):
//   input_format      1 YUV420SP_U8, 3 RGB888_U8, 4 YUV400_U8 (insert_op.proto)
//   src_image_size    [h, w] of the frame
//   crop              [load_start_pos_h, load_start_pos_w, crop_h, crop_w]
//   padding           [top, bottom, left, right], each 0..32
//   padding_value     float, written to every channel of a padded pixel
//   csc_switch, rbuv_swap_switch   0 or 1
//   matrix            9 ints, r0c0 .. r2c2; input_bias, output_bias 3 each
//   mean_chn          4 ints; min_chn, var_reci_chn 4 floats
//   channels          C, 1..3 (1 for YUV400_U8)
//   to                output dtype (aclDataType): FLOAT or FLOAT16
//
// Dynamic AIPP (aipp_mode: dynamic): the parameters are not attributes but
// the op's second input, `params`, the model input ascend_dynamic_aipp_data
// that aclmdlSetInputAIPP fills per call in CANN's layout
// (ascend_emu/aipp_params.h: 64 + 96 * N bytes, uint8). The frame is then
// [1, max_src_image_size] uint8: image n is the n-th block of the image size
// the parameters give, from the start. Attributes:
//   aipp_mode         2
//   batch             N of the model input
//   output_hw         [H, W] of the model input
//   channels, to      as above
// Infer checks the shapes; Run reads and checks the parameters (data, so
// untrusted) and refuses bad ones with an error naming the field, then runs
// each image with the static path's arithmetic (RunTyped), padding with 0
// (no dynamic AIPP call sets a padding value; docs/aipp.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ascend_emu/aipp_params.h"
#include "kernel_util.h"
#include "numeric.h"
#include "ops.h"

namespace ascend_emu {
namespace kernels {
namespace {

constexpr int64_t kYuv420sp = 1;
constexpr int64_t kRgb888 = 3;
constexpr int64_t kYuv400 = 4;
constexpr int64_t kMaxImage = 4096;   // CANN's src_image_size range
constexpr int64_t kMaxPadding = 32;   // CANN's padding size range
constexpr float kHalfMax = 65504.0f;  // float16's largest finite value

struct AippParams {
  int64_t format = 0;
  int64_t src_h = 0, src_w = 0;
  int64_t crop_y = 0, crop_x = 0, crop_h = 0, crop_w = 0;
  int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  float padding_value = 0.0f;
  bool csc = false, swap = false;
  int64_t matrix[9] = {};
  int64_t input_bias[3] = {};
  int64_t output_bias[3] = {};
  int64_t mean[4] = {};
  float min[4] = {};       // rounded to float16, as CANN holds them
  float var_reci[4] = {};  // rounded to float16
  float pad16 = 0.0f;      // padding_value rounded to float16
  int64_t channels = 0;
  DType to = DType::kFloat32;

  int64_t in_channels() const { return format == kRgb888 ? 3 : 1; }
  int64_t aipp_channels() const { return format == kYuv400 ? 1 : 3; }
  int64_t out_h() const { return crop_h + pad_top + pad_bottom; }
  int64_t out_w() const { return crop_w + pad_left + pad_right; }
};

float ToHalf(float v) { return static_cast<float>(Half(v)); }

bool Ints(const Attributes& a, const char* name, size_t n,
          std::vector<int64_t>* out) {
  if (!a.Has(name) || a.map().at(name).kind != Attribute::Kind::kInts)
    return false;
  *out = a.GetInts(name);
  return out->size() == n;
}

bool Floats(const Attributes& a, const char* name, size_t n,
            std::vector<float>* out) {
  if (!a.Has(name) || a.map().at(name).kind != Attribute::Kind::kFloats)
    return false;
  *out = a.GetFloats(name);
  return out->size() == n;
}

bool InRange(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

// Reads and checks every attribute: an .om is untrusted, so Infer refuses
// what atc would never write, and Run trusts the result.
std::string ReadParams(const Attributes& a, AippParams* p) {
  std::vector<int64_t> v;
  std::vector<float> f;
  p->format = a.GetInt("input_format", 0);
  if (p->format != kYuv420sp && p->format != kRgb888 && p->format != kYuv400)
    return "Aipp: input_format " + std::to_string(p->format) +
           " is not YUV420SP_U8 (1), RGB888_U8 (3) or YUV400_U8 (4)";
  if (!Ints(a, "src_image_size", 2, &v))
    return "Aipp: needs src_image_size [h, w]";
  p->src_h = v[0];
  p->src_w = v[1];
  if (!InRange(p->src_h, 1, kMaxImage) || !InRange(p->src_w, 2, kMaxImage))
    return "Aipp: src_image_size " + std::to_string(p->src_h) + "x" +
           std::to_string(p->src_w) + " is outside h 1..4096, w 2..4096";
  if (p->format == kYuv420sp && (p->src_h % 2 != 0 || p->src_w % 2 != 0))
    return "Aipp: a YUV420SP_U8 image needs an even height and width";
  if (!Ints(a, "crop", 4, &v)) return "Aipp: needs crop [y, x, h, w]";
  p->crop_y = v[0];
  p->crop_x = v[1];
  p->crop_h = v[2];
  p->crop_w = v[3];
  if (p->crop_y < 0 || p->crop_x < 0 || p->crop_h < 1 || p->crop_w < 1 ||
      p->crop_y > p->src_h - p->crop_h || p->crop_x > p->src_w - p->crop_w)
    return "Aipp: crop at (" + std::to_string(p->crop_y) + ", " +
           std::to_string(p->crop_x) + ") of " + std::to_string(p->crop_h) +
           "x" + std::to_string(p->crop_w) + " is not inside the " +
           std::to_string(p->src_h) + "x" + std::to_string(p->src_w) + " image";
  if (p->format == kYuv420sp && (p->crop_y % 2 != 0 || p->crop_x % 2 != 0))
    return "Aipp: a YUV420SP_U8 crop starts at even load_start_pos_h/w";
  if (!Ints(a, "padding", 4, &v)) return "Aipp: needs padding [t, b, l, r]";
  p->pad_top = v[0];
  p->pad_bottom = v[1];
  p->pad_left = v[2];
  p->pad_right = v[3];
  for (int64_t s : v) {
    if (!InRange(s, 0, kMaxPadding))
      return "Aipp: a padding size is outside 0..32";
  }
  p->padding_value = a.GetFloat("padding_value", 0.0f);
  if (!(std::fabs(p->padding_value) <= kHalfMax))
    return "Aipp: padding_value is outside float16's range";
  p->pad16 = ToHalf(p->padding_value);
  p->csc = a.GetInt("csc_switch", 0) != 0;
  p->swap = a.GetInt("rbuv_swap_switch", 0) != 0;
  if (p->csc && p->format == kYuv400)
    return "Aipp: csc_switch with YUV400_U8 is not emulated";
  if (!Ints(a, "matrix", 9, &v)) return "Aipp: needs a 3x3 matrix";
  for (int i = 0; i < 9; ++i) {
    if (!InRange(v[i], -32768, 32767))
      return "Aipp: a matrix_r*c* value is outside int16";
    p->matrix[i] = v[i];
  }
  if (!Ints(a, "input_bias", 3, &v)) return "Aipp: needs 3 input_bias";
  for (int i = 0; i < 3; ++i) {
    if (!InRange(v[i], 0, 255)) return "Aipp: input_bias is outside 0..255";
    p->input_bias[i] = v[i];
  }
  if (!Ints(a, "output_bias", 3, &v)) return "Aipp: needs 3 output_bias";
  for (int i = 0; i < 3; ++i) {
    if (!InRange(v[i], 0, 255)) return "Aipp: output_bias is outside 0..255";
    p->output_bias[i] = v[i];
  }
  if (!Ints(a, "mean_chn", 4, &v)) return "Aipp: needs 4 mean_chn";
  for (int i = 0; i < 4; ++i) {
    if (!InRange(v[i], 0, 255)) return "Aipp: mean_chn is outside 0..255";
    p->mean[i] = v[i];
  }
  if (!Floats(a, "min_chn", 4, &f)) return "Aipp: needs 4 min_chn";
  for (int i = 0; i < 4; ++i) {
    if (!(f[i] >= 0.0f && f[i] <= 255.0f))
      return "Aipp: min_chn is outside 0..255";
    p->min[i] = ToHalf(f[i]);
  }
  if (!Floats(a, "var_reci_chn", 4, &f)) return "Aipp: needs 4 var_reci_chn";
  for (int i = 0; i < 4; ++i) {
    if (!(std::fabs(f[i]) <= kHalfMax))
      return "Aipp: var_reci_chn is outside float16's range";
    p->var_reci[i] = ToHalf(f[i]);
  }
  p->channels = a.GetInt("channels", 0);
  if (!InRange(p->channels, 1, p->aipp_channels()))
    return "Aipp: channels " + std::to_string(p->channels) + " is not 1.." +
           std::to_string(p->aipp_channels()) + " for this input_format";
  const int64_t to = a.GetInt("to", -1);
  if (to == static_cast<int64_t>(DType::kFloat32)) {
    p->to = DType::kFloat32;
  } else if (to == static_cast<int64_t>(DType::kFloat16)) {
    p->to = DType::kFloat16;
  } else {
    return "Aipp: output dtype 'to' is not FLOAT or FLOAT16";
  }
  return "";
}

// floor(v / 256): the ">> 8" of CANN's CSC formula on a signed sum.
int64_t Shift8(int64_t v) { return v >= 0 ? v >> 8 : -((-v + 255) >> 8); }

int64_t Clamp255(int64_t v) {
  return std::min<int64_t>(255, std::max<int64_t>(0, v));
}

template <typename Out>
void RunTyped(const AippParams& p, const uint8_t* in, int64_t batch, Out* out) {
  const int64_t oh = p.out_h(), ow = p.out_w(), plane = oh * ow;
  const int64_t frame = p.format == kYuv420sp
                            ? p.src_h * 3 / 2 * p.src_w
                            : p.src_h * p.src_w * p.in_channels();
  for (int64_t n = 0; n < batch; ++n) {
    const uint8_t* img = in + n * frame;
    Out* o = out + n * p.channels * plane;
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t x = 0; x < ow; ++x) {
        const int64_t cy = y - p.pad_top, cx = x - p.pad_left;
        float value[3] = {p.pad16, p.pad16, p.pad16};
        if (cy >= 0 && cy < p.crop_h && cx >= 0 && cx < p.crop_w) {
          const int64_t sy = p.crop_y + cy, sx = p.crop_x + cx;
          int64_t px[3] = {0, 0, 0};
          if (p.format == kRgb888) {
            const uint8_t* s = img + (sy * p.src_w + sx) * 3;
            px[0] = s[0];
            px[1] = s[1];
            px[2] = s[2];
            if (p.swap) std::swap(px[0], px[2]);  // BGR in: R <-> B
          } else if (p.format == kYuv420sp) {
            // NV12: each 2x2 block of Y shares one (U, V) pair.
            const uint8_t* uv =
                img + p.src_h * p.src_w + (sy / 2) * p.src_w + (sx & ~1LL);
            px[0] = img[sy * p.src_w + sx];
            px[1] = uv[0];
            px[2] = uv[1];
            if (p.swap) std::swap(px[1], px[2]);  // NV21 in: U <-> V
          } else {
            px[0] = img[sy * p.src_w + sx];
          }
          if (p.csc) {
            int64_t c[3];
            for (int i = 0; i < 3; ++i) {
              int64_t sum = 0;
              if (p.format == kYuv420sp) {
                // YUV -> RGB: (M * (in - input_bias)) >> 8
                for (int j = 0; j < 3; ++j)
                  sum += p.matrix[i * 3 + j] * (px[j] - p.input_bias[j]);
                c[i] = Clamp255(Shift8(sum));
              } else {
                // RGB -> YUV: (M * in) >> 8 + output_bias
                for (int j = 0; j < 3; ++j) sum += p.matrix[i * 3 + j] * px[j];
                c[i] = Clamp255(Shift8(sum) + p.output_bias[i]);
              }
            }
            px[0] = c[0];
            px[1] = c[1];
            px[2] = c[2];
          }
          for (int64_t ch = 0; ch < p.channels; ++ch) {
            // (pixel - mean_chn - min_chn) * var_reci_chn, to float16.
            const float d = static_cast<float>(px[ch] - p.mean[ch]) - p.min[ch];
            value[ch] = ToHalf(d * p.var_reci[ch]);
          }
        }
        for (int64_t ch = 0; ch < p.channels; ++ch) {
          o[ch * plane + y * ow + x] = static_cast<Out>(value[ch]);
        }
      }
    }
  }
}

constexpr int64_t kDynamicMode = 2;  // insert_op.proto's AippMode dynamic

struct DynamicAttrs {
  int64_t batch = 0, out_h = 0, out_w = 0, channels = 0;
  DType to = DType::kFloat32;
};

std::string ReadDynamicAttrs(const Attributes& a, DynamicAttrs* d) {
  std::vector<int64_t> v;
  d->batch = a.GetInt("batch", 0);
  if (d->batch < 1 || d->batch > 127)
    return "Aipp: dynamic batch " + std::to_string(d->batch) +
           " is outside 1..127 (the parameters' batchNum is an int8)";
  if (!Ints(a, "output_hw", 2, &v)) return "Aipp: needs output_hw [h, w]";
  d->out_h = v[0];
  d->out_w = v[1];
  if (!InRange(d->out_h, 1, kMaxImage + 2 * kMaxPadding) ||
      !InRange(d->out_w, 1, kMaxImage + 2 * kMaxPadding))
    return "Aipp: output_hw is outside what AIPP can write";
  d->channels = a.GetInt("channels", 0);
  if (!InRange(d->channels, 1, 3))
    return "Aipp: channels " + std::to_string(d->channels) + " is not 1..3";
  const int64_t to = a.GetInt("to", -1);
  if (to == static_cast<int64_t>(DType::kFloat32)) {
    d->to = DType::kFloat32;
  } else if (to == static_cast<int64_t>(DType::kFloat16)) {
    d->to = DType::kFloat16;
  } else {
    return "Aipp: output dtype 'to' is not FLOAT or FLOAT16";
  }
  return "";
}

[[noreturn]] void Refuse(const std::string& why) {
  throw std::runtime_error(
      "Aipp: the dynamic AIPP parameters (ascend_dynamic_aipp_data) " + why);
}

// Image `n`'s parameters from the buffer, checked as CANN's
// aclmdlSetInputAIPP and the Aipp op check them (docs/aipp.md); throws
// with the reason otherwise. *image_bytes: the bytes of one image.
AippParams DecodeImage(const uint8_t* buf, int64_t n, const DynamicAttrs& d,
                       int64_t* image_bytes) {
  using namespace aipp;
  AippParams p;
  const uint8_t format = Read<uint8_t>(buf, kInputFormat);
  switch (format) {
    case kCceYuv420sp:
      p.format = kYuv420sp;
      break;
    case kCceRgb888:
      p.format = kRgb888;
      break;
    case kCceYuv400:
      p.format = kYuv400;
      break;
    case 0:
      Refuse("were never set: call aclmdlSetInputAIPP before the execute");
    case kCceXrgb8888:
      Refuse("take XRGB8888_U8, which is not emulated");
    default:
      Refuse("have input format " + std::to_string(format) +
             ", not YUV420SP_U8, RGB888_U8 or YUV400_U8");
  }
  if (Read<int8_t>(buf, kBatchNum) != d.batch)
    Refuse("are for a batch of " +
           std::to_string(Read<int8_t>(buf, kBatchNum)) + ", the model's is " +
           std::to_string(d.batch));
  p.src_w = Read<int32_t>(buf, kSrcW);
  p.src_h = Read<int32_t>(buf, kSrcH);
  if (!InRange(p.src_h, 1, kMaxImage) || !InRange(p.src_w, 2, kMaxImage))
    Refuse("have an image of " + std::to_string(p.src_h) + "x" +
           std::to_string(p.src_w) + ", outside h 1..4096, w 2..4096");
  if (p.format == kYuv420sp && (p.src_h % 2 != 0 || p.src_w % 2 != 0))
    Refuse("have an odd YUV420SP_U8 image size");
  p.csc = Read<int8_t>(buf, kCscSwitch) != 0;
  p.swap = Read<int8_t>(buf, kRbuvSwap) != 0;
  if (p.csc && p.format == kYuv400)
    Refuse("switch CSC on for YUV400_U8 (CANN: not supported)");
  for (int i = 0; i < 9; ++i)
    p.matrix[i] = Read<int16_t>(buf, kMatrix + 2 * static_cast<size_t>(i));
  for (int i = 0; i < 3; ++i) {
    p.output_bias[i] = Read<uint8_t>(buf, kOutputBias + static_cast<size_t>(i));
    p.input_bias[i] = Read<uint8_t>(buf, kInputBias + static_cast<size_t>(i));
  }
  const uint8_t* rec = buf + kHeadBytes + kImageBytes * static_cast<size_t>(n);
  const std::string image = "image " + std::to_string(n) + ": ";
  if (Read<int8_t>(rec, kScfSwitch) != 0)
    Refuse("switch resize (scf) on for " + image + "CANN: Not support scf!");
  if (Read<int8_t>(rec, kRotateSwitch) != 0)
    Refuse("switch rotation on for " + image + "not emulated");
  if (Read<int8_t>(rec, kCropSwitch) != 0) {
    p.crop_x = Read<int32_t>(rec, kCropStartW);
    p.crop_y = Read<int32_t>(rec, kCropStartH);
    p.crop_w = Read<int32_t>(rec, kCropW);
    p.crop_h = Read<int32_t>(rec, kCropH);
  } else {
    p.crop_h = p.src_h;
    p.crop_w = p.src_w;
  }
  if (p.crop_y < 0 || p.crop_x < 0 || p.crop_h < 1 || p.crop_w < 1 ||
      p.crop_y > p.src_h - p.crop_h || p.crop_x > p.src_w - p.crop_w)
    Refuse("crop " + image + "(" + std::to_string(p.crop_y) + ", " +
           std::to_string(p.crop_x) + ") of " + std::to_string(p.crop_h) + "x" +
           std::to_string(p.crop_w) + " is not inside the image");
  if (p.format == kYuv420sp && (p.crop_y % 2 != 0 || p.crop_x % 2 != 0))
    Refuse("start the YUV420SP_U8 crop of " + image + "at an odd position");
  if (Read<int8_t>(rec, kPaddingSwitch) != 0) {
    p.pad_top = Read<int32_t>(rec, kPadding);
    p.pad_bottom = Read<int32_t>(rec, kPadding + 4);
    p.pad_left = Read<int32_t>(rec, kPadding + 8);
    p.pad_right = Read<int32_t>(rec, kPadding + 12);
  }
  for (int64_t s : {p.pad_top, p.pad_bottom, p.pad_left, p.pad_right}) {
    if (!InRange(s, 0, kMaxPadding))
      Refuse("pad " + image + "by " + std::to_string(s) + ", outside 0..32");
  }
  if (p.out_h() != d.out_h || p.out_w() != d.out_w)
    Refuse("give " + image + std::to_string(p.out_h()) + "x" +
           std::to_string(p.out_w()) + ", not the model input's " +
           std::to_string(d.out_h) + "x" + std::to_string(d.out_w));
  for (int i = 0; i < 4; ++i) {
    const size_t k = 2 * static_cast<size_t>(i);
    p.mean[i] = Read<int16_t>(rec, kMean + k);
    p.min[i] = static_cast<float>(FromHalfBits(Read<uint16_t>(rec, kMin + k)));
    p.var_reci[i] =
        static_cast<float>(FromHalfBits(Read<uint16_t>(rec, kVarReci + k)));
    if (!InRange(p.mean[i], 0, 255) ||
        !(p.min[i] >= 0.0f && p.min[i] <= 255.0f) ||
        !std::isfinite(p.var_reci[i]))
      Refuse("have mean/min/var_reci of " + image +
             "outside CANN's ranges (mean, min 0..255; var_reci float16)");
  }
  p.channels = d.channels;
  if (p.channels > p.aipp_channels())
    Refuse("give " + std::to_string(p.aipp_channels()) +
           " channel(s); the model input has " + std::to_string(d.channels));
  p.to = d.to;
  p.padding_value = 0.0f;
  p.pad16 = 0.0f;
  *image_bytes = p.format == kYuv420sp ? p.src_h * 3 / 2 * p.src_w
                                       : p.src_h * p.src_w * p.in_channels();
  return p;
}

std::string InferDynamicAipp(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckAttributes("Aipp", ctx.attrs,
                                    {{"aipp_mode", K::kInt},
                                     {"batch", K::kInt},
                                     {"output_hw", K::kInts},
                                     {"channels", K::kInt},
                                     {"to", K::kInt}});
  if (!err.empty()) return err;
  DynamicAttrs d;
  err = ReadDynamicAttrs(ctx.attrs, &d);
  if (!err.empty()) return err;
  if (ctx.inputs.size() != 2 || !ctx.inputs[1].present())
    return "Aipp: dynamic AIPP reads its parameters from input 1 (params)";
  const TensorRef& frame = ctx.inputs[0];
  const TensorRef& params = ctx.inputs[1];
  if (frame.dtype != DType::kUInt8 || frame.shape.rank != 2 ||
      frame.shape.dims[0] != 1 || frame.shape.dims[1] < 1)
    return "Aipp: a dynamic AIPP frame is uint8 [1, max_src_image_size], got " +
           std::string(DTypeName(frame.dtype)) + " " + frame.shape.ToString();
  if (params.dtype != DType::kUInt8 || params.shape.rank != 1 ||
      params.shape.dims[0] < static_cast<int64_t>(aipp::BufferBytes(
                                 static_cast<uint64_t>(d.batch))))
    return "Aipp: the dynamic AIPP parameters are uint8 [>= " +
           std::to_string(aipp::BufferBytes(static_cast<uint64_t>(d.batch))) +
           "], got " + std::string(DTypeName(params.dtype)) + " " +
           params.shape.ToString();
  ctx.outputs.resize(1);
  ctx.outputs[0].dtype = d.to;
  Shape& s = ctx.outputs[0].shape;
  s.rank = 4;
  s.dims[0] = d.batch;
  s.dims[1] = d.channels;
  s.dims[2] = d.out_h;
  s.dims[3] = d.out_w;
  return ValidateShape(s, DTypeSize(d.to));
}

template <typename Out>
void RunDynamic(const RunContext& ctx, const DynamicAttrs& d) {
  const uint8_t* frame = ctx.inputs[0].as<uint8_t>();
  const uint8_t* params = ctx.inputs[1].as<uint8_t>();
  const int64_t frame_bytes = ctx.inputs[0].shape.dims[1];
  Out* out = ctx.outputs[0].as<Out>();
  const int64_t plane = d.channels * d.out_h * d.out_w;
  // Every image is checked before any is written.
  std::vector<AippParams> images(static_cast<size_t>(d.batch));
  int64_t image_bytes = 0;
  for (int64_t n = 0; n < d.batch; ++n) {
    images[static_cast<size_t>(n)] = DecodeImage(params, n, d, &image_bytes);
  }
  if (image_bytes * d.batch > frame_bytes)
    Refuse("describe " + std::to_string(d.batch) + " image(s) of " +
           std::to_string(image_bytes) + " bytes, more than the frame's " +
           std::to_string(frame_bytes) + " (max_src_image_size)");
  for (int64_t n = 0; n < d.batch; ++n) {
    RunTyped(images[static_cast<size_t>(n)], frame + n * image_bytes, 1,
             out + n * plane);
  }
}

}  // namespace

std::string InferAipp(InferContext& ctx) {
  using K = Attribute::Kind;
  std::string err = CheckInputs("Aipp", ctx, 1, 2);
  if (!err.empty()) return err;
  if (ctx.attrs.GetInt("aipp_mode", 1) == kDynamicMode)
    return InferDynamicAipp(ctx);
  if (ctx.inputs.size() > 1 && ctx.inputs[1].present())
    return "Aipp: static AIPP takes one input (the frame)";
  err = CheckAttributes("Aipp", ctx.attrs,
                        {{"input_format", K::kInt},
                         {"src_image_size", K::kInts},
                         {"crop", K::kInts},
                         {"padding", K::kInts},
                         {"padding_value", K::kFloat},
                         {"csc_switch", K::kInt},
                         {"rbuv_swap_switch", K::kInt},
                         {"matrix", K::kInts},
                         {"input_bias", K::kInts},
                         {"output_bias", K::kInts},
                         {"mean_chn", K::kInts},
                         {"min_chn", K::kFloats},
                         {"var_reci_chn", K::kFloats},
                         {"channels", K::kInt},
                         {"to", K::kInt}});
  if (!err.empty()) return err;
  AippParams p;
  err = ReadParams(ctx.attrs, &p);
  if (!err.empty()) return err;
  const TensorRef& in = ctx.inputs[0];
  if (in.dtype != DType::kUInt8 || in.shape.rank != 4)
    return "Aipp: the frame must be a 4-D uint8 tensor, got " +
           std::string(DTypeName(in.dtype)) + " " + in.shape.ToString();
  const int64_t h = p.format == kYuv420sp ? p.src_h * 3 / 2 : p.src_h;
  const int64_t batch = in.shape.dims[0];
  if (batch < 1 || in.shape.dims[1] != h || in.shape.dims[2] != p.src_w ||
      in.shape.dims[3] != p.in_channels())
    return "Aipp: the frame " + in.shape.ToString() +
           " does not match the config's image [N, " + std::to_string(h) +
           ", " + std::to_string(p.src_w) + ", " +
           std::to_string(p.in_channels()) + "]";
  ctx.outputs.resize(1);
  ctx.outputs[0].dtype = p.to;
  Shape& s = ctx.outputs[0].shape;
  s.rank = 4;
  s.dims[0] = batch;
  s.dims[1] = p.channels;
  s.dims[2] = p.out_h();
  s.dims[3] = p.out_w();
  return ValidateShape(s, DTypeSize(p.to));
}

void RunAipp(const RunContext& ctx) {
  if (ctx.attrs.GetInt("aipp_mode", 1) == kDynamicMode) {
    DynamicAttrs d;
    if (!ReadDynamicAttrs(ctx.attrs, &d).empty()) return;  // Infer refused it
    if (d.to == DType::kFloat16) {
      RunDynamic<Half>(ctx, d);
    } else {
      RunDynamic<float>(ctx, d);
    }
    return;
  }
  AippParams p;
  if (!ReadParams(ctx.attrs, &p).empty()) return;  // Infer refused it
  const TensorRef& in = ctx.inputs[0];
  const int64_t batch = in.shape.dims[0];
  if (p.to == DType::kFloat16) {
    RunTyped(p, in.as<uint8_t>(), batch, ctx.outputs[0].as<Half>());
  } else {
    RunTyped(p, in.as<uint8_t>(), batch, ctx.outputs[0].as<float>());
  }
}

}  // namespace kernels

namespace aipp {

uint16_t ToHalfBits(float v) {
  if (std::isnan(v) || std::fabs(v) > 65504.0f)
    return static_cast<uint16_t>((std::signbit(v) ? 0x8000u : 0u) | 0x7BFFu);
  return Eigen::numext::bit_cast<uint16_t>(Eigen::half(v));
}

float FromHalfBits(uint16_t bits) {
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits));
}

}  // namespace aipp
}  // namespace ascend_emu
