# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Unary math -> Abs, Neg, Exp, Log, Sqrt, Reciprocal, Erf, Sin, Cos, Floor, Ceil, Round, Sign,
or a short chain of them.

rsqrt becomes Sqrt + Reciprocal; log2/log10 are Log times a constant, log1p is Log(1 + x), and
trunc (no ONNX Trunc) is sign(x) * floor(|x|); a bfloat16 Round is computed in float32.
Constants take the input's dtype, so the same chain serves float32 and float16.
"""

from __future__ import annotations

import math

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import UNARY_SHAPES, away_from_integers, fn_sample, positive
from ._dtypes import FLOATS
from ._emit import const_like, emit_trunc, unary

aten = torch.ops.aten

unary("Abs", aten.abs.default, torch.abs, *UNARY_SHAPES)
unary("Neg", aten.neg.default, lambda x: -(x * 2), *UNARY_SHAPES)
unary("Exp", aten.exp.default, torch.exp, *UNARY_SHAPES)
unary("Log", aten.log.default, torch.log, *UNARY_SHAPES, inputs=positive)
unary("Sqrt", aten.sqrt.default, torch.sqrt, *UNARY_SHAPES, inputs=positive)
unary("Reciprocal", aten.reciprocal.default, torch.reciprocal, *UNARY_SHAPES, inputs=positive)
unary("Erf", aten.erf.default, torch.erf, *UNARY_SHAPES)
unary("Sin", aten.sin.default, torch.sin, *UNARY_SHAPES)
unary("Cos", aten.cos.default, torch.cos, *UNARY_SHAPES)
unary("Floor", aten.floor.default, torch.floor, *UNARY_SHAPES, inputs=away_from_integers)
unary("Ceil", aten.ceil.default, torch.ceil, *UNARY_SHAPES, inputs=away_from_integers)


@converter(
    aten.round.default,
    onnx=["Round", "Cast"],
    dtypes=FLOATS,
    bf16_in_float32=["Round"],
    samples=[
        fn_sample(f"round_{'x'.join(map(str, s))}", torch.round, s, inputs=away_from_integers)
        for s in UNARY_SHAPES
    ],
)
def round_(ctx: LoweringContext, node: Node) -> None:
    # Opset 17's Round has no bfloat16 (opset 22 adds it). Rounding in float32 is exact: a
    # bfloat16 of magnitude 128 or more is an integer already, and any smaller integer (or 128)
    # is a bfloat16, so the cast back loses nothing.
    ctx.emit_in_float32("Round", [node.args[0]], node)


unary("Sign", aten.sign.default, lambda x: torch.sign(torch.round(x)), (9,), (2, 3, 4))


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


def _scaled_log(name: str, target: object, fn: object, scale: float) -> None:
    """log_b(x) = ln(x) * (1 / ln b): one Log and one Mul by a constant of the input's dtype."""
    samples = [
        fn_sample(f"{name}_1d", fn, (7,), inputs=positive),
        fn_sample(f"{name}_3d", fn, (2, 3, 4), inputs=positive),
        fn_sample(f"{name}_size1", fn, (1, 3, 1, 5), inputs=positive),
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
    emit_trunc(ctx, ctx.value(node.args[0]), node)
