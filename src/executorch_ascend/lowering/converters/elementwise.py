"""Elementwise arithmetic and activations -> Add, Sub, Mul, Div, Relu (numpy-style broadcasting
in both PyTorch and ONNX). Python scalars usually reach the edge dialect as lifted 0-d tensors,
folded into initializers; the *.Scalar overloads (scaled_dot_product_attention's scaling, explicit
aten calls) carry the number in the node, and it becomes a 0-d initializer in the tensor's dtype.
add/sub/mul also take int32/int64 (the kernels wrap on overflow, like PyTorch)."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, tensor_val
from .unary import FLOATS

NUMERIC = (*FLOATS, torch.int32, torch.int64)

aten = torch.ops.aten


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same_dtype(node: Node) -> str | None:
    """Tensor operands and the result share one dtype (ONNX does not promote)."""
    dtypes = {tensor_val(a).dtype for a in node.args if isinstance(a, Node)}
    dtypes.add(tensor_val(node).dtype)
    if len(dtypes) > 1:
        names = sorted(str(d).replace("torch.", "") for d in dtypes)
        return f"operands/result of different dtypes {names} (needs a Cast)"
    return None


def _alpha_supported(node: Node) -> str | None:
    """alpha is a number; operands and result of one dtype."""
    alpha = arg(node, 2, "alpha", 1)
    if not _is_number(alpha):
        return f"alpha must be a number, got {alpha!r}"
    return _same_dtype(node)


def _scaled_other(ctx: LoweringContext, node: Node) -> str:
    other = ctx.value(node.args[1])
    alpha = arg(node, 2, "alpha", 1)
    if alpha == 1:
        return other
    return ctx.tmp("Mul", [other, _scalar(ctx, node, alpha)])


def _scalar(ctx: LoweringContext, node: Node, value: object) -> str:
    """A number as a 0-d initializer in the tensor operand's dtype (exact for integer dtypes)."""
    dtype = tensor_val(node.args[0]).dtype
    number = float(value) if dtype.is_floating_point else int(value)  # type: ignore[arg-type]
    return ctx.scalar(number, dtype)


def _int_input(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """int64 values in [-50, 50)."""
    return torch.randint(-50, 50, shape, generator=gen)


def _int32_input(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    return torch.randint(-50, 50, shape, generator=gen, dtype=torch.int32)


_BINARY_SHAPES = (
    ("same", (2, 3), (2, 3)),
    ("broadcast_row", (2, 3, 4), (4,)),
    ("broadcast_both", (1, 3, 1, 5), (2, 1, 4, 1)),
)


@converter(
    aten.add.Tensor,
    onnx=["Add", "Mul"],
    dtypes=NUMERIC,
    supports=_alpha_supported,
    samples=[
        *(fn_sample(f"add_{n}", lambda x, y: x + y, a, b) for n, a, b in _BINARY_SHAPES),
        fn_sample("add_int_scalar", lambda x: x + 1, (3, 4)),
        fn_sample("add_float_scalar", lambda x: x + 2.5, (2, 2, 3)),
        fn_sample("add_alpha", lambda x, y: torch.add(x, y, alpha=2), (2, 3), (3,)),
        # full/zeros/ones/arange have no converters: constant folding makes them initializers.
        fn_sample(
            "add_constants",
            lambda x: (
                x * torch.ones(3, 4)
                + torch.zeros(4)
                + torch.full((3, 1), 2.0)
                + torch.arange(4, dtype=torch.float32)
            ),
            (3, 4),
        ),
        fn_sample("add_int64", lambda x, y: x + y, (2, 3, 4), (1, 4), inputs=_int_input),
        fn_sample(
            "add_int32_alpha",
            lambda x, y: torch.add(x, y, alpha=3),
            (3, 1),
            (4,),
            inputs=_int32_input,
        ),
    ],
)
def add(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Add", [ctx.value(node.args[0]), _scaled_other(ctx, node)], node)


@converter(
    aten.sub.Tensor,
    onnx=["Sub", "Mul"],
    dtypes=NUMERIC,
    supports=_alpha_supported,
    samples=[
        *(fn_sample(f"sub_{n}", lambda x, y: x - y, a, b) for n, a, b in _BINARY_SHAPES),
        fn_sample("rsub_scalar", lambda x: 2 - x, (3, 4)),
        fn_sample("sub_alpha", lambda x, y: torch.sub(x, y, alpha=0.5), (4, 3), (4, 3)),
        fn_sample("sub_int64", lambda x, y: x - y, (1, 5), (3, 1), inputs=_int_input),
    ],
)
def sub(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Sub", [ctx.value(node.args[0]), _scaled_other(ctx, node)], node)


@converter(
    aten.mul.Tensor,
    onnx=["Mul"],
    dtypes=NUMERIC,
    supports=_same_dtype,
    samples=[
        *(fn_sample(f"mul_{n}", lambda x, y: x * y, a, b) for n, a, b in _BINARY_SHAPES),
        fn_sample("mul_scalar", lambda x: x * 0.5, (2, 5)),
        fn_sample("mul_int64", lambda x, y: x * y, (2, 3), (2, 3), inputs=_int_input),
        fn_sample("mul_int32_scalar", lambda x: x * 3, (4, 1, 2), inputs=_int32_input),
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


def _scalar_supported(node: Node) -> str | None:
    """a number operand (and alpha); result in the tensor's dtype (no int -> float promotion)."""
    for name, value in (("other", arg(node, 1, "other")), ("alpha", arg(node, 2, "alpha", 1))):
        if not _is_number(value):
            return f"{name} must be a number, got {value!r}"
    return _same_dtype(node)


def _scalar_other(ctx: LoweringContext, node: Node) -> str:
    other = arg(node, 1, "other")
    alpha = arg(node, 2, "alpha", 1)
    return _scalar(ctx, node, other * alpha)  # type: ignore[operator]


@converter(
    aten.add.Scalar,
    aten.sub.Scalar,
    aten.mul.Scalar,
    aten.div.Scalar,
    onnx=["Add", "Sub", "Mul", "Div"],
    dtypes=NUMERIC,
    supports=_scalar_supported,
    samples=[
        fn_sample("mul_scalar_op", lambda x: aten.mul.Scalar(x, 0.25), (2, 3, 4)),
        fn_sample("mul_scalar_op_int", lambda x: aten.mul.Scalar(x, -3), (5,), inputs=_int_input),
        fn_sample("add_scalar_op", lambda x: aten.add.Scalar(x, 1.5), (1, 3, 1)),
        fn_sample("add_scalar_op_alpha", lambda x: aten.add.Scalar(x, 2, 3), (4, 2)),
        fn_sample(
            "add_scalar_op_int32", lambda x: aten.add.Scalar(x, 7), (3, 2), inputs=_int32_input
        ),
        fn_sample("sub_scalar_op", lambda x: aten.sub.Scalar(x, 0.5), (2, 1, 3)),
        fn_sample("sub_scalar_op_int", lambda x: aten.sub.Scalar(x, 4, 2), (6,), inputs=_int_input),
        fn_sample("div_scalar_op", lambda x: aten.div.Scalar(x, 4), (3, 4)),
        fn_sample("div_scalar_op_neg", lambda x: aten.div.Scalar(x, -0.3), (1, 5)),
    ],
)
def scalar_arith(ctx: LoweringContext, node: Node) -> None:
    onnx_op = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div"}[
        node.target._schema.name.split("::")[1]  # type: ignore[union-attr]
    ]
    ctx.emit(onnx_op, [ctx.value(node.args[0]), _scalar_other(ctx, node)], node)


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
