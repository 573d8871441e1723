# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Index tensors shared by gather and scatter: their normalization and the plan of x[indices].

CANN's Gather does not take negative indices: constant indices are normalized here; graph-input
ones, where PyTorch allows negatives (index, index_put), by Where(Less(i, 0), i + size, i) on the
device. ScatterND's indices get the same treatment (the emulator wraps negatives, CANN's kernels
need not). index_select, embedding, gather and index_copy refuse negative indices in PyTorch, so
their graph-input indices are used as they are. Indices out of range are an error in
PyTorch and undefined here (the emulator's Gather writes zeros).

x[indices] (aten.index.Tensor, and the target of index_put) follows PyTorch's advanced indexing:
the index tensors broadcast to one grid B; if they sit on adjacent dims p..p+k-1 the result is
x.shape[:p] + B + x.shape[p+k:], if a slice (None) separates them the broadcast dims come first,
then the remaining dims in order. A bool-mask index selects a data-dependent number of elements
(torch.export gives the result an unbacked size, even for a constant mask), so it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch.fx import Node

from ..context import LoweringContext
from ._args import shape, tensor_val
from ._emit import cast_to

INDEX_DTYPES = (torch.int64, torch.int32)


def normalized(values: torch.Tensor, size: int) -> torch.Tensor:
    """Constant indices with negatives counted from the end, as int64."""
    return torch.where(values < 0, values + size, values).to(torch.int64)


def _graph_index(ctx: LoweringContext, index: Node, size: int, wrap: bool) -> str:
    """A graph-computed index tensor as int64, with negatives counted from the end if `wrap`."""
    v = cast_to(ctx, index, torch.int64)
    if not wrap:
        return v
    negative = ctx.tmp("Less", [v, ctx.scalar(0, torch.int64)])
    wrapped = ctx.tmp("Add", [v, ctx.scalar(size, torch.int64)])
    return ctx.tmp("Where", [negative, wrapped, v])


def index_value(
    ctx: LoweringContext, index: Node, size: int, wrap: bool = True
) -> torch.Tensor | str:
    """int64 indices, negatives counted from the end: a host tensor when constant, else an ONNX
    value name. `wrap=False`: the op refuses negative indices in PyTorch, so valid graph-computed
    ones never are (constants are normalized all the same, at no cost)."""
    values = ctx.constant(index)
    if values is not None:
        return normalized(values, size)
    return _graph_index(ctx, index, size, wrap)


def as_value(ctx: LoweringContext, index: torch.Tensor | str) -> str:
    if isinstance(index, str):
        return index
    return ctx.builder.add_initializer(index.contiguous().numpy(), "indices")


@dataclass(frozen=True)
class Indexing:
    """Where the index tensors of x[indices] sit and the grid they broadcast to."""

    dims: tuple[int, ...]  # x's shape
    positions: tuple[int, ...]  # the indexed dims of x, ascending
    tensors: tuple[Node, ...]  # one index tensor per indexed dim
    grid: tuple[int, ...]  # their broadcast shape

    @property
    def adjacent(self) -> bool:
        p = self.positions[0]
        return self.positions == tuple(range(p, p + len(self.positions)))

    @property
    def rest(self) -> list[int]:
        """The dims no index tensor touches, in order."""
        return [d for d in range(len(self.dims)) if d not in self.positions]

    def result_shape(self) -> list[int]:
        """The shape of x[indices] in PyTorch."""
        if self.adjacent:
            p, k = self.positions[0], len(self.positions)
            return [*self.dims[:p], *self.grid, *self.dims[p + k :]]
        return [*self.grid, *(self.dims[d] for d in self.rest)]


def indexing_plan(x: object, indices: object) -> Indexing | str:
    """The indexing plan for x[indices], or why it cannot be lowered."""
    if not isinstance(x, Node):
        return f"indexed value {x!r} is not a tensor"
    if not isinstance(indices, (list, tuple)):
        return f"indices {indices!r} are not a list"
    dims = tuple(shape(x))
    if len(indices) > len(dims):
        return f"{len(indices)} indices for a rank-{len(dims)} input"
    positions: list[int] = []
    tensors: list[Node] = []
    for j, index in enumerate(indices):
        if index is None:
            continue
        if not isinstance(index, Node):
            return f"index {index!r} is not a tensor"
        dtype = tensor_val(index).dtype
        if dtype in (torch.bool, torch.uint8):
            return (
                "a bool-mask index selects a data-dependent number of elements (its result "
                "shape is not static, even for a constant mask)"
            )
        if dtype not in INDEX_DTYPES:
            return f"index of dtype {str(dtype).replace('torch.', '')} (int64/int32 only)"
        positions.append(j)
        tensors.append(index)
    if not tensors:
        return "no index tensor among the indices (only None entries)"
    shapes = [tuple(shape(i)) for i in tensors]
    try:
        grid = tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError:
        return f"index tensors of shapes {[list(s) for s in shapes]} do not broadcast"
    return Indexing(dims, tuple(positions), tuple(tensors), grid)
