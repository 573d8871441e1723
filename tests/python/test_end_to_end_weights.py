# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""External weights end to end on the emulator: atc --external_weight, the weight files as named
data in the .pte/.ptd, and the runtime binding them, against eager at the fp32 tolerance.

Shared weights are stored once in the files (sizes checked) and held once in emulated device
memory (the emulator's live device bytes, read in this process); ExecuTorch's
delegate_external_constants_pass_unlifted sends them to the tagged .ptd."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
import torch
from ascend_helpers import (
    ascend_lowered_modules,
    assert_close,
    eager,
    emulator_device_memory,
    named_data,
    seeded_inputs,
)
from example_models import Mlp
from weight_models import (
    BIAS_BYTES,
    IN,
    OUT,
    WEIGHT_BYTES,
    FlipBetween,
    Linear64x256,
    export_all,
    lower_methods,
    parameter_bytes,
    shared_heads,
    tagged_export,
)

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, lower_program, save
from executorch_ascend.run import RunnerError, run_with_runner, run_with_runtime
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator


def _spec(**kwargs) -> AscendCompileSpec:
    return AscendCompileSpec(toolchain="emulator", **kwargs)


def _run_method(program, method: str, inputs) -> list[torch.Tensor]:
    outputs = program.load_method(method).execute(list(inputs))
    return [o for o in outputs if isinstance(o, torch.Tensor)]


def _load(pte: Path, ptd: Path | None):
    from executorch.runtime import Runtime

    return Runtime.get().load_program(pte, data_path=ptd)


def _two_method_program(tmp_path: Path):
    heads = shared_heads()
    inputs = seeded_inputs((4, IN), seed=1)
    program = lower_methods(export_all(heads, inputs), _spec(external_tag="shared"))
    pte, ptds = save(program, tmp_path / "heads.pte")
    assert [p.name for p in ptds] == ["shared.ptd"]
    return heads, inputs, pte, ptds[0]


def test_two_methods_store_a_shared_weight_once_and_match_eager(native, tmp_path: Path) -> None:
    heads, inputs, pte, ptd = _two_method_program(tmp_path)
    data = ptd.read_bytes()
    assert data.count(parameter_bytes(heads["a"], "fc.weight")) == 1
    # One weight and one bias, two small .oms and the file's own framing.
    assert WEIGHT_BYTES + BIAS_BYTES < len(data) < WEIGHT_BYTES + BIAS_BYTES + 16 * 1024
    assert pte.stat().st_size < 16 * 1024
    program = _load(pte, ptd)
    for name, module in heads.items():
        assert_close(_run_method(program, name, inputs), eager(module, inputs), f"method {name}")


def test_two_methods_hold_a_shared_weight_once_on_the_device(native, tmp_path: Path) -> None:
    """Needs the runtime's weights cache (one device allocation per weight key)."""
    heads, inputs, pte, ptd = _two_method_program(tmp_path)
    gc.collect()
    _, before = emulator_device_memory()
    program = _load(pte, ptd)
    method_a = program.load_method("a")
    _, after_a = emulator_device_memory()
    method_b = program.load_method("b")
    _, after_b = emulator_device_memory()
    assert after_a - before >= WEIGHT_BYTES + BIAS_BYTES
    # The second method allocates its I/O and workspace, not the weights again.
    assert after_b - after_a < WEIGHT_BYTES, (before, after_a, after_b)
    assert_close(method_b.execute([inputs[0]]), eager(heads["b"], inputs), "method b")
    assert_close(method_a.execute([inputs[0]]), eager(heads["a"], inputs), "method a")
    # Freed with the last user.
    del method_a, method_b, program
    gc.collect()
    assert emulator_device_memory()[1] == before


def test_two_partitions_store_a_shared_weight_once_and_match_eager(native, tmp_path: Path) -> None:
    model, inputs = FlipBetween().eval(), seeded_inputs((2, OUT), seed=1)
    lowering = lower(model, inputs, _spec())
    assert lowering.summary.partitions == 2
    first, second = (blob.decode(m.processed_bytes) for m in ascend_lowered_modules(lowering.edge))
    assert {w.key for w in first.weights} == {w.key for w in second.weights}
    pte, _ = save(lowering.program, tmp_path / "flip.pte")
    weight = parameter_bytes(model, "fc.weight")
    assert pte.read_bytes().count(weight) == 1
    assert pte.stat().st_size < len(weight) + 16 * 1024
    expected = eager(model, inputs)
    assert_close(run_with_runtime(pte, inputs), expected, "two partitions, executorch.runtime")
    assert_close(
        run_with_runner(pte, inputs, expected, tmp_path / "runner"),
        expected,
        "two partitions, ascend_runner",
    )


def test_two_partitions_hold_a_shared_weight_once_on_the_device(native, tmp_path: Path) -> None:
    """Needs the runtime's weights cache (one device allocation per weight key)."""
    model, inputs = FlipBetween().eval(), seeded_inputs((2, OUT), seed=1)
    pte, _ = save(lower(model, inputs, _spec()).program, tmp_path / "flip.pte")
    weight_bytes = OUT * OUT * 4
    gc.collect()
    _, before = emulator_device_memory()
    program = _load(pte, None)
    method = program.load_method("forward")
    _, loaded = emulator_device_memory()
    # Both delegates are loaded; the weight is on the device once (twice would be >= 2x).
    assert weight_bytes <= loaded - before < 1.5 * weight_bytes, (before, loaded)
    assert_close(method.execute([inputs[0]]), eager(model, inputs), "two partitions")
    del method, program
    gc.collect()
    assert emulator_device_memory()[1] == before


def test_tagged_weights_go_to_their_ptd_and_the_pte_stays_small(native, tmp_path: Path) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((4, IN), seed=1)
    exported = tagged_export(model, inputs, lambda _: "model")
    lowering = lower_program(exported, _spec())
    pte, ptds = save(lowering.program, tmp_path / "tagged.pte")
    assert [p.name for p in ptds] == ["model.ptd"]
    (ptd,) = ptds
    assert pte.stat().st_size < 16 * 1024, pte.stat().st_size
    weight = parameter_bytes(model, "fc.weight")
    assert ptd.read_bytes().count(weight) == 1 and weight not in pte.read_bytes()
    expected = eager(model, inputs)
    assert_close(run_with_runtime(pte, inputs, ptd=ptd), expected, "tagged, executorch.runtime")
    runner = run_with_runner(pte, inputs, expected, tmp_path / "runner", ptd=ptd)
    assert_close(runner, expected, "tagged, ascend_runner")


def test_a_missing_ptd_is_a_clear_load_error(native, tmp_path: Path, capfd) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((4, IN), seed=1)
    lowering = lower_program(tagged_export(model, inputs, lambda _: "model"), _spec())
    pte, _ = save(lowering.program, tmp_path / "tagged.pte")
    # The runtime names the weight it could not find (the Python runtime's own exception only
    # carries the error code; the backend's message is in the log).
    with pytest.raises(RuntimeError):
        run_with_runtime(pte, inputs)
    log = capfd.readouterr().err
    assert "ascend/weight/" in log and "not found" in log, log
    with pytest.raises(RunnerError) as info:
        run_with_runner(pte, inputs, eager(model, inputs), tmp_path / "runner")
    assert "ascend/weight/" in str(info.value) and "not found" in str(info.value)


def test_external_data_path_forced_on_a_small_model(native, tmp_path: Path) -> None:
    model, inputs = Mlp().eval(), seeded_inputs((4, 32), seed=1)
    lowering = lower(model, inputs, _spec(external_weight_threshold=0))
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    # Every weight and bias of the three Linears is a weight file.
    assert len(decoded.weights) == 6
    pte, _ = save(lowering.program, tmp_path / "mlp.pte")
    expected = eager(model, inputs)
    assert_close(run_with_runtime(pte, inputs), expected, "threshold 0, executorch.runtime")
    runner = run_with_runner(pte, inputs, expected, tmp_path / "runner")
    assert_close(runner, expected, "threshold 0, ascend_runner")


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_every_external_weight_mode_runs_right(native, tmp_path: Path, mode: int) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((4, IN), seed=1)
    lowering = lower(model, inputs, _spec(external_weight=mode))
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    out = module.named_data_store_output
    om = named_data(module, decoded.om_key)
    assert len(decoded.weights) == {0: 0, 1: 2, 2: 1}[mode]
    if mode == 0:
        assert set(out.pte_data) == {decoded.om_key}  # no weights in named data
        assert len(om) > WEIGHT_BYTES
    else:
        assert len(om) < 16 * 1024
        assert sum(w.size for w in decoded.weights) == WEIGHT_BYTES + BIAS_BYTES
    pte, _ = save(lowering.program, tmp_path / f"mode{mode}.pte")
    expected = eager(model, inputs)
    assert_close(run_with_runtime(pte, inputs), expected, f"external_weight={mode}")
