# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Shape and layout ops -> Reshape, Transpose, Expand, Identity (float, int32/int64 and bool
alike). Shapes are static, so every reshape target is the exact output shape (an int64
initializer), never -1 or 0; full_like is an Expand of a 0-d initializer (its value depends only on
the static shape, never on the input's data); copy (src broadcast into self's shape and dtype) is
Cast + Expand."""

from __future__ import annotations

import executorch.exir.passes.dim_order_ops_registry  # noqa: F401  (defines dim_order_ops)
import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..gears.specialize import GEAR_VARYING
from ..registry import converter
from ..samples import fn_sample, ints
from ._args import arg, norm_dims, rank, shape, tensor_val
from ._dtypes import MOVABLE
from ._layout import layout_reason, requested_dim_order

aten = torch.ops.aten
dim_order_ops = torch.ops.dim_order_ops


@converter(
    aten.view_copy.default,
    aten.unsqueeze_copy.default,
    aten.squeeze_copy.dims,
    onnx=["Reshape"],
    # Reshape moves bytes, so index tensors (a GPT-2 input_ids view) stay on the device too.
    dtypes=MOVABLE,
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
    dtypes=MOVABLE,
    samples=[
        fn_sample("permute_nchw_nhwc", lambda x: x.permute(0, 2, 3, 1), (1, 3, 4, 5)),
        fn_sample("transpose_2d", lambda x: x.t() * 1.5, (3, 5)),
        fn_sample("transpose_negative", lambda x: x.transpose(-1, -3), (2, 3, 4)),
        fn_sample("permute_int64", lambda x: x.permute(2, 0, 1), (2, 1, 3), inputs=ints),
        fn_sample("transpose_int32", lambda x: x.int().transpose(0, 1), (3, 4), inputs=ints),
        fn_sample("transpose_bool", lambda x: (x > 0).transpose(1, 2), (2, 3, 2)),
    ],
)
def permute(ctx: LoweringContext, node: Node) -> None:
    perm = norm_dims(node.args[1], rank(node.args[0]))
    ctx.emit("Transpose", [ctx.value(node.args[0])], node, perm=perm)


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
    return layout_reason(node, requested_dim_order(node))


@converter(
    dim_order_ops._clone_dim_order.default,
    aten.clone.default,  # with EdgeCompileConfig(_skip_dim_order=True), as optimum lowers
    aten.alias_copy.default,
    onnx=["Identity"],
    dtypes=MOVABLE,
    supports=_identity_copy_supported,
    samples=[
        fn_sample("clone", lambda x: (x + 1).clone() * 2, (2, 3)),
        fn_sample("clone_output", lambda x: x.clone(), (3, 1, 2)),
        fn_sample("clone_int64", lambda x: x.clone(), (2, 2), inputs=ints),
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


def _full_like_supported(node: Node) -> str | None:
    """a number (or bool) fill value; float32/float16/int32/int64/bool result."""
    value = arg(node, 1, "fill_value")
    if not isinstance(value, (int, float, bool)):
        return f"fill value {value!r} is not a number"
    return None


@converter(
    aten.full_like.default,
    onnx=["Expand", "Where", "IsNaN", "Equal"],
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
    value = float(value) if dtype.is_floating_point else int(value)
    source = node.args[0]
    if node.meta.get(GEAR_VARYING) and dtype.is_floating_point and isinstance(source, Node):
        # Its shape changes with the gear, and CANN's Expand takes only a constant shape: the
        # value broadcast over a mask of the input's own shape instead (true or false, the same
        # value; Where is SelectV2, which takes float16/float32).
        x = ctx.value(source)
        x_dtype = tensor_val(source).dtype
        mask = ctx.tmp("IsNaN", [x]) if x_dtype.is_floating_point else ctx.tmp("Equal", [x, x])
        fill = ctx.scalar(value, dtype)
        ctx.emit("Where", [mask, fill, fill], node)
        return
    ctx.emit("Expand", [ctx.scalar(value, dtype), ctx.int64s(shape(node))], node)


@converter(
    aten.expand_copy.default,
    onnx=["Expand"],
    dtypes=MOVABLE,
    samples=[
        fn_sample("expand_size1", lambda x: x.expand(3, 4), (1, 4)),
        fn_sample("expand_new_dims", lambda x: x.expand(2, 3, 5), (5,)),
        fn_sample("expand_keep", lambda x: x.expand(-1, 2, -1), (3, 1, 2)),
        fn_sample("expand_int64", lambda x: x.expand(2, 3, 4), (3, 1), inputs=ints),
        fn_sample("expand_bool", lambda x: (x > 0).expand(4, 2, 3), (1, 3)),
    ],
)
def expand(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("Expand", [ctx.value(node.args[0]), ctx.int64s(shape(node))], node)


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
