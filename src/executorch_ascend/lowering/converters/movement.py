"""Data movement -> Expand, Tile, Slice, Gather, GatherElements, Split (float, int32/int64 and
bool alike); full_like as an Expand of a 0-d initializer (its value depends only on the static
shape, never on the input's data); index_put -> ScatterND (float and int32/int64, no bool).

Shapes are static, so every shape/repeat/start/end operand is an int64 initializer computed
here. CANN's Slice (StridedSliceV2) does not take rank-1 input and needs step 1 on the last axis;
rank-1 slices run as rank 2 through a Reshape, last-axis steps other than 1 stay on the CPU.
CANN's Gather does not take negative indices, so constant indices are normalized here.
index_put's index tensors broadcast to one grid and stack into ScatterND's [..., k] indices (one
initializer when constant, else Unsqueeze + Concat); values Expand to the update shape;
accumulate is reduction "add". Duplicate indices without accumulate: the last write wins in the
emulator (PyTorch leaves the winner unspecified).
"""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import arg, norm_dim, rank, shape, tensor_val
from .unary import FLOATS

aten = torch.ops.aten

_INT_MAX = 2**63 - 1

# Expand, Tile, Slice, Gather and Split move elements by size: every dtype the emulator stores.
MOVABLE = (*FLOATS, torch.int64, torch.int32, torch.bool)


def _ints(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """int64 values in [-100, 100): samples of the integer forms."""
    return torch.randint(-100, 100, shape_, generator=gen)


def _full_like_supported(node: Node) -> str | None:
    """a number (or bool) fill value; float32/float16/int32/int64/bool result."""
    value = arg(node, 1, "fill_value")
    if not isinstance(value, (int, float, bool)):
        return f"fill value {value!r} is not a number"
    return None


@converter(
    aten.full_like.default,
    onnx=["Expand"],
    supports=_full_like_supported,
    dtypes=MOVABLE,
    samples=[
        fn_sample("full_like", lambda x: torch.full_like(x, 2.5) * x, (2, 3)),
        fn_sample("zeros_like", lambda x: torch.zeros_like(x) + x, (1, 4, 1)),
        fn_sample("ones_like_4d", lambda x: x - torch.ones_like(x), (2, 1, 3, 2)),
        fn_sample("full_like_int64", lambda x: torch.full_like(x, 7, dtype=torch.int64), (3, 1, 2)),
        fn_sample("full_like_bool", lambda x: torch.full_like(x, True, dtype=torch.bool), (4,)),
        fn_sample("full_like_neg_inf", lambda x: torch.maximum(x, torch.full_like(x, -1e4)), (5,)),
    ],
)
def full_like(ctx: LoweringContext, node: Node) -> None:
    dtype = tensor_val(node).dtype
    value = arg(node, 1, "fill_value")
    value = float(value) if dtype.is_floating_point else int(value)  # type: ignore[arg-type]
    ctx.emit("Expand", [ctx.scalar(value, dtype), ctx.int64s(shape(node))], node)


@converter(
    aten.expand_copy.default,
    onnx=["Expand"],
    dtypes=MOVABLE,
    samples=[
        fn_sample("expand_size1", lambda x: x.expand(3, 4), (1, 4)),
        fn_sample("expand_new_dims", lambda x: x.expand(2, 3, 5), (5,)),
        fn_sample("expand_keep", lambda x: x.expand(-1, 2, -1), (3, 1, 2)),
        fn_sample("expand_int64", lambda x: x.expand(2, 3, 4), (3, 1), inputs=_ints),
        fn_sample("expand_bool", lambda x: (x > 0).expand(4, 2, 3), (1, 3)),
    ],
)
def expand(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Expand", [ctx.value(node.args[0]), ctx.int64s(shape(node))], node)


@converter(
    aten.repeat.default,
    onnx=["Tile", "Reshape"],
    dtypes=MOVABLE,
    samples=[
        fn_sample("repeat_same_rank", lambda x: x.repeat(2, 1, 3), (2, 3, 1)),
        fn_sample("repeat_more_dims", lambda x: x.repeat(2, 1, 2), (3, 4)),
        fn_sample("repeat_ones", lambda x: x.repeat(1, 1) * 2, (3, 2)),
        fn_sample("repeat_int64", lambda x: x.repeat(1, 3), (2, 2), inputs=_ints),
    ],
)
def repeat(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    repeats = [int(r) for r in node.args[1]]  # type: ignore[union-attr]
    xv = ctx.value(x)
    extra = len(repeats) - rank(x)
    if extra > 0:
        # PyTorch treats missing leading dims as size 1; Tile needs equal ranks.
        xv = ctx.tmp("Reshape", [xv, ctx.int64s([1] * extra + shape(x))])
    ctx.emit("Tile", [xv, ctx.int64s(repeats)], node)


def _slice_bounds(node: Node) -> tuple[int, int, int, int]:
    x = node.args[0]
    dims = shape(x)
    dim = norm_dim(int(arg(node, 1, "dim", 0)), len(dims))  # type: ignore[arg-type]
    size = dims[dim]
    start = arg(node, 2, "start")
    end = arg(node, 3, "end")
    step = int(arg(node, 4, "step", 1))  # type: ignore[arg-type]
    start = 0 if start is None else int(start)  # type: ignore[arg-type]
    end = size if end is None or int(end) >= _INT_MAX else int(end)  # type: ignore[arg-type]
    start = min(max(start + size if start < 0 else start, 0), size)
    end = min(max(end + size if end < 0 else end, 0), size)
    return dim, start, end, step


def _slice_supported(node: Node) -> str | None:
    """int bounds; step 1 on the last axis (CANN StridedSliceV2)."""
    for i, name in ((2, "start"), (3, "end"), (4, "step")):
        v = arg(node, i, name)
        if v is not None and not isinstance(v, int):
            return f"slice {name} {v!r} is not a constant int"
    dim, _, _, step = _slice_bounds(node)
    if step != 1 and dim == rank(node.args[0]) - 1 and rank(node.args[0]) > 1:
        return "CANN's Slice needs step 1 on the last axis"
    return None


@converter(
    aten.slice_copy.Tensor,
    onnx=["Slice", "Reshape"],
    supports=_slice_supported,
    dtypes=MOVABLE,
    samples=[
        fn_sample("slice_middle", lambda x: x[:, 1:3], (2, 5, 3)),
        fn_sample("slice_step", lambda x: x[1::2], (7, 3)),
        fn_sample("slice_negative", lambda x: x[:, -3:-1, :], (2, 4, 3)),
        fn_sample("slice_1d", lambda x: x[2:] * 2, (6,)),
        fn_sample("slice_last_axis", lambda x: x[..., :2], (1, 3, 4)),
        fn_sample("slice_int64", lambda x: x[1:3], (4, 1, 3), inputs=_ints),
        fn_sample("slice_int32_1d", lambda x: x.int()[1:], (5,), inputs=_ints),
        fn_sample("slice_bool", lambda x: (x > 0)[:, 2:], (2, 5)),
    ],
)
def slice_(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    dim, start, end, step = _slice_bounds(node)
    xv = ctx.value(x)
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
        fn_sample("select_int64", lambda x: x[:, 0], (3, 2, 1), inputs=_ints),
    ],
)
def select(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    dims = shape(x)
    dim = norm_dim(int(node.args[1]), len(dims))  # type: ignore[arg-type]
    index = int(node.args[2])  # type: ignore[arg-type]
    index = index + dims[dim] if index < 0 else index
    idx = ctx.builder.add_initializer(torch.tensor(index, dtype=torch.int64).numpy(), "index")
    ctx.emit("Gather", [ctx.value(x), idx], node, axis=dim)


def _split_supported(node: Node) -> str | None:
    """every split size >= 1 (CANN)."""
    sizes = [int(s) for s in node.args[1]]  # type: ignore[union-attr]
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
        fn_sample("split_int64", lambda x: torch.split(x, [2, 1], 1)[0], (2, 3), inputs=_ints),
    ],
)
def split(ctx: LoweringContext, node: Node) -> None:
    sizes = [int(s) for s in node.args[1]]  # type: ignore[union-attr]
    axis = norm_dim(int(arg(node, 2, "dim", 0)), rank(node.args[0]))  # type: ignore[arg-type]
    # Each part is written straight into its getitem user (fresh names for unused parts).
    users = {int(u.args[1]): u for u in node.users if u.target is operator.getitem}  # type: ignore[arg-type]
    outs = [
        ctx.out(users[i]) if i in users else ctx.builder.fresh("unused") for i in range(len(sizes))
    ]
    ctx.builder.add_node("Split", [ctx.value(node.args[0]), ctx.int64s(sizes)], outs, axis=axis)
    ctx.bind(node, outs[0])


def _index_supported(node: Node, index_arg: int) -> str | None:
    index = node.args[index_arg]
    if not isinstance(index, Node) or tensor_val(index).dtype not in (torch.int64, torch.int32):
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


def _constant_index(ctx: LoweringContext, index: Node, size: int) -> str:
    values = ctx.constant(index)
    if values is None:
        return ctx.value(index)
    # Negative indices are legal in PyTorch but not in CANN's Gather.
    fixed = torch.where(values < 0, values + size, values).to(torch.int64)
    return ctx.builder.add_initializer(fixed.numpy(), "indices")


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


def _index_put_supported(node: Node) -> str | None:
    """int64/int32 index tensors on leading dims (no None, no bool mask); values broadcast."""
    x, indices, values = node.args[0], node.args[1], node.args[2]
    if not isinstance(indices, (list, tuple)) or not indices:
        return "index_put needs a non-empty tuple of index tensors"
    if any(i is None for i in indices):
        return (
            "None entries in the indices (a slice before an index) are not expressible as ScatterND"
        )
    for i in indices:
        if not isinstance(i, Node):
            return f"index {i!r} is not a tensor"
        if tensor_val(i).dtype == torch.bool:
            return "bool-mask indices (data-dependent shape) are not expressible as ScatterND"
        if tensor_val(i).dtype not in (torch.int64, torch.int32):
            return f"indices of dtype {tensor_val(i).dtype} (int64/int32 only)"
    if len(indices) > rank(x):
        return f"{len(indices)} index tensors for a rank-{rank(x)} input"
    try:
        grid = torch.broadcast_shapes(*(tuple(shape(i)) for i in indices))
    except RuntimeError:
        return "index tensors do not broadcast to one index grid"
    update = [*grid, *shape(x)[len(indices) :]]
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


def _index_grid(ctx: LoweringContext, node: Node) -> tuple[str, list[int]]:
    """ScatterND's [*grid, k] int64 indices from the k index tensors, and the grid shape."""
    x, indices = node.args[0], node.args[1]
    dims = shape(x)
    grid = list(torch.broadcast_shapes(*(tuple(shape(i)) for i in indices)))  # type: ignore[union-attr]
    consts = [ctx.constant(i) for i in indices]  # type: ignore[union-attr]
    if all(c is not None for c in consts):
        # Constant indices become one initializer; negatives are normalized here (ScatterND in
        # the emulator wraps them too, but CANN's kernels need not).
        cols = [
            torch.where(c < 0, c + dims[j], c).to(torch.int64).expand(grid)  # type: ignore[union-attr]
            for j, c in enumerate(consts)
        ]
        stacked = torch.stack(cols, dim=-1).contiguous()
        return ctx.builder.add_initializer(stacked.numpy(), "indices"), grid
    axis = ctx.int64s([len(grid)])
    cols = []
    for i in indices:  # type: ignore[union-attr]
        v = ctx.value(i)
        if tensor_val(i).dtype != torch.int64:
            v = ctx.tmp("Cast", [v], to=7)  # TensorProto.INT64
        if shape(i) != grid:
            v = ctx.tmp("Expand", [v, ctx.int64s(grid)])
        cols.append(ctx.tmp("Unsqueeze", [v, axis]))
    if len(cols) == 1:
        return cols[0], grid
    return ctx.tmp("Concat", cols, axis=-1), grid


class _IndexPut(torch.nn.Module):
    """index_put with constant (buffer) indices: x[indices] = v, or += with accumulate."""

    def __init__(self, indices: list[list[int]], accumulate: bool, in_place: bool = True) -> None:
        super().__init__()
        self.n = len(indices)
        self.accumulate = accumulate
        self.in_place = in_place
        for j, idx in enumerate(indices):
            self.register_buffer(f"i{j}", torch.tensor(idx))

    def forward(self, x: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        idx = tuple(getattr(self, f"i{j}") for j in range(self.n))
        if self.in_place:
            return x.clone().index_put_(idx, v, self.accumulate) * 2
        return torch.index_put(x, idx, v, self.accumulate)


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


def _index_input(index_shape: tuple[int, ...], high: int):
    """float inputs, except the (distinctly shaped) index input: ints in [-high, high)."""

    def make(s: tuple[int, ...], g: torch.Generator) -> torch.Tensor:
        if s == index_shape:
            return torch.randint(-high, high, s, generator=g)
        return torch.randn(s, generator=g)

    return make


@converter(
    aten.index_put.default,
    onnx=["ScatterND", "Expand", "Unsqueeze", "Concat", "Cast"],
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
    ],
)
def index_put(ctx: LoweringContext, node: Node) -> None:
    x, values = node.args[0], node.args[2]
    accumulate = bool(arg(node, 3, "accumulate", False))
    idx, grid = _index_grid(ctx, node)
    update = [*grid, *shape(x)[len(node.args[1]) :]]  # type: ignore[arg-type]
    v = ctx.value(values)
    if shape(values) != update:
        v = ctx.tmp("Expand", [v, ctx.int64s(update)])
    ctx.emit("ScatterND", [ctx.value(x), idx, v], node, reduction="add" if accumulate else "none")
