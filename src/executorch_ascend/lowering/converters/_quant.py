# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Reading a quantized graph: which values are int8 activations and int8 weights, and CANN's
encodings of their parameters.

PT2E's `convert_pt2e` writes a quantized op as float ops between quantize/dequantize:

    x -> quantize_per_tensor -> dequantize_per_tensor -> conv <- dequantize_per_channel(int8 W)

CANN runs the same as AMCT's deploy pattern (cann-quant reference, section 3):

    x -> AscendQuant -> Conv(int8 x, int8 W, int32 B) -> AscendDequant(deq_scale) -> fp16

so the converters look through the dequantize nodes: a convolution or linear whose activation
and weight are both dequantized int8 takes the int8 values themselves (`int8_operands`), and the
dequantize of the activation is then emitted only if some other consumer needs its float value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch.fx import Node

from ..targets import aten_target

qd = torch.ops.quantized_decomposed
QUANTIZE = qd.quantize_per_tensor.default
DEQUANTIZE = qd.dequantize_per_tensor.default
DEQUANTIZE_CHANNEL = qd.dequantize_per_channel.default
INT8_RANGE = (-128, 127)
# The largest finite float16: AscendQuant's scale and offset are fp16 constants in CANN's kernel.
FP16_MAX = 65504.0

aten = torch.ops.aten
CONVOLUTION = aten.convolution.default
LINEAR = aten.linear.default


def target(node: object) -> object:
    return aten_target(node.target) if isinstance(node, Node) else None


@dataclass(frozen=True)
class Int8Activation:
    """An activation read as dequantize_per_tensor(q, scale, zero_point) of an int8 value q."""

    value: Node  # the int8 tensor's producer
    scale: float
    zero_point: int


def int8_activation(arg: object) -> Int8Activation | None:
    """`arg` is a dequantize_per_tensor of an int8 activation with CANN's range [-128, 127]."""
    if target(arg) is not DEQUANTIZE:
        return None
    assert isinstance(arg, Node)
    source, scale, zero_point, qmin, qmax, dtype = arg.args[:6]
    if dtype != torch.int8 or (qmin, qmax) != INT8_RANGE or not isinstance(source, Node):
        return None
    if not isinstance(scale, float) or not isinstance(zero_point, int):
        return None
    return Int8Activation(source, scale, zero_point)


def _int8_weight_node(arg: object) -> bool:
    """A dequantize (per tensor, or per channel along dim 0) of an int8 tensor."""
    if not isinstance(arg, Node):
        return False
    t = target(arg)
    if t is DEQUANTIZE:
        return bool(arg.args[5] == torch.int8)
    if t is DEQUANTIZE_CHANNEL:
        return bool(arg.args[3] == 0 and arg.args[6] == torch.int8)
    return False


def takes_int8(node: Node) -> bool:
    """`node` is a convolution (not transposed) or a linear whose activation and weight are both
    dequantized int8: it lowers to CANN's int8 Conv / Gemm / MatMul.

    CANN's cube op learns the activation's offset from the AscendQuant feeding it, so an
    activation with a nonzero zero point must come from a quantize in the same graph (not from an
    int8 input of the partition); otherwise the op is lowered in float."""
    t = target(node)
    if t is CONVOLUTION:
        if node.args[6]:  # transposed
            return False
    elif t is not LINEAR:
        return False
    act = int8_activation(node.args[0])
    if act is None or not _int8_weight_node(node.args[1]):
        return False
    return act.zero_point == 0 or target(act.value) is QUANTIZE


def only_int8_consumers(dq: Node) -> bool:
    """Every user of the activation dequantize `dq` reads the int8 value itself."""
    return bool(dq.users) and all(takes_int8(u) and u.args[0] is dq for u in dq.users)


@dataclass(frozen=True)
class Int8Weight:
    values: torch.Tensor  # int8
    scales: np.ndarray  # float64, one per output channel (size 1: per tensor)


def int8_weight(constant, arg: Node) -> Int8Weight:
    """The int8 values and scales of a dequantized weight; `constant(node)` reads a constant.
    CANN's int8 weights are symmetric: a nonzero zero point is refused."""
    values = constant(arg.args[0])
    if target(arg) is DEQUANTIZE:
        scales = np.asarray([float(arg.args[1])])
        zero_points = np.asarray([int(arg.args[2])])
    else:
        scales = constant(arg.args[1]).double().numpy()
        zero_points = constant(arg.args[2]).numpy()
    if values is None or values.dtype != torch.int8:
        raise ValueError(f"{arg.name}: the int8 weight is not a constant")
    if np.any(zero_points != 0):
        raise ValueError(
            f"{arg.name}: CANN's int8 weights are symmetric (zero point 0); this one has "
            "nonzero zero points: quantize with AscendQuantizer"
        )
    return Int8Weight(values, scales)


def int32_bias(constant, bias: Node | None, scales: np.ndarray) -> np.ndarray | None:
    """The bias in the int32 accumulator's units: round(b / (s_x * s_w)), per output channel.

    A bias AscendQuantizer annotated is already dequantize(int32 q, s_x * s_w): its q is used as
    is when its scales agree, so the NPU adds exactly what convert_pt2e's eager model adds. A
    float bias (other quantizers) is rounded here, as AMCT rounds it.
    """
    if bias is None:
        return None
    if target(bias) in (DEQUANTIZE, DEQUANTIZE_CHANNEL) and bias.args[-1] == torch.int32:
        q = constant(bias.args[0])
        own = (
            np.asarray([float(bias.args[1])])
            if target(bias) is DEQUANTIZE
            else constant(bias.args[1]).double().numpy()
        )
        if q is not None and np.allclose(np.broadcast_to(own, scales.shape), scales, rtol=1e-6):
            return q.numpy().astype(np.int32)
    value = constant(bias)
    if value is None:
        raise ValueError(f"{bias.name}: an int8 op's bias must be a constant")
    q = np.rint(value.double().numpy() / scales)
    return np.clip(q, -(2**31), 2**31 - 1).astype(np.int32)


def deq_scale(scales: np.ndarray) -> np.ndarray:
    """AscendDequant's uint64 deq_scale as AMCT writes it: the fp32 bits of s_x * s_w in bits
    31:0, the (always zero) weight offset in bits 39:32 (cann-quant reference, section 2)."""
    return scales.astype(np.float32).view(np.uint32).astype(np.uint64)


def quant_attributes(scale: float, zero_point: int) -> dict[str, object]:
    """AscendQuant's attributes for q = round(x / scale) + zero_point.

    CANN's kernel multiplies by `scale` as an fp16 constant: 1 / scale past fp16's range (a
    scale under 1.5e-5) would be infinite, so then sqrt_mode multiplies twice by its square root,
    as CANN's graph guide says to.
    """
    inverse = 1.0 / scale
    attrs: dict[str, object] = {"offset": float(zero_point), "dst_type": "INT8"}
    if inverse > FP16_MAX:
        attrs.update(scale=float(np.sqrt(inverse)), sqrt_mode=1)
    else:
        attrs["scale"] = float(inverse)
    return attrs
