# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Reductions -> ReduceSum, ReduceMean, ReduceMax, ReduceMin, ArgMax, ArgMin, CumSum (float and
int32/int64, an int32/bool input promoted to int64 first, as PyTorch does; ArgMax/ArgMin read
int32 as it is); the spatial mean of
NCHW as GlobalAveragePool; var as mean((x - mean(x))^2) * n / (n - correction); any (and all,
which PyTorch decomposes to not(any(not x))) as a ReduceMax over the mask cast to int32, since
ReduceMax takes no bool.

Opset 17 takes ReduceSum's axes as an int64 input but ReduceMean/ReduceMax/ReduceMin's as an
attribute (they move to inputs only in opset 18). CANN refuses ArgMax/ArgMin with
select_last_index=1; PyTorch returns the first extreme index, which is select_last_index=0.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import torch
from onnx import TensorProto
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, int_inputs, ints
from ._args import arg, norm_dim, norm_dims, rank, shape, tensor_val
from ._dtypes import FLOATS
from ._emit import cast_to, const_like

aten = torch.ops.aten

_small_ints = int_inputs(-20, 20)


def _axes(node: Node, index: int, name: str) -> list[int]:
    """The reduced dims; none given (or an empty list) means all of them."""
    r = rank(node.args[0])
    dims = arg(node, index, name)
    if isinstance(dims, int):
        dims = [dims]
    return sorted(set(norm_dims(dims, r))) or list(range(r))


def _no_dtype(node: Node) -> str | None:
    """no dtype conversion (a dtype argument equal to the input's is fine); rank >= 1."""
    dtype = node.kwargs.get("dtype")
    if dtype is not None and dtype != tensor_val(node.args[0]).dtype:
        return f"reduction with dtype={dtype} (a conversion) is not lowered"
    if rank(node.args[0]) == 0:
        return "reduction of a 0-d tensor"
    return None


def _sum_supported(node: Node) -> str | None:
    """rank >= 1; float result from float input, int64 result from int/bool input or dtype=."""
    if rank(node.args[0]) == 0:
        return "reduction of a 0-d tensor"
    src, dst = tensor_val(node.args[0]).dtype, tensor_val(node).dtype
    if src.is_floating_point != dst.is_floating_point and node.kwargs.get("dtype") is None:
        return f"sum {src} -> {dst}"
    return None


@converter(
    aten.sum.dim_IntList,
    onnx=["ReduceSum", "Cast"],
    supports=_sum_supported,
    dtypes=(*FLOATS, torch.int32, torch.int64, torch.bool),
    samples=[
        fn_sample("sum_last", lambda x: x.sum(-1), (3, 4)),
        fn_sample("sum_keep_two", lambda x: x.sum((0, 2), keepdim=True), (2, 3, 4)),
        fn_sample("sum_all", lambda x: x.sum() * 1.0, (2, 1, 3)),
        fn_sample("sum_size1", lambda x: x.sum(1), (4, 1, 5)),
        fn_sample("sum_same_dtype", lambda x: x.sum(0, dtype=torch.float32), (3, 2)),
        fn_sample("sum_int64", lambda x: x.sum(1), (3, 5), inputs=_small_ints),
        fn_sample(
            "sum_int32_to_int64", lambda x: x.int().sum((0, 2)), (2, 3, 2), inputs=_small_ints
        ),
        fn_sample("sum_bool_count", lambda x: (x > 0).sum(-1, keepdim=True), (4, 6)),
        fn_sample(
            "sum_int_to_float", lambda x: x.sum(0, dtype=torch.float32), (5, 2), inputs=_small_ints
        ),
    ],
)
def sum_(ctx: LoweringContext, node: Node) -> None:
    keep = int(bool(arg(node, 2, "keepdim", False)))
    axes = ctx.int64s(_axes(node, 1, "dim"))
    # PyTorch converts first (int32/bool sums accumulate in int64, dtype= casts the input).
    xv = cast_to(ctx, node.args[0], tensor_val(node).dtype)
    ctx.emit("ReduceSum", [xv, axes], node, keepdims=keep)


def _minmax(onnx_op: str, target: object, fn: object, id: str) -> None:
    samples = [
        fn_sample(f"{id}_last", lambda x: fn(x, -1), (3, 5)),  # type: ignore[operator]
        fn_sample(f"{id}_keep", lambda x: fn(x, (1, 3), keepdim=True), (2, 3, 1, 4)),  # type: ignore[operator]
        fn_sample(f"{id}_dim0", lambda x: fn(x, 0), (4, 2)),  # type: ignore[operator]
    ]

    @converter(target, onnx=[onnx_op], supports=_no_dtype, dtypes=FLOATS, samples=samples)
    def convert(ctx: LoweringContext, node: Node) -> None:
        keep = int(bool(arg(node, 2, "keepdim", False)))
        axes = _axes(node, 1, "dim")
        ctx.emit(onnx_op, [ctx.value(node.args[0])], node, axes=axes, keepdims=keep)


_minmax("ReduceMax", aten.amax.default, torch.amax, "amax")
_minmax("ReduceMin", aten.amin.default, torch.amin, "amin")


def _whole(onnx_op: str, target: object, fn: object, id: str) -> None:
    """max()/min() of every element (a 0-d result): the reduction with no axes, which ONNX
    reads as all of them. Phi-3's longrope takes max(position_ids) to choose its factors.
    CANN's ReduceMax/ReduceMin take NumberType x (hicann/ops-math math/reduce_max
    op_graph/reduce_max_proto.h; int64 on AI Core from Ascend910B, AI CPU before)."""
    samples = [
        fn_sample(f"{id}_all", lambda x: fn(x) * 2, (3, 5)),  # type: ignore[operator]
        fn_sample(f"{id}_all_int64", lambda x: fn(x) + 1, (2, 7), inputs=_small_ints),  # type: ignore[operator]
        fn_sample(f"{id}_all_int32", lambda x: fn(x.int()), (6,), inputs=_small_ints),  # type: ignore[operator]
    ]

    @converter(target, onnx=[onnx_op], dtypes=(*FLOATS, torch.int32, torch.int64), samples=samples)
    def convert(ctx: LoweringContext, node: Node) -> None:
        ctx.emit(onnx_op, [ctx.value(node.args[0])], node, keepdims=0)


_whole("ReduceMax", aten.max.default, torch.max, "max")
_whole("ReduceMin", aten.min.default, torch.min, "min")


def _arg_supported(node: Node) -> str | None:
    """rank >= 1 (dim=None runs over the flattened tensor)."""
    if rank(node.args[0]) == 0:
        return "argmax/argmin of a 0-d tensor"
    return None


def _argminmax(onnx_op: str, target: object, fn: object, id: str) -> None:
    samples = [
        fn_sample(f"{id}_last", lambda x: fn(x, -1), (3, 5)),  # type: ignore[operator]
        fn_sample(f"{id}_keep", lambda x: fn(x, 1, keepdim=True), (2, 4, 3)),  # type: ignore[operator]
        fn_sample(f"{id}_dim0", lambda x: fn(x, 0), (6,)),  # type: ignore[operator]
        fn_sample(f"{id}_flat", lambda x: fn(x), (3, 1, 4)),  # type: ignore[operator]
        fn_sample(f"{id}_flat_keep", lambda x: fn(x, keepdim=True), (2, 5)),  # type: ignore[operator]
        fn_sample(f"{id}_int64", lambda x: fn(x, 1), (4, 6), inputs=_distinct_ints),  # type: ignore[operator]
        # CLIP's text tower: the end-of-text position of int32 token ids (ties: first index).
        fn_sample(f"{id}_int32", lambda x: fn(x, -1), (2, 7), inputs=_tied_int32s),  # type: ignore[operator]
    ]

    @converter(
        target,
        onnx=[onnx_op, "Reshape"],
        supports=_arg_supported,
        # int32 input: CANN's ArgMaxV2/ArgMin take any NumberType x (hicann/ops-math
        # math/arg_max_v2/op_graph/arg_max_v2_proto.h, math/arg_min/op_graph/arg_min_proto.h).
        dtypes=(*FLOATS, torch.int32, torch.int64),
        samples=samples,
    )
    def convert(ctx: LoweringContext, node: Node) -> None:
        x = node.args[0]
        dim = arg(node, 1, "dim")
        keep = int(bool(arg(node, 2, "keepdim", False)))
        xv = ctx.value(x)
        if dim is None:
            # Over the flattened tensor: a rank-1 view, then the result's shape ([] or all ones).
            flat = ctx.tmp("Reshape", [xv, ctx.int64s([math.prod(shape(x))])])
            index = ctx.tmp(onnx_op, [flat], axis=0, keepdims=1, select_last_index=0)
            ctx.emit("Reshape", [index, ctx.int64s(shape(node))], node)
            return
        axis = norm_dim(int(dim), rank(x))
        ctx.emit(onnx_op, [xv], node, axis=axis, keepdims=keep, select_last_index=0)


def _distinct_ints(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """A permutation of 0..n-1 minus n/2 (int64): no ties, so the first-index rule is not tested
    against a kernel's tie order, and negative values are included."""
    n = math.prod(shape_)
    return (torch.randperm(n, generator=gen) - n // 2).reshape(shape_)


def _tied_int32s(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """int32 token-id-like values in [0, 5): ties, so the first-index rule (select_last_index=0,
    PyTorch's) is what decides."""
    return torch.randint(0, 5, shape_, generator=gen, dtype=torch.int32)


_argminmax("ArgMax", aten.argmax.default, torch.argmax, "argmax")
_argminmax("ArgMin", aten.argmin.default, torch.argmin, "argmin")


def _values_and_indices_supported(node: Node) -> str | None:
    """rank >= 1."""
    if rank(node.args[0]) == 0:
        return "max/min over a dim of a 0-d tensor"
    return None


def _values_and_indices(
    reduce_op: str, arg_op: str, target: object, fn: Callable[..., Any], id: str
) -> None:
    """max(x, dim) / min(x, dim): the values (ReduceMax/ReduceMin) and the indices
    (ArgMax/ArgMin, the first of tied values as PyTorch documents for torch.max(dim)), each
    written into its getitem user. GPT-OSS's router and top-1 heads take both."""
    samples = [
        fn_sample(f"{id}_dim_both", lambda x: tuple(fn(x, -1)), (3, 5)),
        fn_sample(f"{id}_dim_keep_values", lambda x: fn(x, 1, keepdim=True)[0] * 2, (2, 4, 3)),
        fn_sample(f"{id}_dim_indices_tied", lambda x: fn(x, 0)[1], (5, 3), inputs=_tied_int32s),
    ]

    @converter(
        target,
        onnx=[reduce_op, arg_op],
        supports=_values_and_indices_supported,
        dtypes=(*FLOATS, torch.int32, torch.int64),
        samples=samples,
    )
    def convert(ctx: LoweringContext, node: Node) -> None:
        x = node.args[0]
        axis = norm_dim(int(arg(node, 1, "dim")), rank(x))
        keep = int(bool(arg(node, 2, "keepdim", False)))
        users = {int(u.args[1]): u for u in node.users if u.target is operator.getitem}
        values, indices = (
            ctx.out(users[i]) if i in users else ctx.builder.fresh("unused") for i in (0, 1)
        )
        xv = ctx.value(x)
        ctx.builder.add_node(reduce_op, [xv], [values], axes=[axis], keepdims=keep)
        ctx.builder.add_node(arg_op, [xv], [indices], axis=axis, keepdims=keep, select_last_index=0)
        ctx.bind(node, values)


_values_and_indices("ReduceMax", "ArgMax", aten.max.dim, torch.max, "max")
_values_and_indices("ReduceMin", "ArgMin", aten.min.dim, torch.min, "min")


def _mean_supported(node: Node) -> str | None:
    """rank >= 1; float32/float16 result (int input needs dtype=, converted first)."""
    if not tensor_val(node).dtype.is_floating_point:
        return "mean with an integer result"
    if rank(node.args[0]) == 0:
        return "mean of a 0-d tensor"
    return None


@converter(
    aten.mean.dim,
    aten.mean.default,
    onnx=["ReduceMean", "GlobalAveragePool", "Cast"],
    bf16_in_float32=["GlobalAveragePool"],
    dtypes=(*FLOATS, torch.int32, torch.int64),
    supports=_mean_supported,
    samples=[
        fn_sample("mean_last_keep", lambda x: x.mean(-1, keepdim=True), (3, 4)),
        fn_sample("mean_two_dims", lambda x: x.mean((0, 2)), (2, 3, 4)),
        fn_sample("mean_spatial_4d", lambda x: x.mean((2, 3), keepdim=True), (2, 3, 4, 5)),
        fn_sample("mean_spatial_4d_drop", lambda x: x.mean((-1, -2)), (1, 3, 4, 4)),
        fn_sample("mean_all", torch.mean, (3, 1, 4)),
        fn_sample("mean_same_dtype", lambda x: x.mean(1, dtype=torch.float32), (2, 5)),
        fn_sample(
            "mean_int64_to_float", lambda x: x.mean(dtype=torch.float32), (5, 4), inputs=ints
        ),
    ],
)
def mean(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    r = rank(x)
    # mean(x, dtype=d) converts the input first, then averages in d.
    xv = cast_to(ctx, x, tensor_val(node).dtype)
    if len(node.args) < 2 and "dim" not in node.kwargs:  # mean.default: every element, 0-d out
        ctx.emit("ReduceMean", [xv], node, axes=list(range(r)), keepdims=0)
        return
    axes = sorted(set(norm_dims(arg(node, 1, "dim"), r))) or list(range(r))
    keepdim = bool(arg(node, 2, "keepdim", False))
    if r == 4 and axes == [2, 3] and keepdim and tensor_val(node).dtype != torch.bfloat16:
        # Spatial mean of NCHW (what AdaptiveAvgPool2d(1) decomposes to) is GlobalAveragePool
        # (CANN's has no bfloat16: ReduceMean below takes it).
        ctx.emit("GlobalAveragePool", [xv], node)
        return
    # Opset 17: ReduceMean takes axes as an attribute (an input only from opset 18).
    ctx.emit("ReduceMean", [xv], node, axes=axes, keepdims=int(keepdim))


def _var_supported(node: Node) -> str | None:
    """numeric correction smaller than the reduced count."""
    correction = node.kwargs.get("correction", 1)
    correction = 1 if correction is None else correction
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        return f"correction {correction!r} is not a number"
    dims = shape(node.args[0])
    n = math.prod(dims[a] for a in _axes(node, 1, "dim"))
    if n - correction <= 0:
        return f"correction {correction} leaves no degrees of freedom over {n} values"
    return None


@converter(
    aten.var.correction,
    onnx=["ReduceMean", "Sub", "Mul"],
    supports=_var_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("var_last", lambda x: x.var(-1), (3, 6)),
        fn_sample(
            "var_keep_biased", lambda x: x.var((1, 2), unbiased=False, keepdim=True), (2, 3, 4)
        ),
        fn_sample("std_last", lambda x: x.std(-1, keepdim=True), (2, 1, 5)),
        fn_sample("var_all", lambda x: x.var() * 1.0, (4, 3)),
    ],
)
def var(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    xv = ctx.value(x)
    axes = _axes(node, 1, "dim")
    keep = int(bool(node.kwargs.get("keepdim", False)))
    correction = node.kwargs.get("correction", 1)
    correction = 1 if correction is None else float(correction)
    n = math.prod(shape(x)[a] for a in axes)
    centered = ctx.tmp("Sub", [xv, ctx.tmp("ReduceMean", [xv], axes=axes, keepdims=1)])
    sq_mean = ctx.tmp(
        "ReduceMean", [ctx.tmp("Mul", [centered, centered])], axes=axes, keepdims=keep
    )
    ctx.emit("Mul", [sq_mean, const_like(ctx, x, n / (n - correction))], node)


def _cumsum_supported(node: Node) -> str | None:
    """rank >= 1; float32/float16/int32/int64 result. Integer and bool input without dtype= sums
    in int64 (PyTorch's promotion); dtype= converts first, except float to integer or to bool."""
    if rank(node.args[0]) == 0:
        return "cumsum of a 0-d tensor"
    src, dst = tensor_val(node.args[0]).dtype, tensor_val(node).dtype
    if dst == torch.bool:
        return "cumsum with a bool result"
    if src.is_floating_point and not dst.is_floating_point:
        names = (str(d).replace("torch.", "") for d in (src, dst))
        return "cumsum {} -> {} (a truncating conversion) is not lowered".format(*names)
    return None


def _position_mask(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """int64 attention mask of 0s and 1s with right padding: RoBERTa/OPT position-id input."""
    mask = (torch.rand(shape_, generator=gen) < 0.8).long()
    mask[..., -1] = 0
    return mask


@converter(
    aten.cumsum.default,
    onnx=["CumSum", "Cast"],
    supports=_cumsum_supported,
    dtypes=(*FLOATS, torch.int32, torch.int64, torch.bool),
    samples=[
        fn_sample("cumsum_last", lambda x: x.cumsum(-1), (3, 5)),
        fn_sample("cumsum_dim0", lambda x: torch.cumsum(x, 0), (4, 1, 2)),
        fn_sample("cumsum_1d", lambda x: x.cumsum(0), (7,)),
        fn_sample("cumsum_same_dtype", lambda x: x.cumsum(1, dtype=torch.float32), (2, 4)),
        fn_sample("cumsum_int64", lambda x: torch.cumsum(x, 1), (3, 4, 2), inputs=_small_ints),
        fn_sample(
            "cumsum_position_ids",
            lambda m: torch.cumsum(m, dim=1).type_as(m) * m + 1,
            (2, 7),
            inputs=_position_mask,
        ),
        fn_sample("cumsum_int32_to_int64", lambda x: x.int().cumsum(0), (4, 3), inputs=_small_ints),
        fn_sample(
            "cumsum_int32_dtype",
            lambda x: torch.cumsum(x.int(), -1, dtype=torch.int32),
            (2, 6),
            inputs=_small_ints,
        ),
        fn_sample("cumsum_bool", lambda x: torch.cumsum(x > 0, 1), (3, 5)),
        fn_sample(
            "cumsum_int_to_float",
            lambda x: x.cumsum(0, dtype=torch.float32),
            (5, 2),
            inputs=_small_ints,
        ),
    ],
)
def cumsum(ctx: LoweringContext, node: Node) -> None:
    """ONNX CumSum, inclusive and forward (torch.cumsum has no exclusive/reverse). int64 CumSum is
    in CANN's op proto (hicann/ops-math math/cumsum/op_graph/cumsum_proto.h: int8..uint64, fp16,
    fp32, ...), although the older ONNX op list names only fp16/fp32/int32."""
    x = node.args[0]
    axis = norm_dim(int(arg(node, 1, "dim")), rank(x))
    axis_name = ctx.builder.add_initializer(torch.tensor(axis, dtype=torch.int64).numpy(), "axis")
    # PyTorch converts first: int32/bool sums run in int64, dtype= casts the input.
    xv = cast_to(ctx, x, tensor_val(node).dtype)
    ctx.emit("CumSum", [xv, axis_name], node)


def _any_supported(node: Node) -> str | None:
    """rank >= 1; bool, float32 or float16 input."""
    if rank(node.args[0]) == 0:
        return "any of a 0-d tensor"
    return None


def _mask(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Mostly-false float input (about 1 in 6 elements nonzero), so any() differs across rows."""
    values = torch.randn(shape_, generator=gen)
    return torch.where(torch.rand(shape_, generator=gen) < 0.17, values, torch.zeros(shape_))


@converter(
    aten.any.dim,
    aten.any.dims,
    aten.any.default,
    onnx=["Cast", "ReduceMax"],
    supports=_any_supported,
    dtypes=(torch.bool, *FLOATS),
    samples=[
        fn_sample("any_dim", lambda x: (x != 0).any(-1), (3, 5), inputs=_mask),
        fn_sample("any_dim_keep", lambda x: (x != 0).any(1, keepdim=True), (2, 4, 3), inputs=_mask),
        fn_sample("any_dims", lambda x: (x != 0).any(dim=(0, 2)), (2, 3, 4), inputs=_mask),
        fn_sample("any_all_elements", lambda x: (x > 2.0).any(), (3, 4)),
        fn_sample("any_float", lambda x: x.any(0), (4, 1, 3), inputs=_mask),
        fn_sample("all_dim", lambda x: (x > -1.5).all(1), (3, 6)),
        fn_sample("all_dims_keep", lambda x: (x > -2).all(dim=(0, 2), keepdim=True), (2, 3, 4)),
        fn_sample("all_elements", lambda x: (x > -3).all(), (2, 2)),
    ],
)
def any_(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    xv = ctx.value(x)
    if tensor_val(x).dtype != torch.bool:
        xv = ctx.tmp("Cast", [xv], to=TensorProto.BOOL)  # nonzero (and NaN) -> true
    # ReduceMax has no bool kernel (emulator, CANN): reduce 0/1 as int32, then back to bool.
    as_int = ctx.tmp("Cast", [xv], to=TensorProto.INT32)
    keep = int(bool(arg(node, 2, "keepdim", False)))
    axes = _axes(node, 1, "dim")
    reduced = ctx.tmp("ReduceMax", [as_int], axes=axes, keepdims=keep)
    ctx.emit("Cast", [reduced], node, to=TensorProto.BOOL)
