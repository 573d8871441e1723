"""dtype tables: torch dtype -> ExecuTorch ScalarType (blob) and -> ONNX element type."""

from __future__ import annotations

import torch
from onnx import TensorProto

# ExecuTorch's ScalarType enum values (runtime/core/portable_type/scalar_type.h, same as c10's).
_EXECUTORCH_SCALAR_TYPE: dict[torch.dtype, int] = {
    torch.uint8: 0,
    torch.int8: 1,
    torch.int16: 2,
    torch.int32: 3,
    torch.int64: 4,
    torch.float16: 5,
    torch.float32: 6,
    torch.float64: 7,
    torch.bool: 11,
    torch.bfloat16: 15,
}

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


def executorch_scalar_type(dtype: torch.dtype) -> int:
    try:
        return _EXECUTORCH_SCALAR_TYPE[dtype]
    except KeyError:
        raise ValueError(f"no ExecuTorch ScalarType for {dtype}") from None


def onnx_elem_type(dtype: torch.dtype) -> int:
    try:
        return _ONNX_ELEM_TYPE[dtype]
    except KeyError:
        raise ValueError(f"no ONNX element type for {dtype}") from None
