"""Indexing -> Gather, GatherElements, ScatterND: index_select, embedding, gather, advanced
indexing (aten.index.Tensor), index_put, index_copy and slice_scatter.

CANN's Gather does not take negative indices: constant indices are normalized here; graph-input
ones, where PyTorch allows negatives (index, index_put), by Where(Less(i, 0), i + size, i) on the
device. ScatterND's indices get the same treatment (the emulator wraps negatives, CANN's kernels
need not). index_select, embedding, gather and index_copy refuse negative indices in PyTorch, so
their graph-input indices are used as they are. Indices out of range are an error in
PyTorch and undefined here (the emulator's Gather writes zeros).

x[indices] (aten.index.Tensor) follows PyTorch's advanced indexing: the index tensors broadcast
to one grid B; if they sit on adjacent dims p..p+k-1 the result is x.shape[:p] + B +
x.shape[p+k:], if a slice (None) separates them the broadcast dims come first, then the
remaining dims in order. Lowered as: separated indexed dims are Transposed to the front; one index
tensor is one Gather on its axis; k > 1 index tensors become one linear index sum_j i_j * stride_j
(host-computed when constant) into the k dims merged by a Reshape, and one Gather. Gather moves
elements by size, so float, int and bool data (a padding mask indexed by arange grids) alike.
A bool-mask index selects a data-dependent number of elements (torch.export gives the result an
unbacked size, even for a constant mask), so it is refused.

index_put(x, indices, v) writes v (broadcast to the shape x[indices] has) through ScatterND: the
indexed dims are Transposed to the front of x (and the grid dims to the front of v), the index
tensors broadcast and stack into ScatterND's [*B, k] indices (one initializer when constant, else
Expand + Unsqueeze + Concat), and the result is Transposed back. accumulate is reduction "add".
Duplicate indices without accumulate: the last write wins in the emulator (PyTorch leaves the
winner unspecified). index_copy(x, dim, index, source) is index_put with [None] * dim + [index];
to_edge would decompose it into exactly that, it is kept whole so it lowers as itself.
slice_scatter (what `y[:, a:b] = x` on a copy traces to) is ScatterND on the slice's constant
positions, its dim Transposed to the front and back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from onnx import TensorProto
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import arg, norm_dim, rank, shape, slice_range, tensor_val
from ._dtypes import FLOATS, MOVABLE

aten = torch.ops.aten

_INDEX_DTYPES = (torch.int64, torch.int32)


def _index_supported(node: Node, index_arg: int) -> str | None:
    index = node.args[index_arg]
    if not isinstance(index, Node) or tensor_val(index).dtype not in _INDEX_DTYPES:
        return "indices must be an int64/int32 tensor"
    return None


def _index_select_supported(node: Node) -> str | None:
    """int64/int32 indices."""
    return _index_supported(node, 2)


class _IndexSelect(torch.nn.Module):
    def __init__(self, dim: int, index: list[int]) -> None:
        super().__init__()
        self.dim = dim
        self.register_buffer("index", torch.tensor(index))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.index_select(self.dim, self.index)


def _ids(high: int):
    return lambda s, g: torch.randint(0, high, s, generator=g)


def _normalized(values: torch.Tensor, size: int) -> torch.Tensor:
    """Constant indices with negatives counted from the end, as int64."""
    return torch.where(values < 0, values + size, values).to(torch.int64)


def _graph_index(ctx: LoweringContext, index: Node, size: int, wrap: bool) -> str:
    """A graph-computed index tensor as int64, with negatives counted from the end if `wrap`."""
    v = ctx.value(index)
    if tensor_val(index).dtype != torch.int64:
        v = ctx.tmp("Cast", [v], to=TensorProto.INT64)
    if not wrap:
        return v
    negative = ctx.tmp("Less", [v, ctx.scalar(0, torch.int64)])
    wrapped = ctx.tmp("Add", [v, ctx.scalar(size, torch.int64)])
    return ctx.tmp("Where", [negative, wrapped, v])


def _index_value(
    ctx: LoweringContext, index: Node, size: int, wrap: bool = True
) -> torch.Tensor | str:
    """int64 indices, negatives counted from the end: a host tensor when constant, else an ONNX
    value name. `wrap=False`: the op refuses negative indices in PyTorch, so valid graph-computed
    ones never are (constants are normalized all the same, at no cost)."""
    values = ctx.constant(index)
    if values is not None:
        return _normalized(values, size)
    return _graph_index(ctx, index, size, wrap)


def _as_value(ctx: LoweringContext, index: torch.Tensor | str) -> str:
    if isinstance(index, str):
        return index
    return ctx.builder.add_initializer(index.contiguous().numpy(), "indices")


def _constant_index(ctx: LoweringContext, index: Node, size: int) -> str:
    """index_select, embedding and gather refuse negative indices in PyTorch: graph-computed
    ones are used as they are (Gather takes int32 and int64)."""
    values = ctx.constant(index)
    if values is not None:
        return _as_value(ctx, _normalized(values, size))
    return ctx.value(index)


@converter(
    aten.index_select.default,
    onnx=["Gather"],
    supports=_index_select_supported,
    dtypes=(*FLOATS, torch.int64, torch.int32),
    samples=[
        module_sample("index_select_dim1", lambda: _IndexSelect(1, [0, 2, 2]), (2, 3, 4)),
        module_sample("index_select_dim0", lambda: _IndexSelect(0, [3, 0]), (4, 5)),
        module_sample("index_select_last", lambda: _IndexSelect(-1, [2, 0]), (2, 1, 3)),
    ],
)
def index_select(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    dim = norm_dim(int(node.args[1]), rank(x))  # type: ignore[arg-type]
    idx = _constant_index(ctx, node.args[2], shape(x)[dim])  # type: ignore[arg-type]
    ctx.emit("Gather", [ctx.value(x), idx], node, axis=dim)


def _embedding_supported(node: Node) -> str | None:
    """int64/int32 indices; padding_idx and scale_grad_by_freq only affect training."""
    return _index_supported(node, 1)


@converter(
    aten.embedding.default,
    onnx=["Gather"],
    supports=_embedding_supported,
    dtypes=(*FLOATS, torch.int64, torch.int32),
    samples=[
        module_sample(
            "embedding_2d_ids", lambda: torch.nn.Embedding(10, 4), (2, 5), inputs=_ids(10)
        ),
        module_sample("embedding_1d_ids", lambda: torch.nn.Embedding(7, 3), (6,), inputs=_ids(7)),
        module_sample(
            "embedding_padding_idx",
            lambda: torch.nn.Embedding(5, 2, padding_idx=0),
            (1, 8),
            inputs=_ids(5),
        ),
    ],
)
def embedding(ctx: LoweringContext, node: Node) -> None:
    weight = node.args[0]
    idx = _constant_index(ctx, node.args[1], shape(weight)[0])  # type: ignore[arg-type]
    ctx.emit("Gather", [ctx.value(weight), idx], node, axis=0)


def _gather_supported(node: Node) -> str | None:
    """int64 index of the input's rank; no sparse_grad."""
    if arg(node, 3, "sparse_grad", False):
        return "sparse_grad gather"
    reason = _index_supported(node, 2)
    if reason is None and rank(node.args[2]) != rank(node.args[0]):
        return "gather index rank differs from the input's"
    return reason


class _Gather(torch.nn.Module):
    def __init__(self, dim: int, index: torch.Tensor) -> None:
        super().__init__()
        self.dim = dim
        self.register_buffer("index", index)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.gather(x, self.dim, self.index)


def _gather_sample(id: str, dim: int, x_shape: tuple[int, ...], idx_shape: tuple[int, ...]):
    gen = torch.Generator().manual_seed(3)
    index = torch.randint(0, x_shape[dim], idx_shape, generator=gen)
    return module_sample(id, lambda: _Gather(dim, index), x_shape)


@converter(
    aten.gather.default,
    onnx=["GatherElements"],
    supports=_gather_supported,
    dtypes=(*FLOATS, torch.int64),
    samples=[
        _gather_sample("gather_dim1", 1, (2, 4, 3), (2, 2, 3)),
        _gather_sample("gather_last", -1, (3, 5), (3, 5)),
        _gather_sample("gather_dim0_smaller", 0, (4, 3, 2), (1, 3, 1)),
    ],
)
def gather(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    axis = norm_dim(int(node.args[1]), rank(x))  # type: ignore[arg-type]
    idx = _constant_index(ctx, node.args[2], shape(x)[axis])  # type: ignore[arg-type]
    ctx.emit("GatherElements", [ctx.value(x), idx], node, axis=axis)


# --- advanced indexing: x[indices], x[indices] = v -------------------------------------------


@dataclass(frozen=True)
class _Indexing:
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


def _indexing(x: object, indices: object) -> _Indexing | str:
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
        if dtype not in _INDEX_DTYPES:
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
    return _Indexing(dims, tuple(positions), tuple(tensors), grid)


def _index_tensor_supported(node: Node) -> str | None:
    """int64/int32 index tensors (constant or graph-computed) at any dims, broadcasting; no
    bool masks (data-dependent result shape)."""
    plan = _indexing(node.args[0], node.args[1])
    return plan if isinstance(plan, str) else None


def _linear_index(ctx: LoweringContext, parts: list[torch.Tensor | str], sizes: list[int]) -> str:
    """sum_j parts[j] * stride_j (row-major strides of `sizes`), broadcast to the grid."""
    strides = [math.prod(sizes[j + 1 :]) for j in range(len(sizes))]
    host: torch.Tensor | None = None
    terms: list[str] = []
    for part, stride in zip(parts, strides, strict=True):
        if isinstance(part, torch.Tensor):
            host = part * stride if host is None else host + part * stride
        elif stride == 1:
            terms.append(part)
        else:
            terms.append(ctx.tmp("Mul", [part, ctx.scalar(stride, torch.int64)]))
    if host is not None:
        terms.append(_as_value(ctx, host))
    total = terms[0]
    for term in terms[1:]:
        total = ctx.tmp("Add", [total, term])
    return total


class _Index(torch.nn.Module):
    """x[key] where the tensors in key are buffers (constant indices); None entries are `:`."""

    def __init__(self, key: list[list[int] | None]) -> None:
        super().__init__()
        self.slots: list[str | None] = []
        for j, k in enumerate(key):
            if k is None:
                self.slots.append(None)
            else:
                self.register_buffer(f"i{j}", torch.tensor(k))
                self.slots.append(f"i{j}")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        key = tuple(slice(None) if s is None else getattr(self, s) for s in self.slots)
        return x[key]


def _int_inputs(highs: dict[tuple[int, ...], int]):
    """float inputs, except those of a shape in `highs`: ints in [-high, high) (index inputs,
    negatives included)."""

    def make(s: tuple[int, ...], g: torch.Generator) -> torch.Tensor:
        high = highs.get(tuple(s))
        if high is not None:
            return torch.randint(-high, high, s, generator=g)
        return torch.randn(s, generator=g)

    return make


def _bool_inputs(s: tuple[int, ...], g: torch.Generator) -> torch.Tensor:
    return torch.rand(s, generator=g) > 0.5


def _padding_mask(mask: torch.Tensor) -> torch.Tensor:
    """transformers' padding_mask_function over arange grids: mask[batch_idx, kv_idx]."""
    b, s = mask.shape
    batch_idx = torch.arange(b).view(b, 1, 1, 1)
    kv_idx = torch.arange(s).view(1, 1, 1, s)
    return mask[batch_idx, kv_idx]


@converter(
    aten.index.Tensor,
    onnx=["Gather", "Transpose", "Reshape", "Mul", "Add", "Cast", "Less", "Where"],
    supports=_index_tensor_supported,
    dtypes=MOVABLE,
    samples=[
        fn_sample("index_fused_qkv", lambda x: x[..., [-2], :], (2, 3, 4)),
        fn_sample(
            "index_rows_input", lambda x, i: x[i], (5, 3), (4,), inputs=_int_inputs({(4,): 5})
        ),
        fn_sample(
            "index_dim1_input_2d",
            lambda x, i: x[:, i],
            (2, 4, 3),
            (2, 3),
            inputs=_int_inputs({(2, 3): 4}),
        ),
        fn_sample(
            "index_int32_input",
            lambda x, i: x[:, :, i.int()],
            (2, 3, 4),
            (3,),
            inputs=_int_inputs({(3,): 4}),
        ),
        module_sample("index_two_broadcast", lambda: _Index([[[0], [2]], [1, 0, -1]]), (3, 4, 2)),
        module_sample(
            "index_two_inner", lambda: _Index([None, [[0], [-1]], [4, 0, 2]]), (2, 3, 5, 2)
        ),
        module_sample("index_separated", lambda: _Index([[0, 1], None, [1, -2]]), (2, 3, 4)),
        fn_sample(
            "index_separated_input",
            lambda x, i, j: x[i, :, j],
            (3, 2, 4),
            (2, 1),
            (3,),
            inputs=_int_inputs({(2, 1): 3, (3,): 4}),
        ),
        fn_sample(
            "index_separated_by_none",
            lambda x, i: x[:, i, None, i],
            (2, 3, 3),
            (2,),
            inputs=_int_inputs({(2,): 3}),
        ),
        fn_sample(
            "index_three_inputs",
            lambda x, i, j, k: x[i, j, k] * 2,
            (3, 4, 2, 2),
            (2, 1),
            (1, 3),
            (3,),
            inputs=_int_inputs({(2, 1): 3, (1, 3): 4, (3,): 2}),
        ),
        fn_sample("index_padding_mask_bool", _padding_mask, (2, 5), inputs=_bool_inputs),
        fn_sample("index_int64_data", lambda x: x.long()[[2, 0]], (3, 4)),
        fn_sample(
            "index_0d_and_1d",
            lambda x, i: aten.index.Tensor(x, [None, i[0], i]),
            (2, 3, 3),
            (2,),
            inputs=_int_inputs({(2,): 3}),
        ),
    ],
)
def index(ctx: LoweringContext, node: Node) -> None:
    plan = _indexing(node.args[0], node.args[1])
    assert isinstance(plan, _Indexing)
    xv = ctx.value(node.args[0])
    dims, positions = list(plan.dims), list(plan.positions)
    if not plan.adjacent:
        # PyTorch puts the broadcast dims first: bring the indexed dims to the front.
        perm = positions + plan.rest
        xv = ctx.tmp("Transpose", [xv], perm=perm)
        dims = [dims[d] for d in perm]
        positions = list(range(len(positions)))
    p, k = positions[0], len(positions)
    sizes = [dims[d] for d in positions]
    parts = [_index_value(ctx, i, s) for i, s in zip(plan.tensors, sizes, strict=True)]
    if k == 1:
        idx = _as_value(ctx, parts[0])
    else:
        idx = _linear_index(ctx, parts, sizes)
        merged = [*dims[:p], math.prod(sizes), *dims[p + k :]]
        xv = ctx.tmp("Reshape", [xv, ctx.int64s(merged)])
    ctx.emit("Gather", [xv, idx], node, axis=p)


def _index_put_supported(node: Node) -> str | None:
    """int64/int32 index tensors at any dims (None entries are full slices), constant or
    graph-computed, broadcasting; values broadcast to the shape of x[indices]; no bool masks."""
    x, values = node.args[0], node.args[2]
    plan = _indexing(x, node.args[1])
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


def _scatter_indices(ctx: LoweringContext, plan: _Indexing, wrap: bool) -> str:
    """ScatterND's [*grid, k] int64 indices from the k index tensors."""
    grid = list(plan.grid)
    sizes = [plan.dims[d] for d in plan.positions]
    parts = [_index_value(ctx, i, s, wrap) for i, s in zip(plan.tensors, sizes, strict=True)]
    if all(isinstance(p, torch.Tensor) for p in parts):
        cols = [p.expand(grid) for p in parts]  # type: ignore[union-attr]
        return _as_value(ctx, torch.stack(cols, dim=-1))
    axis = ctx.int64s([len(grid)])
    unsqueezed = []
    for part, index in zip(parts, plan.tensors, strict=True):
        v = _as_value(ctx, part)
        if shape(index) != grid:
            v = ctx.tmp("Expand", [v, ctx.int64s(grid)])
        unsqueezed.append(ctx.tmp("Unsqueeze", [v, axis]))
    if len(unsqueezed) == 1:
        return unsqueezed[0]
    return ctx.tmp("Concat", unsqueezed, axis=-1)


def _emit_scatter(
    ctx: LoweringContext,
    node: Node,
    plan: _Indexing,
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
    idx = _scatter_indices(ctx, plan, wrap)
    reduction = "add" if accumulate else "none"
    if not moved:
        ctx.emit("ScatterND", [xv, idx, v], node, reduction=reduction)
        return
    scattered = ctx.tmp("ScatterND", [xv, idx, v], reduction=reduction)
    inverse = [perm.index(d) for d in range(r)]
    ctx.emit("Transpose", [scattered], node, perm=inverse)


class _IndexPut(torch.nn.Module):
    """index_put with constant (buffer) indices: x[indices] = v, or += with accumulate.
    None entries in `indices` are full slices."""

    def __init__(
        self, indices: list[list[int] | None], accumulate: bool, in_place: bool = True
    ) -> None:
        super().__init__()
        self.slots: list[str | None] = []
        self.accumulate = accumulate
        self.in_place = in_place
        for j, idx in enumerate(indices):
            if idx is None:
                self.slots.append(None)
            else:
                self.register_buffer(f"i{j}", torch.tensor(idx))
                self.slots.append(f"i{j}")

    def forward(self, x: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        idx = [None if s is None else getattr(self, s) for s in self.slots]
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


def _index_input(index_shape: tuple[int, ...], high: int):
    """float inputs, except the (distinctly shaped) index input: ints in [-high, high)."""

    def make(s: tuple[int, ...], g: torch.Generator) -> torch.Tensor:
        if s == index_shape:
            return torch.randint(-high, high, s, generator=g)
        return torch.randn(s, generator=g)

    return make


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
            inputs=_index_input((1, 3), 3),
        ),
        module_sample(
            "index_put_input_indices_acc",
            lambda: _IndexPutInput(True),
            (4, 4),
            (2, 1),
            (2, 3),
            inputs=_index_input((2, 3), 4),
        ),
        module_sample(
            "index_put_int32_input_indices",
            lambda: _IndexPutInput(True, int32=True),
            (3, 3, 2),
            (2,),
            (4,),
            inputs=_index_input((4,), 3),
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
    plan = _indexing(node.args[0], node.args[1])
    assert isinstance(plan, _Indexing)
    accumulate = bool(arg(node, 3, "accumulate", False))
    _emit_scatter(ctx, node, plan, node.args[2], accumulate)  # type: ignore[arg-type]


def _index_copy_plan(node: Node) -> _Indexing | str:
    x, dim, index = node.args[0], node.args[1], node.args[2]
    if not isinstance(dim, int):
        return f"dim {dim!r} is not a constant int"
    if not isinstance(x, Node) or rank(x) == 0:
        return "index_copy into a 0-d tensor"
    if not isinstance(index, Node) or tensor_val(index).dtype != torch.int64:
        return "index must be an int64 tensor"
    if rank(index) != 1:
        return f"index of rank {rank(index)} (1-D only)"
    return _indexing(x, [None] * norm_dim(dim, rank(x)) + [index])


def _index_copy_supported(node: Node) -> str | None:
    """1-D int64 index (constant or graph-computed); source of the shape of x[..., index, ...]."""
    plan = _index_copy_plan(node)
    if isinstance(plan, str):
        return plan
    x, source = node.args[0], node.args[3]
    update = plan.result_shape()
    reason = _values_reason(x, source, update)
    if reason is None and shape(source) != update:  # type: ignore[arg-type]
        return f"source {shape(source)} is not of shape {update}"
    return reason


class _IndexCopy(torch.nn.Module):
    def __init__(self, dim: int, index: list[int] | None = None) -> None:
        super().__init__()
        self.dim = dim
        self.index = None if index is None else torch.tensor(index)

    def forward(self, x: torch.Tensor, s: torch.Tensor, *i: torch.Tensor) -> torch.Tensor:
        index = i[0] if i else self.index
        return x.index_copy(self.dim, index, s)  # type: ignore[arg-type]


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
    assert isinstance(plan, _Indexing)
    # index_copy refuses negative indices in PyTorch: graph-computed ones need no wrapping.
    _emit_scatter(ctx, node, plan, node.args[3], False, wrap=False)  # type: ignore[arg-type]


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
            inputs=_ids(100),
        ),
    ],
)
def slice_scatter(ctx: LoweringContext, node: Node) -> None:
    """x with x[..., start:end:step, ...] (on `dim`) replaced by src: ScatterND on the leading
    axis with the slice's constant positions, the axis moved to the front and back."""
    x, src = node.args[:2]
    dims = shape(x)
    r = len(dims)
    dim = norm_dim(int(arg(node, 2, "dim", 0)), r)  # type: ignore[arg-type]
    start, end = slice_range(dims[dim], arg(node, 3, "start"), arg(node, 4, "end"))
    step = int(arg(node, 5, "step", 1))  # type: ignore[arg-type]
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
