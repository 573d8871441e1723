# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""atc --precision_mode end to end on the emulator: an fp32 MLP lowered with
AscendCompileSpec(precision_mode="force_fp16") differs from fp32 eager by about what eager fp16
differs (the emulator rounds every op's inputs and outputs to float16, docs/atc.md "Precision
modes"), and is not the fp32 result; with the backend's default, must_keep_origin_dtype, it matches
fp32 eager."""

from __future__ import annotations

import pytest
import torch
from ascend_helpers import eager
from parity import max_abs_error

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime


class _Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(64, 128)
        self.fc2 = torch.nn.Linear(128, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def _model() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    x = torch.randn(8, 64, generator=torch.Generator().manual_seed(1))
    return _Mlp().eval(), (x,)


def _run(precision_mode: str) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    module, inputs = _model()
    spec = AscendCompileSpec(toolchain="emulator", precision_mode=precision_mode)
    lowering = lower(module, inputs, spec)
    assert lowering.summary.partitions == 1, lowering.summary
    return run_with_runtime(lowering.program.buffer, inputs), eager(module, inputs)


@pytest.mark.emulator
def test_force_fp16_deviates_like_eager_fp16(native) -> None:
    outputs, expected = _run("force_fp16")
    module, inputs = _model()
    with torch.no_grad():
        fp16 = module.half()(*(x.half() for x in inputs)).float()
    eager_fp16_error = max_abs_error([fp16], expected)
    err = max_abs_error(outputs, expected)
    assert outputs[0].dtype == torch.float32  # the program's I/O stays fp32
    assert not torch.equal(outputs[0], expected[0]), "force_fp16 gave the fp32 result"
    assert err > 1e-5, f"force_fp16 error {err:.3g} is fp32's"
    # The same order of magnitude as eager fp16's own error (a different rounding of the same
    # operations: within a factor of 4 either way).
    assert eager_fp16_error / 4 <= err <= eager_fp16_error * 4, (err, eager_fp16_error)
    # And its results are float16 values (every op rounds its outputs).
    assert torch.equal(outputs[0], outputs[0].half().float())


@pytest.mark.emulator
def test_must_keep_origin_dtype_matches_fp32_eager(native) -> None:
    outputs, expected = _run("must_keep_origin_dtype")
    err = max_abs_error(outputs, expected)
    assert err <= 1e-4, f"must_keep_origin_dtype differs from fp32 eager by {err:.3g}"
