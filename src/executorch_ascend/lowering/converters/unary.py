"""Unary math and activations -> the ONNX op of the same meaning, or a short chain of them.

Gelu is not in CANN's ONNX parser table, so it becomes Erf (exact) or Tanh (approximate) with
Mul/Add; rsqrt becomes Sqrt + Reciprocal; clamp/hardtanh/relu6 become Clip with constant bounds.
log2/log10 are Log times a constant, log1p is Log(1 + x), and trunc (no ONNX Trunc) is
sign(x) * floor(|x|). bitwise_not (`~mask`) is Not on bool only (integer BitwiseNot is opset 18).
isinf/isnan are IsInf/IsNaN (opset 17's IsInf takes no float16, so fp16 input is cast to float32
first, which is exact); isfinite is kept whole as Not(Or(IsInf, IsNaN)).
Constants take the input's dtype, so the same chain serves float32 and float16.
"""

from __future__ import annotations

import math

import torch
from onnx import TensorProto
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter, op_name
from ..samples import away_from_integers, fn_sample, positive
from ._args import arg, tensor_val

aten = torch.ops.aten
F = torch.nn.functional

# fp16 end to end: the emulator stores half and computes in float, like the NPU.
FLOATS = (torch.float32, torch.float16)


def const_like(ctx: LoweringContext, like: object, value: float) -> str:
    """A 0-d initializer holding `value` in `like`'s dtype (ONNX needs matching operand types)."""
    return ctx.scalar(value, tensor_val(like).dtype)


def _simple(onnx_op: str, target: object, fn: object, *shapes: tuple[int, ...], inputs=None):
    samples = [
        fn_sample(f"{onnx_op.lower()}_{'x'.join(map(str, s))}", fn, s, inputs=inputs)  # type: ignore[arg-type]
        for s in shapes
    ]

    @converter(target, onnx=[onnx_op], dtypes=FLOATS, samples=samples)
    def convert(ctx: LoweringContext, node: Node) -> None:
        ctx.emit(onnx_op, [ctx.value(node.args[0])], node)

    return convert


_SHAPES = ((7,), (2, 3, 4), (1, 3, 1, 5))
_simple("Abs", aten.abs.default, torch.abs, *_SHAPES)
_simple("Neg", aten.neg.default, lambda x: -(x * 2), *_SHAPES)
_simple("Exp", aten.exp.default, torch.exp, *_SHAPES)
_simple("Log", aten.log.default, torch.log, *_SHAPES, inputs=positive)
_simple("Sqrt", aten.sqrt.default, torch.sqrt, *_SHAPES, inputs=positive)
_simple("Reciprocal", aten.reciprocal.default, torch.reciprocal, *_SHAPES, inputs=positive)
_simple("Sigmoid", aten.sigmoid.default, torch.sigmoid, *_SHAPES)
_simple("Tanh", aten.tanh.default, torch.tanh, *_SHAPES)
_simple("Erf", aten.erf.default, torch.erf, *_SHAPES)
_simple("Sin", aten.sin.default, torch.sin, *_SHAPES)
_simple("Cos", aten.cos.default, torch.cos, *_SHAPES)
_simple("Floor", aten.floor.default, torch.floor, *_SHAPES, inputs=away_from_integers)
_simple("Ceil", aten.ceil.default, torch.ceil, *_SHAPES, inputs=away_from_integers)
_simple("Round", aten.round.default, torch.round, *_SHAPES, inputs=away_from_integers)
_simple("Sign", aten.sign.default, lambda x: torch.sign(torch.round(x)), (9,), (2, 3, 4))


@converter(
    aten.logical_not.default,
    onnx=["Not"],
    dtypes=(torch.bool,),
    samples=[
        fn_sample("logical_not_2d", lambda x: torch.logical_not(x > 0), (3, 4)),
        fn_sample("logical_not_4d", lambda x: torch.logical_not(x > 0.5), (1, 2, 1, 3)),
    ],
)
def logical_not(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Not", [ctx.value(node.args[0])], node)


# Bitwise ops are accepted by dtype for every integer type, so that supports() can say why
# integers are refused (binary.py's bitwise_and/or/xor use the same two).
BITWISE_DTYPES = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def bitwise_refusal(node: Node, onnx_op: str) -> str | None:
    """None when every tensor operand and the result is bool, else the reason."""
    dtypes = {tensor_val(a).dtype for a in node.args if isinstance(a, Node)}
    dtypes.add(tensor_val(node).dtype)
    ints = sorted(str(d).replace("torch.", "") for d in dtypes - {torch.bool})
    if ints:
        return (
            f"{op_name(node)} on {', '.join(ints)}: integer bitwise ops need ONNX Bitwise{onnx_op},"
            " which is opset 18 only (CANN's ONNX parser has no opset-17 entry); only bool"
            " operands are lowered"
        )
    return None


def _bitwise_not_supported(node: Node) -> str | None:
    """bool input only: an integer input is refused, because ONNX BitwiseNot is opset 18 only."""
    return bitwise_refusal(node, "Not")


@converter(
    aten.bitwise_not.default,
    onnx=["Not"],
    supports=_bitwise_not_supported,
    dtypes=BITWISE_DTYPES,
    samples=[
        fn_sample("bitwise_not_2d", lambda x: ~(x > 0), (3, 4)),
        fn_sample("bitwise_not_4d", lambda x: torch.bitwise_not(x < 0.5), (1, 2, 1, 3)),
        fn_sample("bitwise_not_masked_fill", lambda x: x.masked_fill(~(x > 0), 0.0), (2, 5)),
    ],
)
def bitwise_not(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Not", [ctx.value(node.args[0])], node)


def with_specials(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Normal values with about one in six each of +inf, -inf and NaN (and a large finite value)."""
    x = torch.randn(shape_, generator=gen) * 3
    pick = torch.randint(0, 6, shape_, generator=gen)
    x = torch.where(pick == 0, math.inf, x)
    x = torch.where(pick == 1, -math.inf, x)
    x = torch.where(pick == 2, math.nan, x)
    return torch.where(pick == 3, 6.0e4, x)  # finite in float16 too (max 65504)


def _float_input(node: Node) -> str | None:
    """float32 or float16 input (the result is bool)."""
    dtype = tensor_val(node.args[0]).dtype
    return None if dtype in FLOATS else f"{op_name(node)} of a {dtype} tensor is not lowered"


def _float32(ctx: LoweringContext, x: object) -> str:
    """x as float32: opset 17's IsInf takes float and double only (float16 from opset 20)."""
    name = ctx.value(x)
    if tensor_val(x).dtype != torch.float32:
        name = ctx.tmp("Cast", [name], to=TensorProto.FLOAT)  # half -> float is exact
    return name


_PREDICATE_DTYPES = (*FLOATS, torch.bool)


@converter(
    aten.isinf.default,
    onnx=["IsInf", "Cast"],
    supports=_float_input,
    dtypes=_PREDICATE_DTYPES,
    samples=[
        fn_sample("isinf_2d", torch.isinf, (4, 6), inputs=with_specials),
        fn_sample("isinf_1d", torch.isinf, (9,), inputs=with_specials),
        # T5's fp16 guard: torch.where(torch.isinf(x).any(), ...)
        fn_sample("isinf_any", lambda x: torch.isinf(x).any(), (2, 3, 4), inputs=with_specials),
        fn_sample("isinf_all_finite", lambda x: torch.isinf(x).any(-1), (3, 5)),
    ],
)
def isinf(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("IsInf", [_float32(ctx, node.args[0])], node)


@converter(
    aten.isnan.default,
    onnx=["IsNaN"],
    supports=_float_input,
    dtypes=_PREDICATE_DTYPES,
    samples=[
        fn_sample("isnan_2d", torch.isnan, (4, 6), inputs=with_specials),
        fn_sample("isnan_3d", torch.isnan, (2, 1, 5), inputs=with_specials),
        # Float outputs stay finite: the tests' error measure cannot compare inf with inf.
        fn_sample(
            "isnan_masked_fill",
            lambda x: x.masked_fill(torch.isnan(x) | torch.isinf(x), 0.0),
            (3, 4),
            inputs=with_specials,
        ),
    ],
)
def isnan(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("IsNaN", [ctx.value(node.args[0])], node)


@converter(
    aten.isfinite.default,
    onnx=["IsInf", "IsNaN", "Or", "Not", "Cast"],
    supports=_float_input,
    dtypes=_PREDICATE_DTYPES,
    keep_whole=True,
    samples=[
        fn_sample("isfinite_2d", torch.isfinite, (4, 6), inputs=with_specials),
        fn_sample("isfinite_1d", torch.isfinite, (7,), inputs=with_specials),
        fn_sample(
            "isfinite_where",
            lambda x: torch.where(torch.isfinite(x), x, torch.zeros_like(x)),
            (2, 3, 4),
            inputs=with_specials,
        ),
    ],
)
def isfinite(ctx: LoweringContext, node: Node) -> None:
    # Kept whole: to_edge would decompose it into abs/ne/eq and a mul of two bool tensors.
    x = _float32(ctx, node.args[0])
    special = ctx.tmp("Or", [ctx.tmp("IsInf", [x]), ctx.tmp("IsNaN", [x])])
    ctx.emit("Not", [special], node)


@converter(
    aten.rsqrt.default,
    onnx=["Sqrt", "Reciprocal"],
    dtypes=FLOATS,
    samples=[
        fn_sample("rsqrt_1d", torch.rsqrt, (6,), inputs=positive),
        fn_sample("rsqrt_3d", torch.rsqrt, (2, 1, 4), inputs=positive),
    ],
)
def rsqrt(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Reciprocal", [ctx.tmp("Sqrt", [ctx.value(node.args[0])])], node)


def _gelu_supported(node: Node) -> str | None:
    """approximate is 'none' or 'tanh'."""
    mode = node.kwargs.get("approximate", "none")
    return None if mode in ("none", "tanh") else f"gelu approximate={mode!r}"


@converter(
    aten.gelu.default,
    onnx=["Erf", "Tanh", "Mul", "Add", "Pow"],
    supports=_gelu_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("gelu_2d", F.gelu, (3, 8)),
        fn_sample("gelu_4d", lambda x: F.gelu(x * 3), (1, 2, 3, 4)),
        fn_sample("gelu_tanh", lambda x: F.gelu(x * 3, approximate="tanh"), (2, 5)),
        fn_sample("gelu_tanh_1d", lambda x: F.gelu(x, approximate="tanh"), (9,)),
    ],
)
def gelu(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    xv = ctx.value(x)
    if node.kwargs.get("approximate", "none") == "tanh":
        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = ctx.tmp("Pow", [xv, const_like(ctx, x, 3.0)])
        inner = ctx.tmp("Add", [xv, ctx.tmp("Mul", [cube, const_like(ctx, x, 0.044715)])])
        scaled = ctx.tmp("Mul", [inner, const_like(ctx, x, math.sqrt(2.0 / math.pi))])
        t = ctx.tmp("Tanh", [scaled])
    else:
        # 0.5 x (1 + erf(x / sqrt 2))
        t = ctx.tmp("Erf", [ctx.tmp("Mul", [xv, const_like(ctx, x, 1.0 / math.sqrt(2.0))])])
    one_plus = ctx.tmp("Add", [t, const_like(ctx, x, 1.0)])
    half_x = ctx.tmp("Mul", [xv, const_like(ctx, x, 0.5)])
    ctx.emit("Mul", [half_x, one_plus], node)


def _bound(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


def _clamp_supported(node: Node) -> str | None:
    """number bounds, at least one given."""
    lo, hi = arg(node, 1, "min"), arg(node, 2, "max")
    if lo is None and hi is None:
        return "clamp without bounds"
    for b in (lo, hi):
        if b is not None and (isinstance(b, bool) or not isinstance(b, (int, float))):
            return f"clamp bound {b!r} is not a number"
    return None


def _emit_clip(ctx: LoweringContext, node: Node, lo: float | None, hi: float | None) -> None:
    x = node.args[0]
    # Clip's min/max are optional inputs; an empty name skips one (CANN needs at least one).
    bounds = [const_like(ctx, x, v) if v is not None else "" for v in (lo, hi)]
    while bounds and bounds[-1] == "":
        bounds.pop()
    ctx.emit("Clip", [ctx.value(x), *bounds], node)


@converter(
    aten.clamp.default,
    onnx=["Clip"],
    supports=_clamp_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("clamp_both", lambda x: x.clamp(-0.5, 0.7), (3, 4)),
        fn_sample("clamp_min", lambda x: x.clamp(min=0.2), (2, 1, 5)),
        fn_sample("clamp_max", lambda x: x.clamp(max=-0.1), (6,)),
        fn_sample("hardswish", F.hardswish, (2, 3, 4, 4)),
        fn_sample("hardsigmoid", lambda x: F.hardsigmoid(x * 4), (3, 5)),
    ],
)
def clamp(ctx: LoweringContext, node: Node) -> None:
    _emit_clip(ctx, node, _bound(arg(node, 1, "min")), _bound(arg(node, 2, "max")))


@converter(
    aten.hardtanh.default,
    onnx=["Clip"],
    dtypes=FLOATS,
    samples=[
        fn_sample("relu6", lambda x: F.relu6(x * 4), (2, 3, 4)),
        fn_sample("hardtanh_default", F.hardtanh, (5, 1)),
        fn_sample("hardtanh_custom", lambda x: F.hardtanh(x, -2.0, 0.5), (1, 4, 3)),
    ],
)
def hardtanh(ctx: LoweringContext, node: Node) -> None:
    lo = float(arg(node, 1, "min_val", -1.0))  # type: ignore[arg-type]
    hi = float(arg(node, 2, "max_val", 1.0))  # type: ignore[arg-type]
    _emit_clip(ctx, node, lo, hi)


@converter(
    aten.leaky_relu.default,
    onnx=["LeakyRelu"],
    dtypes=FLOATS,
    samples=[
        fn_sample("leaky_relu_default", F.leaky_relu, (3, 4)),
        fn_sample("leaky_relu_slope", lambda x: F.leaky_relu(x, 0.2), (2, 1, 3, 3)),
    ],
)
def leaky_relu(ctx: LoweringContext, node: Node) -> None:
    alpha = float(arg(node, 1, "negative_slope", 0.01))  # type: ignore[arg-type]
    ctx.emit("LeakyRelu", [ctx.value(node.args[0])], node, alpha=alpha)


def _elu_supported(node: Node) -> str | None:
    """scale and input_scale are 1 (plain ELU)."""
    if float(arg(node, 2, "scale", 1)) != 1.0 or float(arg(node, 3, "input_scale", 1)) != 1.0:  # type: ignore[arg-type]
        return "elu with scale/input_scale (selu/celu form) is not lowered"
    return None


@converter(
    aten.elu.default,
    onnx=["Elu"],
    supports=_elu_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("elu_default", F.elu, (3, 4)),
        fn_sample("elu_alpha", lambda x: F.elu(x * 2, alpha=0.5), (2, 1, 5)),
    ],
)
def elu(ctx: LoweringContext, node: Node) -> None:
    alpha = float(arg(node, 1, "alpha", 1.0))  # type: ignore[arg-type]
    ctx.emit("Elu", [ctx.value(node.args[0])], node, alpha=alpha)


def _scaled_log(name: str, target: object, fn: object, scale: float) -> None:
    """log_b(x) = ln(x) * (1 / ln b): one Log and one Mul by a constant of the input's dtype."""
    samples = [
        fn_sample(f"{name}_1d", fn, (7,), inputs=positive),  # type: ignore[arg-type]
        fn_sample(f"{name}_3d", fn, (2, 3, 4), inputs=positive),  # type: ignore[arg-type]
        fn_sample(f"{name}_size1", fn, (1, 3, 1, 5), inputs=positive),  # type: ignore[arg-type]
    ]

    @converter(target, onnx=["Log", "Mul"], dtypes=FLOATS, samples=samples)
    def convert(ctx: LoweringContext, node: Node) -> None:
        x = node.args[0]
        ctx.emit("Mul", [ctx.tmp("Log", [ctx.value(x)]), const_like(ctx, x, scale)], node)


_scaled_log("log2", aten.log2.default, torch.log2, 1.0 / math.log(2.0))
_scaled_log("log10", aten.log10.default, torch.log10, 1.0 / math.log(10.0))


def _above_minus_one(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Values in (-0.9, 3.1): log1p's domain, including small negative inputs."""
    return torch.rand(shape, generator=gen) * 4 - 0.9


@converter(
    aten.log1p.default,
    onnx=["Add", "Log"],
    dtypes=FLOATS,
    samples=[
        fn_sample("log1p_2d", torch.log1p, (3, 4), inputs=_above_minus_one),
        fn_sample("log1p_1d", torch.log1p, (6,), inputs=positive),
        fn_sample("log1p_size1", torch.log1p, (2, 1, 3), inputs=_above_minus_one),
    ],
)
def log1p(ctx: LoweringContext, node: Node) -> None:
    """Log(1 + x). For |x| below the dtype's epsilon 1 + x rounds to 1 and the result is 0
    instead of ~x: an absolute error of |x| (< 1.2e-7 in float32), a relative error of up to 100%
    for such tiny x. ONNX has no Log1p, so this is the price of staying on the device."""
    x = node.args[0]
    ctx.emit("Log", [ctx.tmp("Add", [ctx.value(x), const_like(ctx, x, 1.0)])], node)


@converter(
    aten.trunc.default,
    onnx=["Sign", "Abs", "Floor", "Mul"],
    dtypes=FLOATS,
    samples=[
        fn_sample("trunc_2d", torch.trunc, (3, 4), inputs=away_from_integers),
        fn_sample("trunc_1d", lambda x: torch.trunc(x * 3), (9,)),
        fn_sample("trunc_size1", torch.trunc, (1, 2, 1, 4), inputs=away_from_integers),
    ],
)
def trunc(ctx: LoweringContext, node: Node) -> None:
    # No ONNX Trunc: sign(x) * floor(|x|) rounds toward zero and keeps inf and NaN.
    xv = ctx.value(node.args[0])
    ctx.emit("Mul", [ctx.tmp("Sign", [xv]), ctx.tmp("Floor", [ctx.tmp("Abs", [xv])])], node)
