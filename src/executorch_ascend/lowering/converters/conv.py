# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""1-D, 2-D and 3-D convolution, plain and transposed -> Conv, ConvTranspose.

torch.nn.Conv1d/2d/3d and ConvTranspose1d/2d/3d all reach the edge graph as aten.convolution on a
3-D (N, C, L), 4-D (N, C, H, W) or 5-D (N, C, D, H, W) input; the ONNX node keeps that rank (CANN
runs 1-D as 2-D with H = 1 itself, so its limits apply to the last dim; its ONNX parser maps a
5-D Conv to Conv3D and a 5-D ConvTranspose to Conv3DTranspose, both with NOTSET padding as here).
Limits quoted are CANN's documented ones for its ONNX parser (cann-onnx-ops reference): a node
outside them would fail in atc or fall back to AI CPU, so it stays on ExecuTorch's CPU kernels.
Pooling (pool.py) shares the window helpers of _window.py.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import module_sample
from ._args import ints, rank, shape
from ._dtypes import FLOATS
from ._quant import takes_int8
from ._window import cann_window_limits, input_width, onnx_pads, spatial_rank
from .quantized import Int8Layers, between_sixteenths, emit_int8_convolution

aten = torch.ops.aten


def _transposed_out(size: int, k: int, s: int, p: int, d: int, out_pad: int) -> int:
    # ONNX ConvTranspose with symmetric pads and output_padding (its output_shape unset).
    return s * (size - 1) + out_pad + (k - 1) * d + 1 - 2 * p


# convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
def _window(node: Node) -> tuple[list[int], list[int], list[int], list[int]]:
    n = spatial_rank(node)
    k = shape(node.args[1])[2:]
    return k, ints(node.args[3], n), ints(node.args[4], n), ints(node.args[5], n)


def _transposed_supported(
    node: Node, k: list[int], s: list[int], p: list[int], d: list[int]
) -> str | None:
    n = len(k)
    groups = int(node.args[8])
    channels = shape(node.args[0])[1]
    if channels % groups != 0:
        return f"input channels {channels} not divisible by group {groups} (CANN ConvTranspose)"
    out_pad = ints(node.args[7], n)
    if not all(0 <= o < max(si, di) for o, si, di in zip(out_pad, s, d, strict=True)):
        return f"output_padding {out_pad} not below max(stride, dilation)"
    in_sp = shape(node.args[0])[2:]
    expect = [_transposed_out(in_sp[i], k[i], s[i], p[i], d[i], out_pad[i]) for i in range(n)]
    got = shape(node)[2:]
    if expect != got:
        return f"ONNX ConvTranspose would give spatial size {expect}, PyTorch gives {got}"
    return None


def _conv_supported(node: Node) -> str | None:
    """3-D (N,C,L), 4-D (N,C,H,W) or 5-D (N,C,D,H,W) input; CANN limits: kernel 1..255, stride
    1..63, dilation 1..255, pad 0..255, last dim W <= 4096; transposed: input channels divisible
    by groups, output size as PyTorch's (output_padding < max(stride, dilation))."""
    if rank(node.args[0]) not in (3, 4, 5):
        return "only 1-D, 2-D and 3-D convolution (input rank 3, 4 or 5) is lowered"
    k, s, p, d = _window(node)
    limits = cann_window_limits(k, s, d, p, input_width(node))
    if limits is not None or not node.args[6]:
        return limits
    return _transposed_supported(node, k, s, p, d)


@converter(
    aten.convolution.default,
    dtypes=FLOATS,
    onnx=["Conv", "ConvTranspose", "AscendDequant", "Cast"],
    bf16_in_float32=["Conv", "ConvTranspose"],
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
        module_sample(
            "conv1d_k3_pad", lambda: torch.nn.Conv1d(3, 8, 3, padding=1), (2, 3, 10), half=True
        ),
        module_sample(
            "conv1d_stride_dilation_no_bias",
            lambda: torch.nn.Conv1d(4, 6, 3, stride=2, padding=2, dilation=2, bias=False),
            (1, 4, 13),
        ),
        module_sample(
            "conv1d_groups", lambda: torch.nn.Conv1d(6, 4, 5, groups=2, padding=4), (1, 6, 1)
        ),
        module_sample("conv1d_k1_len1", lambda: torch.nn.Conv1d(5, 2, 1), (3, 5, 1)),
        # An even kernel with padding="same" pads unevenly: a constant_pad_nd, then the conv.
        module_sample(
            "conv1d_same_even_kernel",
            lambda: torch.nn.Conv1d(2, 3, 4, padding="same"),
            (1, 2, 9),
        ),
        module_sample(
            "convT2d_k3_s2_outpad",
            lambda: torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1),
            (1, 4, 5, 5),
            half=True,
        ),
        module_sample(
            "convT2d_groups_dilation_no_bias",
            lambda: torch.nn.ConvTranspose2d(
                4, 6, (3, 2), stride=(1, 2), padding=(2, 0), dilation=2, groups=2, bias=False
            ),
            (2, 4, 4, 3),
        ),
        module_sample(
            "convT2d_rect_outpad_h1",
            lambda: torch.nn.ConvTranspose2d(3, 2, (1, 4), stride=(1, 3), output_padding=(0, 2)),
            (1, 3, 1, 6),
        ),
        module_sample(
            "convT1d_k3_s2_outpad",
            lambda: torch.nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1),
            (2, 4, 7),
            half=True,
        ),
        module_sample(
            "convT1d_depthwise_dilation",
            lambda: torch.nn.ConvTranspose1d(3, 3, 2, dilation=3, groups=3, bias=False),
            (1, 3, 1),
        ),
        module_sample(
            "conv3d_k3_pad",
            lambda: torch.nn.Conv3d(3, 4, 3, padding=1),
            (1, 3, 4, 5, 6),
            half=True,
        ),
        module_sample(
            "conv3d_stride_dilation_groups_no_bias",
            lambda: torch.nn.Conv3d(
                4,
                6,
                (2, 3, 1),
                stride=(1, 2, 2),
                padding=(1, 2, 0),
                dilation=(2, 2, 1),
                groups=2,
                bias=False,
            ),
            (2, 4, 5, 7, 6),
        ),
        module_sample(
            "convT3d_k3_s2_outpad",
            lambda: torch.nn.ConvTranspose3d(4, 3, 3, stride=2, padding=1, output_padding=1),
            (1, 4, 3, 4, 5),
            half=True,
        ),
        module_sample(
            "convT3d_groups_dilation_no_bias",
            lambda: torch.nn.ConvTranspose3d(
                4, 6, (2, 1, 3), stride=(2, 1, 1), dilation=(1, 1, 2), groups=2, bias=False
            ),
            (1, 4, 3, 2, 4),
        ),
        # convert_pt2e's int8 conv: Conv on int8 values, AscendDequant to fp16 (quantized.py).
        module_sample(
            "conv_int8", Int8Layers, (2, 3, 5, 5), (2, 6), inputs=between_sixteenths, rel=2e-3
        ),
    ],
)
def convolution(ctx: LoweringContext, node: Node) -> None:
    k, s, p, d = _window(node)
    attrs: dict[str, object] = {
        "kernel_shape": k,  # CANN's ConvTranspose requires it; harmless for Conv
        "strides": s,
        "pads": onnx_pads(p),
        "dilations": d,
        "group": int(node.args[8]),
    }
    if takes_int8(node):
        emit_int8_convolution(ctx, node, attrs)
        return
    bias = node.args[2]
    operands = [node.args[0], node.args[1]] + ([bias] if bias is not None else [])
    if node.args[6]:
        # PyTorch's (C_in, C_out / groups, k...) weight is ONNX ConvTranspose's layout already.
        ctx.emit_in_float32(
            "ConvTranspose", operands, node, output_padding=ints(node.args[7], len(k)), **attrs
        )
    else:
        ctx.emit_in_float32("Conv", operands, node, **attrs)
