// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// CANN's checks of an AIPP configuration and its fit to the model input
// (aipp_config.h; docs/aipp.md names the sources of every rule below:
// hicann/ge's insert_op.proto, aipp_op.cc, insert_aipp_op_util.cc and its
// AIPP guide, and the Aipp op's InferShape and TBE checks). The file is read
// by aipp_config_parse.cc.
#include "aipp_config.h"

#include <cmath>
#include <cstdint>
#include <set>
#include <sstream>

#include "aipp_config_fields.h"
#include "ascend_emu/aipp_params.h"

namespace ascend_emu {
namespace atc {
namespace {

// The parsed value of a field (its first, for a repeated one), or fallback.
std::string Text(const AippOp& op, const std::string& name) {
  auto it = op.fields.find(name);
  return it == op.fields.end() || it->second.empty() ? "" : it->second[0];
}
bool Has(const AippOp& op, const std::string& name) {
  return op.fields.count(name) != 0 && !op.fields.at(name).empty();
}
int64_t Int(const AippOp& op, const std::string& name, int64_t fallback) {
  long long v = 0;
  return Has(op, name) && ParseInt(Text(op, name), &v) ? v : fallback;
}
double Float(const AippOp& op, const std::string& name, double fallback) {
  double v = 0;
  return Has(op, name) && ParseFloat(Text(op, name), &v) ? v : fallback;
}
bool Bool(const AippOp& op, const std::string& name) {
  const std::string t = Text(op, name);
  return t == "true" || t == "True" || t == "t" || t == "1";
}
std::string Mode(const AippOp& op) {
  const std::string t = Text(op, "aipp_mode");
  if (t == "1") return "static";
  if (t == "2") return "dynamic";
  return t.empty() || t == "0" ? "undefined" : t;
}
std::string Format(const AippOp& op) {
  const std::string t = Text(op, "input_format");
  long long v = 0;
  if (ParseInt(t, &v) && v >= 0 &&
      v < static_cast<long long>(FormatNames().size()))
    return FormatNames()[v];
  return t.empty() ? "UNDEFINED" : t;
}

std::string Range(const AippOp& op, const std::string& name, double lo,
                  double hi) {
  if (!Has(op, name)) return "";
  const double v = Float(op, name, 0);
  if (v >= lo && v <= hi) return "";
  std::ostringstream s;
  s << name << " " << Text(op, name) << " is outside CANN's range [" << lo
    << ", " << hi << "]";
  return s.str();
}

std::string CheckOne(const AippOp& op, size_t index) {
  const std::string where = "aipp_op " + std::to_string(index) + " (line " +
                            std::to_string(op.line) + "): ";
  // aipp_op.cc ValidateParams, in its order.
  const std::string mode = Mode(op);
  if (mode != "static" && mode != "dynamic")
    return where +
           "When insert AIPP op, aipp_mode must be configured as "
           "static or dynamic";
  for (const auto& [name, values] : op.fields) {
    if (AippFields().at(name).repeated && name != "input_edge_idx" &&
        values.size() > 1)
      return where + "The parameter " + name +
             " cannot be configured repeatedly";
  }
  if (mode == "dynamic") {
    if (Int(op, "max_src_image_size", 0) <= 0)
      return where +
             "For dynamic AIPP params, max_src_image_size must be set "
             "which number should be greater than 0";
    // Past ValidateParams, CANN keeps only max_src_image_size and
    // support_rotation of a dynamic block (ConvertParamToAttr): the image
    // fields come per call (aclmdlSetInputAIPP) and are ignored here.
    if (Bool(op, "support_rotation"))
      return where +
             "support_rotation is a reserved AIPP field CANN does not "
             "support";
    if (Has(op, "input_edge_idx"))
      return where + "input_edge_idx is not emulated";
    if (!Text(op, "related_input_name").empty())
      return where + "related_input_name " + Text(op, "related_input_name") +
             "convert rank failed, Please ensure it is caffe scene or "
             "related_input_name in aipp config is the top name of data node";
    return "";
  }
  if (Format(op) == "UNDEFINED")
    return where + "Input format of AIPP conf must be set in static aipp";
  const std::pair<const char*, const char*> non_negative[] = {
      {"src_image_size_w", "Src_image_size_w"},
      {"src_image_size_h", "Src_image_size_h"},
      {"load_start_pos_w", "Load_start_pos_w"},
      {"load_start_pos_h", "Load_start_pos_h"},
      {"crop_size_w", "Crop_size_w"},
      {"resize_output_w", "Resize_output_w"},
      {"resize_output_h", "Resize_output_h"},
      {"left_padding_size", "Left_padding_size"},
      {"right_padding_size", "Right_padding_size"},
      {"top_padding_size", "Top_padding_size"},
      {"bottom_padding_size", "Bottom_padding_size"}};
  for (const auto& [field, label] : non_negative) {
    if (Int(op, field, 0) < 0)
      return where + label +
             std::string(
                 " must not be configured smaller "
                 "than 0");
  }
  // The AIPP guide's template: the formats these chips take, the reserved
  // fields, the value ranges.
  const std::string format = Format(op);
  if (format != "YUV420SP_U8" && format != "XRGB8888_U8" &&
      format != "RGB888_U8" && format != "YUV400_U8")
    return where + "input_format " + format +
           " is not one CANN's static AIPP takes (YUV420SP_U8, XRGB8888_U8, "
           "RGB888_U8, YUV400_U8)";
  if (format == "XRGB8888_U8")
    return where +
           "input_format XRGB8888_U8 is not emulated (the emulator "
           "runs RGB888_U8, YUV420SP_U8 and YUV400_U8, docs/aipp.md)";
  if (Bool(op, "resize"))
    return where + "resize is a reserved AIPP field CANN does not support";
  if (Bool(op, "support_rotation"))
    return where +
           "support_rotation is a reserved AIPP field CANN does not "
           "support";
  if (Bool(op, "single_line_mode"))
    return where +
           "single_line_mode is a reserved AIPP field CANN does not "
           "support";
  if (Has(op, "raw_rgbir_to_f16_n"))
    return where + "raw_rgbir_to_f16_n is not supported by this CANN version";
  if (Float(op, "cpadding_value", 0) != 0)
    return where +
           "cpadding_value is a reserved AIPP field CANN does not "
           "support";
  if (Has(op, "input_edge_idx"))
    return where + "input_edge_idx is not emulated";
  if (!Text(op, "related_input_name").empty())
    return where + "related_input_name " + Text(op, "related_input_name") +
           "convert rank failed, Please ensure it is caffe scene or "
           "related_input_name in aipp config is the top name of data node";
  std::string err;
  for (const char* f : {"src_image_size_w", "src_image_size_h"}) {
    const int64_t v = Int(op, f, 0);
    const int64_t lo = f[15] == 'w' ? 2 : 1;
    if (v != 0 && (v < lo || v > 4096))
      return where + f + " " + std::to_string(v) +
             " is outside CANN's range [" + std::to_string(lo) +
             ", 4096] (or 0)";
  }
  for (const char* f : {"load_start_pos_w", "load_start_pos_h"})
    if (err.empty()) err = Range(op, f, 0, 4095);
  for (const char* f : {"crop_size_w", "crop_size_h"})
    if (err.empty()) err = Range(op, f, 0, 4096);
  for (const char* f : {"left_padding_size", "right_padding_size",
                        "top_padding_size", "bottom_padding_size"})
    if (err.empty()) err = Range(op, f, 0, 32);
  for (int c = 0; c < 4 && err.empty(); ++c) {
    const std::string k = std::to_string(c);
    err = Range(op, "mean_chn_" + k, 0, 255);
    if (err.empty()) err = Range(op, "min_chn_" + k, 0, 255);
    if (err.empty()) err = Range(op, "var_reci_chn_" + k, -65504, 65504);
  }
  for (int r = 0; r < 3 && err.empty(); ++r) {
    const std::string k = std::to_string(r);
    for (int c = 0; c < 3 && err.empty(); ++c)
      err = Range(op, "matrix_r" + k + "c" + std::to_string(c), -32768, 32767);
    if (err.empty()) err = Range(op, "input_bias_" + k, 0, 255);
    if (err.empty()) err = Range(op, "output_bias_" + k, 0, 255);
  }
  if (err.empty()) err = Range(op, "padding_value", -65504, 65504);
  if (!err.empty()) return where + err;
  if (format == "YUV400_U8" && Bool(op, "csc_switch"))
    return where + "csc_switch with YUV400_U8 is not emulated";
  return "";
}

}  // namespace

int64_t AippInputRank(const AippOp& op) {
  return Int(op, "related_input_rank", 0);
}

std::string CheckAippConfig(const std::vector<AippOp>& ops, size_t num_inputs) {
  std::set<int64_t> ranks;
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string err = CheckOne(ops[i], i);
    if (!err.empty()) return err;
    const int64_t rank = AippInputRank(ops[i]);
    // aipp_op.cc FindDataByIndex (E10052).
    if (rank >= static_cast<int64_t>(num_inputs))
      return "Cannot find the data node by aipp parameter related_input_rank " +
             std::to_string(rank);
    // insert_aipp_op_util.cc CheckPositionNotRepeat.
    if (!ranks.insert(rank).second)
      return "Can not insert aipp to the same position! Please ensure "
             "related_input_rank param is different in different aipp "
             "config (related_input_rank " +
             std::to_string(rank) + ")";
  }
  return "";
}

std::string ResolveAipp(const AippOp& op, DType input_dtype,
                        const Shape& input_shape, Attributes* attrs,
                        Shape* frame_shape) {
  if (input_shape.rank != 4 ||
      (input_dtype != DType::kFloat32 && input_dtype != DType::kFloat16))
    return "AIPP needs a 4-D NCHW float32 or float16 model input, got " +
           std::string(DTypeName(input_dtype)) + " " + input_shape.ToString();
  const int64_t n = input_shape.dims[0], c = input_shape.dims[1],
                h = input_shape.dims[2], w = input_shape.dims[3];
  const std::string format = Format(op);
  const int64_t fmt = format == "YUV420SP_U8" ? 1
                      : format == "RGB888_U8" ? 3
                                              : 4;
  const int64_t aipp_channels = fmt == 4 ? 1 : 3;
  if (c < 1 || c > aipp_channels)
    return "a model input of " + std::to_string(c) + " channels after " +
           format + " AIPP (" + std::to_string(aipp_channels) +
           " channels) is not emulated";
  const bool crop = Bool(op, "crop"), padding = Bool(op, "padding");
  int64_t src_w = Int(op, "src_image_size_w", 0);
  int64_t src_h = Int(op, "src_image_size_h", 0);
  // TBE Aipp's checks (docs/aipp.md).
  if ((crop || padding) && (src_w <= 0 || src_h <= 0))
    return "when crop or padding is enable, src_image_size_w and "
           "src_image_size_h should > 0!";
  int64_t pad[4] = {0, 0, 0, 0};  // top, bottom, left, right
  if (padding) {
    pad[0] = Int(op, "top_padding_size", 0);
    pad[1] = Int(op, "bottom_padding_size", 0);
    pad[2] = Int(op, "left_padding_size", 0);
    pad[3] = Int(op, "right_padding_size", 0);
  }
  int64_t ch = 0, cw = 0, cy = 0, cx = 0;
  if (crop) {
    cy = Int(op, "load_start_pos_h", 0);
    cx = Int(op, "load_start_pos_w", 0);
    ch = Int(op, "crop_size_h", 0);
    cw = Int(op, "crop_size_w", 0);
    if ((ch == 0 || cw == 0) && padding)
      return "when crop_size_h == 0 or crop_size_w == 0, resize and padding "
             "should be not enable!";
    if (ch == 0) ch = h;
    if (cw == 0) cw = w;
  } else {
    if (src_h == 0) src_h = h;
    if (src_w == 0) src_w = w;
    ch = src_h;
    cw = src_w;
  }
  if (src_w < 2 || src_w > 4096 || src_h < 1 || src_h > 4096)
    return "the image is " + std::to_string(src_h) + "x" +
           std::to_string(src_w) +
           ": CANN takes w in [2, 4096], h in [1, "
           "4096]";
  if (fmt == 1 && (src_h % 2 != 0 || src_w % 2 != 0))
    return "originalImageSize should be even for YUV420SP_U8! (" +
           std::to_string(src_h) + "x" + std::to_string(src_w) + ")";
  if (crop) {
    if (cy + ch > src_h)
      return "when crop is enable, load_start_pos_h + crop_size_h should <= "
             "src_image_size_h! (" +
             std::to_string(cy) + " + " + std::to_string(ch) + " > " +
             std::to_string(src_h) + ")";
    if (cx + cw > src_w)
      return "when crop is enable, load_start_pos_w + crop_size_w should <= "
             "src_image_size_w! (" +
             std::to_string(cx) + " + " + std::to_string(cw) + " > " +
             std::to_string(src_w) + ")";
    if (fmt == 1 && (cy % 2 != 0 || cx % 2 != 0))
      return "when input_format is YUV420SP_U8, load_start_pos_w and "
             "load_start_pos_h must be even! (" +
             std::to_string(cx) + ", " + std::to_string(cy) + ")";
  }
  const int64_t oh = ch + pad[0] + pad[1], ow = cw + pad[2] + pad[3];
  // The Aipp op's InferShape.
  if (oh != h || ow != w)
    return "the data output H and W is not equal with aipp output H and W. "
           "aipp output_height:" +
           std::to_string(oh) + ", aipp output_width:" + std::to_string(ow) +
           ", data's height:" + std::to_string(h) +
           ", data's width:" + std::to_string(w);

  auto ints = [attrs](const char* name, std::vector<int64_t> v) {
    Attribute a;
    a.kind = Attribute::Kind::kInts;
    a.ints = std::move(v);
    attrs->map()[name] = a;
  };
  auto floats = [attrs](const char* name, std::vector<float> v) {
    Attribute a;
    a.kind = Attribute::Kind::kFloats;
    a.floats = std::move(v);
    attrs->map()[name] = a;
  };
  auto integer = [attrs](const char* name, int64_t v) {
    Attribute a;
    a.kind = Attribute::Kind::kInt;
    a.i = v;
    attrs->map()[name] = a;
  };
  integer("input_format", fmt);
  ints("src_image_size", {src_h, src_w});
  ints("crop", {cy, cx, ch, cw});
  ints("padding", {pad[0], pad[1], pad[2], pad[3]});
  Attribute pv;
  pv.kind = Attribute::Kind::kFloat;
  pv.f = static_cast<float>(padding ? Float(op, "padding_value", 0) : 0);
  attrs->map()["padding_value"] = pv;
  const bool csc = Bool(op, "csc_switch");
  integer("csc_switch", csc ? 1 : 0);
  integer("rbuv_swap_switch", Bool(op, "rbuv_swap_switch") ? 1 : 0);
  // aipp_op.cc SetCscDefaultValue: YUV420SP_U8 gets the BT-601 narrow
  // YUV -> BGR matrix, every other format the RGB -> YUV one.
  static const int64_t kYuv2Bgr[9] = {298,  516, 0, 298, -100,
                                      -208, 298, 0, 409};
  static const int64_t kRgb2Yuv[9] = {66,  129, 25,  -38, -74,
                                      112, 112, -94, -18};
  std::vector<int64_t> matrix(9);
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) {
      const int64_t fallback = (fmt == 1 ? kYuv2Bgr : kRgb2Yuv)[r * 3 + k];
      matrix[r * 3 + k] =
          Int(op, "matrix_r" + std::to_string(r) + "c" + std::to_string(k),
              fallback);
    }
  }
  ints("matrix", matrix);
  ints("input_bias", {Int(op, "input_bias_0", 16), Int(op, "input_bias_1", 128),
                      Int(op, "input_bias_2", 128)});
  ints("output_bias",
       {Int(op, "output_bias_0", 16), Int(op, "output_bias_1", 128),
        Int(op, "output_bias_2", 128)});
  std::vector<int64_t> mean(4);
  std::vector<float> min(4), var(4);
  for (int k = 0; k < 4; ++k) {
    const std::string s = std::to_string(k);
    mean[k] = Int(op, "mean_chn_" + s, 0);
    min[k] = static_cast<float>(Float(op, "min_chn_" + s, 0));
    var[k] = static_cast<float>(Float(op, "var_reci_chn_" + s, 1.0));
  }
  ints("mean_chn", mean);
  floats("min_chn", min);
  floats("var_reci_chn", var);
  integer("channels", c);
  integer("to", static_cast<int64_t>(input_dtype));

  frame_shape->rank = 4;
  frame_shape->dims[0] = n;
  frame_shape->dims[1] = fmt == 1 ? src_h * 3 / 2 : src_h;
  frame_shape->dims[2] = src_w;
  frame_shape->dims[3] = fmt == 3 ? 3 : 1;
  return "";
}

}  // namespace atc
}  // namespace ascend_emu

namespace ascend_emu {
namespace atc {

bool IsDynamicAipp(const AippOp& op) { return Mode(op) == "dynamic"; }

std::string ResolveDynamicAipp(const AippOp& op, DType input_dtype,
                               const Shape& input_shape, Attributes* attrs,
                               Shape* frame_shape, Shape* data_shape) {
  // aipp_op.cc GetDataDimN: a rank 3 or 4 input, NCHW or NHWC; the emulator
  // runs 4-D NCHW float inputs (as for static AIPP).
  if (input_shape.rank != 3 && input_shape.rank != 4)
    return "Its shape size must be in the range[3,4] when dynamic AIPP is "
           "linked. The input may not be suitable for dynamic AIPP. (shape " +
           input_shape.ToString() + ")";
  if (input_shape.rank != 4 ||
      (input_dtype != DType::kFloat32 && input_dtype != DType::kFloat16))
    return "AIPP needs a 4-D NCHW float32 or float16 model input, got " +
           std::string(DTypeName(input_dtype)) + " " + input_shape.ToString();
  const int64_t n = input_shape.dims[0], c = input_shape.dims[1],
                h = input_shape.dims[2], w = input_shape.dims[3];
  if (c < 1 || c > 3)
    return "a model input of " + std::to_string(c) +
           " channels after dynamic AIPP is not emulated (1..3)";
  // The parameters' batchNum is an int8 (dynamic_aipp.h).
  if (n < 1 || n > 127)
    return "a dynamic AIPP model input of batch " + std::to_string(n) +
           " is not emulated (1..127)";
  auto integer = [attrs](const char* name, int64_t v) {
    Attribute a;
    a.kind = Attribute::Kind::kInt;
    a.i = v;
    attrs->map()[name] = a;
  };
  integer("aipp_mode", 2);
  integer("batch", n);
  Attribute hw;
  hw.kind = Attribute::Kind::kInts;
  hw.ints = {h, w};
  attrs->map()["output_hw"] = hw;
  integer("channels", c);
  integer("to", static_cast<int64_t>(input_dtype));
  // The Aipp op's InferShape (dynamic mode): the Data node becomes uint8
  // [1, max_src_image_size], NHWC. aipp_op.cc CalcMaxSize: the parameter
  // input holds 64 + 96 * N bytes.
  frame_shape->rank = 2;
  frame_shape->dims[0] = 1;
  frame_shape->dims[1] = Int(op, "max_src_image_size", 0);
  data_shape->rank = 1;
  data_shape->dims[0] =
      static_cast<int64_t>(aipp::BufferBytes(static_cast<uint64_t>(n)));
  return "";
}

}  // namespace atc
}  // namespace ascend_emu
