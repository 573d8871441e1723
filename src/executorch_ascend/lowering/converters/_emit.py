# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Emit helpers shared by the op families: constants and scalar operands in an operand's dtype,
casts, trunc, and the one-op unary converters."""

from __future__ import annotations

import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, tensor_val
from ._dtypes import FLOATS


def const_like(ctx: LoweringContext, like: object, value: float) -> str:
    """A 0-d initializer holding `value` in `like`'s dtype (ONNX needs matching operand types)."""
    return ctx.scalar(value, tensor_val(like).dtype)


def scalar_operand(ctx: LoweringContext, node: Node, value: object) -> str:
    """A number as a 0-d initializer in the tensor operand's dtype (exact for integer dtypes)."""
    dtype = tensor_val(node.args[0]).dtype
    number = float(value) if dtype.is_floating_point else int(value)
    return ctx.scalar(number, dtype)


def operand(ctx: LoweringContext, node: Node, index: int, name: str) -> str:
    """Tensor operand, or a Python scalar as a 0-d initializer in operand 0's dtype."""
    value = arg(node, index, name)
    if isinstance(value, Node):
        return ctx.value(value)
    return scalar_operand(ctx, node, value)


def cast_to(ctx: LoweringContext, value: Node, dtype: torch.dtype) -> str:
    """`value`, through a Cast where its dtype is not `dtype`."""
    name = ctx.value(value)
    if tensor_val(value).dtype != dtype:
        name = ctx.tmp("Cast", [name], to=onnx_elem_type(dtype))
    return name


def emit_trunc(ctx: LoweringContext, value: str, node: Node) -> None:
    # No ONNX Trunc: sign(x) * floor(|x|) rounds toward zero and keeps inf and NaN.
    ctx.emit("Mul", [ctx.tmp("Sign", [value]), ctx.tmp("Floor", [ctx.tmp("Abs", [value])])], node)


def unary(onnx_op: str, target: object, fn: object, *shapes: tuple[int, ...], inputs=None):
    """A converter of `target` to the one ONNX op of the same meaning."""
    samples = [
        fn_sample(f"{onnx_op.lower()}_{'x'.join(map(str, s))}", fn, s, inputs=inputs)
        for s in shapes
    ]

    @converter(target, onnx=[onnx_op], dtypes=FLOATS, samples=samples)
    def convert(ctx: LoweringContext, node: Node) -> None:
        ctx.emit(onnx_op, [ctx.value(node.args[0])], node)

    return convert
