// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// The text `atc --help` prints.
#include <string>

#include "atc_options.h"

namespace ascend_emu {
namespace atc {

std::string AtcUsage() {
  return R"(usage: atc --framework=5 --model=<model.onnx> --output=<path without .om>
           --soc_version=<chip> [--precision_mode=<mode>] [options]

The executorch-ascend CANN emulator's atc: compiles an ONNX model (ai.onnx
opset 11 to 18, static shapes or shape gears) into an emulator .om that the emulator's
libascendcl.so runs on the CPU. Same command line as CANN's atc for the
options below; anything else is refused.

  --framework=5              ONNX (the only framework the emulator reads)
  --model=<file>             the .onnx file
  --output=<path>            writes <path>.om
  --soc_version=<chip>       target chip, e.g. Ascend910B1, Ascend310P3
  --precision_mode=<mode>    one of CANN's nine modes, emulated numerically
                             (docs/atc.md): force_fp16 (CANN's default),
                             force_fp32, cube_fp16in_fp32out,
                             allow_fp32_to_fp16, must_keep_origin_dtype
                             (fp32 as written), allow_mix_precision,
                             allow_mix_precision_fp16, allow_mix_precision_bf16,
                             allow_fp32_to_bf16
  --input_shape="x:1,3,224,224;y:2,8"
                             fixes or checks input dims; -1 marks a dynamic
                             dim, which needs one of the two options below
  --dynamic_batch_size="1,2,4"
                             shape gears of the batch: -1 only in dim 0 of
                             the dynamic inputs; 2 to 100 gears
  --dynamic_dims="1,16;8,32" shape gears of any dims (--input_format=ND):
                             each gear gives one value per -1 of
                             --input_shape, in order; 2 to 100 gears
  --input_format=NCHW|ND|NCDHW
                             format reported for 4-D (NCHW) or 5-D (NCDHW)
                             inputs and outputs; default NCHW
  --output_type=FP32         only FP32: every output must be float32
  --mode=0|3|6               0 build (default), 3 pre-check only (no file),
                             6 show the model info of --om=<file.om>; CANN's
                             modes 1, 5, 7 and 30 are not emulated
  --external_weight=0|1|2    where initializers stored as ONNX external data
                             go: 0 into the .om (default); 1 one file per
                             constant, <output dir>/weight/weight_<sha256>;
                             2 one file, weight/weight_combined_<sha256>.
                             The .om then refers to them (FileConstants)
  --precision_mode_v2=<mode>  instead of --precision_mode: fp16, origin,
                             cube_fp16in_fp32out, mixed_float16,
                             mixed_bfloat16 (cube_hif8, mixed_hif8: not
                             emulated)
  --log=debug|info|warning|error|null
  --op_select_implmode, --optypelist_for_implmode, --keep_dtype,
  --fusion_switch_file, --enable_small_channel, --buffer_optimize and other
                             tuning options of CANN's atc: checked as CANN
                             checks them, no effect on what the emulator
                             computes (docs/atc.md); CANN's other options are
                             refused as not emulated
  --help, -h                 this text

Options take the form --name=value or --name value, as CANN's atc reads them:
-name=value works too, dashes in a name are underscores (--input-format), an
unambiguous prefix names its option (--soc), and the last of a repeated
option wins.
)";
}

}  // namespace atc
}  // namespace ascend_emu
