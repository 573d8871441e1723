# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Slicing and tiling -> Slice, Gather, Tile (float, int32/int64 and bool alike): slice_copy,
select_copy (one index: a Gather of a constant position) and repeat.

Shapes are static, so every repeat/start/end operand is an int64 initializer computed here.
CANN's Slice (StridedSliceV2) does not take rank-1 input and needs step 1 on the last axis;
rank-1 slices run as rank 2 through a Reshape, a last-axis step other than 1 is a Gather of the
constant positions.
CANN's Gather does not take negative indices, so select's index is normalized here.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, ints
from ._args import arg, norm_dim, rank, shape, slice_range
from ._dtypes import MOVABLE

aten = torch.ops.aten


@converter(
    aten.repeat.default,
    onnx=["Tile", "Reshape"],
    dtypes=MOVABLE,
    samples=[
        fn_sample("repeat_same_rank", lambda x: x.repeat(2, 1, 3), (2, 3, 1)),
        fn_sample("repeat_more_dims", lambda x: x.repeat(2, 1, 2), (3, 4)),
        fn_sample("repeat_ones", lambda x: x.repeat(1, 1) * 2, (3, 2)),
        fn_sample("repeat_int64", lambda x: x.repeat(1, 3), (2, 2), inputs=ints),
    ],
)
def repeat(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    repeats = [int(r) for r in node.args[1]]
    xv = ctx.value(x)
    extra = len(repeats) - rank(x)
    if extra > 0:
        # PyTorch treats missing leading dims as size 1; Tile needs equal ranks.
        xv = ctx.tmp("Reshape", [xv, ctx.int64s([1] * extra + shape(x))])
    ctx.emit("Tile", [xv, ctx.int64s(repeats)], node)


def _slice_bounds(node: Node) -> tuple[int, int, int, int]:
    dims = shape(node.args[0])
    dim = norm_dim(int(arg(node, 1, "dim", 0)), len(dims))
    start, end = slice_range(dims[dim], arg(node, 2, "start"), arg(node, 3, "end"))
    return dim, start, end, int(arg(node, 4, "step", 1))


def _slice_supported(node: Node) -> str | None:
    """int bounds. CANN's Slice (StridedSliceV2) needs step 1 on the last axis, so a last-axis
    step (GPT-J's rotary `x[..., ::2]`) becomes a Gather of the constant positions."""
    for i, name in ((2, "start"), (3, "end"), (4, "step")):
        v = arg(node, i, name)
        if v is not None and not isinstance(v, int):
            return f"slice {name} {v!r} is not a constant int"
    return None


def _last_axis_step(node: Node, dim: int, step: int) -> bool:
    return step != 1 and dim == rank(node.args[0]) - 1 and rank(node.args[0]) > 1


@converter(
    aten.slice_copy.Tensor,
    onnx=["Slice", "Reshape", "Gather"],
    supports=_slice_supported,
    dtypes=MOVABLE,
    samples=[
        fn_sample("slice_middle", lambda x: x[:, 1:3], (2, 5, 3)),
        fn_sample("slice_step", lambda x: x[1::2], (7, 3)),
        fn_sample("slice_negative", lambda x: x[:, -3:-1, :], (2, 4, 3)),
        fn_sample("slice_1d", lambda x: x[2:] * 2, (6,)),
        fn_sample("slice_last_axis", lambda x: x[..., :2], (1, 3, 4)),
        fn_sample("slice_int64", lambda x: x[1:3], (4, 1, 3), inputs=ints),
        fn_sample("slice_int32_1d", lambda x: x.int()[1:], (5,), inputs=ints),
        fn_sample("slice_bool", lambda x: (x > 0)[:, 2:], (2, 5)),
        fn_sample("slice_last_axis_step", lambda x: x[..., ::2] - x[..., 1::2], (2, 3, 8)),
        fn_sample("slice_last_axis_step3", lambda x: x[:, 1:7:3], (4, 9), inputs=ints),
    ],
)
def slice_(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    dim, start, end, step = _slice_bounds(node)
    xv = ctx.value(x)
    if _last_axis_step(node, dim, step):
        positions = ctx.builder.add_initializer(
            torch.arange(start, end, step, dtype=torch.int64).numpy(), "positions"
        )
        ctx.emit("Gather", [xv, positions], node, axis=dim)
        return
    if rank(x) == 1:
        flat = ctx.tmp("Reshape", [xv, ctx.int64s([1, shape(x)[0]])])
        sliced = ctx.tmp(
            "Slice",
            [flat, ctx.int64s([start]), ctx.int64s([end]), ctx.int64s([1]), ctx.int64s([step])],
        )
        ctx.emit("Reshape", [sliced, ctx.int64s(shape(node))], node)
        return
    ctx.emit(
        "Slice",
        [xv, ctx.int64s([start]), ctx.int64s([end]), ctx.int64s([dim]), ctx.int64s([step])],
        node,
    )


@converter(
    aten.select_copy.int,
    onnx=["Gather"],
    dtypes=MOVABLE,
    samples=[
        fn_sample("select_dim1", lambda x: x[:, 1], (2, 3, 4)),
        fn_sample("select_negative", lambda x: x[..., -1], (3, 5)),
        fn_sample("select_1d", lambda x: x[2] * x, (4,)),
        fn_sample("select_int64", lambda x: x[:, 0], (3, 2, 1), inputs=ints),
    ],
)
def select(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    dims = shape(x)
    dim = norm_dim(int(node.args[1]), len(dims))
    index = int(node.args[2])
    index = index + dims[dim] if index < 0 else index
    idx = ctx.builder.add_initializer(torch.tensor(index, dtype=torch.int64).numpy(), "index")
    ctx.emit("Gather", [ctx.value(x), idx], node, axis=dim)
