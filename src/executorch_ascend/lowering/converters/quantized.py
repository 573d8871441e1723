# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""PT2E's quantize/dequantize and the int8 convolution and linear -> CANN's quant ops.

CANN's ONNX parser registers none of ONNX's QuantizeLinear / DequantizeLinear / QLinearConv /
MatMulInteger; it has its own ops in the default domain (cann-quant reference, sections 1-3), and
these are what reach atc:

  quantize_per_tensor(x)          -> AscendQuant (x * (1/s) + zp, rounded, in fp16) -> int8
  conv of int8 operands           -> Conv (int8 x, int8 W, int32 B) -> int32
                                     -> AscendDequant(deq_scale = s_x * s_w) -> fp16
  linear of int8 operands         -> Gemm (2-D x), or MatMul + Add (int32 B), -> AscendDequant
  any other dequantize_per_tensor -> AscendAntiQuant ((q - zp) * s, in fp16) -> fp16

CANN's dequantizing ops write fp16; a float32 graph gets a Cast back to float32 after them. The
activation offset zp reaches the int8 op through the AscendQuant that produced its input (CANN's
graph engine sets the cube op's offset_x from it), so the int32 bias carries no offset term, as
in AMCT's deploy model.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type, to_numpy
from ..context import LoweringContext, LoweringError
from ..registry import converter
from ..samples import fn_sample
from ._args import shape, tensor_val
from ._dtypes import FLOATS
from ._quant import (
    DEQUANTIZE,
    INT8_RANGE,
    QUANTIZE,
    deq_scale,
    int8_activation,
    int8_weight,
    int32_bias,
    only_int8_consumers,
    quant_attributes,
)

qd = torch.ops.quantized_decomposed


def _cast_from_fp16(ctx: LoweringContext, value: str, dtype: torch.dtype, node: Node) -> None:
    """Binds `node` to the fp16 `value`, through a Cast where `node` is of another dtype."""
    if dtype == torch.float16:
        ctx.emit("Identity", [value], node)
    else:
        ctx.emit("Cast", [value], node, to=onnx_elem_type(dtype))


def _quant_range_supported(node: Node) -> str | None:
    """int8 with CANN's range [-128, 127] (AscendQuant saturates there)."""
    qmin, qmax, dtype = node.args[3:6]
    if dtype != torch.int8:
        return f"CANN's AscendQuant writes int8, not {str(dtype).replace('torch.', '')}"
    if (qmin, qmax) != INT8_RANGE:
        return f"quantization range [{qmin}, {qmax}] (CANN's AscendQuant saturates to [-128, 127])"
    return None


def _between_steps(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Multiples of 1/8 plus a fraction away from a rounding tie, from -20 to 20 (past the int8
    range at scale 1/8, zero point 3): q(x) is the same computed in fp16 (CANN) and fp32."""
    whole = torch.randint(-160, 160, shape, generator=gen).float()
    frac = 0.05 + 0.35 * torch.rand(shape, generator=gen)
    sign = torch.where(torch.rand(shape, generator=gen) < 0.5, -1.0, 1.0)
    return (whole + 0.5 + sign * (0.5 - frac)) / 8


def _fake_quant(x: torch.Tensor) -> torch.Tensor:
    """quantize -> dequantize back to x's dtype (float32 is dequantize's default)."""
    q = qd.quantize_per_tensor(x, 0.125, 3, -128, 127, torch.int8)
    return qd.dequantize_per_tensor(q, 0.125, 3, -128, 127, torch.int8, out_dtype=x.dtype)


@converter(
    QUANTIZE,
    onnx=["AscendQuant", "Cast"],
    dtypes=(*FLOATS, torch.int8),
    supports=_quant_range_supported,
    samples=[fn_sample("quantize_dequantize", _fake_quant, (3, 40), inputs=_between_steps)],
)
def quantize(ctx: LoweringContext, node: Node) -> None:
    x, scale, zero_point = node.args[:3]
    if not isinstance(scale, float) or not isinstance(zero_point, int):
        raise LoweringError(f"{node.name}: scale and zero point must be numbers")
    value = ctx.value(x)
    if tensor_val(x).dtype == torch.bfloat16:  # CANN's AscendQuant reads fp16 and fp32
        value = ctx.tmp("Cast", [value], to=onnx_elem_type(torch.float32))
    ctx.emit("AscendQuant", [value], node, **quant_attributes(scale, zero_point))


def _dequantize_relu(x: torch.Tensor) -> torch.Tensor:
    """A dequantize read by a float op (ReLU): AscendAntiQuant, then a Cast to float32."""
    q = qd.quantize_per_tensor(x, 0.125, -5, -128, 127, torch.int8)
    y = qd.dequantize_per_tensor(q, 0.125, -5, -128, 127, torch.int8, out_dtype=x.dtype)
    return torch.relu(y)


@converter(
    DEQUANTIZE,
    onnx=["AscendAntiQuant", "Cast"],
    dtypes=(*FLOATS, torch.int8),
    supports=_quant_range_supported,
    samples=[fn_sample("dequantize_relu", _dequantize_relu, (2, 3, 8), inputs=_between_steps)],
)
def dequantize(ctx: LoweringContext, node: Node) -> None:
    if only_int8_consumers(node):
        return  # the int8 conv / linear reading it takes the int8 value itself
    q, scale, zero_point = node.args[:3]
    if not isinstance(scale, float) or not isinstance(zero_point, int):
        raise LoweringError(f"{node.name}: scale and zero point must be numbers")
    half = ctx.tmp("AscendAntiQuant", [ctx.value(q)], scale=scale, offset=float(zero_point))
    _cast_from_fp16(ctx, half, tensor_val(node).dtype, node)


def _dequantize_int32(
    ctx: LoweringContext, acc: str, scales: np.ndarray, sources: list[Node]
) -> str:
    """AscendDequant of an int32 accumulator: fp16 acc * s_x * s_w (per output channel)."""
    deq = ctx.derived_initializer(deq_scale(scales), "deq_scale", sources)
    return ctx.tmp("AscendDequant", [acc, deq], dtype=1, sqrt_mode=0, relu_flag=0)


def _int8_parts(
    ctx: LoweringContext, node: Node, transposed: bool = False
) -> tuple[str, np.ndarray, str, str | None]:
    """The int8 activation's value, s_x * s_w per output channel, the int8 weight (`transposed`:
    a linear's as [K, N], for MatMul) and the int32 bias initializers of an int8 convolution or
    linear."""
    act = int8_activation(node.args[0])
    assert act is not None
    w_node = node.args[1]
    assert isinstance(w_node, Node)
    bias = node.args[2] if len(node.args) > 2 else node.kwargs.get("bias")
    try:
        weight = int8_weight(ctx.constant, w_node)
        scales = act.scale * weight.scales
        b = int32_bias(ctx.constant, bias if isinstance(bias, Node) else None, scales)
    except ValueError as e:
        raise LoweringError(str(e)) from None
    if scales.size == 1 and weight.values.shape[0] > 1 and b is not None and b.size > 1:
        scales = np.broadcast_to(scales, (b.size,)).copy()
    values = weight.values.t().contiguous() if transposed else weight.values
    w = ctx.derived_initializer(to_numpy(values), "weight_int8", [w_node])
    bias_name = None
    if b is not None:
        bias_name = ctx.derived_initializer(b, "bias_int32", [bias])
    return ctx.value(act.value), scales, w, bias_name


def emit_int8_convolution(ctx: LoweringContext, node: Node, attrs: dict[str, object]) -> None:
    """Conv(int8 x, int8 W, int32 B) -> int32 -> AscendDequant -> node's float dtype."""
    x, scales, w, bias = _int8_parts(ctx, node)
    acc = ctx.tmp("Conv", [x, w] + ([bias] if bias else []), **attrs)
    half = _dequantize_int32(ctx, acc, scales, [node.args[1]])  # type: ignore[list-item]
    _cast_from_fp16(ctx, half, tensor_val(node).dtype, node)


def emit_int8_linear(ctx: LoweringContext, node: Node) -> None:
    """AMCT's forms, with AscendQuant feeding the cube op directly (CANN's graph engine takes the
    activation offset from it, so nothing may sit between them):

      2-D x:  Gemm(int8 x, int8 W, int32 B, transB=1) -> int32 [M, N] -> AscendDequant (one
              deq_scale, or one per column N);
      else:   MatMul(int8 x, int8 W^T) -> int32 [..., N] -> Add(int32 B) -> AscendDequant(s_x
              * s_w, one scale); per-channel weights (another quantizer's) dequantize with s_x
              and multiply by s_w per column in fp16."""
    x, scales, w, bias = _int8_parts(ctx, node, transposed=len(shape(node.args[0])) != 2)
    dtype = tensor_val(node).dtype
    sources: list[Node] = [node.args[1]]  # type: ignore[list-item]
    if len(shape(node.args[0])) == 2:
        acc = ctx.tmp("Gemm", [x, w] + ([bias] if bias else []), transB=1)
        _cast_from_fp16(ctx, _dequantize_int32(ctx, acc, scales, sources), dtype, node)
        return
    acc = ctx.tmp("MatMul", [x, w])
    if bias:
        acc = ctx.tmp("Add", [acc, bias])
    act = int8_activation(node.args[0])
    assert act is not None
    if scales.size == 1 or np.all(scales == scales[0]):
        half = _dequantize_int32(ctx, acc, scales[:1], sources)
    else:
        half = _dequantize_int32(ctx, acc, np.asarray([act.scale]), sources)
        column = ctx.derived_initializer(
            (scales / act.scale).astype(np.float16), "w_scale", sources
        )
        half = ctx.tmp("Mul", [half, column])
    _cast_from_fp16(ctx, half, dtype, node)


def between_sixteenths(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Inputs for scale 1/16: at least 0.1 of a step from a rounding tie, -6 to 6 (the fp16 cast
    and multiply of CANN's AscendQuant move x * 16 by at most 0.03 there)."""
    return _between_steps(shape, gen) * 0.5


class Int8Layers(torch.nn.Module):
    """A quantized conv (weights per channel) and linear (per tensor) as convert_pt2e writes
    them, int8 weights and int32 biases in buffers: the sample of the int8 path. The eager
    forward computes in float on the dequantized values; CANN's AscendDequant rounds the result
    to fp16 (the sample's tolerance)."""

    cs: torch.Tensor  # buffers (register_buffer); the others are read only by the graph

    def __init__(self) -> None:
        super().__init__()
        gen = torch.Generator().manual_seed(0)

        def ints(low: int, high: int, *size: int, dtype: torch.dtype) -> torch.Tensor:
            return torch.randint(low, high, size, generator=gen).to(dtype)

        self.register_buffer("cw", ints(-127, 128, 6, 3, 3, 3, dtype=torch.int8))
        self.register_buffer("cs", torch.rand(6, generator=gen) * 0.01 + 0.002)
        self.register_buffer("cz", torch.zeros(6, dtype=torch.int64))
        self.register_buffer("cb", ints(-3000, 3000, 6, dtype=torch.int32))
        self.register_buffer("lw", ints(-127, 128, 5, 6, dtype=torch.int8))
        self.register_buffer("lb", ints(-3000, 3000, 5, dtype=torch.int32))

    def forward(self, x: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
        s, zx, zz, sl, i32 = 0.0625, -7, 5, 0.003, (-(2**31), 2**31 - 1, torch.int32)
        xq = qd.quantize_per_tensor(x, s, zx, -128, 127, torch.int8)
        w = qd.dequantize_per_channel(self.cw, self.cs, self.cz, 0, -127, 127, torch.int8)
        b = qd.dequantize_per_channel(self.cb, self.cs * s, self.cz, 0, *i32)
        xd = qd.dequantize_per_tensor(xq, s, zx, -128, 127, torch.int8)
        conv = torch.nn.functional.conv2d(xd, w, b, padding=1).mean((2, 3))
        zq = qd.quantize_per_tensor(z, s, zz, -128, 127, torch.int8)
        zd = qd.dequantize_per_tensor(zq, s, zz, -128, 127, torch.int8)
        lw = qd.dequantize_per_tensor(self.lw, sl, 0, -127, 127, torch.int8)
        lb = qd.dequantize_per_tensor(self.lb, s * sl, 0, *i32)
        return torch.cat([conv, torch.nn.functional.linear(zd, lw, lb)], dim=1)
