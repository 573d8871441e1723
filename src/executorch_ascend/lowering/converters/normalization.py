# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Inference batch norm -> Mul + Add with per-channel scale and shift folded ahead of time.

In eval mode batch norm is an affine map of constants, so no BatchNormalization op (and none of its
CANN layout limits) is needed: y = x * (w / sqrt(var + eps)) + (b - mean * w / sqrt(var + eps)).
"""

from __future__ import annotations

from typing import cast

import torch
from torch.fx import Node

from ...dtypes import to_numpy
from ..context import LoweringContext, LoweringError
from ..registry import converter
from ..samples import module_sample
from ._args import rank, shape, tensor_val
from ._dtypes import FLOATS
from ._tuple_outputs import first_output_name, only_first_output_used

aten = torch.ops.aten


def _bn_supported(node: Node) -> str | None:
    """inference form, saved statistics unused, input has a channel dim."""
    if not only_first_output_used(node):
        return "batch norm's saved statistics are used"
    if rank(node.args[0]) < 2:
        return "batch norm input must have a channel dimension"
    for i, what in ((1, "weight"), (2, "bias"), (3, "running_mean"), (4, "running_var")):
        operand = node.args[i]
        if operand is not None and not isinstance(operand, Node):
            return f"batch norm {what} is not a tensor"
    return None


@converter(
    aten._native_batch_norm_legit_no_training.default,
    onnx=["Mul", "Add"],
    dtypes=FLOATS,
    supports=_bn_supported,
    samples=[
        module_sample("batchnorm_2d", lambda: _bn(torch.nn.BatchNorm2d(4)), (2, 4, 5, 5)),
        module_sample("batchnorm_1d", lambda: _bn(torch.nn.BatchNorm1d(6)), (3, 6)),
        module_sample(
            "batchnorm_no_affine", lambda: _bn(torch.nn.BatchNorm2d(3, affine=False)), (1, 3, 4, 4)
        ),
    ],
)
def batch_norm(ctx: LoweringContext, node: Node) -> None:
    x, weight, bias, mean, var = node.args[:5]
    eps = float(node.args[6])
    values = {}
    for what, operand in (("weight", weight), ("bias", bias), ("mean", mean), ("var", var)):
        values[what] = ctx.constant(operand) if operand is not None else None
        if operand is not None and values[what] is None:
            raise LoweringError(f"batch norm {what} must be a constant to fold")
    mean_t, var_t = values["mean"], values["var"]
    assert mean_t is not None and var_t is not None
    inv_std = torch.rsqrt(var_t.double() + eps)
    w = values["weight"].double() if values["weight"] is not None else torch.ones_like(inv_std)
    b = values["bias"].double() if values["bias"] is not None else torch.zeros_like(inv_std)
    scale = w * inv_std
    shift = b - mean_t.double() * scale
    # Folded in float64, stored in x's dtype: Mul/Add need both operands of one dtype, and under
    # model.half() that is fp16 (one rounding of the exact fold, not of each statistic).
    dtype = tensor_val(x).dtype
    trailing = (1,) * (rank(x) - 2)
    sources = [weight, bias, mean, var]
    scale_name = ctx.derived_initializer(
        to_numpy(scale.to(dtype).reshape(-1, *trailing)), "bn_scale", sources
    )
    shift_name = ctx.derived_initializer(
        to_numpy(shift.to(dtype).reshape(-1, *trailing)), "bn_shift", sources
    )
    scaled = ctx.tmp("Mul", [ctx.value(x), scale_name])
    ctx.builder.add_node("Add", [scaled, shift_name], [first_output_name(ctx, node)])


def _bn(module: torch.nn.Module) -> torch.nn.Module:
    # Non-trivial running statistics, so the fold is actually exercised; eval mode.
    gen = torch.Generator().manual_seed(1)
    for name in ("running_mean", "running_var"):
        buf = getattr(module, name)
        buf.copy_(torch.rand(buf.shape, generator=gen) + (0.5 if name == "running_var" else -0.5))
    if getattr(module, "weight", None) is not None:
        weight, bias = cast(torch.Tensor, module.weight), cast(torch.Tensor, module.bias)
        with torch.no_grad():
            weight.copy_(torch.rand(weight.shape, generator=gen) + 0.5)
            bias.copy_(torch.randn(bias.shape, generator=gen))
    return module.eval()


def _norm_affine_supported(node: Node, weight_index: int) -> str | None:
    if not only_first_output_used(node):
        return "the saved mean/rstd outputs are used"
    for i in (weight_index, weight_index + 1):
        operand = node.args[i]
        if operand is not None and not isinstance(operand, Node):
            return "weight/bias is not a tensor"
    return None


def _layer_norm_supported(node: Node) -> str | None:
    """mean/rstd outputs unused."""
    return _norm_affine_supported(node, 2)


@converter(
    aten.native_layer_norm.default,
    onnx=["LayerNormalization"],
    dtypes=FLOATS,
    supports=_layer_norm_supported,
    samples=[
        module_sample("layer_norm_last", lambda: _affine(torch.nn.LayerNorm(8)), (2, 3, 8)),
        module_sample(
            "layer_norm_two_dims", lambda: _affine(torch.nn.LayerNorm((3, 4))), (2, 3, 4)
        ),
        module_sample(
            "layer_norm_no_affine",
            lambda: torch.nn.LayerNorm(5, elementwise_affine=False, eps=1e-3),
            (1, 5),
        ),
        module_sample(
            "layer_norm_no_bias", lambda: _affine(torch.nn.LayerNorm(6, bias=False)), (4, 6)
        ),
    ],
)
def layer_norm(ctx: LoweringContext, node: Node) -> None:
    x, normalized_shape, weight, bias, eps = node.args[:5]
    r = rank(x)
    axis = r - len(normalized_shape)
    dtype = tensor_val(x).dtype
    shape = list(normalized_shape)

    def filled(operand: object, fill: float, name: str) -> str:
        if operand is not None:
            return ctx.value(operand)
        return ctx.builder.add_initializer(to_numpy(torch.full(shape, fill, dtype=dtype)), name)

    # ONNX requires Scale (a missing weight is ones). The bias is always given, zeros when
    # missing, in x's dtype: CANN's plugin makes a float32 beta for a 2-input node, which its
    # LayerNorm refuses beside a float16/bfloat16 gamma (docs/using-real-cann.md).
    inputs = [ctx.value(x), filled(weight, 1.0, "ln_scale"), filled(bias, 0.0, "ln_bias")]
    ctx.builder.add_node(
        "LayerNormalization",
        inputs,
        [first_output_name(ctx, node)],
        axis=axis,
        epsilon=float(eps),
    )


def _channel_norm_reason(node: Node, what: str) -> str | None:
    """A norm over a channel dim (1) with optional weight/bias (args 1, 2), statistics unused."""
    if rank(node.args[0]) < 2:
        return f"{what} input must have a channel dimension"
    return _norm_affine_supported(node, 1)


def _group_norm_supported(node: Node) -> str | None:
    """mean/rstd outputs unused; input rank >= 2."""
    return _channel_norm_reason(node, "group norm")


@converter(
    aten.native_group_norm.default,
    onnx=["Reshape", "ReduceMean", "Sub", "Mul", "Add", "Sqrt", "Div"],
    dtypes=FLOATS,
    supports=_group_norm_supported,
    samples=[
        module_sample("group_norm_4d", lambda: _affine(torch.nn.GroupNorm(2, 4)), (2, 4, 3, 3)),
        module_sample("group_norm_3d", lambda: _affine(torch.nn.GroupNorm(3, 6)), (1, 6, 5)),
        module_sample(
            "group_norm_no_affine", lambda: torch.nn.GroupNorm(1, 3, affine=False), (2, 3, 2, 2)
        ),
        module_sample(
            "group_norm_per_channel", lambda: _affine(torch.nn.GroupNorm(4, 4)), (1, 4, 1, 5)
        ),
    ],
)
def group_norm(ctx: LoweringContext, node: Node) -> None:
    # GroupNormalization is not in CANN's parser table: normalize (N, G, C/G * HxW) over its last
    # axis, then restore the shape and apply the per-channel affine. Constants take x's dtype (the
    # binary ops need one dtype); in fp16 the emulator's ReduceMean still accumulates in fp32.
    x, weight, bias = node.args[:3]
    groups, eps = int(node.args[6]), float(node.args[7])
    dims = shape(x)
    dtype = tensor_val(x).dtype
    grouped = ctx.tmp("Reshape", [ctx.value(x), ctx.int64s([dims[0], groups, -1])])
    normalized = _normalized(ctx, grouped, [2], eps, dtype)
    out = ctx.tmp("Reshape", [normalized, ctx.int64s(dims)])
    _channel_affine(ctx, node, out, weight, bias, dims)


def _normalized(
    ctx: LoweringContext, x: str, axes: list[int], eps: float, dtype: torch.dtype
) -> str:
    """(x - mean) / sqrt(biased variance + eps) over `axes`: the ops GroupNorm's and the
    batch-statistics norm's lowerings share (constants in x's dtype)."""
    mean = ctx.tmp("ReduceMean", [x], axes=axes, keepdims=1)
    centered = ctx.tmp("Sub", [x, mean])
    var = ctx.tmp("ReduceMean", [ctx.tmp("Mul", [centered, centered])], axes=axes, keepdims=1)
    std = ctx.tmp("Sqrt", [ctx.tmp("Add", [var, ctx.scalar(eps, dtype)])])
    return ctx.tmp("Div", [centered, std])


def _channel_affine(
    ctx: LoweringContext, node: Node, out: str, weight: object, bias: object, dims: list[int]
) -> None:
    """`out` times the per-channel (dim 1) weight plus the bias, each when given, as the norm
    node's first output."""
    channel_shape = [dims[1]] + [1] * (len(dims) - 2)
    if weight is not None:
        w = ctx.tmp("Reshape", [ctx.value(weight), ctx.int64s(channel_shape)])
        out = ctx.tmp("Mul", [out, w])
    if bias is not None:
        b = ctx.tmp("Reshape", [ctx.value(bias), ctx.int64s(channel_shape)])
        out = ctx.tmp("Add", [out, b])
    ctx.builder.add_node("Identity", [out], [first_output_name(ctx, node)])


def _batch_stats_supported(node: Node) -> str | None:
    """mean/rstd outputs unused; input has a channel dim."""
    return _channel_norm_reason(node, "batch norm")


@converter(
    aten._native_batch_norm_legit.no_stats,
    onnx=["ReduceMean", "Sub", "Mul", "Add", "Sqrt", "Div", "Reshape"],
    dtypes=FLOATS,
    supports=_batch_stats_supported,
    samples=[
        # InstanceNorm without running statistics (its default) exports as this batch norm
        # over the (1, N * C, ...) view of its input.
        module_sample(
            "instance_norm_1d", lambda: _affine(torch.nn.InstanceNorm1d(4, affine=True)), (2, 4, 7)
        ),
        module_sample("instance_norm_2d", lambda: torch.nn.InstanceNorm2d(3), (2, 3, 4, 5)),
    ],
)
def batch_norm_batch_stats(ctx: LoweringContext, node: Node) -> None:
    # Each channel (dim 1) normalized by its own mean and biased variance over every other dim,
    # as LayerNorm's and GroupNorm's decompositions do; constants in x's dtype.
    x, weight, bias = node.args[:3]
    eps = float(node.args[5])
    dims = shape(x)
    dtype = tensor_val(x).dtype
    normalized = _normalized(ctx, ctx.value(x), [0, *range(2, len(dims))], eps, dtype)
    _channel_affine(ctx, node, normalized, weight, bias, dims)


def _affine(module: torch.nn.Module) -> torch.nn.Module:
    # Non-trivial affine parameters, so a dropped weight or bias shows.
    gen = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.randn(p.shape, generator=gen))
    return module
