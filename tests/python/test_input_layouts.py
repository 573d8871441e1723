# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The project's run helpers take inputs in any layout: a channels_last or transposed view of a
program's (contiguous) input gives eager's numbers. ExecuTorch's Python binding reads a tensor's
storage as it lies, so without run_with_runtime's conversion such a view computes a wrong result
on any backend (docs/runtime.md, "What a caller must know")."""

from __future__ import annotations

import pytest
import torch
from ascend_helpers import assert_close

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runner, run_with_runtime

pytestmark = pytest.mark.emulator


class ConvThenLinear(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, image: torch.Tensor, features: torch.Tensor) -> torch.Tensor:
        return self.conv(image).mean((2, 3)) + self.fc(features).sum(-1, keepdim=True)


@pytest.fixture(scope="module")
def lowered():
    example = (torch.randn(1, 3, 6, 6), torch.randn(2, 8))
    return lower(ConvThenLinear(), example, AscendCompileSpec(toolchain="emulator"))


def _views() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    image = torch.randn(1, 3, 6, 6, generator=g).to(memory_format=torch.channels_last)
    features = torch.randn(8, 2, generator=g).t()  # a transposed view
    assert not image.is_contiguous() and not features.is_contiguous()
    return image, features


def test_the_python_runtime_helper_takes_any_layout(native, lowered) -> None:
    image, features = _views()
    with torch.no_grad():
        want = ConvThenLinear()(image, features)
    assert_close(run_with_runtime(lowered.program.buffer, [image, features]), [want], "views")


def test_the_runner_helper_takes_any_layout(native, lowered, tmp_path) -> None:
    image, features = _views()
    with torch.no_grad():
        want = ConvThenLinear()(image, features)
    pte = tmp_path / "model.pte"
    pte.write_bytes(lowered.program.buffer)
    got = run_with_runner(pte, [image, features], [want], tmp_path)
    assert_close(got, [want], "views through ascend_runner")
