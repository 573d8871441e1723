"""Elementwise arithmetic and activations -> Add, Sub, Mul, Div, Relu (numpy-style broadcasting
in both PyTorch and ONNX). Python scalars reach the edge dialect as lifted 0-d tensors, folded into
initializers."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, tensor_val

FLOATS = (torch.float32, torch.float16)

aten = torch.ops.aten


def _alpha_supported(node: Node) -> str | None:
    """alpha is a number."""
    alpha = arg(node, 2, "alpha", 1)
    if not isinstance(alpha, (int, float)) or isinstance(alpha, bool):
        return f"alpha must be a number, got {alpha!r}"
    return None


def _scaled_other(ctx: LoweringContext, node: Node) -> str:
    other = ctx.value(node.args[1])
    alpha = arg(node, 2, "alpha", 1)
    if alpha == 1:
        return other
    return ctx.tmp("Mul", [other, ctx.scalar(float(alpha), tensor_val(node.args[0]).dtype)])  # type: ignore[arg-type]


_BINARY_SHAPES = (
    ("same", (2, 3), (2, 3)),
    ("broadcast_row", (2, 3, 4), (4,)),
    ("broadcast_both", (1, 3, 1, 5), (2, 1, 4, 1)),
)


@converter(
    aten.add.Tensor,
    onnx=["Add", "Mul"],
    dtypes=FLOATS,
    supports=_alpha_supported,
    samples=[
        *(fn_sample(f"add_{n}", lambda x, y: x + y, a, b) for n, a, b in _BINARY_SHAPES),
        fn_sample("add_int_scalar", lambda x: x + 1, (3, 4)),
        fn_sample("add_float_scalar", lambda x: x + 2.5, (2, 2, 3)),
        fn_sample("add_alpha", lambda x, y: torch.add(x, y, alpha=2), (2, 3), (3,)),
    ],
)
def add(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Add", [ctx.value(node.args[0]), _scaled_other(ctx, node)], node)


@converter(
    aten.sub.Tensor,
    onnx=["Sub", "Mul"],
    dtypes=FLOATS,
    supports=_alpha_supported,
    samples=[
        *(fn_sample(f"sub_{n}", lambda x, y: x - y, a, b) for n, a, b in _BINARY_SHAPES),
        fn_sample("rsub_scalar", lambda x: 2 - x, (3, 4)),
        fn_sample("sub_alpha", lambda x, y: torch.sub(x, y, alpha=0.5), (4, 3), (4, 3)),
    ],
)
def sub(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Sub", [ctx.value(node.args[0]), _scaled_other(ctx, node)], node)


@converter(
    aten.mul.Tensor,
    onnx=["Mul"],
    dtypes=FLOATS,
    samples=[
        *(fn_sample(f"mul_{n}", lambda x, y: x * y, a, b) for n, a, b in _BINARY_SHAPES),
        fn_sample("mul_scalar", lambda x: x * 0.5, (2, 5)),
    ],
)
def mul(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Mul", [ctx.value(node.args[0]), ctx.value(node.args[1])], node)


def _true_division(node: Node) -> str | None:
    """true division only (no rounding_mode)."""
    mode = node.kwargs.get("rounding_mode")
    return None if mode is None else f"rounding_mode={mode!r} is not lowered"


@converter(
    aten.div.Tensor,
    onnx=["Div"],
    dtypes=FLOATS,
    supports=_true_division,
    samples=[
        fn_sample("div_same", lambda x, y: x / (y * y + 1), (2, 3), (2, 3)),
        fn_sample("div_broadcast", lambda x, y: x / (y * y + 1), (2, 3, 4), (4,)),
        fn_sample("div_scalar", lambda x: x / 3, (5,)),
    ],
)
def div(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Div", [ctx.value(node.args[0]), ctx.value(node.args[1])], node)


@converter(
    aten.relu.default,
    onnx=["Relu"],
    dtypes=FLOATS,
    samples=[
        fn_sample("relu_1d", torch.relu, (7,)),
        fn_sample("relu_4d", torch.relu, (2, 3, 4, 5)),
        fn_sample("relu_module", lambda x: torch.nn.functional.relu(x * 2), (3, 8)),
    ],
)
def relu(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Relu", [ctx.value(node.args[0])], node)
