# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Shape gears end to end on the emulator: one .om compiled with --dynamic_batch_size or
--dynamic_dims runs at every gear through executorch.runtime, right against eager PyTorch
(fp32 tolerance), and a shape that is no gear is refused.

These need the runtime's gears (docs/shape-gears.md: AscendBackend choosing and setting the gear
from the input shapes, resizing the outputs) on top of the emulator's; the two-input and Llama
graphs compute sizes with Shape, which the emulator's atc must fold per gear. The AOT side alone
is tested in test_gears.py.
"""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
import torch
from ascend_helpers import ascend_lowered_modules, assert_close, eager
from test_gears import ConvNet, LlamaLogits, Mlp, TwoInputs, _eval
from torch.export import Dim, export

from executorch_ascend import AscendCompileSpec
from executorch_ascend.cann_op_facts import check_onnx, default_precision_mode
from executorch_ascend.export import lower_program, save
from executorch_ascend.run import run_with_runtime

pytestmark = pytest.mark.emulator


def _spec(**gears: object) -> AscendCompileSpec:
    # The default external_weight=1: gear programs share the weight files.
    return AscendCompileSpec(toolchain="emulator", **gears)  # type: ignore[arg-type]


def _assert_cann_takes(dumps: Path) -> None:
    """Each dumped gear graph is clean against CANN's facts for three chips: registrations,
    dtypes, and the shape operands CANN needs constant (Expand's shape, Resize's sizes), which
    gear merging must keep constant per gear (cann_op_facts.check_onnx)."""
    parts = sorted(dumps.glob("*/part.onnx"))
    assert parts, f"nothing dumped to {dumps}"
    for part in parts:
        graph = onnx.load(str(part), load_external_data=False)
        for soc in ("Ascend910B1", "Ascend310P3", "Ascend310B1"):
            refused = check_onnx(graph, soc, default_precision_mode(soc))
            assert not refused, f"{part} on {soc}: {refused}"


def _inputs(seed: int, *shapes: tuple[int, ...]) -> list[torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(s, generator=gen) for s in shapes]


@pytest.mark.parametrize(
    ("make", "shape"), [(Mlp, (8,)), (ConvNet, (3, 8, 8))], ids=["mlp", "conv"]
)
def test_batch_gears_run_at_every_gear_and_refuse_other_batches(
    native, make, shape, tmp_path: Path, capfd
) -> None:
    module = _eval(make())
    exported = export(
        module, (torch.randn(2, *shape),), dynamic_shapes=({0: Dim("batch", min=1, max=4)},)
    )
    spec = _spec(dynamic_batch_size=(1, 2, 4))
    lowering = lower_program(exported, spec)
    assert lowering.summary.partitions == 1, str(lowering.summary)
    assert len(ascend_lowered_modules(lowering.edge)) == 1  # one .om for every gear
    pte, _ = save(lowering.program, tmp_path / "gears.pte")
    for batch in (1, 2, 4):
        (x,) = _inputs(batch, (batch, *shape))
        assert_close(run_with_runtime(pte, [x]), eager(module, [x]), f"batch gear {batch}")
    capfd.readouterr()
    with pytest.raises(RuntimeError):
        run_with_runtime(pte, _inputs(3, (3, *shape)))
    # The backend says which shapes the .om was compiled for.
    err = capfd.readouterr().err
    assert "(3, " in err, err
    assert all(f"batch {b}" in err for b in (1, 2, 4)), err


def test_dims_gears_run_at_every_gear(native, tmp_path: Path) -> None:
    module = _eval(TwoInputs())
    b, s = Dim("b", min=1, max=4), Dim("s", min=1, max=16)
    exported = export(
        module, (torch.randn(2, 4, 8), torch.ones(2, 4)), dynamic_shapes=({0: b, 1: s},) * 2
    )
    spec = _spec(dynamic_dims=((1, 4), (2, 8), (4, 16)), dump_dir=str(tmp_path / "dumps"))
    lowering = lower_program(exported, spec)
    assert lowering.summary.partitions == 1, str(lowering.summary)
    _assert_cann_takes(tmp_path / "dumps")
    pte, _ = save(lowering.program, tmp_path / "dims.pte")
    for batch, seq in ((1, 4), (2, 8), (4, 16)):
        x, m = _inputs(seq, (batch, seq, 8), (batch, seq))
        assert_close(run_with_runtime(pte, [x, m]), eager(module, [x, m]), f"({batch}, {seq})")


def test_llama_sequence_gears_run_at_every_gear(native, tmp_path: Path) -> None:
    module = LlamaLogits().eval()
    ids = torch.randint(0, 128, (1, 8))
    exported = export(
        module, (ids,), dynamic_shapes=({1: Dim("seq", min=1, max=16)},), strict=False
    )
    spec = _spec(dynamic_dims=((4,), (8,), (16,)), dump_dir=str(tmp_path / "dumps"))
    lowering = lower_program(exported, spec)
    assert lowering.summary.partitions == 1, str(lowering.summary)
    _assert_cann_takes(tmp_path / "dumps")
    pte, _ = save(lowering.program, tmp_path / "llama.pte")
    for n in (4, 8, 16):
        x = torch.randint(0, 128, (1, n), generator=torch.Generator().manual_seed(n))
        assert_close(run_with_runtime(pte, [x]), eager(module, [x]), f"Llama at {n}")


class _ClampBelowZero(torch.nn.Module):
    """torchao's per-token min as it writes it: torch.min(x, zeros_like(x)), a full_like of a
    shape that changes with the gear."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.min(x, torch.zeros_like(x)) * 2.0


def test_full_like_of_a_gear_varying_shape_needs_no_computed_expand(native, tmp_path: Path) -> None:
    """CANN's Expand takes a constant shape only: a full_like whose shape varies with the gear
    is a Where over the input's own shape, which every chip's atc takes, and it runs right at
    every gear."""
    module = _eval(_ClampBelowZero())
    exported = export(module, (torch.randn(1, 5, 8),), dynamic_shapes=({1: Dim("s", max=8)},))
    spec = _spec(dynamic_dims=((2,), (5,)), dump_dir=str(tmp_path / "dumps"))
    lowering = lower_program(exported, spec)
    assert lowering.summary.partitions == 1, str(lowering.summary)
    _assert_cann_takes(tmp_path / "dumps")
    pte, _ = save(lowering.program, tmp_path / "full_like.pte")
    for seq in (2, 5):
        (x,) = _inputs(seq, (1, seq, 8))
        assert_close(run_with_runtime(pte, [x]), eager(module, [x]), f"seq gear {seq}")
