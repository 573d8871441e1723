# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AIPP: CANN's image pre-processing on the NPU, asked for in the model itself.

`with_aipp(model, AippConfig(...), input_shape)` puts `torch.ops.ascend.aipp` in front of the
model's image input: the exported program's input is then the raw uint8 frame (NHWC RGB888_U8,
YUV400_U8, or YUV420SP_U8 as [N, H*3/2, W, 1]), and the lowering makes the delegated partition's
ONNX input the AIPP output (float NCHW, as real atc expects) and hands atc the config as
`--insert_op_conf` (CANN's text format, `AippConfig.to_prototext`), so the .om's input is the frame.

The op's eager CPU implementation is CANN's AIPP arithmetic, the reference the emulator is tested
against (docs/aipp.md names the CANN source of every step): channel swap, crop, colour-space
conversion `clamp((M @ (p - input_bias)) >> 8)` (YUV input) or `clamp((M @ p) >> 8 +
output_bias)` (RGB input), `(p - mean_chn - min_chn) * var_reci_chn` rounded to float16, padding.

Dynamic AIPP (`with_aipp(model, DynamicAipp(...), input_shape)`): the program takes the frame and
a small float32 parameter tensor per call (`DynamicAippParams(...).to_tensor()`, layout below);
atc gets `aipp_mode: dynamic`, the .om gets CANN's extra input `ascend_dynamic_aipp_data`, and
the backend turns the tensor into CANN's aclmdlSetAIPP* calls and aclmdlSetInputAIPP before each
execute. The eager op runs the same arithmetic (`aipp_reference`, per image).
"""

from .config import (
    FORMATS,
    YUV_TO_RGB_BT601_NARROW,
    YUV_TO_RGB_JPEG,
    AippConfig,
    AippError,
    Matrix,
)
from .dynamic import (
    ACL_INPUT_FORMATS,
    AIPP_DYNAMIC_OP,
    HEAD_COLUMNS,
    IMAGE_COLUMNS,
    PARAMS_WIDTH,
    DynamicAipp,
    DynamicAippModel,
    DynamicAippParams,
    aipp_dynamic,
    decode_params,
    dynamic_aipp_reference,
)
from .graph import (
    AippInput,
    aipp_config_text,
    config_from_json,
    why_unsupported,
)
from .static import (
    AIPP_OP,
    AippModel,
    aipp,
    aipp_reference,
)
from .wrap import (
    with_aipp,
)

__all__ = [
    "ACL_INPUT_FORMATS",
    "AIPP_DYNAMIC_OP",
    "AIPP_OP",
    "FORMATS",
    "HEAD_COLUMNS",
    "IMAGE_COLUMNS",
    "PARAMS_WIDTH",
    "YUV_TO_RGB_BT601_NARROW",
    "YUV_TO_RGB_JPEG",
    "AippConfig",
    "AippError",
    "AippInput",
    "AippModel",
    "DynamicAipp",
    "DynamicAippModel",
    "DynamicAippParams",
    "Matrix",
    "aipp",
    "aipp_config_text",
    "aipp_dynamic",
    "aipp_reference",
    "config_from_json",
    "decode_params",
    "dynamic_aipp_reference",
    "why_unsupported",
    "with_aipp",
]
