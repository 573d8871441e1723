# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A model for the partition picture docs/pictures/partition-cnn-avgpool.svg, drawn by
scripts/make_pictures.py with `executorch-ascend explain cnn_with_cpu_op ... --graph`.

A small CNN with an Inception-style average pooling (3x3, stride 1, padding 1, PyTorch's default
count_include_pad=True), which CANN's AveragePool cannot do: the pooling stays on the CPU and the
model becomes two Ascend partitions, which is what the picture is meant to show.
"""

from __future__ import annotations

import torch


class CnnWithCpuOp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU()
        )
        self.pool = torch.nn.Sequential(
            torch.nn.AvgPool2d(3, stride=1, padding=1),  # count_include_pad=True: on the CPU
            torch.nn.MaxPool2d(4),
        )
        self.head = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(8 * 4 * 4, 10))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.head(self.pool(self.stem(x))), dim=-1)


def cnn_with_cpu_op() -> torch.nn.Module:
    torch.manual_seed(0)
    return CnnWithCpuOp().eval()
