"""Shape and layout ops -> Reshape, Transpose, Concat, Softmax, ReduceMean, GlobalAveragePool,
Identity (the data-movement ones for float, int32/int64 and bool). Shapes are static, so every
reshape target is the exact output shape (an int64 initializer), never -1 or 0."""

from __future__ import annotations

import executorch.exir.passes.dim_order_ops_registry  # noqa: F401  (defines dim_order_ops)
import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, norm_dim, norm_dims, rank, shape, tensor_val
from ._layout import layout_reason

aten = torch.ops.aten
dim_order_ops = torch.ops.dim_order_ops

# Transpose, Concat and Identity move bytes, so integer and bool tensors stay on the device too.
_MOVABLE = (torch.float32, torch.float16, torch.int64, torch.int32, torch.bool)


def _ints(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """int64 values in [-100, 100): samples of the integer forms."""
    return torch.randint(-100, 100, shape_, generator=gen)


@converter(
    aten.view_copy.default,
    aten.unsqueeze_copy.default,
    aten.squeeze_copy.dims,
    onnx=["Reshape"],
    # Reshape moves bytes, so index tensors (a GPT-2 input_ids view) stay on the device too.
    dtypes=(torch.float32, torch.float16, torch.int64, torch.int32, torch.bool),
    samples=[
        fn_sample("view_flatten", lambda x: torch.flatten(x, 1), (2, 3, 4, 5)),
        fn_sample("view_infer", lambda x: x.reshape(-1, 6), (2, 3, 4)),
        fn_sample("view_after_add", lambda x: (x + 1).view(4, 3, 2), (2, 3, 4)),
        fn_sample("unsqueeze", lambda x: (x * 2).unsqueeze(1), (3, 4)),
        fn_sample("squeeze_dim", lambda x: (x * 2).squeeze(1), (3, 1, 4)),
        fn_sample("view_int64", lambda x: (x * 4).long().view(-1), (2, 3)),
    ],
)
def reshape(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Reshape", [ctx.value(node.args[0]), ctx.int64s(shape(node))], node)


@converter(
    aten.permute_copy.default,
    onnx=["Transpose"],
    dtypes=_MOVABLE,
    samples=[
        fn_sample("permute_nchw_nhwc", lambda x: x.permute(0, 2, 3, 1), (1, 3, 4, 5)),
        fn_sample("transpose_2d", lambda x: x.t() * 1.5, (3, 5)),
        fn_sample("transpose_negative", lambda x: x.transpose(-1, -3), (2, 3, 4)),
        fn_sample("permute_int64", lambda x: x.permute(2, 0, 1), (2, 1, 3), inputs=_ints),
        fn_sample("transpose_int32", lambda x: x.int().transpose(0, 1), (3, 4), inputs=_ints),
        fn_sample("transpose_bool", lambda x: (x > 0).transpose(1, 2), (2, 3, 2)),
    ],
)
def permute(ctx: LoweringContext, node: Node) -> None:
    perm = norm_dims(node.args[1], rank(node.args[0]))  # type: ignore[arg-type]
    ctx.emit("Transpose", [ctx.value(node.args[0])], node, perm=perm)


def _cat_supported(node: Node) -> str | None:
    """all inputs of one dtype (Concat does not promote)."""
    dtypes = {tensor_val(t).dtype for t in node.args[0]}  # type: ignore[union-attr]
    if len(dtypes) > 1:
        return f"cat of different dtypes {sorted(map(str, dtypes))} (needs a Cast)"
    return None


@converter(
    aten.cat.default,
    onnx=["Concat"],
    dtypes=_MOVABLE,
    supports=_cat_supported,
    samples=[
        fn_sample("cat_dim1", lambda x, y: torch.cat([x, y], 1), (2, 3), (2, 5)),
        fn_sample(
            "cat_neg_dim", lambda x, y, z: torch.cat([x, y, z], -1), (2, 2, 1), (2, 2, 3), (2, 2, 2)
        ),
        fn_sample("cat_dim0_4d", lambda x, y: torch.cat([x, y]), (1, 3, 2, 2), (2, 3, 2, 2)),
        fn_sample("cat_int64", lambda x, y: torch.cat([x, y], 1), (2, 1), (2, 3), inputs=_ints),
        fn_sample("stack", lambda x, y: torch.stack([x, y]), (3, 4), (3, 4)),
        fn_sample("stack_last", lambda x, y, z: torch.stack([x, y, z], -1), (2, 1), (2, 1), (2, 1)),
        fn_sample("stack_int64", lambda x, y: torch.stack([x, y], 1), (3,), (3,), inputs=_ints),
        fn_sample("cat_bool", lambda x, y: torch.cat([x > 0, y > 0]), (1, 4), (2, 4)),
    ],
)
def cat(ctx: LoweringContext, node: Node) -> None:
    axis = norm_dim(int(arg(node, 1, "dim", 0)), rank(node))  # type: ignore[arg-type]
    ctx.emit("Concat", [ctx.value(t) for t in node.args[0]], node, axis=axis)  # type: ignore[union-attr]


def _softmax_supported(node: Node) -> str | None:
    """no half_to_float."""
    return "half_to_float softmax is not lowered" if node.args[2] else None


@converter(
    aten._softmax.default,
    onnx=["Softmax"],
    dtypes=(torch.float32, torch.float16),
    supports=_softmax_supported,
    samples=[
        fn_sample("softmax_last", lambda x: torch.softmax(x, -1), (3, 7)),
        fn_sample("softmax_dim1", lambda x: torch.softmax(x * 4, 1), (2, 5, 3)),
        fn_sample("softmax_4d", lambda x: torch.nn.functional.softmax(x, dim=0), (3, 2, 2, 2)),
    ],
)
def softmax(ctx: LoweringContext, node: Node) -> None:
    axis = norm_dim(int(node.args[1]), rank(node.args[0]))  # type: ignore[arg-type]
    ctx.emit("Softmax", [ctx.value(node.args[0])], node, axis=axis)


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
    dtypes=(torch.float32, torch.float16, torch.int32, torch.int64),
    supports=_mean_supported,
    samples=[
        fn_sample("mean_last_keep", lambda x: x.mean(-1, keepdim=True), (3, 4)),
        fn_sample("mean_two_dims", lambda x: x.mean((0, 2)), (2, 3, 4)),
        fn_sample("mean_spatial_4d", lambda x: x.mean((2, 3), keepdim=True), (2, 3, 4, 5)),
        fn_sample("mean_spatial_4d_drop", lambda x: x.mean((-1, -2)), (1, 3, 4, 4)),
        fn_sample("mean_all", torch.mean, (3, 1, 4)),
        fn_sample("mean_same_dtype", lambda x: x.mean(1, dtype=torch.float32), (2, 5)),
        fn_sample(
            "mean_int64_to_float", lambda x: x.mean(dtype=torch.float32), (5, 4), inputs=_ints
        ),
    ],
)
def mean(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    r = rank(x)
    xv = ctx.value(x)
    dst = tensor_val(node).dtype
    if tensor_val(x).dtype != dst:
        # mean(x, dtype=d) converts the input first, then averages in d.
        xv = ctx.tmp("Cast", [xv], to=onnx_elem_type(dst))
    if len(node.args) < 2 and "dim" not in node.kwargs:  # mean.default: every element, 0-d out
        ctx.emit("ReduceMean", [xv], node, axes=list(range(r)), keepdims=0)
        return
    axes = sorted(set(norm_dims(arg(node, 1, "dim"), r))) or list(range(r))  # type: ignore[arg-type]
    keepdim = bool(arg(node, 2, "keepdim", False))
    if r == 4 and axes == [2, 3] and keepdim:
        # Spatial mean of NCHW (what AdaptiveAvgPool2d(1) decomposes to) is GlobalAveragePool.
        ctx.emit("GlobalAveragePool", [xv], node)
        return
    # Opset 17: ReduceMean takes axes as an attribute (an input only from opset 18).
    ctx.emit("ReduceMean", [xv], node, axes=axes, keepdims=int(keepdim))


def _identity_copy_supported(node: Node) -> str | None:
    """same dtype; any dim order (channels_last...) whose non-default layout stays inside the
    partition (alias_copy: always).

    Inside ONNX values have no layout, so a copy to another dim order is an Identity. Its result
    and whatever inherits its layout must not leave the partition, though: the Ascend runtime
    exchanges only default-dim-order tensors with ExecuTorch (see _layout.py). So
    `x.clone(memory_format=channels_last)` is taken when the layout chain it starts ends in a
    contiguous copy on the device, and refused (with that reason) when a channels_last tensor
    would be a model output or feed a CPU op; a contiguous copy (`.contiguous()`) whose input is
    channels_last is taken when that input is computed in the partition.
    """
    src = tensor_val(node.args[0])
    dtype = node.kwargs.get("dtype")
    if dtype is not None and dtype != src.dtype:
        return f"dtype conversion {src.dtype} -> {dtype} (Cast is not lowered)"
    dim_order = node.kwargs.get("dim_order")
    return layout_reason(node, None if dim_order is None else [int(d) for d in dim_order])


@converter(
    dim_order_ops._clone_dim_order.default,
    aten.alias_copy.default,
    onnx=["Identity"],
    dtypes=_MOVABLE,
    supports=_identity_copy_supported,
    samples=[
        fn_sample("clone", lambda x: (x + 1).clone() * 2, (2, 3)),
        fn_sample("clone_output", lambda x: x.clone(), (3, 1, 2)),
        fn_sample("clone_int64", lambda x: x.clone(), (2, 2), inputs=_ints),
        fn_sample("transpose_same_dim", lambda x: x.transpose(1, 1), (4, 3)),
        fn_sample(
            "clone_channels_last_inside",
            lambda x: (x.clone(memory_format=torch.channels_last) + 1).contiguous(),
            (1, 3, 2, 4),
            half=True,
        ),
        fn_sample(
            "clone_channels_last_bool",
            lambda x: (x > 0).clone(memory_format=torch.channels_last).contiguous(),
            (2, 2, 3, 1),
        ),
    ],
)
def identity_copy(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Identity", [ctx.value(node.args[0])], node)
