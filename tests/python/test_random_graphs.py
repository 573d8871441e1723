# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Random differential test, the small seeded sample CI runs (CONTRIBUTING.md, "Random
differential tests"): random ONNX graphs aimed at the emulator's fast paths and atc's Conv fusions
(random_onnx_graphs.py), compiled by the emulator's atc, run through its libascendcl.so and
compared with onnxruntime. scripts/random_graphs.py runs them, here in a process of its own so
that its aclInit and loads leave this process's ACL state alone. Its long run takes many more
seeds; what it found has regression tests beside the kernels' own
(kernels_test_unary_math.cc: ExpIsFiniteUpToLnFltMax)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from random_onnx_graphs import FAMILIES

REPO = Path(__file__).resolve().parents[2]

# Per family: enough seeds that each of its kinds shows up; a few seconds each.
SAMPLE_SEEDS = "0:40"


@pytest.mark.emulator
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_random_graphs_match_onnxruntime(native, family: str) -> None:
    from executorch_ascend.toolchain import cann

    emulator = cann.find_emulator()
    assert emulator is not None
    env = dict(os.environ)
    env.pop("EXECUTORCH_ASCEND_DEV_BUILD", None)  # the paths conftest.py resolved, as they are
    env["EXECUTORCH_ASCEND_EMULATOR_ATC"] = str(emulator.atc)
    env["EXECUTORCH_ASCEND_EMULATOR_ACL_LIB"] = str(emulator.acl_library)
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "random_graphs.py"),
            "--seeds",
            SAMPLE_SEEDS,
            "--family",
            family,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 failing" in done.stdout, done.stdout[-4000:]
