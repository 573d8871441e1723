# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ascend_runner and run_with_runtime check a .ptd's structure before ExecuTorch reads it
(tools/ptd_check): ExecuTorch 1.5 runs no flatbuffer verifier on a .ptd, and the file
fuzz_program found (a corrupted key offset) made the runner, and the Python runtime, die with
SIGSEGV inside FlatTensorDataMap::get_key. Both must now fail cleanly, while the intact .ptd of
the same program still runs. The Python side runs in a child interpreter, so a crash fails the
test instead of killing pytest."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager, seeded_inputs
from example_models import Mlp

from executorch_ascend import AscendCompileSpec, paths
from executorch_ascend.export import lower, save
from executorch_ascend.ptd_check import check_ptd
from executorch_ascend.run import run_with_runtime

pytestmark = pytest.mark.emulator

REGRESSION = (
    Path(__file__).resolve().parents[1] / "fuzz/regressions/fuzz_program/ptd-corrupt-key-offset"
)


def _runner(pte: Path, ptd: Path) -> subprocess.CompletedProcess:
    cmd = [str(paths.runner()), "--model", str(pte), "--data", str(ptd)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


# run_with_runtime on the reproducer; exit 0 and "CLEAN <exception>: <message>" when refused.
CHILD = """
import sys
import torch
import executorch_ascend  # registers AscendBackend
from executorch_ascend.run import run_with_runtime

executorch_ascend.use_emulator()
try:
    run_with_runtime(sys.argv[1], [torch.zeros(4, 32)], ptd=sys.argv[2])
except Exception as error:
    print("CLEAN", type(error).__name__, error, flush=True)
    sys.exit(0)
print("RAN", flush=True)
sys.exit(3)
"""


def _reproducer(tmp_path: Path) -> tuple[Path, Path]:
    data = REGRESSION.read_bytes()
    (pte_size,) = struct.unpack_from("<I", data)
    pte, ptd = tmp_path / "model.pte", tmp_path / "data.ptd"
    pte.write_bytes(data[4 : 4 + pte_size])
    ptd.write_bytes(data[4 + pte_size :])
    return pte, ptd


def test_the_python_runtime_helper_refuses_the_crashing_ptd(tmp_path: Path) -> None:
    pte, ptd = _reproducer(tmp_path)
    cmd = [sys.executable, "-c", CHILD, str(pte), str(ptd)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, (done.returncode, done.stdout[-400:], done.stderr[-400:])
    assert "CLEAN InvalidPtdError" in done.stdout
    assert "its FlatTensor flatbuffer fails verification" in done.stdout


def test_the_fuzzers_crashing_ptd_is_refused_cleanly(tmp_path: Path) -> None:
    pte, ptd = _reproducer(tmp_path)
    done = _runner(pte, ptd)
    assert done.returncode == 1, (done.returncode, done.stderr[-400:])
    assert "is not a valid .ptd: its FlatTensor flatbuffer fails verification" in done.stderr


def test_an_intact_ptd_still_runs(native, tmp_path: Path) -> None:
    torch.manual_seed(0)
    spec = AscendCompileSpec(toolchain="emulator", external_tag="mlp_data")
    model, inputs = Mlp().eval(), seeded_inputs((4, 32), seed=1)
    lowering = lower(model, inputs, spec)
    pte, ptds = save(lowering.program, tmp_path / "mlp.pte")
    assert [p.name for p in ptds] == ["mlp_data.ptd"]
    done = _runner(pte, ptds[0])
    assert done.returncode == 0, done.stderr[-400:]
    check_ptd(ptds[0])  # passes
    assert_close(run_with_runtime(pte, inputs, ptd=ptds[0]), eager(model, inputs), "intact .ptd")
    # A .pte given as the data file is no .ptd either.
    done = _runner(pte, pte)
    assert done.returncode == 1 and "has no FlatTensor header" in done.stderr
