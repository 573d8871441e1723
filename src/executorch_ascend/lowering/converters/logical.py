# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Comparisons, logic and predicates -> Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And,
Or, Xor, Not, Where, IsInf, IsNaN (comparisons also for int32/int64; bool out).

ne is Not(Equal); Python-scalar operands become initializers in the tensor's dtype.
bitwise_and/or/xor (what `mask & other` traces to) and bitwise_not (`~mask`) are And/Or/Xor/Not on
bool only: integer bitwise ops need ONNX BitwiseAnd/Or/Xor/Not, which exist from opset 18 on.
isinf/isnan are IsInf/IsNaN (opset 17's IsInf takes no float16, so fp16 input is cast to float32
first, which is exact); isfinite is kept whole as Not(Or(IsInf, IsNaN)).
"""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter, op_name
from ..samples import binary_shapes, fn_sample, tied_ints, with_specials
from ._args import tensor_val
from ._dtypes import FLOATS, INTS
from ._emit import cast_to, operand
from ._operands import numeric_operands

aten = torch.ops.aten

# Comparisons and predicates: float (or int) operands in, bool out.
_FLOAT_OR_BOOL = (*FLOATS, torch.bool)
_NUMERIC_OR_BOOL = (*_FLOAT_OR_BOOL, *INTS)


def _comparison(onnx_op: str, name: str, fn: object, negate: bool = False) -> None:
    tensor_target = getattr(aten, name).Tensor
    scalar_target = getattr(aten, name).Scalar
    samples = [
        *(fn_sample(f"{name}_{n}", fn, a, b) for n, a, b in binary_shapes()),
        fn_sample(f"{name}_scalar", lambda x: fn(x, 0.25), (3, 1, 4)),  # type: ignore[operator]
        fn_sample(f"{name}_int64", fn, (2, 3), (1, 3), inputs=tied_ints),
        fn_sample(f"{name}_int_scalar", lambda x: fn(x.int(), 2), (4, 1, 2), inputs=tied_ints),  # type: ignore[operator]
    ]

    def supported(node: Node) -> str | None:
        """float or int32/int64 operands of one dtype; integral scalars with int tensors."""
        return numeric_operands(node)

    @converter(
        tensor_target,
        scalar_target,
        onnx=[onnx_op, "Not"] if negate else [onnx_op],
        supports=supported,
        dtypes=_NUMERIC_OR_BOOL,
        samples=samples,
    )
    def convert(ctx: LoweringContext, node: Node) -> None:
        inputs = [ctx.value(node.args[0]), operand(ctx, node, 1, "other")]
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
        for n, a, b in binary_shapes()
    ]

    @converter(target, onnx=[onnx_op], dtypes=(torch.bool,), samples=samples)
    def convert(ctx: LoweringContext, node: Node) -> None:
        ctx.emit(onnx_op, [ctx.value(node.args[0]), ctx.value(node.args[1])], node)


_logical("And", aten.logical_and.default, torch.logical_and, "logical_and")
_logical("Or", aten.logical_or.default, torch.logical_or, "logical_or")
_logical("Xor", aten.logical_xor.default, torch.logical_xor, "logical_xor")


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
# integers are refused (bitwise_and/or/xor below use the same two).
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


def _bools(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    return torch.rand(shape_, generator=gen) < 0.5


def _bitwise(onnx_op: str, name: str, op: object) -> None:
    samples = [
        *(
            fn_sample(f"bitwise_{name}_{n}", lambda x, y: op(x > 0, y < 0.5), a, b)  # type: ignore[operator]
            for n, a, b in binary_shapes()
        ),
        fn_sample(f"bitwise_{name}_bool_inputs", op, (2, 4), (4,), inputs=_bools),
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


def _where_supported(node: Node) -> str | None:
    """bool condition, value operands of one dtype, or of two float dtypes (PyTorch promotes
    them to the wider one, so each is cast to the result's dtype, exactly)."""
    if tensor_val(node.args[0]).dtype != torch.bool:
        return "where condition must be bool"
    a, b = (tensor_val(v).dtype for v in node.args[1:3])
    if a == b or (a in FLOATS and b in FLOATS and tensor_val(node).dtype in FLOATS):
        return None
    return f"where operands of different dtypes {a}, {b}"


@converter(
    aten.where.self,
    onnx=["Where"],
    supports=_where_supported,
    dtypes=_FLOAT_OR_BOOL,
    samples=[
        fn_sample("where_same", lambda x, y: torch.where(x > 0, x, y), (2, 3), (2, 3)),
        fn_sample("where_broadcast", lambda x, y: torch.where(y > 0, x, -x), (2, 3, 4), (4,)),
        fn_sample("masked_fill", lambda x: x.masked_fill(x > 0.3, -1.5), (3, 1, 5)),
        # Phi-3's longrope: where(long, float32 factors, float16 buffer) in a float16 model;
        # the float16 operand is promoted to float32, as PyTorch does.
        fn_sample("where_mixed_floats", lambda x, y: torch.where(x > 0, x.half(), y), (2, 3), (3,)),
        fn_sample(
            "masked_fill_mask",
            lambda x, m: x.masked_fill(m < 0, -1e4) * 2,
            (2, 4, 4),
            (1, 4, 4),
        ),
    ],
)
def where(ctx: LoweringContext, node: Node) -> None:
    out = tensor_val(node).dtype
    values = [cast_to(ctx, v, out) for v in node.args[1:3]]  # no Cast when they agree
    ctx.emit("Where", [ctx.value(node.args[0]), *values], node)


def _float_input(node: Node) -> str | None:
    """float32 or float16 input (the result is bool)."""
    dtype = tensor_val(node.args[0]).dtype
    return None if dtype in FLOATS else f"{op_name(node)} of a {dtype} tensor is not lowered"


def _float32(ctx: LoweringContext, x: object) -> str:
    """x as float32: opset 17's IsInf takes float and double only (float16 from opset 20)."""
    return cast_to(ctx, x, torch.float32)  # half -> float is exact


@converter(
    aten.isinf.default,
    onnx=["IsInf", "Cast"],
    supports=_float_input,
    dtypes=_FLOAT_OR_BOOL,
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
    dtypes=_FLOAT_OR_BOOL,
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
    dtypes=_FLOAT_OR_BOOL,
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
