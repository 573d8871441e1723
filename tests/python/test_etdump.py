# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Profiling a delegated program: executorch.runtime with ETDump enabled records the Ascend
delegate's execute as a delegate event, the Inspector reads it back, and outputs still match eager
(fp32 tolerance). AscendBackend::execute once gave the event both a name and a debug index, and
ETDumpGen aborted the process (etdump_flatcc.cpp assert), hence the run in a child process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager, seeded_inputs

import executorch_ascend
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


# Runs in a child process: an abort in ETDumpGen must fail the test, not kill pytest.
_CHILD = textwrap.dedent(
    """
    import sys
    import torch
    import executorch_ascend  # noqa: F401  (loads AscendBackend into the runtime)
    from executorch.runtime import Runtime

    pte, x_path, out_path, etdump, debug, runs = sys.argv[1:7]
    program = Runtime.get().load_program(
        pte, enable_etdump=True, debug_buffer_size=1 << 20
    )
    method = program.load_method("forward")
    x = torch.load(x_path)
    for _ in range(int(runs)):
        outputs = method.execute([x])
    torch.save([o for o in outputs if isinstance(o, torch.Tensor)], out_path)
    program.write_etdump_result_to_file(etdump, debug)
    """
)


def _child_env() -> dict[str, str]:
    """This environment (the native paths conftest set), with executorch_ascend importable."""
    package_root = str(Path(executorch_ascend.__file__).resolve().parents[1])
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (package_root, path) if p)}


def test_etdump_records_the_ascend_delegate_event(native, tmp_path: Path) -> None:
    from executorch.devtools import Inspector

    torch.manual_seed(0)
    model = LinearRelu().eval()
    inputs = seeded_inputs((4, 16), seed=1)
    expected = eager(model, inputs)
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    assert lowering.summary.partitions == 1, str(lowering.summary)
    pte, _ = save(lowering.program, tmp_path / "linear_relu.pte")

    x_path, out_path = tmp_path / "x.pt", tmp_path / "out.pt"
    etdump, debug = tmp_path / "run.etdp", tmp_path / "debug.bin"
    torch.save(inputs[0], x_path)
    runs = 3
    args = [str(p) for p in (pte, x_path, out_path, etdump, debug)] + [str(runs)]
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=_child_env(),
    )
    assert done.returncode == 0, (
        f"profiled run exited with {done.returncode}:\n{done.stderr[-4000:]}\n{done.stdout}"
    )
    assert_close(torch.load(out_path), expected, "LinearRelu with ETDump enabled")

    assert etdump.is_file() and etdump.stat().st_size > 0
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
