# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Arithmetic -> Add, Sub, Mul, Div, Pow, Max, Min (numpy-style broadcasting in both PyTorch and
ONNX); remainder and rounding division through Div and Floor; clamp with tensor bounds.

Python scalars usually reach the edge dialect as lifted 0-d tensors, folded into initializers; the
*.Scalar overloads (scaled_dot_product_attention's scaling, explicit aten calls) carry the number in
the node, and it becomes a 0-d initializer in the tensor's dtype. add/sub/mul, max/min and clamp
also take int32/int64 (the kernels wrap on overflow, like PyTorch).
remainder (Python-style, sign of the divisor) is a - floor(a / b) * b, because ONNX Mod's float
form is C fmod and CANN's parser ignores the fmod attribute anyway. Integer floor division corrects
the integer Div's quotient by the remainder's sign, so it does not depend on whether the device's
integer Div truncates or floors. clamp with tensor bounds is Max then Min, each operand first cast
to the result dtype as PyTorch's type promotion does.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..registry import converter
from ..samples import binary_shapes, fn_sample, int_inputs, positive, tied_ints
from ._args import arg, is_number, tensor_val
from ._dtypes import FLOATS, NUMERIC
from ._emit import cast_to, emit_trunc, operand, scalar_operand
from ._operands import numeric_operands, same_dtypes

aten = torch.ops.aten

# int64 and int32 values in [-50, 50).
_int64s = int_inputs(-50, 50)
_int32s = int_inputs(-50, 50, torch.int32)
_ROW_SHAPES = binary_shapes("broadcast_row")


def _same_dtype_with_result(node: Node) -> str | None:
    """Tensor operands and the result share one dtype (ONNX does not promote)."""
    for a in node.args:
        if isinstance(a, Node) and not isinstance(a.meta.get("val"), torch.Tensor):
            # A symbolic size (sym_size) before shape gears bind it to a number.
            return f"operand {a.name} is a symbolic size, not a tensor"
    dtypes = {tensor_val(a).dtype for a in node.args if isinstance(a, Node)}
    dtypes.add(tensor_val(node).dtype)
    if len(dtypes) > 1:
        names = sorted(str(d).replace("torch.", "") for d in dtypes)
        return f"operands/result of different dtypes {names} (needs a Cast)"
    return None


def _alpha_supported(node: Node) -> str | None:
    """alpha is a number; operands and result of one dtype."""
    alpha = arg(node, 2, "alpha", 1)
    if not is_number(alpha):
        return f"alpha must be a number, got {alpha!r}"
    return _same_dtype_with_result(node)


def _scaled_other(ctx: LoweringContext, node: Node) -> str:
    other = ctx.value(node.args[1])
    alpha = arg(node, 2, "alpha", 1)
    if alpha == 1:
        return other
    return ctx.tmp("Mul", [other, scalar_operand(ctx, node, alpha)])


@converter(
    aten.add.Tensor,
    onnx=["Add", "Mul"],
    dtypes=NUMERIC,
    supports=_alpha_supported,
    samples=[
        *(fn_sample(f"add_{n}", lambda x, y: x + y, a, b) for n, a, b in _ROW_SHAPES),
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
        fn_sample("add_int64", lambda x, y: x + y, (2, 3, 4), (1, 4), inputs=_int64s),
        fn_sample(
            "add_int32_alpha",
            lambda x, y: torch.add(x, y, alpha=3),
            (3, 1),
            (4,),
            inputs=_int32s,
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
        *(fn_sample(f"sub_{n}", lambda x, y: x - y, a, b) for n, a, b in _ROW_SHAPES),
        fn_sample("rsub_scalar", lambda x: 2 - x, (3, 4)),
        fn_sample("sub_alpha", lambda x, y: torch.sub(x, y, alpha=0.5), (4, 3), (4, 3)),
        fn_sample("sub_int64", lambda x, y: x - y, (1, 5), (3, 1), inputs=_int64s),
    ],
)
def sub(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Sub", [ctx.value(node.args[0]), _scaled_other(ctx, node)], node)


@converter(
    aten.mul.Tensor,
    onnx=["Mul"],
    dtypes=NUMERIC,
    supports=_same_dtype_with_result,
    samples=[
        *(fn_sample(f"mul_{n}", lambda x, y: x * y, a, b) for n, a, b in _ROW_SHAPES),
        fn_sample("mul_scalar", lambda x: x * 0.5, (2, 5)),
        fn_sample("mul_int64", lambda x, y: x * y, (2, 3), (2, 3), inputs=_int64s),
        fn_sample("mul_int32_scalar", lambda x: x * 3, (4, 1, 2), inputs=_int32s),
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
        if not is_number(value):
            return f"{name} must be a number, got {value!r}"
    return _same_dtype_with_result(node)


def _scalar_other(ctx: LoweringContext, node: Node) -> str:
    other = arg(node, 1, "other")
    alpha = arg(node, 2, "alpha", 1)
    return scalar_operand(ctx, node, other * alpha)  # type: ignore[operator]


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
        fn_sample("mul_scalar_op_int", lambda x: aten.mul.Scalar(x, -3), (5,), inputs=_int64s),
        fn_sample("add_scalar_op", lambda x: aten.add.Scalar(x, 1.5), (1, 3, 1)),
        fn_sample("add_scalar_op_alpha", lambda x: aten.add.Scalar(x, 2, 3), (4, 2)),
        fn_sample("add_scalar_op_int32", lambda x: aten.add.Scalar(x, 7), (3, 2), inputs=_int32s),
        fn_sample("sub_scalar_op", lambda x: aten.sub.Scalar(x, 0.5), (2, 1, 3)),
        fn_sample("sub_scalar_op_int", lambda x: aten.sub.Scalar(x, 4, 2), (6,), inputs=_int64s),
        fn_sample("div_scalar_op", lambda x: aten.div.Scalar(x, 4), (3, 4)),
        fn_sample("div_scalar_op_neg", lambda x: aten.div.Scalar(x, -0.3), (1, 5)),
    ],
)
def scalar_arith(ctx: LoweringContext, node: Node) -> None:
    onnx_op = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div"}[
        node.target._schema.name.split("::")[1]
    ]
    ctx.emit(onnx_op, [ctx.value(node.args[0]), _scalar_other(ctx, node)], node)


def _float_operands(node: Node) -> str | None:
    """float operands of one dtype (scalar operands are numbers)."""
    reason = same_dtypes(node)
    if reason is None and tensor_val(node.args[0]).dtype not in FLOATS:
        reason = f"{tensor_val(node.args[0]).dtype} operands are not lowered"
    return reason


@converter(
    aten.pow.Tensor_Scalar,
    aten.pow.Tensor_Tensor,
    onnx=["Pow"],
    supports=_float_operands,
    dtypes=FLOATS,
    samples=[
        fn_sample("pow_square", lambda x: x**2, (3, 4)),
        fn_sample("pow_cube_4d", lambda x: torch.pow(x, 3), (1, 2, 3, 1)),
        fn_sample("pow_fraction", lambda x: x**0.5, (5,), inputs=positive),
        fn_sample("pow_tensor", lambda x, y: torch.pow(x, y), (2, 3), (3,), inputs=positive),
    ],
)
def pow_(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Pow", [ctx.value(node.args[0]), operand(ctx, node, 1, "exponent")], node)


def _binary(onnx_op: str, target: object, fn: object, id: str) -> None:
    samples = [
        *(fn_sample(f"{id}_{n}", fn, a, b) for n, a, b in binary_shapes()),
        fn_sample(f"{id}_int64", fn, (2, 3, 4), (3, 1), inputs=tied_ints),
    ]

    @converter(
        target,
        onnx=[onnx_op],
        supports=numeric_operands,
        dtypes=NUMERIC,
        samples=samples,
    )
    def convert(ctx: LoweringContext, node: Node) -> None:
        ctx.emit(onnx_op, [ctx.value(node.args[0]), ctx.value(node.args[1])], node)


_binary("Max", aten.maximum.default, torch.maximum, "maximum")
_binary("Min", aten.minimum.default, torch.minimum, "minimum")


def _clamp_tensor_supported(node: Node) -> str | None:
    """at least one bound given; operands may differ in dtype (each is cast to the result's)."""
    if arg(node, 1, "min") is None and arg(node, 2, "max") is None:
        return "clamp without bounds"
    return None


@converter(
    aten.clamp.Tensor,
    onnx=["Max", "Min", "Cast"],
    supports=_clamp_tensor_supported,
    dtypes=NUMERIC,
    samples=[
        fn_sample(
            "clamp_tensor_both",
            lambda x, lo: torch.clamp(x, min=lo - 0.5, max=lo + 0.5),
            (2, 3, 4),
            (3, 1),
        ),
        fn_sample("clamp_tensor_min", lambda x, lo: torch.clamp(x, min=lo), (2, 3), (3,)),
        fn_sample("clamp_tensor_max", lambda x, hi: torch.clamp(x, max=hi), (4, 1), (1, 5)),
        # T5 in fp16: bounds are 0-d float32 tensors (clamp_value = where(isinf(x).any(), ...));
        # the result keeps x's dtype, so the bounds are cast to it.
        fn_sample(
            "clamp_tensor_0d_float32_bounds",
            lambda x: torch.clamp(
                x * 4, min=-torch.tensor(1.5, dtype=torch.float32), max=torch.tensor(2.0)
            ),
            (2, 5),
            half=True,
        ),
        fn_sample(
            "clamp_tensor_min_above_max",
            lambda x, lo: torch.clamp(x, min=lo + 1, max=lo),
            (3, 4),
            (4,),
        ),
        fn_sample(
            "clamp_tensor_int64",
            lambda x, lo, hi: torch.clamp(x, min=lo, max=hi + 2),
            (2, 3, 4),
            (4,),
            (3, 1),
            inputs=tied_ints,
        ),
        fn_sample(
            "clamp_tensor_int_x_float_bound",
            lambda x, lo: torch.clamp(x.int(), min=lo.float() / 2),
            (3, 4),
            (4,),
            inputs=tied_ints,
        ),
    ],
)
def clamp_tensor(ctx: LoweringContext, node: Node) -> None:
    dtype = tensor_val(node).dtype
    x = cast_to(ctx, node.args[0], dtype)
    lo, hi = arg(node, 1, "min"), arg(node, 2, "max")
    # max then min, as PyTorch: NaN anywhere propagates, and min > max gives max. Max/Min
    # broadcast all three operands to the result's shape.
    if hi is None:
        ctx.emit("Max", [x, cast_to(ctx, lo, dtype)], node)
        return
    if lo is not None:
        x = ctx.tmp("Max", [x, cast_to(ctx, lo, dtype)])
    ctx.emit("Min", [x, cast_to(ctx, hi, dtype)], node)


def _floor_div(ctx: LoweringContext, a: str, b: str) -> str:
    return ctx.tmp("Floor", [ctx.tmp("Div", [a, b])])


@converter(
    aten.remainder.Scalar,
    aten.remainder.Tensor,
    onnx=["Div", "Floor", "Mul", "Sub"],
    supports=_float_operands,
    dtypes=FLOATS,
    samples=[
        fn_sample("remainder_scalar", lambda x: torch.remainder(x, 0.7), (3, 4)),
        fn_sample("remainder_neg_scalar", lambda x: x % -1.3, (2, 1, 5)),
        fn_sample("remainder_tensor", lambda x, y: torch.remainder(x, y + 3), (2, 3, 4), (4,)),
    ],
)
def remainder(ctx: LoweringContext, node: Node) -> None:
    a, b = ctx.value(node.args[0]), operand(ctx, node, 1, "other")
    ctx.emit("Sub", [a, ctx.tmp("Mul", [_floor_div(ctx, a, b), b])], node)


def _div_mode_supported(node: Node) -> str | None:
    """operands of one dtype; rounding_mode floor or trunc."""
    mode = node.kwargs.get("rounding_mode")
    if mode not in ("floor", "trunc"):
        return f"rounding_mode={mode!r}"
    return same_dtypes(node)


def _nonzero_ints(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """int64 values in [-40, 40] without 0 (valid divisors; PyTorch raises on integer x // 0)."""
    magnitude = torch.randint(1, 41, shape, generator=gen)
    return torch.where(torch.rand(shape, generator=gen) < 0.5, -magnitude, magnitude)


def _int_floor_div(ctx: LoweringContext, node: Node, a: str, b: str) -> None:
    # q = a / b rounded either way; where the remainder a - q*b is nonzero with the divisor's
    # opposite sign, q is one too large (the truncated quotient of a negative result).
    dtype = tensor_val(node.args[0]).dtype
    q = ctx.tmp("Div", [a, b])
    r = ctx.tmp("Sub", [a, ctx.tmp("Mul", [q, b])])
    # sign(r) * sign(b) < 0, without r * b (which could overflow).
    signs = ctx.tmp("Mul", [ctx.tmp("Sign", [r]), ctx.tmp("Sign", [b])])
    wrong = ctx.tmp("Less", [signs, ctx.scalar(0, dtype)])
    # q - (0 or 1) through a Cast rather than Where: CANN's documented Where dtypes lack int64.
    ctx.emit("Sub", [q, ctx.tmp("Cast", [wrong], to=onnx_elem_type(dtype))], node)


@converter(
    aten.div.Tensor_mode,
    onnx=["Div", "Floor", "Abs", "Sign", "Mul", "Sub", "Less", "Cast"],
    supports=_div_mode_supported,
    dtypes=NUMERIC,
    samples=[
        fn_sample("floor_divide_scalar", lambda x: torch.floor_divide(x * 3, 0.7), (3, 4)),
        fn_sample(
            "floor_divide_tensor", lambda x, y: torch.floor_divide(x, y + 3), (2, 3, 4), (1, 4)
        ),
        fn_sample(
            "div_trunc", lambda x, y: torch.div(x * 3, y + 3, rounding_mode="trunc"), (5,), (5,)
        ),
        fn_sample(
            "floor_divide_int64",
            torch.floor_divide,
            (10, 10),
            (10, 10),
            inputs=_nonzero_ints,
        ),
        fn_sample(
            "floor_divide_int64_broadcast",
            lambda x, y: torch.floor_divide(x * 3, y),
            (1,),
            (4,),
            inputs=_nonzero_ints,
        ),
        fn_sample(
            "floor_divide_int32_scalar",
            lambda x: torch.floor_divide(x.int(), -3),
            (2, 1, 5),
            inputs=_nonzero_ints,
        ),
        fn_sample(
            "div_trunc_int64",
            lambda x, y: torch.div(x, y, rounding_mode="trunc"),
            (3, 4),
            (4,),
            inputs=_nonzero_ints,
        ),
    ],
)
def div_mode(ctx: LoweringContext, node: Node) -> None:
    a, b = ctx.value(node.args[0]), ctx.value(node.args[1])
    floor = node.kwargs.get("rounding_mode") == "floor"
    if not tensor_val(node.args[0]).dtype.is_floating_point:
        if floor:
            _int_floor_div(ctx, node, a, b)
        else:
            # Integer Div truncates in ONNX (ORT), like C.
            ctx.emit("Div", [a, b], node)
        return
    if floor:
        ctx.emit("Floor", [ctx.tmp("Div", [a, b])], node)
        return
    emit_trunc(ctx, ctx.tmp("Div", [a, b]), node)
