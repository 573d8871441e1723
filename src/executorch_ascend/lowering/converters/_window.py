# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Kernel windows, shared by conv and pool: reading them from a node, ONNX's pads and output
sizes, CANN's window limits."""

from __future__ import annotations

import math
from collections.abc import Sequence

from torch.fx import Node

from ...cann_op_facts import WINDOW_LIMITS
from ._args import arg, ints, rank, shape


def onnx_pads(padding: Sequence[int]) -> list[int]:
    # ONNX pads are [begin_1, .., begin_n, end_1, .., end_n]; PyTorch pads symmetrically.
    return [*padding, *padding]


def cann_window_limits(
    k: Sequence[int], s: Sequence[int], d: Sequence[int], p: Sequence[int], width: int
) -> str | None:
    """CANN's Conv/pool window limits (cann_op_facts.json, window_limits); `width` is the last
    input dim (1-D runs as H = 1)."""
    for key, what, values in (
        ("kernel", "kernel", k),
        ("stride", "stride", s),
        ("dilation", "dilation", d),
        ("pad", "padding", p),
    ):
        lo, hi = WINDOW_LIMITS[key]
        if not all(lo <= v <= hi for v in values):
            return f"{what} {list(values)} outside CANN's [{lo}, {hi}]"
    lo, hi = WINDOW_LIMITS["input_width"]
    if not lo <= width <= hi:
        return f"input width {width} outside CANN's [{lo}, {hi}]"
    return None


# CANN's AveragePool runs kernels with more elements on AI CPU; its 2-D MaxPool too, losing
# ceil_mode on the way.
_AVG_KERNEL_ELEMENTS: int = WINDOW_LIMITS["average_pool_window_elements"]
MAX_POOL_2D_WINDOW_ELEMENTS: int = WINDOW_LIMITS["max_pool_2d_window_elements"]


def _onnx_pool_out(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    # The ONNX spec's output size, without PyTorch's rule that drops a last window starting in the
    # padding. A node is only lowered when both agree, so either implementation gives torch's shape.
    span = size + 2 * p - d * (k - 1) - 1
    return (math.ceil if ceil_mode else math.floor)(span / s) + 1


def pool_shape_matches(
    node: Node, k: list[int], s: list[int], p: list[int], d: list[int], ceil: bool
) -> str | None:
    in_hw = shape(node.args[0])[2:]
    out_hw = shape(node)[2:]
    expect = [_onnx_pool_out(in_hw[i], k[i], s[i], p[i], d[i], ceil) for i in range(len(k))]
    if expect != out_hw:
        return f"ceil_mode window rule differs between PyTorch ({out_hw}) and ONNX ({expect})"
    return None


def avg_kernel_limit(k: list[int]) -> str | None:
    # CANN documents kH*kW; for 3-D the whole window is counted, the conservative reading.
    if math.prod(k) > _AVG_KERNEL_ELEMENTS:
        return f"kernel {k} has more than {_AVG_KERNEL_ELEMENTS} elements (CANN AveragePool)"
    return None


def spatial_rank(node: Node) -> int:
    return rank(node.args[0]) - 2


def pool_window(node: Node) -> tuple[list[int], list[int], list[int]]:
    n = spatial_rank(node)
    k = ints(node.args[1], n)
    stride = arg(node, 2, "stride", [])
    s = ints(stride, n) if stride else list(k)
    p = ints(arg(node, 3, "padding", 0), n)
    return k, s, p


def input_width(node: Node) -> int:
    return shape(node.args[0])[-1]


def check_pool_rank(node: Node, n: int, what: str) -> str | None:
    layout = {2: "4-D NCHW", 3: "5-D NCDHW"}[n]
    if spatial_rank(node) != n:
        return f"only {layout} {what} is lowered by this converter"
    return None
