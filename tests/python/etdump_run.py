# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Runs a saved program through executorch.runtime with ETDump enabled, for the profiling tests
(test_etdump.py, test_profiling.py). The run is a child process: an abort in ETDumpGen must fail
the test, not kill pytest (AscendBackend::execute once gave its event both a name and a debug
index, and etdump_flatcc.cpp asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import torch

import executorch_ascend

_CHILD = textwrap.dedent(
    """
    import sys
    import torch
    import executorch_ascend  # noqa: F401  (loads AscendBackend into the runtime)
    from executorch.runtime import Runtime

    pte, x_path, out_path, etdump, debug, runs = sys.argv[1:7]
    program = Runtime.get().load_program(pte, enable_etdump=True, debug_buffer_size=1 << 20)
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


def run_with_etdump(
    pte: Path, x: torch.Tensor, tmp_path: Path, runs: int
) -> tuple[list[torch.Tensor], Path]:
    """Executes `forward(x)` `runs` times; the last outputs and the written ETDump file."""
    x_path, out_path = tmp_path / "x.pt", tmp_path / "out.pt"
    etdump, debug = tmp_path / "run.etdp", tmp_path / "debug.bin"
    torch.save(x, x_path)
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
    assert etdump.is_file() and etdump.stat().st_size > 0, etdump
    return torch.load(out_path), etdump
