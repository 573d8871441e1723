"""Binary math, comparisons and logic -> Pow, Max, Min, Equal, Less, ..., And, Or, Xor, Where
(max/min and comparisons also for int32/int64).

ONNX needs both operands in one dtype where PyTorch promotes, so a node is lowered only when its
tensor operands already agree; Python-scalar operands become initializers in the tensor's dtype.
ne is Not(Equal). remainder (Python-style, sign of the divisor) is a - floor(a / b) * b, because
ONNX Mod's float form is C fmod and CANN's parser ignores the fmod attribute anyway. Integer
floor division corrects the integer Div's quotient by the remainder's sign, so it does not depend on
whether the device's integer Div truncates or floors.
bitwise_and/or/xor (what `mask & other` traces to) are And/Or/Xor on bool only: integer bitwise ops
need ONNX BitwiseAnd/Or/Xor, which exist from opset 18 on. clamp with tensor bounds is Max then
Min, each operand first cast to the result dtype as PyTorch's type promotion does.
"""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, positive
from ._args import arg, tensor_val
from .unary import BITWISE_DTYPES, FLOATS, bitwise_refusal

aten = torch.ops.aten

_SHAPES = (
    ("same", (2, 3), (2, 3)),
    ("broadcast", (2, 3, 4), (4,)),
    ("broadcast_both", (1, 3, 1, 5), (2, 1, 4, 1)),
)


def _operand(ctx: LoweringContext, node: Node, index: int, name: str) -> str:
    """Tensor operand, or a Python scalar as a 0-d initializer in operand 0's dtype."""
    value = arg(node, index, name)
    if isinstance(value, Node):
        return ctx.value(value)
    dtype = tensor_val(node.args[0]).dtype
    number = float(value) if dtype.is_floating_point else int(value)  # type: ignore[arg-type]
    return ctx.scalar(number, dtype)


def _same_dtypes(node: Node) -> str | None:
    """tensor operands share one dtype; scalar operands are numbers."""
    dtypes = set()
    for a in node.args:
        if isinstance(a, Node):
            dtypes.add(tensor_val(a).dtype)
        elif isinstance(a, bool) or (a is not None and not isinstance(a, (int, float))):
            return f"operand {a!r} is not a number"
    if len(dtypes) > 1:
        return f"operands of different dtypes {sorted(map(str, dtypes))} (needs a Cast)"
    return None


_INTS = (torch.int32, torch.int64)


def _ints(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """int64 values in [-5, 5): small, so equal elements (ties) occur."""
    return torch.randint(-5, 5, shape, generator=gen)


def _numeric_operands(node: Node) -> str | None:
    """float or int32/int64 operands of one dtype; integral scalars with int tensors."""
    reason = _same_dtypes(node)
    if reason is not None:
        return reason
    dtype = tensor_val(node.args[0]).dtype
    if dtype in FLOATS:
        return None
    if dtype not in _INTS:
        return f"{dtype} operands are not lowered"
    for a in node.args[1:]:
        if isinstance(a, float) and not a.is_integer():
            # PyTorch compares an int tensor with 2.5 in floating point; no Cast here.
            return f"int tensor with the non-integral scalar {a!r}"
    return None


def _float_operands(node: Node) -> str | None:
    """float operands of one dtype (scalar operands are numbers)."""
    reason = _same_dtypes(node)
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
    ctx.emit("Pow", [ctx.value(node.args[0]), _operand(ctx, node, 1, "exponent")], node)


def _binary(onnx_op: str, target: object, fn: object, id: str) -> None:
    samples = [
        *(fn_sample(f"{id}_{n}", fn, a, b) for n, a, b in _SHAPES),  # type: ignore[arg-type]
        fn_sample(f"{id}_int64", fn, (2, 3, 4), (3, 1), inputs=_ints),  # type: ignore[arg-type]
    ]

    @converter(
        target,
        onnx=[onnx_op],
        supports=_numeric_operands,
        dtypes=(*FLOATS, *_INTS),
        samples=samples,
    )
    def convert(ctx: LoweringContext, node: Node) -> None:
        ctx.emit(onnx_op, [ctx.value(node.args[0]), ctx.value(node.args[1])], node)


_binary("Max", aten.maximum.default, torch.maximum, "maximum")
_binary("Min", aten.minimum.default, torch.minimum, "minimum")


# Comparisons: float or int operands in, bool out.
_COMPARE_DTYPES = (*FLOATS, torch.bool)
_NUMERIC_COMPARE_DTYPES = (*_COMPARE_DTYPES, *_INTS)


def _comparison(onnx_op: str, name: str, fn: object, negate: bool = False) -> None:
    tensor_target = getattr(aten, name).Tensor
    scalar_target = getattr(aten, name).Scalar
    samples = [
        *(fn_sample(f"{name}_{n}", fn, a, b) for n, a, b in _SHAPES),  # type: ignore[arg-type]
        fn_sample(f"{name}_scalar", lambda x: fn(x, 0.25), (3, 1, 4)),  # type: ignore[operator]
        fn_sample(f"{name}_int64", fn, (2, 3), (1, 3), inputs=_ints),  # type: ignore[arg-type]
        fn_sample(f"{name}_int_scalar", lambda x: fn(x.int(), 2), (4, 1, 2), inputs=_ints),  # type: ignore[operator]
    ]

    def supported(node: Node) -> str | None:
        """float or int32/int64 operands of one dtype; integral scalars with int tensors."""
        return _numeric_operands(node)

    @converter(
        tensor_target,
        scalar_target,
        onnx=[onnx_op, "Not"] if negate else [onnx_op],
        supports=supported,
        dtypes=_NUMERIC_COMPARE_DTYPES,
        samples=samples,
    )
    def convert(ctx: LoweringContext, node: Node) -> None:
        inputs = [ctx.value(node.args[0]), _operand(ctx, node, 1, "other")]
        if negate:
            ctx.emit("Not", [ctx.tmp(onnx_op, inputs)], node)
        else:
            ctx.emit(onnx_op, inputs, node)


_comparison("Equal", "eq", torch.eq)
_comparison("Equal", "ne", torch.ne, negate=True)
_comparison("Less", "lt", torch.lt)
_comparison("LessOrEqual", "le", torch.le)
_comparison("Greater", "gt", torch.gt)
_comparison("GreaterOrEqual", "ge", torch.ge)


def _logical(onnx_op: str, target: object, fn: object, id: str) -> None:
    samples = [
        fn_sample(f"{id}_{n}", lambda x, y: fn(x > 0, y < 0.5), a, b)  # type: ignore[operator]
        for n, a, b in _SHAPES
    ]

    @converter(target, onnx=[onnx_op], dtypes=(torch.bool,), samples=samples)
    def convert(ctx: LoweringContext, node: Node) -> None:
        ctx.emit(onnx_op, [ctx.value(node.args[0]), ctx.value(node.args[1])], node)


_logical("And", aten.logical_and.default, torch.logical_and, "logical_and")
_logical("Or", aten.logical_or.default, torch.logical_or, "logical_or")


def _bools(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    return torch.rand(shape_, generator=gen) < 0.5


def _bitwise(onnx_op: str, name: str, op: object) -> None:
    samples = [
        *(
            fn_sample(f"bitwise_{name}_{n}", lambda x, y: op(x > 0, y < 0.5), a, b)  # type: ignore[operator]
            for n, a, b in _SHAPES
        ),
        fn_sample(f"bitwise_{name}_bool_inputs", op, (2, 4), (4,), inputs=_bools),  # type: ignore[arg-type]
        fn_sample(f"bitwise_{name}_true", lambda x: op(x > 0, True), (3, 2)),  # type: ignore[operator]
        fn_sample(f"bitwise_{name}_false", lambda x: op(x > 0, False), (5,)),  # type: ignore[operator]
    ]

    def supported(node: Node) -> str | None:
        """bool operands only (a Python bool scalar is fine): integer operands are refused,
        because ONNX has integer bitwise ops only from opset 18 (BitwiseAnd/Or/Xor)."""
        reason = bitwise_refusal(node, onnx_op)
        if reason is None and not isinstance(node.args[1], (Node, bool)):
            reason = f"bitwise op with the non-bool scalar {node.args[1]!r}"
        return reason

    @converter(
        getattr(aten, f"bitwise_{name}").Tensor,
        getattr(aten, f"bitwise_{name}").Scalar,
        onnx=[onnx_op],
        supports=supported,
        dtypes=BITWISE_DTYPES,
        samples=samples,
    )
    def convert(ctx: LoweringContext, node: Node) -> None:
        other = node.args[1]
        b = ctx.value(other) if isinstance(other, Node) else ctx.scalar(bool(other), torch.bool)
        ctx.emit(onnx_op, [ctx.value(node.args[0]), b], node)


_bitwise("And", "and", operator.and_)
_bitwise("Or", "or", operator.or_)
_bitwise("Xor", "xor", operator.xor)


def _clamp_tensor_supported(node: Node) -> str | None:
    """at least one bound given; operands may differ in dtype (each is cast to the result's)."""
    if arg(node, 1, "min") is None and arg(node, 2, "max") is None:
        return "clamp without bounds"
    return None


def _clamp_operand(ctx: LoweringContext, value: Node, dtype: torch.dtype) -> str:
    name = ctx.value(value)
    if tensor_val(value).dtype != dtype:
        name = ctx.tmp("Cast", [name], to=onnx_elem_type(dtype))
    return name


@converter(
    aten.clamp.Tensor,
    onnx=["Max", "Min", "Cast"],
    supports=_clamp_tensor_supported,
    dtypes=(*FLOATS, *_INTS),
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
            inputs=_ints,
        ),
        fn_sample(
            "clamp_tensor_int_x_float_bound",
            lambda x, lo: torch.clamp(x.int(), min=lo.float() / 2),
            (3, 4),
            (4,),
            inputs=_ints,
        ),
    ],
)
def clamp_tensor(ctx: LoweringContext, node: Node) -> None:
    dtype = tensor_val(node).dtype
    x = _clamp_operand(ctx, node.args[0], dtype)  # type: ignore[arg-type]
    lo, hi = arg(node, 1, "min"), arg(node, 2, "max")
    # max then min, as PyTorch: NaN anywhere propagates, and min > max gives max. Max/Min
    # broadcast all three operands to the result's shape.
    if hi is None:
        ctx.emit("Max", [x, _clamp_operand(ctx, lo, dtype)], node)  # type: ignore[arg-type]
        return
    if lo is not None:
        x = ctx.tmp("Max", [x, _clamp_operand(ctx, lo, dtype)])  # type: ignore[arg-type]
    ctx.emit("Min", [x, _clamp_operand(ctx, hi, dtype)], node)  # type: ignore[arg-type]


def _where_supported(node: Node) -> str | None:
    """bool condition, value operands of one dtype."""
    if tensor_val(node.args[0]).dtype != torch.bool:
        return "where condition must be bool"
    a, b = (tensor_val(v).dtype for v in node.args[1:3])
    return None if a == b else f"where operands of different dtypes {a}, {b}"


@converter(
    aten.where.self,
    onnx=["Where"],
    supports=_where_supported,
    dtypes=_COMPARE_DTYPES,
    samples=[
        fn_sample("where_same", lambda x, y: torch.where(x > 0, x, y), (2, 3), (2, 3)),
        fn_sample("where_broadcast", lambda x, y: torch.where(y > 0, x, -x), (2, 3, 4), (4,)),
        fn_sample("masked_fill", lambda x: x.masked_fill(x > 0.3, -1.5), (3, 1, 5)),
        fn_sample(
            "masked_fill_mask",
            lambda x, m: x.masked_fill(m < 0, -1e4) * 2,
            (2, 4, 4),
            (1, 4, 4),
        ),
    ],
)
def where(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Where", [ctx.value(a) for a in node.args[:3]], node)


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
    a, b = ctx.value(node.args[0]), _operand(ctx, node, 1, "other")
    ctx.emit("Sub", [a, ctx.tmp("Mul", [_floor_div(ctx, a, b), b])], node)


def _div_mode_supported(node: Node) -> str | None:
    """operands of one dtype; rounding_mode floor or trunc."""
    mode = node.kwargs.get("rounding_mode")
    if mode not in ("floor", "trunc"):
        return f"rounding_mode={mode!r}"
    return _same_dtypes(node)


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
    dtypes=(*FLOATS, torch.int32, torch.int64),
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
    # No Trunc in ONNX: trunc(q) = sign(q) * floor(|q|).
    q = ctx.tmp("Div", [a, b])
    ctx.emit("Mul", [ctx.tmp("Sign", [q]), ctx.tmp("Floor", [ctx.tmp("Abs", [q])])], node)
