# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ascend_runner runs a program that has XNNPACK partitions beside the Ascend ones: the runner links
the wheel's XnnpackBackend as well as AscendBackend. Before, it failed the method load with
"Backend XnnpackBackend is not registered". Outputs are compared with eager (fp32 tolerance)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager, seeded_inputs
from executorch.backends.xnnpack.partition.config.generic_node_configs import SigmoidConfig
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower
from executorch.exir._serialize._program import deserialize_pte_binary

from executorch_ascend import AscendCompileSpec, AscendPartitioner
from executorch_ascend.export import save
from executorch_ascend.run import run_with_runner

pytestmark = pytest.mark.emulator


class AscendXnnpackAscend(torch.nn.Module):
    """linear+relu on Ascend, sigmoid on XNNPACK, linear on Ascend again."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(12, 16), torch.nn.Linear(16, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.sigmoid(torch.relu(self.fc1(x))))


def delegate_ids(pte: Path) -> list[str]:
    """The backend id of every delegate call in the saved .pte's `forward`, in order."""
    program = deserialize_pte_binary(pte.read_bytes()).program
    (plan,) = [p for p in program.execution_plan if p.name == "forward"]
    return [d.id for d in plan.delegates]


def test_runner_runs_ascend_and_xnnpack_partitions(native, tmp_path: Path) -> None:
    torch.manual_seed(0)
    model = AscendXnnpackAscend().eval()
    inputs = seeded_inputs((3, 12), seed=1)
    expected = eager(model, inputs)

    # XNNPACK first, restricted to sigmoid, so the split does not depend on which ops the
    # Ascend converters happen to accept; AscendPartitioner takes the rest.
    edge = to_edge_transform_and_lower(
        torch.export.export(model, inputs),
        partitioner=[
            XnnpackPartitioner(configs=[SigmoidConfig]),
            AscendPartitioner(AscendCompileSpec(toolchain="emulator")),
        ],
    )
    pte, ptds = save(edge.to_executorch(), tmp_path / "ascend_xnnpack.pte")
    assert ptds == []
    ids = delegate_ids(pte)
    assert ids.count("XnnpackBackend") == 1, ids
    assert ids.count("AscendBackend") == 2, ids

    out = run_with_runner(pte, inputs, expected, tmp_path / "runner")
    assert_close(out, expected, "Ascend + XNNPACK program via ascend_runner")

    other = seeded_inputs((3, 12), seed=2)
    out = run_with_runner(pte, other, eager(model, other), tmp_path / "runner2")
    assert_close(out, eager(model, other), "Ascend + XNNPACK program via ascend_runner, new inputs")
