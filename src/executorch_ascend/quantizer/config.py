# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's int8 scheme as PT2E quantization specs.

What CANN's int8 ops take (cann-quant reference, section 3, AMCT's deploy model):
  - activations: int8, per tensor, asymmetric (AscendQuant's `offset`), q = round(x / s) + zp;
  - Conv weights: int8, symmetric, per output channel (AscendDequant takes one deq_scale per
    channel of the conv output);
  - Gemm / MatMul weights: int8, symmetric, per tensor (AMCT quantizes them per tensor);
  - bias: int32 with scale s_x * s_w and no zero point, so the int8 op adds it to its int32
    accumulator before AscendDequant scales the sum.
The bias is annotated (a derived spec) instead of being left in float, so `convert_pt2e`'s eager
model rounds it exactly as the NPU does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import torch
from torch.fx import Node
from torchao.quantization.pt2e import (
    FusedMovingAvgObsFakeQuantize,
    HistogramObserver,
    MinMaxObserver,
    MovingAverageMinMaxObserver,
    MovingAveragePerChannelMinMaxObserver,
    PerChannelMinMaxObserver,
)
from torchao.quantization.pt2e.quantizer import DerivedQuantizationSpec, QuantizationSpec

INT8_MIN, INT8_MAX = -128, 127
# Symmetric weights use -127..127, so a weight's negation is representable and its scale is
# max|w| / 127 (AMCT's rule for a positive extreme).
WEIGHT_MIN = -127
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
# The smallest scale an observer returns: keeps 1 / scale (AscendQuant's fp16 `scale`) finite.
_EPS = 2**-12


@dataclass(frozen=True)
class AscendQuantizationConfig:
    """The specs for one quantized op: its activation input, a per-channel weight (Conv) and a
    per-tensor weight (Linear). `is_qat` says whether they fake-quantize (prepare_qat_pt2e)."""

    activation: QuantizationSpec
    conv_weight: QuantizationSpec
    linear_weight: QuantizationSpec
    is_qat: bool


@lru_cache
def get_ascend_quantization_config(
    is_qat: bool = False, observer: str = "histogram"
) -> AscendQuantizationConfig:
    """CANN's static int8 scheme. `observer` chooses the activation observer for calibration:
    "histogram" (minimises the quantization error; slower) or "minmax" (the range seen)."""
    if observer not in ("histogram", "minmax"):
        raise ValueError(f"observer must be 'histogram' or 'minmax', not {observer!r}")
    if is_qat:
        act_ctr = FusedMovingAvgObsFakeQuantize.with_args(
            observer=MovingAverageMinMaxObserver, eps=_EPS
        )
        channel_ctr = FusedMovingAvgObsFakeQuantize.with_args(
            observer=MovingAveragePerChannelMinMaxObserver, eps=_EPS
        )
        tensor_ctr = FusedMovingAvgObsFakeQuantize.with_args(
            observer=MovingAverageMinMaxObserver, eps=_EPS
        )
    else:
        act_observer = HistogramObserver if observer == "histogram" else MinMaxObserver
        act_ctr = act_observer.with_args(eps=_EPS)
        channel_ctr = PerChannelMinMaxObserver.with_args(eps=_EPS)
        tensor_ctr = MinMaxObserver.with_args(eps=_EPS)
    activation = QuantizationSpec(
        dtype=torch.int8,
        quant_min=INT8_MIN,
        quant_max=INT8_MAX,
        qscheme=torch.per_tensor_affine,
        is_dynamic=False,
        observer_or_fake_quant_ctr=act_ctr,
    )
    conv_weight = QuantizationSpec(
        dtype=torch.int8,
        quant_min=WEIGHT_MIN,
        quant_max=INT8_MAX,
        qscheme=torch.per_channel_symmetric,
        ch_axis=0,
        is_dynamic=False,
        observer_or_fake_quant_ctr=channel_ctr,
    )
    linear_weight = QuantizationSpec(
        dtype=torch.int8,
        quant_min=WEIGHT_MIN,
        quant_max=INT8_MAX,
        qscheme=torch.per_tensor_symmetric,
        is_dynamic=False,
        observer_or_fake_quant_ctr=tensor_ctr,
    )
    return AscendQuantizationConfig(activation, conv_weight, linear_weight, is_qat)


def _bias_qparams(observers: list) -> tuple[torch.Tensor, torch.Tensor]:
    """scale = s_x * s_w (per channel when the weight is), zero point 0."""
    act, weight = observers
    act_scale, _ = act.calculate_qparams()
    weight_scale, _ = weight.calculate_qparams()
    scale = (act_scale * weight_scale).to(torch.float32)
    return scale, torch.zeros_like(scale, dtype=torch.int32)


def bias_spec(node: Node, weight_spec: QuantizationSpec) -> DerivedQuantizationSpec:
    """int32 bias derived from `node`'s activation input (args[0]) and weight (args[1])."""
    per_channel = weight_spec.qscheme == torch.per_channel_symmetric
    return DerivedQuantizationSpec(
        derived_from=[(node.args[0], node), (node.args[1], node)],
        derive_qparams_fn=_bias_qparams,
        dtype=torch.int32,
        quant_min=INT32_MIN,
        quant_max=INT32_MAX,
        qscheme=torch.per_channel_symmetric if per_channel else torch.per_tensor_symmetric,
        ch_axis=0,
    )
