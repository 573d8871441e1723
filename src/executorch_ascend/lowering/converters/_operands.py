# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Operand checks shared by arithmetic and logical: ONNX needs both operands in one dtype where
PyTorch promotes, so a node is lowered only when its tensor operands already agree."""

from __future__ import annotations

from torch.fx import Node

from ._args import is_number, tensor_val
from ._dtypes import FLOATS, INTS


def same_dtypes(node: Node) -> str | None:
    """tensor operands share one dtype; scalar operands are numbers."""
    dtypes = set()
    for a in node.args:
        if isinstance(a, Node):
            dtypes.add(tensor_val(a).dtype)
        elif a is not None and not is_number(a):
            return f"operand {a!r} is not a number"
    if len(dtypes) > 1:
        return f"operands of different dtypes {sorted(map(str, dtypes))} (needs a Cast)"
    return None


def numeric_operands(node: Node) -> str | None:
    """float or int32/int64 operands of one dtype; integral scalars with int tensors."""
    reason = same_dtypes(node)
    if reason is not None:
        return reason
    dtype = tensor_val(node.args[0]).dtype
    if dtype in FLOATS:
        return None
    if dtype not in INTS:
        return f"{dtype} operands are not lowered"
    for a in node.args[1:]:
        if isinstance(a, float) and not a.is_integer():
            # PyTorch compares an int tensor with 2.5 in floating point; no Cast here.
            return f"int tensor with the non-integral scalar {a!r}"
    return None
