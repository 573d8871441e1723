# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Grid sampling -> GridSample.

F.grid_sample on a 4-D input reaches the edge graph as aten.grid_sampler_2d(input, grid,
interpolation_mode, padding_mode, align_corners), the modes as PyTorch's enum values. ONNX's
GridSample (opset 16-19) is defined as PyTorch's op, and CANN's parser registers it for opsets 11
and 16-18 as GridSampler2D, 4-D, float16/float32, bilinear or nearest (no bicubic), zeros, border
or reflection padding (cann-onnx-ops reference; cann_op_facts.json). Its plugin reads `mode` and
`padding_mode` only when they are present (an absent one reaches GridSampler2D as an empty
string), so every attribute is written out.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import rank, tensor_val
from ._dtypes import FLOATS

aten = torch.ops.aten

# PyTorch's GridSamplerInterpolation and GridSamplerPadding enums (ATen GridSampler.h).
_MODES = {0: "bilinear", 1: "nearest"}  # 2 is bicubic, which CANN's GridSample lacks
_PADDINGS = {0: "zeros", 1: "border", 2: "reflection"}


def _grid_sample_supported(node: Node) -> str | None:
    """4-D input; bilinear or nearest (CANN's GridSample has no bicubic); grid of the input's
    dtype."""
    if rank(node.args[0]) != 4:
        return "grid sampling of a non-4-D input (CANN's GridSample is 2-D only)"
    mode = int(node.args[2])
    if mode not in _MODES:
        return "bicubic grid sampling (CANN's GridSample documents bilinear and nearest only)"
    if int(node.args[3]) not in _PADDINGS:
        return f"unknown padding mode {node.args[3]}"
    if tensor_val(node.args[1]).dtype != tensor_val(node.args[0]).dtype:
        return "grid and input of different dtypes (CANN's GridSampler2D takes one)"
    return None


def _sampler(mode: str, padding: str, align: bool) -> Callable[..., torch.Tensor]:
    return lambda x, g: F.grid_sample(x, g, mode=mode, padding_mode=padding, align_corners=align)


# Inputs (1, 3, 5, 6) and a (1, 4, 7, 2) grid: standard-normal grid values fall outside [-1, 1]
# about a third of the time, so every padding mode is exercised.
_SHAPES = ((1, 3, 5, 6), (1, 4, 7, 2))


@converter(
    aten.grid_sampler_2d.default,
    dtypes=FLOATS,
    onnx=["GridSample"],
    supports=_grid_sample_supported,
    samples=[
        fn_sample("grid_bilinear_zeros", _sampler("bilinear", "zeros", False), *_SHAPES),
        fn_sample(
            "grid_bilinear_border_align",
            _sampler("bilinear", "border", True),
            (2, 2, 4, 5),
            (2, 3, 3, 2),
            half=True,
        ),
        fn_sample(
            "grid_bilinear_border", _sampler("bilinear", "border", False), *_SHAPES, half=True
        ),
        fn_sample(
            "grid_bilinear_reflection",
            _sampler("bilinear", "reflection", False),
            *_SHAPES,
            half=True,
        ),
        fn_sample(
            "grid_bilinear_reflection_align",
            _sampler("bilinear", "reflection", True),
            (1, 2, 6, 4),
            (1, 5, 5, 2),
        ),
        fn_sample("grid_bilinear_zeros_align", _sampler("bilinear", "zeros", True), *_SHAPES),
        fn_sample("grid_nearest_zeros", _sampler("nearest", "zeros", False), *_SHAPES, half=True),
        fn_sample("grid_nearest_border_align", _sampler("nearest", "border", True), *_SHAPES),
        fn_sample(
            "grid_nearest_reflection",
            _sampler("nearest", "reflection", False),
            (2, 3, 4, 4),
            (2, 6, 2, 2),
        ),
        fn_sample(
            "grid_nearest_reflection_align_1px",
            _sampler("nearest", "reflection", True),
            (1, 2, 1, 3),
            (1, 2, 4, 2),
        ),
    ],
)
def grid_sampler_2d(ctx: LoweringContext, node: Node) -> None:
    ctx.emit(
        "GridSample",
        [ctx.value(node.args[0]), ctx.value(node.args[1])],
        node,
        mode=_MODES[int(node.args[2])],
        padding_mode=_PADDINGS[int(node.args[3])],
        align_corners=int(bool(node.args[4])),
    )
