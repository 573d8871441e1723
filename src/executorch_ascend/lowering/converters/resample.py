"""Padding, resizing and dtype casts -> Pad, Resize, Cast.

CANN's Pad supports only constant_value 0 in constant mode, so other fill values stay on the CPU.
F.pad's reflect and replicate modes are kept whole (aten.pad, keep_whole): to_edge would otherwise
turn them into arange/abs/clamp index arithmetic and an aten.index gather, which stays on the CPU.
They become one Pad with mode reflect / edge.
CANN runs nearest Resize as round_prefer_ceil whatever nearest_mode says; PyTorch's nearest is
floor(dst * in / out). For integer upscale factors half_pixel coordinates land strictly inside
(q - 0.5, q + 0.5) of the floor source index q, so every rounding mode picks q: only those are
lowered, with attributes that mean the same under both readings.
"""

from __future__ import annotations

import executorch.exir.passes.dim_order_ops_registry  # noqa: F401  (defines dim_order_ops)
import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import arg, rank, shape, tensor_val
from ._dtypes import FLOATS
from ._layout import layout_reason

aten = torch.ops.aten
dim_order_ops = torch.ops.dim_order_ops
F = torch.nn.functional


def _pad_supported(node: Node) -> str | None:
    """fill value 0 (CANN), no negative (cropping) pads."""
    pads = [int(p) for p in node.args[1]]  # type: ignore[union-attr]
    if any(p < 0 for p in pads):
        return "negative padding (cropping) is not lowered"
    if float(arg(node, 2, "value", 0)) != 0.0:  # type: ignore[arg-type]
        return "CANN's Pad supports only constant_value 0"
    return None


@converter(
    aten.constant_pad_nd.default,
    onnx=["Pad"],
    supports=_pad_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("pad_last", lambda x: F.pad(x, (1, 2)), (2, 3, 4)),
        fn_sample("pad_two_dims", lambda x: F.pad(x, (0, 1, 2, 0)), (1, 2, 3, 3)),
        fn_sample("pad_1d", lambda x: F.pad(x * 2, (3, 0)), (5,)),
    ],
)
def constant_pad(ctx: LoweringContext, node: Node) -> None:
    _emit_pad(ctx, node, "constant")


def _emit_pad(ctx: LoweringContext, node: Node, mode: str) -> None:
    x = node.args[0]
    r = rank(x)
    torch_pads = [int(p) for p in node.args[1]]  # type: ignore[union-attr]
    # PyTorch lists (begin, end) pairs from the last dim backwards; ONNX all begins then all ends.
    begins, ends = [0] * r, [0] * r
    for i in range(len(torch_pads) // 2):
        begins[r - 1 - i], ends[r - 1 - i] = torch_pads[2 * i], torch_pads[2 * i + 1]
    ctx.emit("Pad", [ctx.value(x), ctx.int64s(begins + ends)], node, mode=mode)


_PAD_MODES = {"reflect": "reflect", "replicate": "edge"}


def _mode_pad_supported(node: Node) -> str | None:
    """reflect or replicate mode; pads >= 0; reflect pads smaller than the padded dim."""
    mode = str(arg(node, 2, "mode", "constant"))
    if mode not in _PAD_MODES:
        return f"pad mode {mode!r} is not lowered whole"
    pads = [int(p) for p in node.args[1]]  # type: ignore[union-attr]
    dims = shape(node.args[0])
    if len(pads) % 2 or len(pads) // 2 > len(dims):
        return f"{len(pads)} pad values for a {len(dims)}-D input"
    if any(p < 0 for p in pads):
        return "negative padding (cropping) is not lowered"
    if mode == "reflect":
        for i, p in enumerate(pads):
            size = dims[len(dims) - 1 - i // 2]
            if p >= size:
                return f"reflect pad {p} is not smaller than the padded dim {size}"
    return None


@converter(
    aten.pad.default,
    onnx=["Pad"],
    supports=_mode_pad_supported,
    dtypes=FLOATS,
    keep_whole=True,
    samples=[
        fn_sample("pad_reflect_2d", lambda x: F.pad(x, (1, 2, 1, 0), mode="reflect"), (1, 2, 4, 4)),
        fn_sample("pad_reflect_1d", lambda x: F.pad(x, (2, 1), mode="reflect"), (2, 3, 5)),
        fn_sample("pad_reflect_1d_nobatch", lambda x: F.pad(x, (0, 3), mode="reflect"), (3, 4)),
        fn_sample(
            "pad_reflect_3d",
            lambda x: F.pad(x, (1, 1, 0, 2, 2, 1), mode="reflect"),
            (1, 2, 3, 4, 5),
        ),
        fn_sample(
            "pad_reflect_2d_nobatch", lambda x: F.pad(x, (0, 1, 2, 2), mode="reflect"), (2, 3, 6)
        ),
        fn_sample(
            "pad_replicate_2d", lambda x: F.pad(x, (2, 0, 1, 3), mode="replicate"), (2, 3, 3, 4)
        ),
        fn_sample("pad_replicate_1d", lambda x: F.pad(x, (4, 1), mode="replicate"), (1, 2, 3)),
        fn_sample(
            "pad_replicate_size1", lambda x: F.pad(x, (2, 2, 0, 3), mode="replicate"), (1, 1, 1, 1)
        ),
        fn_sample(
            "pad_replicate_3d",
            lambda x: F.pad(x, (0, 2, 1, 1, 3, 0), mode="replicate"),
            (2, 1, 2, 3, 2),
        ),
    ],
)
def mode_pad(ctx: LoweringContext, node: Node) -> None:
    _emit_pad(ctx, node, _PAD_MODES[str(arg(node, 2, "mode", "constant"))])


def _resize_inputs(ctx: LoweringContext, node: Node) -> list[str]:
    # Opset 17 Resize: X, roi (unused), scales (unused), sizes (the static output shape).
    return [ctx.value(node.args[0]), "", "", ctx.int64s(shape(node))]


def _nearest_supported(node: Node) -> str | None:
    """4-D; output H and W are integer multiples of the input's (CANN rounds nearest up)."""
    if rank(node.args[0]) != 4:
        return "nearest upsampling of a non-4-D tensor"
    ins, outs = shape(node.args[0])[2:], shape(node)[2:]
    if any(o % i for i, o in zip(ins, outs, strict=True)):
        return f"non-integer nearest scale {ins} -> {outs}"
    return None


@converter(
    aten.upsample_nearest2d.vec,
    onnx=["Resize"],
    supports=_nearest_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("upsample_nearest_x2", lambda x: F.interpolate(x, scale_factor=2), (1, 2, 3, 4)),
        fn_sample("upsample_nearest_size", lambda x: F.interpolate(x, size=(3, 8)), (2, 1, 1, 2)),
        fn_sample(
            "upsample_nearest_x3_1", lambda x: F.interpolate(x, scale_factor=(3, 1)), (1, 3, 2, 2)
        ),
    ],
)
def upsample_nearest(ctx: LoweringContext, node: Node) -> None:
    ctx.emit(
        "Resize",
        _resize_inputs(ctx, node),
        node,
        mode="nearest",
        coordinate_transformation_mode="half_pixel",
        nearest_mode="round_prefer_ceil",
    )


def _bilinear_supported(node: Node) -> str | None:
    """4-D input."""
    return None if rank(node.args[0]) == 4 else "bilinear upsampling of a non-4-D tensor"


@converter(
    aten.upsample_bilinear2d.vec,
    onnx=["Resize"],
    supports=_bilinear_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample(
            "upsample_bilinear_x2",
            lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"),
            (1, 2, 3, 4),
        ),
        fn_sample(
            "upsample_bilinear_size",
            lambda x: F.interpolate(x, size=(5, 7), mode="bilinear"),
            (2, 1, 3, 3),
        ),
        fn_sample(
            "upsample_bilinear_align",
            lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
            (1, 3, 2, 3),
        ),
    ],
)
def upsample_bilinear(ctx: LoweringContext, node: Node) -> None:
    align = bool(arg(node, 2, "align_corners", False))
    # PyTorch's align_corners=False is ONNX's pytorch_half_pixel (half_pixel, but size-1 outputs
    # sample 0).
    ctx.emit(
        "Resize",
        _resize_inputs(ctx, node),
        node,
        mode="linear",
        coordinate_transformation_mode="align_corners" if align else "pytorch_half_pixel",
    )


_CAST_DTYPES = (torch.float32, torch.float16, torch.int32, torch.int64, torch.bool)


def _cast_supported(node: Node) -> str | None:
    """float32/float16/int32/int64/bool; any dim order whose non-default layout stays inside the
    partition.

    Inside ONNX values have no layout, so `x.to(dtype, memory_format=channels_last)` is a Cast (or
    an Identity). Its result and whatever inherits its layout (a conv of a channels_last input is
    channels_last too) must not leave the partition: the Ascend runtime exchanges only
    default-dim-order tensors with ExecuTorch (see _layout.py). So channels_last between two convs
    is taken when the chain ends in a contiguous copy on the device, and refused (with that
    reason) when a channels_last tensor would be a model output or feed a CPU op.
    """
    dim_order = node.kwargs.get("dim_order")
    return layout_reason(node, None if dim_order is None else [int(d) for d in dim_order])


class _ChannelsLastConvs(torch.nn.Module):
    """conv -> channels_last -> conv -> contiguous: the layout never leaves the device."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 4, 3)
        self.c2 = torch.nn.Conv2d(4, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.c1(x).to(memory_format=torch.channels_last)
        return torch.relu(self.c2(y)).contiguous()


@converter(
    dim_order_ops._to_dim_order_copy.default,
    onnx=["Cast", "Identity"],
    supports=_cast_supported,
    dtypes=_CAST_DTYPES,
    samples=[
        fn_sample("cast_to_int32", lambda x: (x * 3).to(torch.int32), (2, 3)),
        fn_sample("cast_bool_to_float", lambda x: (x > 0).float() * x, (3, 1, 4)),
        fn_sample("cast_to_half", lambda x: x.half(), (4,)),
        fn_sample("cast_int64_to_float", lambda x: x.long().float() + 1, (2, 2)),
        module_sample("to_channels_last_convs", _ChannelsLastConvs, (1, 3, 6, 5), half=True),
        fn_sample(
            "to_channels_last_half",
            lambda x: (x.to(torch.float16, memory_format=torch.channels_last) * 2).contiguous(),
            (2, 3, 2, 2),
        ),
    ],
)
def cast(ctx: LoweringContext, node: Node) -> None:
    from ...dtypes import onnx_elem_type

    src = tensor_val(node.args[0]).dtype
    dst = tensor_val(node).dtype
    if src == dst:
        ctx.emit("Identity", [ctx.value(node.args[0])], node)
    else:
        ctx.emit("Cast", [ctx.value(node.args[0])], node, to=onnx_elem_type(dst))
