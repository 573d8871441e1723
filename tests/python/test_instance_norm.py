# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""InstanceNorm as users build it: with its defaults (no running statistics) it exports as
`aten._native_batch_norm_legit.no_stats` over the (1, N * C, ...) view of its input, which fell
back to the CPU until normalization.py's converter. Style-transfer and audio models stack it
after every Conv."""

from __future__ import annotations

import pytest
import torch
from ascend_helpers import assert_close, eager, seeded_inputs

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime

SPEC = AscendCompileSpec(toolchain="emulator")
# fp16 / bf16 against eager in the same dtype: the normalization rounds each step in that dtype
# (eager accumulates in float32), a few of its ulps at the outputs' magnitude.
TOLERANCE = {torch.float32: 1e-4, torch.float16: 4e-3, torch.bfloat16: 3e-2}


def _scaled(module: torch.nn.Module) -> torch.nn.Module:
    """Default initialisation times 3, so the outputs are far from zero."""
    with torch.no_grad():
        for p in module.parameters():
            p.mul_(3.0)
    return module.eval()


def _style_block() -> torch.nn.Module:
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1, padding_mode="reflect"),
        torch.nn.InstanceNorm2d(8, affine=True),
        torch.nn.ReLU(),
        torch.nn.Conv2d(8, 4, 3, padding=1),
        torch.nn.InstanceNorm2d(4),
    )


def _audio_block() -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.InstanceNorm1d(6, affine=True), torch.nn.GELU())


CASES = {
    "style_block_fp32": (_style_block, (2, 3, 12, 12), torch.float32),
    "style_block_fp16": (_style_block, (2, 3, 12, 12), torch.float16),
    "audio_block_fp32": (_audio_block, (3, 6, 40), torch.float32),
    "audio_block_fp16": (_audio_block, (3, 6, 40), torch.float16),
    "audio_block_bf16": (_audio_block, (3, 6, 40), torch.bfloat16),
}


@pytest.mark.emulator
@pytest.mark.parametrize("case", list(CASES))
def test_instance_norm_lowers_whole_and_matches_eager(native, case: str) -> None:
    build, input_shape, dtype = CASES[case]
    torch.manual_seed(0)
    model = _scaled(build()).to(dtype)
    (x,) = seeded_inputs(input_shape)
    inputs = (x.to(dtype) * 2.0 + 1.0,)
    lowering = lower(model, inputs, SPEC)
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, (
        f"{case}: {summary}"
    )
    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert_close(outputs, eager(model, inputs), case, rel=TOLERANCE[dtype])
