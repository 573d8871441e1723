# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""torch dtype -> ONNX element type, and torch tensors as the numpy arrays ONNX stores."""

from __future__ import annotations

import ml_dtypes
import numpy as np
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


def to_numpy(tensor: torch.Tensor) -> np.ndarray:
    """`tensor` as a numpy array without a copy; bfloat16 as ml_dtypes.bfloat16 (numpy has no
    bfloat16 of its own, and onnx.numpy_helper writes ml_dtypes' as BFLOAT16 raw data)."""
    tensor = tensor.detach()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return tensor.numpy()


def numpy_dtype(dtype: torch.dtype) -> np.dtype:
    """The numpy dtype to_numpy gives a tensor of `dtype`."""
    if dtype == torch.bfloat16:
        return np.dtype(ml_dtypes.bfloat16)
    return torch.empty((), dtype=dtype).numpy().dtype
