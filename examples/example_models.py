# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Small models shared by the demo, the end-to-end tests and the benchmarks (one copy of each)."""

from __future__ import annotations

import torch


class Mlp(torch.nn.Module):
    """Linear/ReLU stack with a softmax head: Gemm, Relu, Softmax."""

    def __init__(self) -> None:
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 64), torch.nn.ReLU(),
            torch.nn.Linear(64, 10),
        )  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=-1)


class SmallCnn(torch.nn.Module):
    """Conv (plain and grouped), batch norm, max and average pooling, a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
            torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(8, 16, 3, padding=1, groups=2), torch.nn.ReLU(),
            torch.nn.AvgPool2d(2),
        )  # fmt: skip
        self.head = torch.nn.Linear(16 * 4 * 4, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(torch.flatten(self.features(x), 1))


def small_cnn(seed: int = 3) -> torch.nn.Module:
    """SmallCnn in eval mode with non-trivial batch-norm statistics, so folding is exercised."""
    model = SmallCnn()
    gen = torch.Generator().manual_seed(seed)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=gen) * 0.1)
            m.running_var.copy_(torch.rand(m.running_var.shape, generator=gen) + 0.5)
    return model.eval()


class _Logits(torch.nn.Module):
    """ResNetForImageClassification returns a ModelOutput; export the logits tensor."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        return self.model(pixel_values=pixel_values).logits


def small_resnet(num_labels: int = 10, seed: int = 0) -> torch.nn.Module:
    """transformers' ResNetForImageClassification from a small config, random weights."""
    from transformers import ResNetConfig, ResNetForImageClassification

    torch.manual_seed(seed)
    config = ResNetConfig(
        num_channels=3,
        embedding_size=16,
        hidden_sizes=[16, 32, 64, 128],
        depths=[1, 1, 1, 1],
        layer_type="basic",
        num_labels=num_labels,
    )
    return _Logits(ResNetForImageClassification(config)).eval()
