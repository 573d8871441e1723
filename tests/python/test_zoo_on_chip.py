# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The whole model zoo compiled for Ascend310P3 with its default precision mode
(allow_fp32_to_fp16: no float32 cube units) and run on the emulator as that chip, within the
mode's tolerance (1e-2 of each output's scale) of eager fp32, and every partition's ONNX clean
against CANN's facts for Ascend910B1, Ascend310P3 and Ascend310B1: scripts/zoo_on_chip.py, in its
own process because the emulator reads its chip once per process (docs/model-zoo.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("transformers")

REPO = Path(__file__).resolve().parents[2]
# The script run as a child with torch.export's CIA scan remembered, as in this process
# (cia_scan_memo.py: test speed only).
_RUN_WITH_MEMO = (
    "import runpy, sys; sys.path.insert(0, sys.argv[1]); import cia_scan_memo; "
    "cia_scan_memo.install(); sys.argv = sys.argv[2:]; runpy.run_path(sys.argv[0], "
    "run_name='__main__')"
)


# A long run (the whole zoo again, about 8 minutes): scripts/test_long.sh, not CI.
@pytest.mark.long
@pytest.mark.emulator
def test_zoo_on_ascend310p3_within_the_default_modes_tolerance(native) -> None:
    from model_zoo import ZOO

    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _RUN_WITH_MEMO,
            str(Path(__file__).parent),
            str(REPO / "scripts" / "zoo_on_chip.py"),
            "--soc",
            "Ascend310P3",
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    rows = [
        line for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line
    ]
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "precision_mode=allow_fp32_to_fp16" in done.stdout
    assert len(rows) == len(ZOO) + 1, done.stdout  # the header and one row per model
    assert all(row.split("|")[4].strip() == "yes" for row in rows[1:]), done.stdout
