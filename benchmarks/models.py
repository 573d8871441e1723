# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The models the benchmark measures: the end-to-end tests' MLP and small CNN and the demo's
transformers ResNet (all from examples/example_models.py)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

# examples/ holds the shared example models and the parity helpers the benchmarks use too.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from example_models import Mlp, small_cnn, small_resnet


@dataclass(frozen=True)
class BenchModel:
    name: str
    factory: Callable[[], torch.nn.Module]
    input_shapes: tuple[tuple[int, ...], ...]
    external_tag: str | None  # the .om goes to "<tag>.ptd" when set, else into the .pte

    def build(self) -> torch.nn.Module:
        torch.manual_seed(0)
        return self.factory().eval()

    def inputs(self, seed: int = 1) -> tuple[torch.Tensor, ...]:
        gen = torch.Generator().manual_seed(seed)
        return tuple(torch.randn(s, generator=gen) for s in self.input_shapes)


MODELS: tuple[BenchModel, ...] = (
    BenchModel("mlp", Mlp, ((4, 32),), None),
    BenchModel("small_cnn", small_cnn, ((2, 3, 16, 16),), "cnn_weights"),
    BenchModel("resnet (transformers, small config)", small_resnet, ((1, 3, 64, 64),), "model"),
)
