# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""cat/stack and split/chunk -> Concat, Split (float, int32/int64 and bool alike)."""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, ints
from ._args import arg, norm_dim, rank, tensor_val
from ._dtypes import MOVABLE

aten = torch.ops.aten


def _cat_supported(node: Node) -> str | None:
    """all inputs of one dtype (Concat does not promote)."""
    dtypes = {tensor_val(t).dtype for t in node.args[0]}
    if len(dtypes) > 1:
        return f"cat of different dtypes {sorted(map(str, dtypes))} (needs a Cast)"
    return None


@converter(
    aten.cat.default,
    onnx=["Concat"],
    dtypes=MOVABLE,
    supports=_cat_supported,
    samples=[
        fn_sample("cat_dim1", lambda x, y: torch.cat([x, y], 1), (2, 3), (2, 5)),
        fn_sample(
            "cat_neg_dim", lambda x, y, z: torch.cat([x, y, z], -1), (2, 2, 1), (2, 2, 3), (2, 2, 2)
        ),
        fn_sample("cat_dim0_4d", lambda x, y: torch.cat([x, y]), (1, 3, 2, 2), (2, 3, 2, 2)),
        fn_sample("cat_int64", lambda x, y: torch.cat([x, y], 1), (2, 1), (2, 3), inputs=ints),
        fn_sample("stack", lambda x, y: torch.stack([x, y]), (3, 4), (3, 4)),
        fn_sample("stack_last", lambda x, y, z: torch.stack([x, y, z], -1), (2, 1), (2, 1), (2, 1)),
        fn_sample("stack_int64", lambda x, y: torch.stack([x, y], 1), (3,), (3,), inputs=ints),
        fn_sample("cat_bool", lambda x, y: torch.cat([x > 0, y > 0]), (1, 4), (2, 4)),
    ],
)
def cat(ctx: LoweringContext, node: Node) -> None:
    axis = norm_dim(int(arg(node, 1, "dim", 0)), rank(node))
    ctx.emit("Concat", [ctx.value(t) for t in node.args[0]], node, axis=axis)


def _split_supported(node: Node) -> str | None:
    """every split size >= 1 (CANN)."""
    sizes = [int(s) for s in node.args[1]]
    if any(s < 1 for s in sizes):
        return f"split sizes {sizes} include an empty part"
    return None


@converter(
    aten.split_with_sizes_copy.default,
    onnx=["Split"],
    supports=_split_supported,
    dtypes=MOVABLE,
    samples=[
        fn_sample("split_equal", lambda x: torch.split(x, 2, 1)[1] * 2, (2, 4, 3)),
        fn_sample("chunk_last", lambda x: sum(x.chunk(3, -1)), (2, 6)),
        fn_sample("split_sizes", lambda x: torch.cat(torch.split(x, [1, 3], 0)[::-1], 0), (4, 3)),
        fn_sample("split_int64", lambda x: torch.split(x, [2, 1], 1)[0], (2, 3), inputs=ints),
    ],
)
def split(ctx: LoweringContext, node: Node) -> None:
    sizes = [int(s) for s in node.args[1]]
    axis = norm_dim(int(arg(node, 2, "dim", 0)), rank(node.args[0]))
    # Each part is written straight into its getitem user (fresh names for unused parts).
    users = {int(u.args[1]): u for u in node.users if u.target is operator.getitem}
    outs = [
        ctx.out(users[i]) if i in users else ctx.builder.fresh("unused") for i in range(len(sizes))
    ]
    ctx.builder.add_node("Split", [ctx.value(node.args[0]), ctx.int64s(sizes)], outs, axis=axis)
    ctx.bind(node, outs[0])
