# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Scatters -> ScatterND (ScatterElements to accumulate): index_put (x[indices] = v, or += with
accumulate), index_copy and slice_scatter.

index_put(x, indices, v) writes v (broadcast to the shape x[indices] has, see _indexing.py)
through ScatterND: the indexed dims are Transposed to the front of x (and the grid dims to the
front of v), the index tensors broadcast and stack into ScatterND's [*B, k] indices (one
initializer when constant, else Expand + Unsqueeze + Concat), and the result is Transposed back.
Duplicate indices without accumulate: the last write wins in the emulator (PyTorch leaves the
winner unspecified). accumulate goes through ScatterElements(reduction="add") instead, on x with
its indexed dims flattened into one: CANN registers ScatterND twice at opset 17 and one of the two
plugins ignores `reduction`, so ScatterND "add" could silently overwrite on a real host, while
ScatterElements is registered once and its plugin reads `reduction` (docs/using-real-cann.md).

index_copy(x, dim, index, source) is index_put with [None] * dim + [index]; to_edge would
decompose it into exactly that, it is kept whole so it lowers as itself. slice_scatter (what
`y[:, a:b] = x` on a copy traces to) is ScatterND on the slice's constant positions, its dim
Transposed to the front and back.
"""

from __future__ import annotations

import math

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import ConstantIndices, fn_sample, index_inputs, int_inputs, module_sample
from ._args import arg, norm_dim, rank, shape, slice_range, tensor_val
from ._dtypes import FLOATS
from ._indexing import Indexing, as_value, index_value, indexing_plan

aten = torch.ops.aten


def _index_put_supported(node: Node) -> str | None:
    """int64/int32 index tensors at any dims (None entries are full slices), constant or
    graph-computed, broadcasting; values broadcast to the shape of x[indices]; no bool masks."""
    x, values = node.args[0], node.args[2]
    plan = indexing_plan(x, node.args[1])
    if isinstance(plan, str):
        return plan
    return _values_reason(x, values, plan.result_shape())


def _values_reason(x: object, values: object, update: list[int]) -> str | None:
    if not isinstance(values, Node):
        return f"values {values!r} is not a tensor"
    if tensor_val(values).dtype != tensor_val(x).dtype:
        return "values dtype differs from the input's"
    try:
        if list(torch.broadcast_shapes(tuple(shape(values)), tuple(update))) != update:
            return f"values {shape(values)} do not broadcast to the update shape {update}"
    except RuntimeError:
        return f"values {shape(values)} do not broadcast to the update shape {update}"
    return None


def _scatter_indices(ctx: LoweringContext, plan: Indexing, wrap: bool) -> str:
    """ScatterND's [*grid, k] int64 indices from the k index tensors."""
    grid = list(plan.grid)
    sizes = [plan.dims[d] for d in plan.positions]
    parts = [index_value(ctx, i, s, wrap) for i, s in zip(plan.tensors, sizes, strict=True)]
    if all(isinstance(p, torch.Tensor) for p in parts):
        cols = [p.expand(grid) for p in parts]
        return as_value(ctx, torch.stack(cols, dim=-1))
    axis = ctx.int64s([len(grid)])
    unsqueezed = []
    for part, index in zip(parts, plan.tensors, strict=True):
        v = as_value(ctx, part)
        if shape(index) != grid:
            v = ctx.tmp("Expand", [v, ctx.int64s(grid)])
        unsqueezed.append(ctx.tmp("Unsqueeze", [v, axis]))
    if len(unsqueezed) == 1:
        return unsqueezed[0]
    return ctx.tmp("Concat", unsqueezed, axis=-1)


def _emit_scatter(
    ctx: LoweringContext,
    node: Node,
    plan: Indexing,
    values: Node,
    accumulate: bool,
    wrap: bool = True,
) -> None:
    r = len(plan.dims)
    perm = [*plan.positions, *plan.rest]
    update = plan.result_shape()
    v = ctx.value(values)
    if shape(values) != update:
        v = ctx.tmp("Expand", [v, ctx.int64s(update)])
    if plan.adjacent:
        # ScatterND wants the grid dims first: [*grid, *dims[:p], *dims[p+k:]].
        p, nb = plan.positions[0], len(plan.grid)
        vperm = [*range(p, p + nb), *range(p), *range(p + nb, len(update))]
        if vperm != list(range(len(update))):
            v = ctx.tmp("Transpose", [v], perm=vperm)
    xv = ctx.value(node.args[0])
    moved = perm != list(range(r))
    if moved:
        xv = ctx.tmp("Transpose", [xv], perm=perm)
    attrs: dict[str, object] = {}
    if accumulate:
        # ScatterElements on x flattened; reshaped back to [*indexed, *rest].
        op, inputs = "Reshape", _accumulate(ctx, plan, xv, v, wrap)
    else:
        op, inputs = "ScatterND", [xv, _scatter_indices(ctx, plan, wrap), v]
        attrs["reduction"] = "none"
    if not moved:
        ctx.emit(op, inputs, node, **attrs)
        return
    scattered = ctx.tmp(op, inputs, **attrs)
    inverse = [perm.index(d) for d in range(r)]
    ctx.emit("Transpose", [scattered], node, perm=inverse)


def _accumulate(ctx: LoweringContext, plan: Indexing, xv: str, v: str, wrap: bool) -> list[str]:
    """x[indices] += v by ScatterElements(reduction="add") on axis 0 of x [*indexed, *rest]
    reshaped to [D, *rest] (D the indexed dims' product): each grid position's row index is its
    index tuple's linear offset, repeated across the rest dims; v [*grid, *rest] becomes
    [G, *rest]. Returns the inputs of the Reshape back to [*indexed, *rest]."""
    indexed = [plan.dims[d] for d in plan.positions]
    rest = [plan.dims[d] for d in plan.rest]
    strides = [math.prod(indexed[j + 1 :]) for j in range(len(indexed))]
    rows = math.prod(plan.grid)
    parts = [index_value(ctx, i, s, wrap) for i, s in zip(plan.tensors, indexed, strict=True)]
    column = [rows, *([1] * len(rest))]
    tensors = [p for p in parts if isinstance(p, torch.Tensor)]
    if len(tensors) == len(parts):
        offsets = torch.zeros((), dtype=torch.int64)
        for p, st in zip(tensors, strides, strict=True):
            offsets = offsets + p.expand(plan.grid) * st
        offset = as_value(ctx, offsets.reshape(column))
    else:
        terms = []
        for part, index, st in zip(parts, plan.tensors, strides, strict=True):
            t = as_value(ctx, part)
            if shape(index) != list(plan.grid):
                t = ctx.tmp("Expand", [t, ctx.int64s(list(plan.grid))])
            if st != 1:
                t = ctx.tmp("Mul", [t, ctx.scalar(st, torch.int64)])
            terms.append(t)
        total = terms[0]
        for t in terms[1:]:
            total = ctx.tmp("Add", [total, t])
        offset = ctx.tmp("Reshape", [total, ctx.int64s(column)])
    if rest:
        offset = ctx.tmp("Expand", [offset, ctx.int64s([rows, *rest])])
    flat = ctx.tmp("Reshape", [xv, ctx.int64s([math.prod(indexed), *rest])])
    updates = ctx.tmp("Reshape", [v, ctx.int64s([rows, *rest])])
    added = ctx.tmp("ScatterElements", [flat, offset, updates], axis=0, reduction="add")
    return [added, ctx.int64s([*indexed, *rest])]


class _IndexPut(ConstantIndices):
    """index_put with constant (buffer) indices: x[indices] = v, or += with accumulate.
    None entries in `indices` are full slices."""

    def __init__(self, indices: list[list | None], accumulate: bool, in_place: bool = True) -> None:
        super().__init__(indices)
        self.accumulate = accumulate
        self.in_place = in_place

    def forward(self, x: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        idx = self.indices()
        # The aten ops take None entries (full slices); torch.index_put does not.
        if self.in_place:
            return aten.index_put_.default(x.clone(), idx, v, self.accumulate) * 2
        return aten.index_put.default(x, idx, v, self.accumulate)


class _IndexPutInput(torch.nn.Module):
    """index_put whose indices are a graph input (the last one)."""

    def __init__(self, accumulate: bool, int32: bool = False) -> None:
        super().__init__()
        self.accumulate = accumulate
        self.int32 = int32

    def forward(self, x: torch.Tensor, v: torch.Tensor, i: torch.Tensor) -> torch.Tensor:
        if self.int32:
            i = i.int()
        return torch.index_put(x, (i, i), v, self.accumulate)


class _KVCacheUpdate(torch.nn.Module):
    """The static KV-cache update: cache[:, :, pos] = k (index_put with [None, None, pos])."""

    def forward(self, cache: torch.Tensor, k: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        cache = cache.clone()
        cache[:, :, pos] = k
        return cache


def _positions_input(index_shape: tuple[int, ...], size: int, negative: bool = True):
    """float inputs, except the index input: distinct positions in [0, size) (so the last write
    never has to win), about half of them written as negatives if `negative`."""

    def make(s: tuple[int, ...], g: torch.Generator) -> torch.Tensor:
        if s == index_shape:
            n = math.prod(s)
            pos = torch.randperm(size, generator=g)[:n]
            flip = (torch.rand(n, generator=g) < 0.5) & negative
            return torch.where(flip, pos - size, pos).view(s)
        return torch.randn(s, generator=g)

    return make


@converter(
    aten.index_put.default,
    onnx=[
        "ScatterND",
        "ScatterElements",
        "Reshape",
        "Mul",
        "Expand",
        "Unsqueeze",
        "Concat",
        "Cast",
        "Transpose",
        "Less",
        "Add",
        "Where",
    ],
    supports=_index_put_supported,
    dtypes=(*FLOATS, torch.int64, torch.int32),
    samples=[
        module_sample("index_put_rows", lambda: _IndexPut([[0, 2, -1]], False), (5, 2), (3, 2)),
        module_sample(
            "index_put_two_indices",
            lambda: _IndexPut([[0, 2, 4], [1, -3, 0]], False),
            (5, 3, 2),
            (3, 2),
        ),
        module_sample(
            "index_put_accumulate_dups",
            lambda: _IndexPut([[1, 3, 1, 0]], True, in_place=False),
            (4, 3),
            (4, 3),
        ),
        module_sample(
            "index_put_broadcast_values",
            lambda: _IndexPut([[0, 2], [1, 1]], False),
            (3, 2, 4),
            (4,),
        ),
        module_sample(
            "index_put_scalar_value_acc",
            lambda: _IndexPut([[2, 0]], True, in_place=False),
            (5,),
            (),
        ),
        module_sample(
            "index_put_broadcast_grid",
            lambda: _IndexPut([[[0], [2]], [1, 0, 2]], True),
            (3, 3, 2),
            (1, 3, 2),
        ),
        module_sample(
            "index_put_four_indices",
            lambda: _IndexPut([[0, 2], [1, 1], [0, 1], [2, 3]], False, in_place=False),
            (5, 3, 2, 4),
            (1,),
        ),
        module_sample(
            "index_put_input_indices",
            lambda: _IndexPutInput(False),
            (3, 4, 2),
            (2,),
            (1, 3),
            inputs=index_inputs({(1, 3): 3}),
        ),
        module_sample(
            "index_put_input_indices_acc",
            lambda: _IndexPutInput(True),
            (4, 4),
            (2, 1),
            (2, 3),
            inputs=index_inputs({(2, 3): 4}),
        ),
        module_sample(
            "index_put_int32_input_indices",
            lambda: _IndexPutInput(True, int32=True),
            (3, 3, 2),
            (2,),
            (4,),
            inputs=index_inputs({(4,): 3}),
        ),
        module_sample(
            "index_put_kv_cache",
            _KVCacheUpdate,
            (1, 2, 6, 4),
            (1, 2, 3, 4),
            (3,),
            inputs=_positions_input((3,), 6),
        ),
        module_sample(
            "index_put_none_first_acc",
            lambda: _IndexPut([None, [1, 3, 1]], True, in_place=False),
            (2, 4, 3),
            (3, 1),
        ),
        module_sample(
            "index_put_none_between",
            lambda: _IndexPut([[0, 2], None, [[1], [-1]]], False),
            (3, 2, 4),
            (2, 2, 2),
        ),
        module_sample(
            "index_put_none_two_adjacent",
            lambda: _IndexPut([None, [[0], [2]], [1, 0, -1]], False),
            (2, 3, 3, 2),
            (2,),
        ),
    ],
)
def index_put(ctx: LoweringContext, node: Node) -> None:
    plan = indexing_plan(node.args[0], node.args[1])
    assert isinstance(plan, Indexing)
    accumulate = bool(arg(node, 3, "accumulate", False))
    _emit_scatter(ctx, node, plan, node.args[2], accumulate)


def _index_copy_plan(node: Node) -> Indexing | str:
    x, dim, index = node.args[0], node.args[1], node.args[2]
    if not isinstance(dim, int):
        return f"dim {dim!r} is not a constant int"
    if not isinstance(x, Node) or rank(x) == 0:
        return "index_copy into a 0-d tensor"
    if not isinstance(index, Node) or tensor_val(index).dtype != torch.int64:
        return "index must be an int64 tensor"
    if rank(index) != 1:
        return f"index of rank {rank(index)} (1-D only)"
    return indexing_plan(x, [None] * norm_dim(dim, rank(x)) + [index])


def _index_copy_supported(node: Node) -> str | None:
    """1-D int64 index (constant or graph-computed); source of the shape of x[..., index, ...]."""
    plan = _index_copy_plan(node)
    if isinstance(plan, str):
        return plan
    x, source = node.args[0], node.args[3]
    update = plan.result_shape()
    reason = _values_reason(x, source, update)
    if reason is None and shape(source) != update:
        return f"source {shape(source)} is not of shape {update}"
    return reason


class _IndexCopy(torch.nn.Module):
    def __init__(self, dim: int, index: list[int] | None = None) -> None:
        super().__init__()
        self.dim = dim
        self.index = None if index is None else torch.tensor(index)

    def forward(self, x: torch.Tensor, s: torch.Tensor, *i: torch.Tensor) -> torch.Tensor:
        index = i[0] if i else self.index
        return x.index_copy(self.dim, index, s)


@converter(
    aten.index_copy.default,
    onnx=["ScatterND", "Unsqueeze", "Transpose"],
    supports=_index_copy_supported,
    dtypes=(*FLOATS, torch.int64, torch.int32),
    keep_whole=True,
    samples=[
        module_sample("index_copy_dim1", lambda: _IndexCopy(1, [3, 0, 4]), (2, 5, 3), (2, 3, 3)),
        module_sample("index_copy_dim0", lambda: _IndexCopy(0, [2]), (4, 3), (1, 3)),
        module_sample(
            "index_copy_kv_cache",
            lambda: _IndexCopy(2),
            (1, 2, 6, 4),
            (1, 2, 3, 4),
            (3,),
            inputs=_positions_input((3,), 6, negative=False),
        ),
        module_sample("index_copy_last_dim", lambda: _IndexCopy(-1, [1, 0]), (3, 2, 4), (3, 2, 2)),
    ],
)
def index_copy(ctx: LoweringContext, node: Node) -> None:
    plan = _index_copy_plan(node)
    assert isinstance(plan, Indexing)
    # index_copy refuses negative indices in PyTorch: graph-computed ones need no wrapping.
    _emit_scatter(ctx, node, plan, node.args[3], False, wrap=False)


def _slice_scatter_supported(node: Node) -> str | None:
    """int bounds and step; src has the slice's shape (as PyTorch requires)."""
    for i, name in ((3, "start"), (4, "end"), (5, "step")):
        v = arg(node, i, name)
        if v is not None and not isinstance(v, int):
            return f"slice_scatter {name} {v!r} is not a constant int"
    return None


def _assign_slice(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """`z[..., 2:5] = y` on a copy: torch.export records it as slice_scatter."""
    z = x.clone()
    z[..., 2:5] = y
    return z


@converter(
    aten.slice_scatter.default,
    onnx=["ScatterND", "Transpose"],
    supports=_slice_scatter_supported,
    dtypes=(*FLOATS, torch.int64, torch.int32),
    samples=[
        fn_sample(
            "slice_scatter_dim1",
            lambda x, y: torch.slice_scatter(x, y, 1, 1, 3),
            (2, 5, 3),
            (2, 2, 3),
        ),
        fn_sample("slice_scatter_assign_last_axis", _assign_slice, (2, 3, 6), (2, 3, 3)),
        fn_sample(
            "slice_scatter_step", lambda x, y: torch.slice_scatter(x, y, 0, 0, 7, 2), (7, 3), (4, 3)
        ),
        fn_sample(
            "slice_scatter_negative_1d",
            lambda x, y: torch.slice_scatter(x, y, -1, -3),
            (6,),
            (3,),
            half=True,
        ),
        fn_sample(
            "slice_scatter_int64",
            lambda x, y: torch.slice_scatter(x, y, 2, 1, 4),
            (1, 2, 5),
            (1, 2, 3),
            inputs=int_inputs(0, 100),
        ),
    ],
)
def slice_scatter(ctx: LoweringContext, node: Node) -> None:
    """x with x[..., start:end:step, ...] (on `dim`) replaced by src: ScatterND on the leading
    axis with the slice's constant positions, the axis moved to the front and back."""
    x, src = node.args[:2]
    dims = shape(x)
    r = len(dims)
    dim = norm_dim(int(arg(node, 2, "dim", 0)), r)
    start, end = slice_range(dims[dim], arg(node, 3, "start"), arg(node, 4, "end"))
    step = int(arg(node, 5, "step", 1))
    positions = torch.arange(start, end, step, dtype=torch.int64).reshape(-1, 1)
    idx = ctx.builder.add_initializer(positions.numpy(), "positions")
    xv, sv = ctx.value(x), ctx.value(src)
    if dim == 0:
        ctx.emit("ScatterND", [xv, idx, sv], node)
        return
    perm = [dim, *(d for d in range(r) if d != dim)]
    xv = ctx.tmp("Transpose", [xv], perm=perm)
    sv = ctx.tmp("Transpose", [sv], perm=perm)
    scattered = ctx.tmp("ScatterND", [xv, idx, sv])
    ctx.emit("Transpose", [scattered], node, perm=[perm.index(d) for d in range(r)])
