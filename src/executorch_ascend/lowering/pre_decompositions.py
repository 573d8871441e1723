# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Adaptive max pooling (1-D to 3-D), decomposed before to_edge so that its models export.

`aten.adaptive_max_pool1d/2d/3d` return (values, indices), are not core ATen and have no ATen
decomposition, so to_edge refuses them; and to_edge_transform_and_lower cannot keep them whole for
a converter either (ExecuTorch 1.5's `_remove_invalid_ops_for_not_decompose` reads a two-tensor
return as an aliased one and drops the request). CANN's parser registers AdaptiveMaxPool2d for
opsets 8-16 only (cann_op_facts.json), so it could not be emitted anyway.

Where no node reads the indices, AscendPartitioner's pre-decomposition step rewrites the values
into core ATen ops, which the registry lowers (amax -> ReduceMax, slice_copy, cat, view_copy) and
ExecuTorch's portable kernels run where they are not delegated. Max is separable, so each spatial
axis is pooled on its own: PyTorch's window i of an axis of size I pooled to O is
[floor(i * I / O), ceil((i + 1) * I / O)); O == 1 is one amax over the axis, O dividing I an
unflatten to (O, I / O) and an amax, any other O one amax per window, concatenated.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import torch
from torch.export import ExportedProgram

from .whole_ops import retrace_with_decompositions

aten = torch.ops.aten

ADAPTIVE_MAX_POOLS = (
    aten.adaptive_max_pool1d.default,  # export keeps AdaptiveMaxPool1d as its own op
    aten.adaptive_max_pool2d.default,
    aten.adaptive_max_pool3d.default,
)


def adaptive_max_values(x: torch.Tensor, output_size: Sequence[int]) -> torch.Tensor:
    """PyTorch's adaptive max pooling values, in core ATen ops."""
    values = x
    for axis, out in enumerate(output_size, start=x.dim() - len(output_size)):
        size = values.shape[axis]
        if out == size:
            continue
        if out == 1:
            values = values.amax(axis, keepdim=True)
        elif size % out == 0:
            values = values.unflatten(axis, (out, size // out)).amax(axis + 1)
        else:
            windows = [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]
            parts = [
                values.narrow(axis, lo, hi - lo).amax(axis, keepdim=True) for lo, hi in windows
            ]
            values = torch.cat(parts, axis)
    return values


def _values_only(x: torch.Tensor, output_size: Sequence[int]) -> tuple[torch.Tensor, torch.Tensor]:
    values = adaptive_max_values(x, output_size)
    # Never read: the rewrite runs only where no node reads the indices (the export drops it).
    return values, torch.zeros(values.shape, dtype=torch.int64, device=values.device)


def _indices_read(program: ExportedProgram) -> bool:
    for node in program.graph.nodes:
        if node.op == "call_function" and node.target in ADAPTIVE_MAX_POOLS:
            for user in node.users:
                if user.target is not operator.getitem or (user.args[1] != 0 and user.users):
                    return True
    return False


def decompose_adaptive_max_pools(program: ExportedProgram) -> ExportedProgram:
    """`program` with its adaptive max pools in core ATen ops; unchanged when it has none, or
    when a node reads their indices (the export then fails as without this backend)."""
    present = any(
        n.op == "call_function" and n.target in ADAPTIVE_MAX_POOLS for n in program.graph.nodes
    )
    if not present or _indices_read(program):
        return program
    return retrace_with_decompositions(program, dict.fromkeys(ADAPTIVE_MAX_POOLS, _values_only))
