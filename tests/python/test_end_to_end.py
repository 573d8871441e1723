# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Whole models: export, lower to Ascend (emulator atc), save, run with ascend_runner and with
executorch.runtime, compare with eager at the fp32 tolerance (1e-4 * max(1, max |eager|))."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from ascend_helpers import ascend_lowered_modules, assert_close, eager, named_data, seeded_inputs
from example_models import Mlp, small_cnn, small_resnet

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save
from executorch_ascend.run import run_with_runner, run_with_runtime
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator


class SinInTheMiddle(torch.nn.Module):
    """Ascend, CPU (atan has no converter), Ascend again; two outputs."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(12, 24), torch.nn.Linear(24, 6)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.fc1(x))
        z = self.fc2(torch.atan(h) * y)
        return z, h.mean(-1)


class EmptyBeside(torch.nn.Module):
    """An empty tensor (legal in PyTorch, impossible as an ACL buffer) stays on the CPU while the
    rest of the program runs on Ascend; both results must be right."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x: torch.Tensor, e: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return torch.relu(self.fc(x)), torch.sigmoid(e * 2) + 1


MODELS = {
    # name: (factory, input shapes, external tag for the .ptd or None, expected partitions)
    "mlp": (lambda: Mlp(), [(4, 32)], None, 1),
    "small_cnn": (small_cnn, [(2, 3, 16, 16)], "cnn_weights", 1),
    "resnet": (lambda: small_resnet(), [(1, 3, 64, 64)], "model", 1),
    "sin_in_the_middle": (lambda: SinInTheMiddle(), [(3, 12), (3, 24)], None, 2),
    "empty_beside": (lambda: EmptyBeside(), [(2, 4), (0, 4)], None, 1),
}
# mul, sigmoid and add on the empty tensor, and the casts of their two scalar constants
CPU_NODES = {"empty_beside": 5}


@pytest.mark.parametrize("name", list(MODELS))
def test_model_runs_on_the_emulator(native, name: str, tmp_path: Path) -> None:
    torch.manual_seed(0)
    factory, shapes, tag, partitions = MODELS[name]
    model = factory().eval()
    inputs = seeded_inputs(*shapes, seed=1)
    expected = eager(model, inputs)

    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator", external_tag=tag))
    assert lowering.summary.partitions == partitions, str(lowering.summary)
    if partitions == 1:
        on_cpu = lowering.summary.total_nodes - lowering.summary.delegated_nodes
        assert on_cpu == CPU_NODES.get(name, 0), str(lowering.summary)
    for module in ascend_lowered_modules(lowering.edge):
        decoded = blob.decode(module.processed_bytes)
        om = named_data(module, decoded.om_key, tag=tag)  # in the .pte, or in <tag>.ptd
        assert om[:8] == b"AEMU.OM\0"  # built by the emulator's atc

    pte, ptds = save(lowering.program, tmp_path / f"{name}.pte")
    assert [p.name for p in ptds] == ([f"{tag}.ptd"] if tag else [])
    ptd = ptds[0] if ptds else None

    runner_out = run_with_runner(pte, inputs, expected, tmp_path / "runner", ptd=ptd)
    assert_close(runner_out, expected, f"{name} via ascend_runner")

    runtime_out = run_with_runtime(pte, inputs, ptd=ptd)
    assert_close(runtime_out, expected, f"{name} via executorch.runtime")

    other = seeded_inputs(*shapes, seed=2)
    assert_close(run_with_runtime(pte, other, ptd=ptd), eager(model, other), f"{name}, new inputs")


def test_program_with_ptd_fails_cleanly_without_it(native, tmp_path: Path) -> None:
    model, inputs = Mlp().eval(), seeded_inputs((4, 32))
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator", external_tag="w"))
    pte, _ = save(lowering.program, tmp_path / "m.pte")
    with pytest.raises(Exception):  # noqa: B017  (the runtime raises a bare RuntimeError)
        run_with_runtime(pte, inputs)


def test_backend_is_registered_with_the_python_runtime(native) -> None:
    from executorch.runtime import Runtime

    import executorch_ascend  # noqa: F401

    registry = Runtime.get().backend_registry
    assert "AscendBackend" in registry.registered_backend_names
    assert registry.is_available("AscendBackend")
