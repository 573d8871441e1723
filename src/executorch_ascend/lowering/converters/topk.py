# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Selection -> TopK: topk (values and indices), and sort/argsort as a TopK of the whole axis
(ONNX has no Sort; CANN's parser registers TopK for opsets 10-18 and maps it to its TopK op, which
takes float16/float32 x and reads axis, largest and sorted: cann-onnx-ops.md, hicann/ops-nn
common/src/framework/topk_onnx_plugin.cpp). Integer and bfloat16 inputs are refused.

Ties: TopK puts the lower index first (ONNX's rule; the emulator does the same, and NaN counts as
the greatest value, as in PyTorch): a stable sort's order. PyTorch's CPU topk and default sort
leave the order of equal values unspecified (on a few hundred tied values it is not the index
order): where values tie, the indices may differ from eager's while naming the same values.
sort(stable=...) and argsort(stable=...) export as aten.sort.stable / aten.argsort.stable, which
are not core ATen (to_edge refuses them): AscendPartitioner rewrites them into aten.sort.default
before to_edge where this converter takes the input (lowering/stable_sort.py), exact by the tie
rule above; their samples below have ties and compare indices with eager. float16 ties are
common (sigmoid scores near 1), so a model that gathers by top-k indices is compared with eager
under the stated rule (tests/python/test_select_ops_models.py). sorted=False promises no order;
the sorted one is returned.
"""

from __future__ import annotations

import operator

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, norm_dim, rank, shape, tensor_val

aten = torch.ops.aten

# CANN's TopK: x float16/float32 (indices come out as int64 in ONNX).
_TOPK_INPUTS = (torch.float32, torch.float16)


def sort_input_refusal(node: Node) -> str | None:
    """float16/float32 input of rank >= 1 (the int64 dtype listed is the indices')."""
    x = node.args[0]
    dtype = tensor_val(x).dtype
    if dtype not in _TOPK_INPUTS:
        name = str(dtype).replace("torch.", "")
        return f"{name} input (CANN's TopK takes float16 or float32)"
    if rank(x) == 0:
        return "selection over a 0-d tensor"
    return None


def _topk_supported(node: Node) -> str | None:
    """float16/float32 input of rank >= 1; k >= 1."""
    if int(arg(node, 1, "k")) < 1:
        return "topk with k=0 (an empty result)"
    return sort_input_refusal(node)


def _emit_topk(ctx: LoweringContext, node: Node, axis: int, k: int, largest: bool) -> None:
    """One TopK writing values and indices straight into the getitem users (fresh names for an
    output no one reads)."""
    users = {int(u.args[1]): u for u in node.users if u.target is operator.getitem}
    outs = [ctx.out(users[i]) if i in users else ctx.builder.fresh("unused") for i in (0, 1)]
    ctx.builder.add_node(
        "TopK",
        [ctx.value(node.args[0]), ctx.int64s([k])],
        outs,
        axis=axis,
        largest=int(largest),
        sorted=1,
    )
    ctx.bind(node, outs[0])


def _scores(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Distinct values (a shuffled ramp, scaled to O(1)): no ties, so indices equal eager's."""
    n = 1
    for d in shape_:
        n *= d
    return (torch.randperm(n, generator=gen).float() / n * 4 - 2).reshape(shape_)


def _with_nans(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Distinct values, with NaN twice in the first row (and nowhere else)."""
    x = _scores(shape_, gen)
    x[0, 1] = x[0, 3] = float("nan")
    return x


def _tied(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Values in {-2, -1, 0, 1, 2}: many ties."""
    return torch.randint(-2, 3, shape_, generator=gen).float()


@converter(
    aten.topk.default,
    onnx=["TopK"],
    supports=_topk_supported,
    # Output 1 (the indices) is int64.
    dtypes=(*_TOPK_INPUTS, torch.int64),
    # tuple(...): ExecuTorch cannot serialize torch.return_types as a program's output.
    samples=[
        fn_sample(
            "topk_last", lambda x: tuple(torch.topk(x, 3)), (4, 7), inputs=_scores, half=True
        ),
        fn_sample(
            "topk_dim0_smallest",
            lambda x: tuple(torch.topk(x, 2, dim=0, largest=False)),
            (5, 3, 2),
            inputs=_scores,
            half=True,
        ),
        fn_sample("topk_values_only", lambda x: torch.topk(x, 4, 1)[0] * 2, (2, 6, 3)),
        fn_sample("topk_indices_only", lambda x: torch.topk(x, 1)[1], (3, 5), inputs=_scores),
        fn_sample("topk_whole_axis_1d", lambda x: tuple(torch.topk(x, 6)), (6,), inputs=_scores),
        fn_sample(
            "topk_unsorted_as_a_set",
            lambda x: torch.topk(x, 3, sorted=False)[0].sort(-1)[0],
            (4, 8),
            inputs=_scores,
        ),
    ],
)
def topk(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    axis = norm_dim(int(arg(node, 2, "dim", -1)), rank(x))
    largest = bool(arg(node, 3, "largest", True))
    _emit_topk(ctx, node, axis, int(arg(node, 1, "k")), largest)


@converter(
    aten.sort.default,
    onnx=["TopK"],
    supports=sort_input_refusal,
    dtypes=(*_TOPK_INPUTS, torch.int64),
    samples=[
        fn_sample("sort_last", lambda x: tuple(torch.sort(x)), (3, 6), inputs=_scores, half=True),
        fn_sample(
            "sort_descending_dim0",
            lambda x: tuple(torch.sort(x, 0, descending=True)),
            (5, 4),
            inputs=_scores,
        ),
        fn_sample("argsort_last", lambda x: torch.argsort(x, -1), (2, 3, 5), inputs=_scores),
        fn_sample(
            "argsort_descending_dim1",
            lambda x: torch.argsort(x, 1, descending=True),
            (3, 10, 2),
            inputs=_scores,
            half=True,
        ),
        # Tied values: the sorted values are the same whatever order the ties take.
        fn_sample("sort_tied_values", lambda x: torch.sort(x)[0], (4, 9), inputs=_tied, half=True),
        # stable=True (aten.sort.stable / argsort.stable, rewritten before to_edge): ties in
        # index order in either direction, so the indices equal eager's too.
        fn_sample(
            "sort_stable_tied",
            lambda x: tuple(torch.sort(x, stable=True)),
            (4, 9),
            inputs=_tied,
            half=True,
        ),
        fn_sample(
            "sort_stable_descending_dim0_tied",
            lambda x: tuple(torch.sort(x, dim=0, descending=True, stable=True)),
            (7, 3),
            inputs=_tied,
        ),
        fn_sample(
            "argsort_stable_descending_tied",
            lambda x: torch.argsort(x, dim=-1, descending=True, stable=True),
            (3, 8),
            inputs=_tied,
            half=True,
        ),
        fn_sample(
            "argsort_stable_dim1_tied",
            lambda x: torch.argsort(x, dim=1, stable=True),
            (2, 6, 3),
            inputs=_tied,
        ),
        # torch.median becomes this sort and a select before to_edge (lowering/median.py).
        fn_sample("median_dim_odd", lambda x: tuple(torch.median(x, 1)), (3, 5), inputs=_scores),
        fn_sample(
            "median_dim_even_keepdim",
            lambda x: tuple(torch.median(x, 0, keepdim=True)),
            (6, 3),
            inputs=_scores,
            half=True,
        ),
        fn_sample("median_values_tied", lambda x: torch.median(x, -1)[0], (4, 7), inputs=_tied),
        fn_sample("median_all", lambda x: torch.median(x) * 2, (3, 4), inputs=_scores, half=True),
        # NaN rows, compared as NaN-ness (NaN never equals itself) and the first NaN's index.
        fn_sample(
            "median_nan_rows",
            lambda x: (torch.isnan(torch.median(x, 1)[0]), torch.median(x, 1)[1]),
            (3, 6),
            inputs=_with_nans,
        ),
        # stable=False is aten.sort.stable as well; it promises no order of ties: values only.
        fn_sample(
            "sort_stable_false_values",
            lambda x: torch.sort(x, stable=False)[0],
            (5, 4),
            inputs=_tied,
        ),
    ],
)
def sort(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    axis = norm_dim(int(arg(node, 1, "dim", -1)), rank(x))
    descending = bool(arg(node, 2, "descending", False))
    # A stable sort: TopK of the whole axis, ties in index order for either direction.
    _emit_topk(ctx, node, axis, shape(x)[axis], descending)
