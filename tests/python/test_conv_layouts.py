# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Layouts agreed between prepared ops at load (docs/emulator.md, "Layouts between ops"): a Conv
whose output only other oneDNN Convs read writes it in NHWC and they read it so, skipping the
reorders around each Conv. A ResNet-like net (Conv/BatchNorm/Relu, MaxPool, residual Adds with and
without a 1x1 downsample, GlobalAveragePool, odd channel counts 3 and 20) and a net whose Conv
outputs are also read by other ops or are graph outputs (which must stay NCHW) run through lower()
and the emulator, against eager PyTorch."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save
from executorch_ascend.run import run_with_runtime


def _conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> torch.nn.Sequential:
    bn = torch.nn.BatchNorm2d(cout)
    with torch.no_grad():  # statistics far from the identity, so a wrong fold shows
        bn.running_mean.uniform_(-0.5, 0.5)
        bn.running_var.uniform_(0.5, 2.0)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.2, 0.2)
    return torch.nn.Sequential(
        torch.nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, bias=False), bn
    )


class _Block(torch.nn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.a = _conv_bn(cin, cout, stride)
        self.b = _conv_bn(cout, cout)
        self.down = _conv_bn(cin, cout, stride, k=1) if stride != 1 or cin != cout else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shortcut = x if self.down is None else self.down(x)
        return torch.relu(self.b(torch.relu(self.a(x))) + shortcut)


class _ResNetLike(torch.nn.Module):
    """stem 20: the stem Conv reads a reordered input. stem 16 on AVX-512, stem 8 on AVX2: it reads
    the NCHW input as it is (oneDNN's first-layer kernel, whose one block of output channels is
    NHWC as it is; the other stem takes the blocked path); with ceil_mode the MaxPool's last
    windows are partial. All end in GlobalAveragePool reading the last Conv's NHWC output."""

    def __init__(self, stem: int = 20, ceil_mode: bool = False) -> None:
        super().__init__()
        self.stem = _conv_bn(3, stem, stride=2, k=7)
        self.pool = torch.nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=ceil_mode)
        self.blocks = torch.nn.Sequential(
            _Block(stem, stem, 1), _Block(stem, 36, 2), _Block(36, 36, 1), _Block(36, 20, 2)
        )
        self.head = torch.nn.Linear(20, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.blocks(self.pool(torch.relu(self.stem(x))))
        return self.head(torch.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1))


class _MixedReaders(torch.nn.Module):
    """Conv outputs read by a Conv and by a non-Conv op, one that is also a graph output, and a
    Conv -> MaxPool whose output only an elementwise op reads (MaxPool reads NHWC, writes NCHW)."""

    def __init__(self) -> None:
        super().__init__()
        self.a = torch.nn.Conv2d(3, 20, 3, padding=1)
        self.b = torch.nn.Conv2d(20, 20, 3, padding=1)
        self.c = torch.nn.Conv2d(20, 16, 1)
        self.d = torch.nn.Conv2d(3, 24, 3, padding=1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        a = torch.relu(self.a(x))
        b = self.b(a)
        mixed = b * torch.sigmoid(a)  # a and b also read by elementwise ops
        pooled = torch.nn.functional.max_pool2d(self.d(x), 3, stride=2, padding=1)
        return self.c(mixed), b, torch.sigmoid(pooled)


@pytest.mark.emulator
@pytest.mark.parametrize(
    "make",
    [
        lambda: (_ResNetLike(), (torch.randn(1, 3, 45, 37),)),
        lambda: (_ResNetLike(stem=16, ceil_mode=True), (torch.randn(2, 3, 42, 35),)),
        lambda: (_ResNetLike(stem=8, ceil_mode=True), (torch.randn(2, 3, 42, 35),)),
        lambda: (_MixedReaders(), (torch.randn(2, 3, 11, 9),)),
    ],
    ids=["resnet_like", "resnet_like_stem16", "resnet_like_stem8", "mixed_readers"],
)
def test_conv_chains_match_eager(native, make, tmp_path: Path) -> None:
    torch.manual_seed(0)
    model, inputs = make()
    model.eval()
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    assert lowering.summary.partitions == 1, lowering.summary
    pte, _ = save(lowering.program, tmp_path / "model.pte")
    outputs = run_with_runtime(pte, inputs)
    assert_close(outputs, eager(model, inputs), "emulator vs eager", rel=1e-3)
