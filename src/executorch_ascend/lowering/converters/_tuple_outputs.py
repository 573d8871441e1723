# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Ops that return a tuple of which only element 0 is lowered (max_pool2d_with_indices' values,
batch/layer/group norm's output), and those whose every element is (split, topk, sort). Their
converters write straight into the `getitem` users."""

from __future__ import annotations

import operator
from collections.abc import Sequence

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..targets import aten_target

aten = torch.ops.aten

FIRST_OUTPUT_OPS = (
    aten.max_pool2d_with_indices.default,
    aten.max_pool3d_with_indices.default,
    aten._native_batch_norm_legit_no_training.default,
    aten._native_batch_norm_legit.no_stats,
    aten.native_layer_norm.default,
    aten.native_group_norm.default,
    aten._embedding_bag.default,
)


def only_first_output_used(node: Node) -> bool:
    return all(u.target is operator.getitem and u.args[1] == 0 for u in node.users)


def first_output_name(ctx: LoweringContext, node: Node) -> str:
    """The name for element 0: the first getitem user's name; the tuple node aliases it."""
    users = [u for u in node.users if u.target is operator.getitem]
    name = ctx.out(users[0]) if users else ctx.builder.fresh("unused")
    ctx.bind(node, name)
    return name


def emit_first_output(
    ctx: LoweringContext, node: Node, op_type: str, inputs: Sequence[str], **attrs: object
) -> None:
    ctx.builder.add_node(op_type, inputs, [first_output_name(ctx, node)], **attrs)


# Ops whose every output is lowered (each getitem user gets its own ONNX output): split's parts,
# topk's, sort's and max/min(dim)'s values and indices.
ALL_OUTPUT_OPS = (
    aten.split_with_sizes_copy.default,
    aten.topk.default,
    aten.sort.default,
    aten.max.dim,
    aten.min.dim,
)


def _getitem_supported(node: Node) -> str | None:
    """an output of a lowered multi-output op (only output 0 of those with saved statistics)."""
    source = node.args[0]
    if isinstance(source, Node) and aten_target(source.target) in ALL_OUTPUT_OPS:
        return None
    if not isinstance(source, Node) or aten_target(source.target) not in FIRST_OUTPUT_OPS:
        return "getitem of an op without a lowered multi-output form"
    if node.args[1] != 0:
        return "only output 0 of a multi-output op is lowered"
    return None


@converter(
    operator.getitem,
    onnx=["Identity"],
    supports=_getitem_supported,
    # Split's parts may be integer or bool; the FIRST_OUTPUT_OPS' own converters take floats only.
    dtypes=(torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.bool),
)
def getitem(ctx: LoweringContext, node: Node) -> None:
    # The tuple op already wrote its first getitem user; any further user aliases that value.
    if not ctx.has_value(node):
        ctx.emit("Identity", [ctx.value(node.args[0])], node)
