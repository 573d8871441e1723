# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Upsampling -> Resize.

CANN runs nearest Resize as round_prefer_ceil whatever nearest_mode says; PyTorch's nearest is
floor(dst * in / out). For integer upscale factors half_pixel coordinates land strictly inside
(q - 0.5, q + 0.5) of the floor source index q, so every rounding mode picks q: only those are
lowered, with attributes that mean the same under both readings.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, rank, shape
from ._dtypes import FLOATS

aten = torch.ops.aten
F = torch.nn.functional


def _emit_resize(ctx: LoweringContext, node: Node, **attrs: object) -> None:
    # Opset 17 Resize: X, roi (unused), scales (unused), sizes (the static output shape).
    # CANN's Resize has no bfloat16 (cann_op_facts): a bfloat16 upsampling computes in float32,
    # as eager PyTorch does on the CPU, and casts back (nearest copies values: exact).
    sizes = ctx.int64s(shape(node))
    ctx.emit_in_float32("Resize", [node.args[0], "", "", sizes], node, **attrs)


def _nearest_supported(node: Node) -> str | None:
    """4-D; output H and W are integer multiples of the input's (CANN rounds nearest up)."""
    if rank(node.args[0]) != 4:
        return "nearest upsampling of a non-4-D tensor"
    ins, outs = shape(node.args[0])[2:], shape(node)[2:]
    if any(o % i for i, o in zip(ins, outs, strict=True)):
        return f"non-integer nearest scale {ins} -> {outs}"
    return None


@converter(
    aten.upsample_nearest2d.vec,
    onnx=["Resize", "Cast"],
    bf16_in_float32=["Resize"],
    supports=_nearest_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("upsample_nearest_x2", lambda x: F.interpolate(x, scale_factor=2), (1, 2, 3, 4)),
        fn_sample("upsample_nearest_size", lambda x: F.interpolate(x, size=(3, 8)), (2, 1, 1, 2)),
        fn_sample(
            "upsample_nearest_x3_1", lambda x: F.interpolate(x, scale_factor=(3, 1)), (1, 3, 2, 2)
        ),
    ],
)
def upsample_nearest(ctx: LoweringContext, node: Node) -> None:
    _emit_resize(
        ctx,
        node,
        mode="nearest",
        coordinate_transformation_mode="half_pixel",
        nearest_mode="round_prefer_ceil",
    )


def _bilinear_supported(node: Node) -> str | None:
    """4-D input."""
    return None if rank(node.args[0]) == 4 else "bilinear upsampling of a non-4-D tensor"


@converter(
    aten.upsample_bilinear2d.vec,
    onnx=["Resize", "Cast"],
    bf16_in_float32=["Resize"],
    supports=_bilinear_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample(
            "upsample_bilinear_x2",
            lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"),
            (1, 2, 3, 4),
        ),
        fn_sample(
            "upsample_bilinear_size",
            lambda x: F.interpolate(x, size=(5, 7), mode="bilinear"),
            (2, 1, 3, 3),
        ),
        fn_sample(
            "upsample_bilinear_align",
            lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
            (1, 3, 2, 3),
        ),
    ],
)
def upsample_bilinear(ctx: LoweringContext, node: Node) -> None:
    align = bool(arg(node, 2, "align_corners", False))
    # PyTorch's align_corners=False is ONNX's pytorch_half_pixel (half_pixel, but size-1 outputs
    # sample 0).
    _emit_resize(
        ctx,
        node,
        mode="linear",
        coordinate_transformation_mode="align_corners" if align else "pytorch_half_pixel",
    )
