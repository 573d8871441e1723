"""Shape and layout ops -> Reshape, Transpose, Concat, Softmax, ReduceMean, GlobalAveragePool,
Identity. Shapes are static, so every reshape target is the exact output shape (an int64
initializer), never -1 or 0."""

from __future__ import annotations

import executorch.exir.passes.dim_order_ops_registry  # noqa: F401  (defines dim_order_ops)
import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, norm_dim, norm_dims, rank, shape, tensor_val

aten = torch.ops.aten
dim_order_ops = torch.ops.dim_order_ops


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
    dtypes=(torch.float32, torch.float16),
    samples=[
        fn_sample("permute_nchw_nhwc", lambda x: x.permute(0, 2, 3, 1), (1, 3, 4, 5)),
        fn_sample("transpose_2d", lambda x: x.t() * 1.5, (3, 5)),
        fn_sample("transpose_negative", lambda x: x.transpose(-1, -3), (2, 3, 4)),
    ],
)
def permute(ctx: LoweringContext, node: Node) -> None:
    perm = norm_dims(node.args[1], rank(node.args[0]))  # type: ignore[arg-type]
    ctx.emit("Transpose", [ctx.value(node.args[0])], node, perm=perm)


@converter(
    aten.cat.default,
    onnx=["Concat"],
    dtypes=(torch.float32, torch.float16),
    samples=[
        fn_sample("cat_dim1", lambda x, y: torch.cat([x, y], 1), (2, 3), (2, 5)),
        fn_sample(
            "cat_neg_dim", lambda x, y, z: torch.cat([x, y, z], -1), (2, 2, 1), (2, 2, 3), (2, 2, 2)
        ),
        fn_sample("cat_dim0_4d", lambda x, y: torch.cat([x, y]), (1, 3, 2, 2), (2, 3, 2, 2)),
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
    """no dtype argument."""
    if node.kwargs.get("dtype") is not None:
        return "mean with a dtype argument is not lowered"
    return None


@converter(
    aten.mean.dim,
    onnx=["ReduceMean", "GlobalAveragePool"],
    dtypes=(torch.float32, torch.float16),
    supports=_mean_supported,
    samples=[
        fn_sample("mean_last_keep", lambda x: x.mean(-1, keepdim=True), (3, 4)),
        fn_sample("mean_two_dims", lambda x: x.mean((0, 2)), (2, 3, 4)),
        fn_sample("mean_spatial_4d", lambda x: x.mean((2, 3), keepdim=True), (2, 3, 4, 5)),
        fn_sample("mean_spatial_4d_drop", lambda x: x.mean((-1, -2)), (1, 3, 4, 4)),
    ],
)
def mean(ctx: LoweringContext, node: Node) -> None:
    x = node.args[0]
    r = rank(x)
    axes = sorted(set(norm_dims(arg(node, 1, "dim"), r))) or list(range(r))  # type: ignore[arg-type]
    keepdim = bool(arg(node, 2, "keepdim", False))
    if r == 4 and axes == [2, 3] and keepdim:
        # Spatial mean of NCHW (what AdaptiveAvgPool2d(1) decomposes to) is GlobalAveragePool.
        ctx.emit("GlobalAveragePool", [ctx.value(x)], node)
        return
    # Opset 17: ReduceMean takes axes as an attribute (an input only from opset 18).
    ctx.emit("ReduceMean", [ctx.value(x)], node, axes=axes, keepdims=int(keepdim))


def _identity_copy_supported(node: Node) -> str | None:
    """same dtype, contiguous dim order."""
    src = tensor_val(node.args[0])
    dtype = node.kwargs.get("dtype")
    if dtype is not None and dtype != src.dtype:
        return f"dtype conversion {src.dtype} -> {dtype} (Cast is not lowered)"
    dim_order = node.kwargs.get("dim_order")
    if dim_order is not None and list(dim_order) != list(range(src.dim())):
        return f"non-contiguous dim_order {list(dim_order)} (only contiguous layouts are lowered)"
    return None


@converter(
    dim_order_ops._clone_dim_order.default,
    onnx=["Identity"],
    dtypes=(torch.float32, torch.float16),
    supports=_identity_copy_supported,
    samples=[
        fn_sample("clone", lambda x: (x + 1).clone() * 2, (2, 3)),
        fn_sample("clone_output", lambda x: x.clone(), (3, 1, 2)),
    ],
)
def identity_copy(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Identity", [ctx.value(node.args[0])], node)
