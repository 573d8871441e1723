# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Gathers -> Gather, GatherElements: index_select, embedding, gather and advanced indexing
(aten.index.Tensor), with constant or graph-computed int64/int32 indices (see _indexing.py).

x[indices] is lowered as: separated indexed dims are Transposed to the front; one index tensor is
one Gather on its axis; k > 1 index tensors become one linear index sum_j i_j * stride_j
(host-computed when constant) into the k dims merged by a Reshape, and one Gather. Gather moves
elements by size, so float, int and bool data (a padding mask indexed by arange grids) alike.
"""

from __future__ import annotations

import math

import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..registry import converter
from ..samples import ConstantIndices, fn_sample, index_inputs, int_inputs, module_sample
from ._args import arg, norm_dim, rank, shape, tensor_val
from ._dtypes import FLOATS, MOVABLE
from ._indexing import INDEX_DTYPES, Indexing, as_value, index_value, indexing_plan, normalized
from ._tuple_outputs import first_output_name, only_first_output_used

aten = torch.ops.aten


def _index_supported(node: Node, index_arg: int) -> str | None:
    index = node.args[index_arg]
    if not isinstance(index, Node) or tensor_val(index).dtype not in INDEX_DTYPES:
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


def _constant_index(ctx: LoweringContext, index: Node, size: int) -> str:
    """index_select, embedding and gather refuse negative indices in PyTorch: graph-computed
    ones are used as they are (Gather takes int32 and int64)."""
    values = ctx.constant(index)
    if values is not None:
        return as_value(ctx, normalized(values, size))
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
    dim = norm_dim(int(node.args[1]), rank(x))
    idx = _constant_index(ctx, node.args[2], shape(x)[dim])
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
            "embedding_2d_ids", lambda: torch.nn.Embedding(10, 4), (2, 5), inputs=int_inputs(0, 10)
        ),
        module_sample(
            "embedding_1d_ids", lambda: torch.nn.Embedding(7, 3), (6,), inputs=int_inputs(0, 7)
        ),
        module_sample(
            "embedding_padding_idx",
            lambda: torch.nn.Embedding(5, 2, padding_idx=0),
            (1, 8),
            inputs=int_inputs(0, 5),
        ),
    ],
)
def embedding(ctx: LoweringContext, node: Node) -> None:
    weight = node.args[0]
    idx = _constant_index(ctx, node.args[1], shape(weight)[0])
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
    axis = norm_dim(int(node.args[1]), rank(x))
    idx = _constant_index(ctx, node.args[2], shape(x)[axis])
    ctx.emit("GatherElements", [ctx.value(x), idx], node, axis=axis)


def _index_tensor_supported(node: Node) -> str | None:
    """int64/int32 index tensors (constant or graph-computed) at any dims, broadcasting; no
    bool masks (data-dependent result shape)."""
    plan = indexing_plan(node.args[0], node.args[1])
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
        terms.append(as_value(ctx, host))
    total = terms[0]
    for term in terms[1:]:
        total = ctx.tmp("Add", [total, term])
    return total


class _Index(ConstantIndices):
    """x[key] where the tensors in key are buffers (constant indices); None entries are `:`."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        key = tuple(slice(None) if i is None else i for i in self.indices())
        return x[key]


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
            "index_rows_input", lambda x, i: x[i], (5, 3), (4,), inputs=index_inputs({(4,): 5})
        ),
        fn_sample(
            "index_dim1_input_2d",
            lambda x, i: x[:, i],
            (2, 4, 3),
            (2, 3),
            inputs=index_inputs({(2, 3): 4}),
        ),
        fn_sample(
            "index_int32_input",
            lambda x, i: x[:, :, i.int()],
            (2, 3, 4),
            (3,),
            inputs=index_inputs({(3,): 4}),
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
            inputs=index_inputs({(2, 1): 3, (3,): 4}),
        ),
        fn_sample(
            "index_separated_by_none",
            lambda x, i: x[:, i, None, i],
            (2, 3, 3),
            (2,),
            inputs=index_inputs({(2,): 3}),
        ),
        fn_sample(
            "index_three_inputs",
            lambda x, i, j, k: x[i, j, k] * 2,
            (3, 4, 2, 2),
            (2, 1),
            (1, 3),
            (3,),
            inputs=index_inputs({(2, 1): 3, (1, 3): 4, (3,): 2}),
        ),
        fn_sample("index_padding_mask_bool", _padding_mask, (2, 5), inputs=_bool_inputs),
        fn_sample("index_int64_data", lambda x: x.long()[[2, 0]], (3, 4)),
        fn_sample(
            "index_0d_and_1d",
            lambda x, i: aten.index.Tensor(x, [None, i[0], i]),
            (2, 3, 3),
            (2,),
            inputs=index_inputs({(2,): 3}),
        ),
    ],
)
def index(ctx: LoweringContext, node: Node) -> None:
    plan = indexing_plan(node.args[0], node.args[1])
    assert isinstance(plan, Indexing)
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
    parts = [index_value(ctx, i, s) for i, s in zip(plan.tensors, sizes, strict=True)]
    if k == 1:
        idx = as_value(ctx, parts[0])
    else:
        idx = _linear_index(ctx, parts, sizes)
        merged = [*dims[:p], math.prod(sizes), *dims[p + k :]]
        xv = ctx.tmp("Reshape", [xv, ctx.int64s(merged)])
    ctx.emit("Gather", [xv, idx], node, axis=p)


# _embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
#                per_sample_weights=None, include_last_offset=False, padding_idx=-1)
_BAG_MODES = {0: "sum", 1: "mean", 2: "max"}
# The bag mask selects each bag's rows out of a (bags, L, D) tensor: bounded, as any one tensor.
_BAG_ELEMENTS = 1 << 24


def _bag_sizes(node: Node) -> tuple[int, int, int]:
    """(bags, indices, embedding dim) of an _embedding_bag node."""
    last = bool(arg(node, 7, "include_last_offset", False))
    bags = shape(node.args[2])[0] - int(last)
    return bags, shape(node.args[1])[0], shape(node.args[0])[1]


def _embedding_bag_supported(node: Node) -> str | None:
    """1-D int64/int32 indices and offsets, float weight, only the bags used (not offset2bag, bag
    sizes or max indices); bags x indices x dim <= 2**24 (each bag's rows are picked with a mask
    over all indices)."""
    if not only_first_output_used(node):
        return "the offset2bag, bag_size or max_indices output of embedding_bag is used"
    for i, what in ((1, "indices"), (2, "offsets")):
        if rank(node.args[i]) != 1 or tensor_val(node.args[i]).dtype not in INDEX_DTYPES:
            return f"embedding_bag {what} must be a 1-D int64/int32 tensor"
    if tensor_val(node.args[0]).dtype not in FLOATS:
        return "embedding_bag of a non-float weight"
    bags, length, dim = _bag_sizes(node)
    if bags < 1:
        return "embedding_bag without a bag"
    if bags * length * dim > _BAG_ELEMENTS:
        return (
            f"{bags} bags x {length} indices x dim {dim} exceeds {_BAG_ELEMENTS} elements (the "
            "bag mask's tensor)"
        )
    return None


class _Bag(torch.nn.Module):
    """nn.EmbeddingBag called with constant offsets, and per-sample weights when `weighted`."""

    def __init__(self, offsets: list[int], weighted: bool = False, **kwargs: object) -> None:
        super().__init__()
        self.bag = torch.nn.EmbeddingBag(6, 3, **kwargs)
        self.register_buffer("offsets", torch.tensor(offsets))
        self.weighted = weighted

    def forward(self, ids: torch.Tensor, w: torch.Tensor | None = None) -> torch.Tensor:
        psw = w.reshape(-1) if self.weighted and w is not None else None
        return self.bag(ids, self.offsets, per_sample_weights=psw)


# Offsets given at run time, as a (3,) input: three bags, the middle one empty.
_RUNTIME_OFFSETS = (3,)


def _bag_inputs(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    # 1-D shapes are the indices (ids of 6 rows, 0 = padding_idx included), others floats.
    if tuple(shape_) == _RUNTIME_OFFSETS:
        return torch.tensor([0, 2, 2])
    if len(shape_) == 1:
        return torch.randint(0, 6, shape_, generator=gen)
    return torch.randn(shape_, generator=gen)


@converter(
    aten._embedding_bag.default,
    onnx=[
        "Gather",
        "Mul",
        "Unsqueeze",
        "Slice",
        "Concat",
        "Cast",
        "GreaterOrEqual",
        "Less",
        "And",
        "Equal",
        "Not",
        "Where",
        "ReduceSum",
        "ReduceMax",
        "Max",
        "Div",
        "Greater",
    ],
    supports=_embedding_bag_supported,
    dtypes=(*FLOATS, *INDEX_DTYPES),
    samples=[
        module_sample(
            "embedding_bag_sum", lambda: _Bag([0, 2, 5], mode="sum"), (8,), inputs=_bag_inputs
        ),
        module_sample(
            "embedding_bag_mean_empty_bag",
            lambda: _Bag([0, 3, 3, 4], mode="mean"),
            (7,),
            inputs=_bag_inputs,
            half=True,
        ),
        module_sample(
            "embedding_bag_max_empty_bag",
            lambda: _Bag([0, 0, 4], mode="max"),
            (6,),
            inputs=_bag_inputs,
            half=True,
        ),
        module_sample(
            "embedding_bag_include_last_offset",
            lambda: _Bag([0, 1, 4, 6], mode="sum", include_last_offset=True),
            (7,),
            inputs=_bag_inputs,
        ),
        module_sample(
            "embedding_bag_padding_idx_mean",
            lambda: _Bag([0, 4], mode="mean", padding_idx=0),
            (9,),
            inputs=_bag_inputs,
        ),
        module_sample(
            "embedding_bag_per_sample_weights",
            lambda: _Bag([0, 3], weighted=True, mode="sum"),
            (5,),
            (1, 5),
            inputs=_bag_inputs,
            half=True,
        ),
        module_sample(
            "embedding_bag_runtime_offsets",
            lambda: torch.nn.EmbeddingBag(6, 3, mode="mean"),
            (5,),
            _RUNTIME_OFFSETS,
            inputs=_bag_inputs,
        ),
        # 2-D ids: fixed-length bags, the offsets an arange (folded to a constant).
        module_sample(
            "embedding_bag_2d_ids",
            lambda: torch.nn.EmbeddingBag(10, 4, mode="mean"),
            (3, 4),
            inputs=int_inputs(0, 10),
        ),
    ],
)
def embedding_bag(ctx: LoweringContext, node: Node) -> None:
    """Each bag b takes the gathered rows j with offsets[b] <= j < offsets[b + 1] (the last bag
    runs to the end unless include_last_offset) and index != padding_idx: a (bags, L) mask picks
    them with Where (an inf or NaN row stays in its own bag), ReduceSum or ReduceMax over L. A
    mean divides by the bag's count (at least 1) and an empty bag is 0, as PyTorch's."""
    weight, indices, offsets = node.args[0], node.args[1], node.args[2]
    mode = _BAG_MODES[int(arg(node, 4, "mode", 0))]
    psw = arg(node, 6, "per_sample_weights")
    pad = arg(node, 8, "padding_idx", -1)
    bags, length, _ = _bag_sizes(node)
    dtype = tensor_val(weight).dtype
    ids = _constant_index(ctx, indices, shape(weight)[0])
    rows = ctx.tmp("Gather", [ctx.value(weight), ids], axis=0)  # (L, D)
    if isinstance(psw, Node):
        rows = ctx.tmp("Mul", [rows, ctx.tmp("Unsqueeze", [ctx.value(psw), ctx.int64s([1])])])

    off = ctx.value(offsets)
    if tensor_val(offsets).dtype != torch.int64:
        off = ctx.tmp("Cast", [off], to=onnx_elem_type(torch.int64))
    n_off = shape(offsets)[0]

    def part(start: int, end: int) -> str:
        return ctx.tmp("Slice", [off, ctx.int64s([start]), ctx.int64s([end]), ctx.int64s([0])])

    starts = part(0, bags)
    if n_off == bags:  # the last bag runs to the end of the indices
        tail = [ctx.int64s([length])]
        ends = ctx.tmp("Concat", [part(1, n_off), *tail], axis=0) if n_off > 1 else tail[0]
    else:
        ends = part(1, n_off)
    column = ctx.int64s([1])
    positions = ctx.int64s(list(range(length)))
    inside = ctx.tmp(
        "And",
        [
            ctx.tmp("GreaterOrEqual", [positions, ctx.tmp("Unsqueeze", [starts, column])]),
            ctx.tmp("Less", [positions, ctx.tmp("Unsqueeze", [ends, column])]),
        ],
    )  # (bags, L)
    if isinstance(pad, int) and pad >= 0:
        padding = ctx.scalar(pad, tensor_val(indices).dtype)
        kept = ctx.tmp("Not", [ctx.tmp("Equal", [ctx.value(indices), padding])])
        inside = ctx.tmp("And", [inside, kept])
    picks = ctx.tmp("Unsqueeze", [inside, ctx.int64s([2])])  # (bags, L, 1)
    over_l = ctx.int64s([1])
    out = first_output_name(ctx, node)
    zero = ctx.scalar(0.0, dtype)
    # Each bag's count, (bags, 1), in the weight's dtype (exact: bags are short).
    count = ctx.tmp("ReduceSum", [ctx.tmp("Cast", [inside], to=onnx_elem_type(dtype)), over_l])
    if mode == "max":
        lowest = ctx.scalar(float("-inf"), dtype)
        picked = ctx.tmp("Where", [picks, rows, lowest])
        best = ctx.tmp("ReduceMax", [picked], axes=[1], keepdims=0)
        filled = ctx.tmp("Greater", [count, zero])  # (bags, 1): an empty bag is 0
        ctx.builder.add_node("Where", [filled, best, zero], [out])
        return
    picked = ctx.tmp("Where", [picks, rows, zero])
    if mode == "sum":
        ctx.builder.add_node("ReduceSum", [picked, over_l], [out], keepdims=0)
        return
    total = ctx.tmp("ReduceSum", [picked, over_l], keepdims=0)
    divisor = ctx.tmp("Max", [count, ctx.scalar(1.0, dtype)])
    ctx.builder.add_node("Div", [total, divisor], [out])


def _flip_sample_inputs(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    return torch.randint(-100, 100, shape_, generator=gen)


@converter(
    aten.flip.default,
    onnx=["Gather", "Identity"],
    dtypes=MOVABLE,
    samples=[
        fn_sample("flip_last", lambda x: torch.flip(x, (-1,)), (3, 5), half=True),
        fn_sample("flip_1d", lambda x: x.flip(0), (7,)),
        fn_sample("flip_two_dims", lambda x: torch.flip(x, (0, 2)), (2, 3, 4), half=True),
        fn_sample("flip_time_of_gru_input", lambda x: x.flip(1), (2, 6, 3)),
        fn_sample("flip_size1_dim", lambda x: x.flip(1) * 2, (3, 1)),
        fn_sample("flip_int64", lambda x: x.flip(-2), (4, 3), inputs=_flip_sample_inputs),
        fn_sample("flip_bool", lambda x: (x > 0).flip(0), (5, 2)),
    ],
)
def flip(ctx: LoweringContext, node: Node) -> None:
    """One Gather of the reversed positions per flipped dim. Not Slice with step -1: CANN's
    StridedSliceV2 needs step 1 on the last axis and takes no rank-1 input (cann-onnx-ops.md);
    not ReverseSequence, which reverses only along axis 0 or 1 of a rank >= 2 tensor. Gather
    (GatherV2) takes every axis, rank and dtype."""
    x = node.args[0]
    r = rank(x)
    dims = sorted({norm_dim(int(d), r) for d in node.args[1]})
    dims = [d for d in dims if shape(x)[d] > 1]  # reversing one element is a copy
    if not dims:
        ctx.emit("Identity", [ctx.value(x)], node)
        return
    value = ctx.value(x)
    for d in dims[:-1]:
        value = ctx.tmp("Gather", [value, _reversed(ctx, shape(x)[d])], axis=d)
    ctx.emit("Gather", [value, _reversed(ctx, shape(x)[dims[-1]])], node, axis=dims[-1])


def _reversed(ctx: LoweringContext, size: int) -> str:
    return ctx.int64s(list(range(size - 1, -1, -1)))
