# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Adaptive max pooling (issue 36): ATen has no decomposition of it and ExecuTorch cannot keep a
two-output op whole, so AscendPartitioner decomposes its values into core ATen ops before to_edge
(lowering/pre_decompositions.py). Each model below lowers to one Ascend partition with nothing
on the CPU, in float32 and float16, its output of eager's dtype and within 1e-4 (fp32) / 1e-2
(fp16) of the output's scale; the decomposition itself equals PyTorch's op exactly."""

from __future__ import annotations

import pytest
import torch
from ascend_helpers import assert_close, eager

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.lowering.pre_decompositions import adaptive_max_values
from executorch_ascend.run import run_with_runtime

F = torch.nn.functional


class Backbone(torch.nn.Module):
    """A named module: conv, then adaptive max pooling to an uneven grid, then a head."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.pool = torch.nn.AdaptiveMaxPool2d((3, 5))
        self.head = torch.nn.Linear(4 * 15, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.pool(torch.relu(self.conv(x))).flatten(1))


MODELS = {
    "named_backbone": (Backbone, (2, 3, 10, 11)),
    "sequential_global": (
        lambda: torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.AdaptiveMaxPool2d(1)),
        (1, 3, 9, 9),
    ),
    "divisible_2d": (lambda: torch.nn.AdaptiveMaxPool2d((2, 4)), (2, 3, 6, 8)),
    "upsampling_2d": (lambda: torch.nn.AdaptiveMaxPool2d((5, 3)), (1, 2, 3, 3)),
    "one_axis_2d": (lambda: torch.nn.AdaptiveMaxPool2d((None, 2)), (1, 2, 5, 7)),
    "uneven_3d": (lambda: torch.nn.AdaptiveMaxPool3d((2, 3, 2)), (2, 2, 5, 7, 4)),
    "global_3d": (lambda: torch.nn.AdaptiveMaxPool3d(1), (1, 4, 3, 4, 5)),
    "pool_1d": (lambda: torch.nn.AdaptiveMaxPool1d(3), (2, 4, 10)),
}


@pytest.mark.parametrize(
    ("size", "out"),
    [((7, 5), (3, 2)), ((6, 8), (2, 4)), ((3, 3), (5, 3)), ((4, 5, 7), (2, 3, 1)), ((9,), (4,))],
)
def test_decomposition_equals_pytorch(size, out) -> None:
    x = torch.randn(2, 3, *size, generator=torch.Generator().manual_seed(0))
    pool = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}
    assert torch.equal(adaptive_max_values(x, out), pool[len(size)](x, out))


@pytest.mark.emulator
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("name", list(MODELS))
def test_adaptive_max_pool_is_one_ascend_partition(native, name: str, dtype) -> None:
    make, shape = MODELS[name]
    torch.manual_seed(0)
    model = make().eval()
    inputs = (torch.randn(shape, generator=torch.Generator().manual_seed(1)).to(dtype),)
    expected = [e.to(dtype) for e in eager(model, tuple(t.float() for t in inputs))]
    model = model.to(dtype)
    assert [e.dtype for e in eager(model, inputs)] == [dtype]

    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1, summary
    assert summary.delegated_nodes == summary.total_nodes, summary

    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert_close(outputs, expected, f"{name} {dtype}", rel=1e-4 if dtype == torch.float32 else 1e-2)


def test_indices_read_leave_the_program_unchanged() -> None:
    from executorch_ascend.lowering.pre_decompositions import decompose_adaptive_max_pools

    class WithIndices(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return F.adaptive_max_pool2d(x, (2, 2), return_indices=True)

    program = torch.export.export(WithIndices(), (torch.randn(1, 2, 5, 5),))
    assert decompose_adaptive_max_pools(program) is program
