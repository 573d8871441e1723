# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`with_aipp`: a model fed by CANN's AIPP, static or dynamic."""

from __future__ import annotations

import torch

from .config import AippConfig
from .dynamic import DynamicAipp, DynamicAippModel
from .static import AippModel


def with_aipp(
    model: torch.nn.Module, config: AippConfig | DynamicAipp, input_shape: tuple[int, ...]
) -> AippModel | DynamicAippModel:
    """`model` (whose first input is a float32 [N, C, H, W] image, `input_shape`) fed by CANN's
    AIPP: the returned module takes the raw uint8 frame (`.frame_shape(N)`), and with a
    `DynamicAipp` config also the per-call parameter tensor (`DynamicAippParams.to_tensor`).
    Exported and lowered for Ascend, the AIPP runs in the .om (atc --insert_op_conf); in eager
    PyTorch it runs CANN's arithmetic on the CPU. Raises AippError when CANN would refuse the
    config."""
    if isinstance(config, DynamicAipp):
        return DynamicAippModel(model, config.resolve(tuple(input_shape)))
    resolved = config.resolve(tuple(input_shape))
    return AippModel(model, resolved, int(input_shape[1]))
