# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend explain` on a .pte lists its Ascend delegate calls and CPU kernel calls."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from executorch_ascend import AscendCompileSpec
from executorch_ascend.cli import main
from executorch_ascend.export import lower, save
from executorch_ascend.pte_report import report_pte


class HalfDelegated(torch.nn.Module):
    """relu and add are delegated; atan has no converter and stays on the CPU between them."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.atan(torch.relu(x)) + 1


@pytest.mark.emulator
def test_explain_pte_lists_delegates_and_cpu_ops(native, tmp_path: Path, capsys) -> None:
    lowering = lower(HalfDelegated(), (torch.randn(3, 4),), AscendCompileSpec(toolchain="emulator"))
    pte, _ = save(lowering.program, tmp_path / "model.pte")

    (plan,) = report_pte(pte)
    assert plan.name == "forward"
    assert plan.delegate_calls == {"AscendBackend": 2}
    assert any("atan" in op for op in plan.cpu_ops), plan.cpu_ops

    assert main(["explain", str(pte)]) == 0
    out = capsys.readouterr().out
    assert "delegate AscendBackend: 2 call(s)" in out
    assert "atan" in out


def test_explain_rejects_a_file_that_is_not_a_pte(tmp_path: Path, capsys) -> None:
    bogus = tmp_path / "bogus.pte"
    bogus.write_bytes(b"not a program at all")
    assert main(["explain", str(bogus)]) == 2
    assert "not a readable .pte" in capsys.readouterr().err
