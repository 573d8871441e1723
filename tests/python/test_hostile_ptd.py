# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ascend_runner checks a .ptd's structure before ExecuTorch reads it (tools/ptd_check): ExecuTorch
1.5 runs no flatbuffer verifier on a .ptd, and the file fuzz_program found (a corrupted key
offset) made the runner die with SIGSEGV inside FlatTensorDataMap::get_key. It must now exit
with a clean error, while the intact .ptd of the same program still runs."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import pytest
import torch
from ascend_helpers import seeded_inputs
from example_models import Mlp

from executorch_ascend import AscendCompileSpec, paths
from executorch_ascend.export import lower, save

pytestmark = pytest.mark.emulator

REGRESSION = (
    Path(__file__).resolve().parents[1] / "fuzz/regressions/fuzz_program/ptd-corrupt-key-offset"
)


def _runner(pte: Path, ptd: Path) -> subprocess.CompletedProcess:
    cmd = [str(paths.runner()), "--model", str(pte), "--data", str(ptd)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


def test_the_fuzzers_crashing_ptd_is_refused_cleanly(tmp_path: Path) -> None:
    data = REGRESSION.read_bytes()
    (pte_size,) = struct.unpack_from("<I", data)
    pte, ptd = tmp_path / "model.pte", tmp_path / "data.ptd"
    pte.write_bytes(data[4 : 4 + pte_size])
    ptd.write_bytes(data[4 + pte_size :])
    done = _runner(pte, ptd)
    assert done.returncode == 1, (done.returncode, done.stderr[-400:])
    assert "is not a valid .ptd: its FlatTensor flatbuffer fails verification" in done.stderr


def test_an_intact_ptd_still_runs(tmp_path: Path) -> None:
    torch.manual_seed(0)
    spec = AscendCompileSpec(toolchain="emulator", external_tag="mlp_data")
    lowering = lower(Mlp().eval(), seeded_inputs((4, 32), seed=1), spec)
    pte, ptds = save(lowering.program, tmp_path / "mlp.pte")
    assert [p.name for p in ptds] == ["mlp_data.ptd"]
    done = _runner(pte, ptds[0])
    assert done.returncode == 0, done.stderr[-400:]
    # A .pte given as the data file is no .ptd either.
    done = _runner(pte, pte)
    assert done.returncode == 1 and "has no FlatTensor header" in done.stderr
