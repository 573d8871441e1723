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

from ..context import LoweringContext
from ..registry import converter
from ..samples import ConstantIndices, fn_sample, index_inputs, int_inputs, module_sample
from ._args import arg, norm_dim, rank, shape, tensor_val
from ._dtypes import FLOATS, MOVABLE
from ._indexing import INDEX_DTYPES, Indexing, as_value, index_value, indexing_plan, normalized

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
