# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Models and export steps shared by the external-weight tests (test_weights.py, ahead of time
with a fake atc; test_end_to_end_weights.py, on the emulator).

Every model has a 64x256 Linear: a 65 536-byte weight and a 1 024-byte bias, both at least the
default external_weight_threshold (1 024 bytes), so with external_weight 1 each is a weight file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import torch
from executorch.exir import ExecutorchProgramManager, to_edge_transform_and_lower
from executorch.exir.passes.external_constants_pass import (
    delegate_external_constants_pass_unlifted,
)
from torch.export import ExportedProgram

from executorch_ascend import AscendCompileSpec, AscendPartitioner

IN, OUT = 64, 256
WEIGHT_BYTES, BIAS_BYTES = IN * OUT * 4, OUT * 4


class Head(torch.nn.Module):
    """One method of a program: `fc` may be shared with another method's module."""

    def __init__(self, fc: torch.nn.Linear, scale: float) -> None:
        super().__init__()
        self.fc, self.scale = fc, scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x)) * self.scale


class FlipBetween(torch.nn.Module):
    """Two Ascend partitions (atan has no converter) that use the same square Linear."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(OUT, OUT)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.atan(torch.relu(self.fc(x))))


class Linear64x256(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(IN, OUT)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x))


def shared_heads() -> dict[str, Head]:
    """Two methods, "a" and "b", over one Linear(64, 256)."""
    fc = torch.nn.Linear(IN, OUT)
    return {"a": Head(fc, 1.0).eval(), "b": Head(fc, -0.5).eval()}


def tagged_export(
    module: torch.nn.Module,
    inputs: tuple[torch.Tensor, ...],
    gen_tag_fn: Callable[[torch.fx.Node], str | None],
) -> ExportedProgram:
    """ExecuTorch's way to send weights to a .ptd (as its XNNPACK tests do): export, tag the
    unlifted module's constants with delegate_external_constants_pass_unlifted, export again."""
    unlifted = torch.export.export(module, inputs).module()
    delegate_external_constants_pass_unlifted(unlifted, gen_tag_fn=gen_tag_fn)
    return torch.export.export(unlifted, inputs)


def lower_methods(
    methods: Mapping[str, ExportedProgram], spec: AscendCompileSpec
) -> ExecutorchProgramManager:
    """One program with a method per entry, all partitioned for Ascend."""
    edge = to_edge_transform_and_lower(dict(methods), partitioner=[AscendPartitioner(spec)])
    return edge.to_executorch()


def export_all(
    modules: Mapping[str, torch.nn.Module], inputs: Sequence[torch.Tensor]
) -> dict[str, ExportedProgram]:
    return {name: torch.export.export(m, tuple(inputs)) for name, m in modules.items()}


def tensor_files(program: ExecutorchProgramManager) -> dict[str, bytes]:
    """The .ptd contents by tag (ExecutorchProgramManager exposes them only as this, in 1.5.1)."""
    data = getattr(program, "_tensor_data", None) or {}
    return {tag: bytes(content) for tag, content in data.items()}


def parameter_bytes(module: torch.nn.Module, name: str) -> bytes:
    return module.get_parameter(name).detach().contiguous().numpy().tobytes()
