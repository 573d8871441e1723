# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The AIPP tests' model and PyTorch's own pre-processing, which test_aipp.py (static) and
test_aipp_dynamic.py compare the emulator's AIPP with (docs/aipp.md)."""

from __future__ import annotations

import torch

# ImageNet's normalisation, in PyTorch's form (x / 255 - mean) / std, and as AIPP's
# (x - mean_chn - min_chn) * var_reci_chn: mean_chn + min_chn = 255 * mean,
# var_reci = 1 / (255 std).
MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)
MEAN_CHN = tuple(int(255 * m) for m in MEAN)
MIN_CHN = tuple(255 * m - int(255 * m) for m in MEAN)
VAR_RECI = tuple(1 / (255 * s) for s in STD)


class Classifier(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


def normalise(rgb: torch.Tensor) -> torch.Tensor:
    """PyTorch's pre-processing of uint8 NHWC RGB: float NCHW, (x / 255 - mean) / std."""
    x = rgb.permute(0, 3, 1, 2).to(torch.float32) / 255
    return (x - torch.tensor(MEAN).view(1, 3, 1, 1)) / torch.tensor(STD).view(1, 3, 1, 1)


def nv12_to_rgb(nv12: torch.Tensor, h: int, w: int) -> torch.Tensor:
    """PyTorch's float YUV (JPEG, full range) -> RGB of an NV12 frame, chroma repeated per 2x2."""
    f = nv12[..., 0].to(torch.float32)
    y = f[:, :h]
    uv = f[:, h:].reshape(f.shape[0], h // 2, w // 2, 2)
    uv = uv.repeat_interleave(2, 1).repeat_interleave(2, 2) - 128
    u, v = uv[..., 0], uv[..., 1]
    rgb = torch.stack([y + 1.402 * v, y - 0.344136 * u - 0.714136 * v, y + 1.772 * u], -1)
    return rgb.clamp(0, 255)
