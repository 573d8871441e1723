# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""2-D and 3-D pooling -> MaxPool, AveragePool, GlobalAveragePool (1-D pooling included).

torch.nn.MaxPool1d / AvgPool1d / AdaptiveAvgPool1d reach the edge graph as unsqueeze + the 2-D
op on (N, C, 1, L) + squeeze, so 4-D NCHW and (for the *_3d ops) 5-D NCDHW pools are lowered;
the 3-D converters share the 2-D ones' checks and emitters, parameterized by spatial rank.
Adaptive average pooling is lowered where it is a plain pooling: 1x1 (GlobalAveragePool) or every
input size divisible by the output size (AveragePool with kernel = stride = in / out). Limits
quoted are CANN's documented ones for its ONNX parser (cann-onnx-ops reference): a node outside
them would fail in atc or fall back to AI CPU, so it stays on ExecuTorch's CPU kernels.
"""

from __future__ import annotations

import math

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import arg, ints, rank, shape, tensor_val
from ._dtypes import FLOATS
from ._tuple_outputs import emit_first_output, first_output_name, only_first_output_used
from ._window import (
    MAX_POOL_2D_WINDOW_ELEMENTS,
    WINDOW_LIMITS,
    avg_kernel_limit,
    cann_window_limits,
    check_pool_rank,
    input_width,
    onnx_pads,
    pool_shape_matches,
    pool_window,
    spatial_rank,
)

aten = torch.ops.aten


# max_pool{2,3}d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1,
#                             ceil_mode=False)
def _max_pool_reason(node: Node, n: int) -> str | None:
    bad_rank = check_pool_rank(node, n, "max pooling")
    if bad_rank:
        return bad_rank
    if not only_first_output_used(node):
        return "the indices output of max pooling is used (ONNX/CANN MaxPool has none)"
    d = ints(arg(node, 4, "dilation", 1), n)
    if n == 2 and d != [1, 1]:
        return "CANN's MaxPool has no dilation for 2-D input"
    if n == 3 and d != [1, 1, 1]:
        # Lowered as 2-D MaxPools (below), which have no dilation on CANN.
        return "CANN's 3-D MaxPool cannot be used and its 2-D MaxPool has no dilation"
    k, s, p = pool_window(node)
    if math.prod(k[-2:]) > MAX_POOL_2D_WINDOW_ELEMENTS:
        # CANN runs such a window on an AI CPU path (PadV2 with -65504, VALID padding): ceil_mode
        # is dropped and float32 values below -65504 come out wrong.
        return (
            f"a 2-D MaxPool window of {math.prod(k[-2:])} elements "
            f"(CANN: at most {MAX_POOL_2D_WINDOW_ELEMENTS})"
        )
    ceil = bool(arg(node, 5, "ceil_mode", False))
    reason = cann_window_limits(k, s, d, p, input_width(node)) or pool_shape_matches(
        node, k, s, p, d, ceil
    )
    if reason is None and n == 3:
        out = shape(node)
        widest = WINDOW_LIMITS["input_width"][1]
        if out[3] * out[4] > widest:
            return (
                f"pooled planes of {out[3]}x{out[4]} (the depth pass is a 2-D MaxPool of "
                f"width H*W, CANN: at most {widest})"
            )
    return reason


def _max_pool_supported(node: Node) -> str | None:
    """4-D NCHW (MaxPool1d arrives with H = 1), indices unused, no dilation; CANN: kernel 1..255,
    stride 1..63, pad 0..255, W <= 4096; ONNX output size equal to PyTorch's (ceil_mode)."""
    return _max_pool_reason(node, 2)


def _max_pool3d_supported(node: Node) -> str | None:
    """5-D NCDHW, indices unused, no dilation; as two 2-D MaxPools: CANN: kernel 1..255,
    kH*kW <= 255, stride 1..63, pad 0..255, W <= 4096, pooled H*W <= 4096; ONNX output size equal
    to PyTorch's (ceil_mode)."""
    return _max_pool_reason(node, 3)


def _bf16(node: Node) -> bool:
    return tensor_val(node.args[0]).dtype == torch.bfloat16


def _emit_max_pool(ctx: LoweringContext, node: Node) -> None:
    k, s, p = pool_window(node)
    d = ints(arg(node, 4, "dilation", 1), len(k))
    extra = {"dilations": d} if any(v != 1 for v in d) else {}
    attrs = dict(
        kernel_shape=k,
        strides=s,
        pads=onnx_pads(p),
        ceil_mode=int(bool(arg(node, 5, "ceil_mode", False))),
        **extra,
    )
    # Opset 17's MaxPool and AveragePool have no bfloat16: a bfloat16 pool computes in float32
    # (exact for a max; eager averages bfloat16 in float32 too) and casts back.
    first_output_name(ctx, node)
    ctx.emit_in_float32("MaxPool", [node.args[0]], node, **attrs)


@converter(
    aten.max_pool2d_with_indices.default,
    dtypes=FLOATS,
    onnx=["MaxPool", "Cast"],
    bf16_in_float32=["MaxPool"],
    supports=_max_pool_supported,
    samples=[
        module_sample("maxpool_2x2", lambda: torch.nn.MaxPool2d(2), (1, 3, 8, 8)),
        module_sample(
            "maxpool_3x3_s2_pad", lambda: torch.nn.MaxPool2d(3, 2, padding=1), (2, 4, 9, 9)
        ),
        module_sample("maxpool_ceil", lambda: torch.nn.MaxPool2d(2, ceil_mode=True), (1, 2, 7, 5)),
        module_sample("maxpool_rect", lambda: torch.nn.MaxPool2d((2, 3), (1, 2)), (1, 1, 6, 8)),
        module_sample("maxpool1d_2", lambda: torch.nn.MaxPool1d(2), (2, 3, 8), half=True),
        module_sample("maxpool1d_3_s2_pad", lambda: torch.nn.MaxPool1d(3, 2, padding=1), (1, 4, 9)),
        module_sample(
            "maxpool1d_ceil_len1_ch", lambda: torch.nn.MaxPool1d(2, ceil_mode=True), (1, 1, 7)
        ),
    ],
)
def max_pool2d(ctx: LoweringContext, node: Node) -> None:
    _emit_max_pool(ctx, node)


@converter(
    aten.max_pool3d_with_indices.default,
    dtypes=FLOATS,
    onnx=["MaxPool", "Reshape", "Cast"],
    bf16_in_float32=["MaxPool"],
    supports=_max_pool3d_supported,
    samples=[
        module_sample("maxpool3d_2", lambda: torch.nn.MaxPool3d(2), (1, 2, 4, 6, 6)),
        module_sample(
            "maxpool3d_3_s2_pad", lambda: torch.nn.MaxPool3d(3, 2, padding=1), (2, 3, 5, 7, 6)
        ),
        module_sample(
            "maxpool3d_ceil", lambda: torch.nn.MaxPool3d(2, ceil_mode=True), (1, 1, 5, 7, 3)
        ),
        module_sample(
            "maxpool3d_aniso_d1",
            lambda: torch.nn.MaxPool3d((1, 3, 2), (1, 2, 1)),
            (1, 3, 1, 7, 5),
        ),
        module_sample(
            "maxpool3d_aniso_ceil_pad",
            lambda: torch.nn.MaxPool3d((3, 3, 2), (2, 2, 1), padding=(1, 1, 0), ceil_mode=True),
            (2, 3, 7, 6, 9),
        ),
    ],
)
def max_pool3d(ctx: LoweringContext, node: Node) -> None:
    """Two 2-D MaxPools, exact because max is separable: the (kH, kW) window over each depth
    slice ([N, C*D, H, W]), then the (kD, 1) window down the depth ([N, C, D, H'*W']). CANN's own
    3-D MaxPool cannot be used: its ONNX plugin passes 3-element ksize/strides where the op's
    shape inference wants 5 (docs/using-real-cann.md)."""
    k, s, p = pool_window(node)
    ceil = int(bool(arg(node, 5, "ceil_mode", False)))
    n, c, depth, h, w = shape(node.args[0])
    _, _, depth_out, h_out, w_out = shape(node)
    x = ctx.float32_value(node.args[0]) if _bf16(node) else ctx.value(node.args[0])
    planes = ctx.tmp("Reshape", [x, ctx.int64s([n, c * depth, h, w])])
    pooled = ctx.tmp(
        "MaxPool",
        [planes],
        kernel_shape=k[1:],
        strides=s[1:],
        pads=onnx_pads(p[1:]),
        ceil_mode=ceil,
    )
    columns = ctx.tmp("Reshape", [pooled, ctx.int64s([n, c, depth, h_out * w_out])])
    deep = ctx.tmp(
        "MaxPool",
        [columns],
        kernel_shape=[k[0], 1],
        strides=[s[0], 1],
        pads=onnx_pads([p[0], 0]),
        ceil_mode=ceil,
    )
    dims = ctx.int64s([n, c, depth_out, h_out, w_out])
    if _bf16(node):
        first_output_name(ctx, node)
        ctx.emit_from_float32(ctx.tmp("Reshape", [deep, dims]), node)
    else:
        emit_first_output(ctx, node, "Reshape", [deep, dims])


# avg_pool{2,3}d(self, kernel_size, stride=[], padding=0, ceil_mode=False,
#                count_include_pad=True, divisor_override=None)
def _avg_pool_reason(node: Node, n: int) -> str | None:
    bad_rank = check_pool_rank(node, n, "average pooling")
    if bad_rank:
        return bad_rank
    if arg(node, 6, "divisor_override") is not None:
        return "divisor_override is not lowered"
    k, s, p = pool_window(node)
    if _window_covers_input(node, k, p):
        return None  # GlobalAveragePool
    if any(p) and arg(node, 5, "count_include_pad", True):
        return (
            "count_include_pad with padding: CANN's AveragePool does not support count_include_pad"
        )
    ceil = bool(arg(node, 4, "ceil_mode", False))
    ones = [1] * n
    return (
        cann_window_limits(k, s, ones, p, input_width(node))
        or avg_kernel_limit(k)
        or pool_shape_matches(node, k, s, p, ones, ceil)
    )


def _window_covers_input(node: Node, k: list[int], p: list[int]) -> bool:
    """One window over the whole unpadded input: a global average, whatever the kernel size.
    transformers' EfficientNet pools its 7x7 map with AvgPool2d(2560, ceil_mode=True); CANN's
    AveragePool refuses such kernels, and the CPU's took seconds on it. Without padding PyTorch
    divides by the elements inside the input (count_include_pad or not), as GlobalAveragePool."""
    in_sizes = shape(node.args[0])[2:]
    return (
        not any(p)
        and all(o == 1 for o in shape(node)[2:])
        and all(kk >= size for kk, size in zip(k, in_sizes, strict=True))
    )


def _avg_pool_supported(node: Node) -> str | None:
    """4-D NCHW (AvgPool1d arrives with H = 1), no divisor_override; one window over the whole
    unpadded input (any kernel: GlobalAveragePool), or padding only with count_include_pad=False
    and CANN: kernel 1..255, kH*kW <= 256, stride 1..63, pad 0..255, W <= 4096; ONNX output size
    equal to PyTorch's (ceil_mode)."""
    return _avg_pool_reason(node, 2)


def _avg_pool3d_supported(node: Node) -> str | None:
    """5-D NCDHW, no divisor_override; one window over the whole unpadded input (any kernel:
    GlobalAveragePool), or padding only with count_include_pad=False and CANN: kernel 1..255,
    kD*kH*kW <= 256, stride 1..63, pad 0..255, W <= 4096; ONNX output size equal to PyTorch's
    (ceil_mode)."""
    return _avg_pool_reason(node, 3)


def _emit_global(ctx: LoweringContext, node: Node, x: str) -> None:
    # CANN's GlobalAveragePool has no bfloat16 (its proto: float16, float32, double); ReduceMean
    # over the spatial axes is the same mean and takes it.
    if _bf16(node):
        ctx.emit("ReduceMean", [x], node, axes=list(range(2, rank(node.args[0]))), keepdims=1)
    else:
        ctx.emit("GlobalAveragePool", [x], node)


def _emit_avg_pool(ctx: LoweringContext, node: Node) -> None:
    k, s, p = pool_window(node)
    if _window_covers_input(node, k, p):
        _emit_global(ctx, node, ctx.value(node.args[0]))
        return
    # Without padding, PyTorch's divisor is always the in-bounds window, which is ONNX's
    # count_include_pad=0, the only mode CANN's AveragePool documents.
    ctx.emit_in_float32(
        "AveragePool",
        [node.args[0]],
        node,
        kernel_shape=k,
        strides=s,
        pads=onnx_pads(p),
        ceil_mode=int(bool(arg(node, 4, "ceil_mode", False))),
        count_include_pad=0,
    )


@converter(
    aten.avg_pool2d.default,
    dtypes=FLOATS,
    onnx=["AveragePool", "GlobalAveragePool", "ReduceMean", "Cast"],
    bf16_in_float32=["AveragePool", "GlobalAveragePool"],
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
        module_sample("avgpool1d_3", lambda: torch.nn.AvgPool1d(3), (2, 3, 9), half=True),
        module_sample(
            "avgpool1d_pad_exclude",
            lambda: torch.nn.AvgPool1d(3, 2, padding=1, count_include_pad=False),
            (1, 4, 10),
        ),
        module_sample(
            "avgpool1d_ceil_s1", lambda: torch.nn.AvgPool1d(4, 3, ceil_mode=True), (1, 1, 11)
        ),
        # EfficientNet's head: one window larger than the input (GlobalAveragePool)
        module_sample(
            "avgpool_window_past_input",
            lambda: torch.nn.AvgPool2d(2560, ceil_mode=True),
            (1, 4, 7, 7),
            half=True,
        ),
        module_sample("avgpool_window_is_input", lambda: torch.nn.AvgPool2d((3, 5)), (2, 3, 3, 5)),
    ],
)
def avg_pool2d(ctx: LoweringContext, node: Node) -> None:
    _emit_avg_pool(ctx, node)


@converter(
    aten.avg_pool3d.default,
    dtypes=FLOATS,
    onnx=["AveragePool", "GlobalAveragePool", "ReduceMean", "Cast"],
    bf16_in_float32=["AveragePool", "GlobalAveragePool"],
    supports=_avg_pool3d_supported,
    samples=[
        module_sample("avgpool3d_2", lambda: torch.nn.AvgPool3d(2), (1, 2, 4, 6, 6)),
        module_sample(
            "avgpool3d_pad_exclude",
            lambda: torch.nn.AvgPool3d(3, 2, padding=1, count_include_pad=False),
            (2, 2, 5, 7, 6),
        ),
        module_sample(
            "avgpool3d_ceil", lambda: torch.nn.AvgPool3d(2, ceil_mode=True), (1, 1, 5, 3, 7)
        ),
        module_sample(
            "avgpool3d_aniso_d1",
            lambda: torch.nn.AvgPool3d((1, 2, 3), (1, 1, 2)),
            (1, 3, 1, 6, 7),
        ),
    ],
)
def avg_pool3d(ctx: LoweringContext, node: Node) -> None:
    _emit_avg_pool(ctx, node)


# (_)adaptive_avg_pool{2,3}d(self, output_size)
def _adaptive_kernel(node: Node) -> list[int] | None:
    """The AveragePool kernel (= stride) equal to this adaptive pool, None if there is none."""
    in_sizes, out_sizes = shape(node.args[0])[2:], ints(node.args[1], spatial_rank(node))
    if any(o < 1 or i % o for i, o in zip(in_sizes, out_sizes, strict=True)):
        return None
    return [i // o for i, o in zip(in_sizes, out_sizes, strict=True)]


def _is_global(node: Node) -> bool:
    return all(o == 1 for o in ints(node.args[1], spatial_rank(node)))


def _adaptive_reason(node: Node, n: int) -> str | None:
    bad_rank = check_pool_rank(node, n, "adaptive pooling")
    if bad_rank:
        return bad_rank
    if _is_global(node):
        return None
    k = _adaptive_kernel(node)
    if k is None:
        return (
            f"input size {shape(node.args[0])[2:]} is not divisible by output size "
            f"{ints(node.args[1], n)}: PyTorch's windows vary, no single AveragePool matches"
        )
    return cann_window_limits(k, k, [1] * n, [0] * n, input_width(node)) or avg_kernel_limit(k)


def _adaptive_supported(node: Node) -> str | None:
    """4-D NCHW (AdaptiveAvgPool1d arrives with H = 1); output 1x1 (GlobalAveragePool), or H and
    W divisible by the output size (AveragePool, kernel = stride = in/out; CANN: kernel 1..255,
    kH*kW <= 256, stride 1..63, W <= 4096)."""
    return _adaptive_reason(node, 2)


def _adaptive3d_supported(node: Node) -> str | None:
    """5-D NCDHW; output 1x1x1 (GlobalAveragePool), or D, H and W divisible by the output size
    (AveragePool, kernel = stride = in/out; CANN: kernel 1..255, kD*kH*kW <= 256, stride 1..63,
    W <= 4096)."""
    return _adaptive_reason(node, 3)


def _emit_adaptive(ctx: LoweringContext, node: Node) -> None:
    if _is_global(node):
        _emit_global(ctx, node, ctx.value(node.args[0]))
        return
    k = _adaptive_kernel(node)
    ctx.emit_in_float32(
        "AveragePool",
        [node.args[0]],
        node,
        kernel_shape=k,
        strides=k,
        pads=[0] * (2 * len(k)),
        count_include_pad=0,
    )


# Kept whole (where supported) so 1x1 becomes one GlobalAveragePool: decomposed, 1x1 is mean.dim
# (-> ReduceMean) and other sizes are _adaptive_avg_pool2d, lowered the same way below.
@converter(
    aten.adaptive_avg_pool2d.default,
    dtypes=FLOATS,
    onnx=["GlobalAveragePool", "AveragePool", "ReduceMean", "Cast"],
    bf16_in_float32=["AveragePool", "GlobalAveragePool"],
    supports=_adaptive_supported,
    keep_whole=True,
    samples=[
        module_sample("adaptive_1x1", lambda: torch.nn.AdaptiveAvgPool2d(1), (2, 3, 5, 7)),
        module_sample(
            "adaptive_1x1_tuple", lambda: torch.nn.AdaptiveAvgPool2d((1, 1)), (1, 8, 4, 4)
        ),
        module_sample(
            "adaptive_2x3", lambda: torch.nn.AdaptiveAvgPool2d((2, 3)), (1, 3, 4, 6), half=True
        ),
        module_sample(
            "adaptive_none_h", lambda: torch.nn.AdaptiveAvgPool2d((None, 2)), (2, 2, 3, 8)
        ),
        module_sample("adaptive_same_size", lambda: torch.nn.AdaptiveAvgPool2d(5), (1, 2, 5, 5)),
        # export writes adaptive_avg_pool1d as unsqueeze + adaptive_avg_pool2d + squeeze, and
        # the lowering keeps that adaptive_avg_pool2d whole too.
        module_sample("adaptive1d_3", lambda: torch.nn.AdaptiveAvgPool1d(3), (2, 4, 9)),
    ],
)
def adaptive_avg_pool2d(ctx: LoweringContext, node: Node) -> None:
    _emit_adaptive(ctx, node)


# What adaptive_avg_pool2d decomposes to where it is not kept whole: to_edge without the
# partitioner's ops_to_not_decompose, or a direct call.
@converter(
    aten._adaptive_avg_pool2d.default,
    dtypes=FLOATS,
    onnx=["GlobalAveragePool", "AveragePool", "ReduceMean", "Cast"],
    bf16_in_float32=["AveragePool", "GlobalAveragePool"],
    supports=_adaptive_supported,
    samples=[
        fn_sample(
            "adaptive_core_2x3", lambda x: aten._adaptive_avg_pool2d(x, [2, 3]), (1, 3, 4, 6)
        ),
        fn_sample(
            "adaptive_core_1x1", lambda x: aten._adaptive_avg_pool2d(x, [1, 1]), (2, 5, 3, 3)
        ),
        fn_sample(
            "adaptive_core_1x4", lambda x: aten._adaptive_avg_pool2d(x, [1, 4]), (1, 2, 1, 8)
        ),
    ],
)
def adaptive_avg_pool2d_core(ctx: LoweringContext, node: Node) -> None:
    _emit_adaptive(ctx, node)


# Kept whole, as the 2-D one, so 1x1x1 becomes one GlobalAveragePool instead of mean.dim.
@converter(
    aten.adaptive_avg_pool3d.default,
    dtypes=FLOATS,
    onnx=["GlobalAveragePool", "AveragePool", "ReduceMean", "Cast"],
    bf16_in_float32=["AveragePool", "GlobalAveragePool"],
    supports=_adaptive3d_supported,
    keep_whole=True,
    samples=[
        module_sample("adaptive3d_1", lambda: torch.nn.AdaptiveAvgPool3d(1), (2, 3, 3, 5, 4)),
        module_sample(
            "adaptive3d_2x3x1", lambda: torch.nn.AdaptiveAvgPool3d((2, 3, 1)), (1, 2, 4, 6, 5)
        ),
        module_sample(
            "adaptive3d_none_d", lambda: torch.nn.AdaptiveAvgPool3d((None, 2, 2)), (1, 2, 3, 4, 6)
        ),
        module_sample(
            "adaptive3d_same_d1", lambda: torch.nn.AdaptiveAvgPool3d((1, 3, 3)), (1, 2, 1, 3, 3)
        ),
    ],
)
def adaptive_avg_pool3d(ctx: LoweringContext, node: Node) -> None:
    _emit_adaptive(ctx, node)


# What adaptive_avg_pool3d decomposes to where it is not kept whole.
@converter(
    aten._adaptive_avg_pool3d.default,
    dtypes=FLOATS,
    onnx=["GlobalAveragePool", "AveragePool", "ReduceMean", "Cast"],
    bf16_in_float32=["AveragePool", "GlobalAveragePool"],
    supports=_adaptive3d_supported,
    samples=[
        fn_sample(
            "adaptive3d_core_2x1x3",
            lambda x: aten._adaptive_avg_pool3d(x, [2, 1, 3]),
            (1, 3, 4, 5, 6),
        ),
        fn_sample(
            "adaptive3d_core_1x1x1",
            lambda x: aten._adaptive_avg_pool3d(x, [1, 1, 1]),
            (2, 2, 3, 3, 1),
        ),
    ],
)
def adaptive_avg_pool3d_core(ctx: LoweringContext, node: Node) -> None:
    _emit_adaptive(ctx, node)
