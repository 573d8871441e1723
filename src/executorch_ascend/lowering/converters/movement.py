"""Data movement -> Expand, Tile, Slice, Gather, Split (float, int32/int64 and bool alike);
full_like as an Expand of a 0-d initializer (its value depends only on the static shape, never on
the input's data); copy (src broadcast into self's shape and dtype) -> Cast + Expand. The indexing
ops (index_select, gather, index, index_put, index_copy) are in indexing.py.

Shapes are static, so every shape/repeat/start/end operand is an int64 initializer computed
here. CANN's Slice (StridedSliceV2) does not take rank-1 input and needs step 1 on the last axis;
rank-1 slices run as rank 2 through a Reshape, a last-axis step other than 1 is a Gather of the
constant positions.
CANN's Gather does not take negative indices, so select's index is normalized here.
"""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, norm_dim, rank, shape, tensor_val
from ._dtypes import FLOATS

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


def slice_range(size: int, start: object, end: object) -> tuple[int, int]:
    """PyTorch's slice bounds (None, negative, past the end) as 0 <= start, end <= size."""
    start = 0 if start is None else int(start)  # type: ignore[call-overload]
    end = size if end is None or int(end) >= _INT_MAX else int(end)  # type: ignore[call-overload]
    start = min(max(start + size if start < 0 else start, 0), size)
    end = min(max(end + size if end < 0 else end, 0), size)
    return start, end


def _slice_bounds(node: Node) -> tuple[int, int, int, int]:
    dims = shape(node.args[0])
    dim = norm_dim(int(arg(node, 1, "dim", 0)), len(dims))  # type: ignore[arg-type]
    start, end = slice_range(dims[dim], arg(node, 2, "start"), arg(node, 3, "end"))
    return dim, start, end, int(arg(node, 4, "step", 1))  # type: ignore[arg-type]


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
        fn_sample("slice_int64", lambda x: x[1:3], (4, 1, 3), inputs=_ints),
        fn_sample("slice_int32_1d", lambda x: x.int()[1:], (5,), inputs=_ints),
        fn_sample("slice_bool", lambda x: (x > 0)[:, 2:], (2, 5)),
        fn_sample("slice_last_axis_step", lambda x: x[..., ::2] - x[..., 1::2], (2, 3, 8)),
        fn_sample("slice_last_axis_step3", lambda x: x[:, 1:7:3], (4, 9), inputs=_ints),
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


def _copy_supported(node: Node) -> str | None:
    """src broadcasts to self's shape; any dtype pair of float32/float16/int32/int64/bool."""
    self_, src = node.args[0], node.args[1]
    if not isinstance(src, Node) or not isinstance(self_, Node):
        return "copy needs tensor self and src"
    try:
        if list(torch.broadcast_shapes(tuple(shape(src)), tuple(shape(self_)))) != shape(self_):
            return f"src {shape(src)} does not broadcast to self's shape {shape(self_)}"
    except RuntimeError:
        return f"src {shape(src)} does not broadcast to self's shape {shape(self_)}"
    return None


def _copy_into_row(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Broadcast (1,) -> (3,) and cast float16 -> float32."""
    z = x.clone()
    z[0].copy_(y.half())
    return z


def _copy_int64_into_row(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """int64 -> float32, broadcast (1,) -> (4,)."""
    z = x * 2
    z[1].copy_((y * 5).long())
    return z


@converter(
    aten.copy.default,
    onnx=["Expand", "Cast", "Identity"],
    supports=_copy_supported,
    dtypes=MOVABLE,
    samples=[
        # What torch.export makes of an in-place copy into a view: copy(select(clone(x)), y).
        fn_sample("copy_into_row", _copy_into_row, (2, 3), (1,)),
        fn_sample("copy_int64_into_row", _copy_int64_into_row, (2, 4), (1,)),
    ],
)
def copy(ctx: LoweringContext, node: Node) -> None:
    self_, src = node.args[0], node.args[1]
    v = ctx.value(src)
    steps: list[tuple[str, dict[str, object]]] = []
    dst = tensor_val(self_).dtype
    if tensor_val(src).dtype != dst:
        steps.append(("Cast", {"to": onnx_elem_type(dst)}))
    if shape(src) != shape(self_):
        steps.append(("Expand", {}))
    if not steps:
        ctx.emit("Identity", [v], node)
        return
    for i, (op, attrs) in enumerate(steps):
        inputs = [v, ctx.int64s(shape(self_))] if op == "Expand" else [v]
        if i == len(steps) - 1:
            ctx.emit(op, inputs, node, **attrs)
        else:
            v = ctx.tmp(op, inputs, **attrs)
