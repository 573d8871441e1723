"""2-D convolution and pooling -> Conv, MaxPool, AveragePool, GlobalAveragePool.

Limits quoted are CANN's documented ones for its ONNX parser (cann-onnx-ops reference): a node
outside them would fail in atc or fall back to AI CPU, so it stays on ExecuTorch's CPU kernels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import module_sample
from ._args import arg, ints, rank, shape
from .tuple_outputs import emit_first_output, only_first_output_used

aten = torch.ops.aten


def _pads(padding: Sequence[int]) -> list[int]:
    # ONNX pads are [begin_h, begin_w, end_h, end_w]; PyTorch pads symmetrically.
    return [padding[0], padding[1], padding[0], padding[1]]


def _onnx_pool_out(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    # The ONNX spec's output size, without PyTorch's rule that drops a last window starting in the
    # padding. A node is only lowered when both agree, so either implementation gives torch's shape.
    span = size + 2 * p - d * (k - 1) - 1
    return (math.ceil if ceil_mode else math.floor)(span / s) + 1


def _shape_matches(
    node: Node, k: list[int], s: list[int], p: list[int], d: list[int], ceil: bool
) -> str | None:
    in_hw = shape(node.args[0])[2:]
    out_hw = shape(node)[2:]
    expect = [_onnx_pool_out(in_hw[i], k[i], s[i], p[i], d[i], ceil) for i in range(2)]
    if expect != out_hw:
        return f"ceil_mode window rule differs between PyTorch ({out_hw}) and ONNX ({expect})"
    return None


def _cann_window_limits(
    k: list[int], s: list[int], d: list[int], p: list[int], width: int
) -> str | None:
    if not all(1 <= v <= 255 for v in k):
        return f"kernel {k} outside CANN's [1, 255]"
    if not all(1 <= v <= 63 for v in s):
        return f"stride {s} outside CANN's [1, 63]"
    if not all(1 <= v <= 255 for v in d):
        return f"dilation {d} outside CANN's [1, 255]"
    if not all(0 <= v <= 255 for v in p):
        return f"padding {p} outside CANN's [0, 255]"
    if not 1 <= width <= 4096:
        return f"input width {width} outside CANN's [1, 4096]"
    return None


# convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
def _conv_supported(node: Node) -> str | None:
    """4-D NCHW input, not transposed; CANN limits: kernel 1..255, stride 1..63,
    dilation 1..255, pad 0..255, W <= 4096."""
    if rank(node.args[0]) != 4:
        return "only 2-D convolution (4-D NCHW input) is lowered"
    if node.args[6]:
        return "transposed convolution is not lowered"
    k = shape(node.args[1])[2:]
    return _cann_window_limits(
        k,
        ints(node.args[3], 2),
        ints(node.args[5], 2),
        ints(node.args[4], 2),
        shape(node.args[0])[3],
    )


@converter(
    aten.convolution.default,
    onnx=["Conv"],
    supports=_conv_supported,
    samples=[
        module_sample("conv_3x3_pad", lambda: torch.nn.Conv2d(3, 8, 3, padding=1), (1, 3, 8, 8)),
        module_sample(
            "conv_stride_no_bias",
            lambda: torch.nn.Conv2d(4, 6, (3, 2), stride=2, bias=False),
            (2, 4, 9, 7),
        ),
        module_sample(
            "conv_groups_dilation",
            lambda: torch.nn.Conv2d(4, 8, 3, padding=2, dilation=2, groups=2),
            (1, 4, 10, 10),
        ),
        module_sample(
            "conv_depthwise", lambda: torch.nn.Conv2d(6, 6, 5, padding=2, groups=6), (1, 6, 7, 7)
        ),
        module_sample(
            "conv_1x1_asym_pad", lambda: torch.nn.Conv2d(3, 5, 1, padding=(0, 1)), (1, 3, 4, 6)
        ),
    ],
)
def convolution(ctx: LoweringContext, node: Node) -> None:
    x, w = ctx.value(node.args[0]), ctx.value(node.args[1])
    bias = node.args[2]
    inputs = [x, w] + ([ctx.value(bias)] if bias is not None else [])
    ctx.emit(
        "Conv",
        inputs,
        node,
        kernel_shape=shape(node.args[1])[2:],
        strides=ints(node.args[3], 2),
        pads=_pads(ints(node.args[4], 2)),
        dilations=ints(node.args[5], 2),
        group=int(node.args[8]),  # type: ignore[arg-type]
    )


def _pool_window(node: Node) -> tuple[list[int], list[int], list[int]]:
    k = ints(node.args[1], 2)
    stride = arg(node, 2, "stride", [])
    s = ints(stride, 2) if stride else list(k)
    p = ints(arg(node, 3, "padding", 0), 2)
    return k, s, p


# max_pool2d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)
def _max_pool_supported(node: Node) -> str | None:
    """4-D NCHW, indices unused, no dilation; CANN window limits; output size as
    PyTorch computes it."""
    if rank(node.args[0]) != 4:
        return "only 4-D NCHW max pooling is lowered"
    if not only_first_output_used(node):
        return "the indices output of max_pool2d_with_indices is used (ONNX/CANN MaxPool has none)"
    d = ints(arg(node, 4, "dilation", 1), 2)
    if d != [1, 1]:
        return "CANN's MaxPool has no dilation for 2-D input"
    k, s, p = _pool_window(node)
    ceil = bool(arg(node, 5, "ceil_mode", False))
    return _cann_window_limits(k, s, d, p, shape(node.args[0])[3]) or _shape_matches(
        node, k, s, p, d, ceil
    )


@converter(
    aten.max_pool2d_with_indices.default,
    onnx=["MaxPool"],
    supports=_max_pool_supported,
    samples=[
        module_sample("maxpool_2x2", lambda: torch.nn.MaxPool2d(2), (1, 3, 8, 8)),
        module_sample(
            "maxpool_3x3_s2_pad", lambda: torch.nn.MaxPool2d(3, 2, padding=1), (2, 4, 9, 9)
        ),
        module_sample("maxpool_ceil", lambda: torch.nn.MaxPool2d(2, ceil_mode=True), (1, 2, 7, 5)),
        module_sample("maxpool_rect", lambda: torch.nn.MaxPool2d((2, 3), (1, 2)), (1, 1, 6, 8)),
    ],
)
def max_pool2d(ctx: LoweringContext, node: Node) -> None:
    k, s, p = _pool_window(node)
    emit_first_output(
        ctx,
        node,
        "MaxPool",
        [ctx.value(node.args[0])],
        kernel_shape=k,
        strides=s,
        pads=_pads(p),
        ceil_mode=int(bool(arg(node, 5, "ceil_mode", False))),
    )


# avg_pool2d(self, kernel_size, stride=[], padding=0, ceil_mode=False, count_include_pad=True,
#            divisor_override=None)
def _avg_pool_supported(node: Node) -> str | None:
    """4-D NCHW, no divisor_override, count_include_pad only without padding; CANN window limits."""
    if rank(node.args[0]) != 4:
        return "only 4-D NCHW average pooling is lowered"
    if arg(node, 6, "divisor_override") is not None:
        return "divisor_override is not lowered"
    k, s, p = _pool_window(node)
    if any(p) and arg(node, 5, "count_include_pad", True):
        return (
            "count_include_pad with padding: CANN's AveragePool does not support count_include_pad"
        )
    ceil = bool(arg(node, 4, "ceil_mode", False))
    return _cann_window_limits(k, s, [1, 1], p, shape(node.args[0])[3]) or _shape_matches(
        node, k, s, p, [1, 1], ceil
    )


@converter(
    aten.avg_pool2d.default,
    onnx=["AveragePool"],
    supports=_avg_pool_supported,
    samples=[
        module_sample("avgpool_2x2", lambda: torch.nn.AvgPool2d(2), (1, 3, 8, 8)),
        module_sample(
            "avgpool_pad_exclude",
            lambda: torch.nn.AvgPool2d(3, 2, padding=1, count_include_pad=False),
            (2, 2, 7, 9),
        ),
        module_sample("avgpool_ceil", lambda: torch.nn.AvgPool2d(2, ceil_mode=True), (1, 2, 5, 7)),
        module_sample("avgpool_rect", lambda: torch.nn.AvgPool2d((3, 2), (2, 1)), (1, 3, 7, 6)),
    ],
)
def avg_pool2d(ctx: LoweringContext, node: Node) -> None:
    k, s, p = _pool_window(node)
    # Without padding, PyTorch's divisor is always the in-bounds window, which is ONNX's
    # count_include_pad=0, the only mode CANN's AveragePool documents.
    ctx.emit(
        "AveragePool",
        [ctx.value(node.args[0])],
        node,
        kernel_shape=k,
        strides=s,
        pads=_pads(p),
        ceil_mode=int(bool(arg(node, 4, "ceil_mode", False))),
        count_include_pad=0,
    )


def _adaptive_supported(node: Node) -> str | None:
    """4-D NCHW, output size 1x1 only (GlobalAveragePool)."""
    if rank(node.args[0]) != 4:
        return "only 4-D NCHW adaptive pooling is lowered"
    if ints(node.args[1], 2) != [1, 1]:
        return "adaptive_avg_pool2d is lowered only to 1x1 (GlobalAveragePool)"
    return None


@converter(
    aten.adaptive_avg_pool2d.default,
    onnx=["GlobalAveragePool"],
    supports=_adaptive_supported,
    keep_whole=True,
    samples=[
        module_sample("adaptive_1x1", lambda: torch.nn.AdaptiveAvgPool2d(1), (2, 3, 5, 7)),
        module_sample(
            "adaptive_1x1_tuple", lambda: torch.nn.AdaptiveAvgPool2d((1, 1)), (1, 8, 4, 4)
        ),
    ],
)
def adaptive_avg_pool2d(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("GlobalAveragePool", [ctx.value(node.args[0])], node)
