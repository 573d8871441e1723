# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Activations -> Relu, Sigmoid, Tanh, LeakyRelu, Elu, Clip, or a short chain of ONNX ops.

Gelu is not in CANN's ONNX parser table, so it becomes Erf (exact) or Tanh (approximate) with
Mul/Add; clamp/hardtanh/relu6 (and hardswish/hardsigmoid, which decompose into clamp) become Clip
with constant bounds. Constants take the input's dtype, so the same chain serves float32 and
float16.
"""

from __future__ import annotations

import math

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import UNARY_SHAPES, fn_sample
from ._args import arg
from ._dtypes import FLOATS
from ._emit import const_like, unary

aten = torch.ops.aten
F = torch.nn.functional


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


unary("Sigmoid", aten.sigmoid.default, torch.sigmoid, *UNARY_SHAPES)
unary("Tanh", aten.tanh.default, torch.tanh, *UNARY_SHAPES)


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
    return None if value is None else float(value)


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
    lo = float(arg(node, 1, "min_val", -1.0))
    hi = float(arg(node, 2, "max_val", 1.0))
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
    alpha = float(arg(node, 1, "negative_slope", 0.01))
    ctx.emit("LeakyRelu", [ctx.value(node.args[0])], node, alpha=alpha)


def _elu_supported(node: Node) -> str | None:
    """scale and input_scale are 1 (plain ELU)."""
    if float(arg(node, 2, "scale", 1)) != 1.0 or float(arg(node, 3, "input_scale", 1)) != 1.0:
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
    alpha = float(arg(node, 1, "alpha", 1.0))
    ctx.emit("Elu", [ctx.value(node.args[0])], node, alpha=alpha)
