# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Ops kept whole through to_edge must re-trace in the graph they sit in.

`to_edge_transform_and_lower` traces the graph several times: it functionalises it, decomposes
everything but the kept ops, then swaps each kept op for a placeholder op and traces again. A
`view` after a kept op is valid only for the output layout of the trace that recorded it, and that
layout is not stable: `scaled_dot_product_attention` on transposed q/k/v (how every transformers
family calls it) comes back laid out like q from PyTorch's flash kernel, contiguous from its math
kernel (taken with a mask) and contiguous from the placeholder. The model's
`out.transpose(1, 2).reshape(...)` is recorded as a `view` in one trace and fails in the next:
lowering crashes.

The fix is to make every trace agree: a contiguous `clone` right after such a kept op, so what
follows always sees a contiguous tensor, whatever the op returned (a reshape after it becomes the
same copy-and-view in every trace). Values never change, and inside an Ascend partition the clone
lowers to nothing (ONNX values have no layout). It goes after the ops whose converter says their
layout varies (`layout_varies`), and after any other kept op whose recorded output is not
contiguous (the placeholder's would be).
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch.export import ExportedProgram
from torch.fx import Node

from .registry import lookup

aten = torch.ops.aten


def needs_contiguous_copy(node: Node) -> bool:
    """Whether `node`, if kept whole, needs a contiguous clone after it to re-trace safely."""
    conv = lookup(node)
    if conv is None or not conv.keep_whole:
        return False
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor):
        return False
    return conv.layout_varies or not val.is_contiguous()


def _already_contiguous_copy(node: Node) -> bool:
    users = list(node.users)
    return (
        len(users) == 1
        and users[0].target is aten.clone.default
        and users[0].kwargs.get("memory_format") is torch.contiguous_format
    )


def make_kept_outputs_contiguous(
    program: ExportedProgram, kept: Callable[[Node], bool]
) -> list[str]:
    """Inserts `clone(memory_format=contiguous)` after every op that will be kept whole (`kept`)
    and needs it. Returns the names of those ops (also those a previous run fixed: running it
    twice changes nothing more)."""
    graph = program.graph_module.graph
    fixed: list[str] = []
    changed = False
    for node in list(graph.nodes):
        if node.op != "call_function" or not needs_contiguous_copy(node):
            continue
        if not kept(node):
            continue
        fixed.append(node.name)
        if _already_contiguous_copy(node):
            continue  # a second lowering or explain of the same program
        with graph.inserting_after(node):
            copy = graph.call_function(
                aten.clone.default, (node,), {"memory_format": torch.contiguous_format}
            )
        node.replace_all_uses_with(copy, delete_user_cb=lambda user, copy=copy: user is not copy)
        copy.meta.update(node.meta)
        copy.meta["val"] = node.meta["val"].clone(memory_format=torch.contiguous_format)
        changed = True
    if changed:
        program.graph_module.recompile()
    return fixed


def retrace_with_decompositions(
    program: ExportedProgram, table: dict[torch._ops.OperatorBase, Callable]
) -> ExportedProgram:
    """`program.run_decompositions(table)` after the contiguous copies above: that re-trace meets
    the same varying layouts as to_edge's (transformers' `attn.transpose(1, 2).reshape(...)` after
    an SDPA), so the copies go in first, after every op that needs one whether or not the
    partitioner keeps it (a copy of a CPU op's output changes no value). Every rewrite before
    to_edge that re-traces goes through here."""
    make_kept_outputs_contiguous(program, lambda node: True)
    return program.run_decompositions(table)
