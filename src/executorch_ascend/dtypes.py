# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""torch dtype -> ONNX element type."""

from __future__ import annotations

import torch
from onnx import TensorProto

_ONNX_ELEM_TYPE: dict[torch.dtype, int] = {
    torch.uint8: TensorProto.UINT8,
    torch.int8: TensorProto.INT8,
    torch.int16: TensorProto.INT16,
    torch.int32: TensorProto.INT32,
    torch.int64: TensorProto.INT64,
    torch.float16: TensorProto.FLOAT16,
    torch.float32: TensorProto.FLOAT,
    torch.float64: TensorProto.DOUBLE,
    torch.bool: TensorProto.BOOL,
    torch.bfloat16: TensorProto.BFLOAT16,
}


def onnx_elem_type(dtype: torch.dtype) -> int:
    try:
        return _ONNX_ELEM_TYPE[dtype]
    except KeyError:
        raise ValueError(f"no ONNX element type for {dtype}") from None
