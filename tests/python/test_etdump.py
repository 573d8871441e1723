# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Profiling a delegated program: executorch.runtime with ETDump enabled records the Ascend
delegate's execute as a delegate event, the Inspector reads it back, and outputs still match eager
(fp32 tolerance). The run is a child process (etdump_run.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager, seeded_inputs
from etdump_run import run_with_etdump

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save

pytestmark = pytest.mark.emulator

EVENT = "AscendBackend::execute"


class LinearRelu(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(16, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.fc(x))


def test_etdump_records_the_ascend_delegate_event(native, tmp_path: Path) -> None:
    from executorch.devtools import Inspector

    torch.manual_seed(0)
    model = LinearRelu().eval()
    inputs = seeded_inputs((4, 16), seed=1)
    expected = eager(model, inputs)
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    assert lowering.summary.partitions == 1, str(lowering.summary)
    pte, _ = save(lowering.program, tmp_path / "linear_relu.pte")

    runs = 3
    outputs, etdump = run_with_etdump(pte, inputs[0], tmp_path, runs)
    assert_close(outputs, expected, "LinearRelu with ETDump enabled")

    inspector = Inspector(etdump_path=str(etdump))
    events = {event.name: event for block in inspector.event_blocks for event in block.events}
    assert EVENT in events, f"no delegate event {EVENT!r}; events: {sorted(events)}"
    event = events[EVENT]
    assert event.is_delegated_op, event
    # One sample per execute, each a positive duration inside ExecuTorch's own DELEGATE_CALL.
    durations = event.perf_data.raw
    assert len(durations) == runs, durations
    assert all(d > 0 for d in durations), durations
    calls = events["DELEGATE_CALL"].perf_data.raw
    assert len(calls) == runs, calls
    assert all(d <= c for d, c in zip(durations, calls, strict=True)), (durations, calls)
