# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Deferred and multi-SoC compile (issue 13): a program exported with keep_onnx=True carries each
partition's ONNX, and `executorch-ascend compile` builds .om files for further SoCs from the
saved .pte/.ptd alone; the runtime loads the .om of the device's SoC.

Each SoC runs in its own ascend_runner process, with the emulator configured as that chip
(EXECUTORCH_ASCEND_EMU_SOC_NAME): its aclrtGetSocName() answers that name, and its
aclmdlLoadFromMem refuses an .om compiled for any other, so a run that matches eager used the
right target."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager
from example_models import small_resnet
from model_zoo import rescale_weights

from executorch_ascend import AscendCompileSpec
from executorch_ascend.cann_op_facts import default_precision_mode
from executorch_ascend.export import lower, save
from executorch_ascend.recompile import RecompileError, recompile, referenced_keys
from executorch_ascend.run import RunnerError, run_with_runner, run_with_runtime
from executorch_ascend.saved_program import SavedProgram
from executorch_ascend.serialization import blob
from executorch_ascend.serialization.source import PartitionSource, SourceError
from executorch_ascend.toolchain.atc import resolve_atc

pytestmark = pytest.mark.emulator

EXPORTED_FOR = "Ascend910B1"


def _rel(soc: str) -> float:
    """The tolerance of `soc`'s default precision mode: a program exported for Ascend910B1 with
    its default (must_keep_origin_dtype) is compiled again with each chip's default, on
    Ascend310P/310B allow_fp32_to_fp16 (float16 cube ops)."""
    return 1e-2 if default_precision_mode(soc) == "allow_fp32_to_fp16" else 1e-4


def _compile(*args: str | Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "executorch_ascend.cli", "--emulator", "compile"]
    cmd += [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)


def _run_as(soc: str, pte: Path, ptd: Path | None, inputs, expected, work: Path, monkeypatch):
    """ascend_runner's outputs with the emulator as chip `soc`."""
    with monkeypatch.context() as m:
        m.setenv("EXECUTORCH_ASCEND_EMU_SOC_NAME", soc)
        return run_with_runner(pte, inputs, expected, work / soc, ptd=ptd)


def _blobs(pte: Path, ptds: list[Path]) -> list[blob.AscendBlob]:
    program = SavedProgram.load(pte, ptds)
    return [blob.decode(program.processed(d)) for _, _, d in program.delegates("AscendBackend")]


class FlipBetween(torch.nn.Module):
    """Two partitions around a CPU op (atan), an external weight and an inline one."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8 * 8 * 8, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.atan(torch.relu(self.conv(x)))
        return self.fc(y.flatten(1))


@pytest.fixture(scope="module")
def resnet(tmp_path_factory):
    """transformers' ResNet (default config family, weights rescaled so logits are far from 0),
    exported for Ascend910B1 with keep_onnx, its .om and weights in model.ptd."""
    torch.manual_seed(0)
    model = rescale_weights(small_resnet())
    inputs = (torch.randn(1, 3, 64, 64, generator=torch.Generator().manual_seed(1)),)
    spec = AscendCompileSpec(
        soc_version=EXPORTED_FOR, toolchain="emulator", external_tag="model", keep_onnx=True
    )
    folder = tmp_path_factory.mktemp("resnet")
    pte, ptds = save(lower(model, inputs, spec).program, folder / "model.pte")
    assert ptds == [folder / "model.ptd"]
    return model, inputs, pte, ptds[0]


def test_two_more_socs_each_run_their_own_om_and_a_third_is_refused(
    resnet, tmp_path, monkeypatch
) -> None:
    model, inputs, pte, ptd = resnet
    out = tmp_path / "fleet" / "model.pte"
    done = _compile(pte, "--data", ptd, "--soc_version", "Ascend310P3", "--soc_version",
                    "Ascend310B1", "-o", out)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "SoCs: Ascend910B1 -> Ascend910B1, Ascend310P3, Ascend310B1" in done.stdout
    out_ptd = out.with_suffix(".ptd")
    assert f"wrote {out_ptd}" in done.stdout
    (decoded,) = _blobs(out, [out_ptd])
    assert decoded.soc_versions == (EXPORTED_FOR, "Ascend310P3", "Ascend310B1")
    assert len({t.om_key for t in decoded.targets}) == 3  # one .om per SoC

    expected = eager(model, inputs)
    for soc in decoded.soc_versions:
        got = _run_as(soc, out, out_ptd, inputs, expected, tmp_path, monkeypatch)
        assert_close(got, expected, soc, rel=_rel(soc))
    # Another family's chip: refused, naming what the program has.
    with pytest.raises(RunnerError) as refused:
        _run_as("Ascend910_9391", out, out_ptd, inputs, expected, tmp_path, monkeypatch)
    assert (
        "this program has .om files for Ascend910B1, Ascend310P3, Ascend310B1 (atc "
        "--soc_version); the device is Ascend910_9391" in str(refused.value)
    )
    assert "executorch-ascend compile model.pte --soc_version Ascend910_9391" in str(refused.value)
    # The program as exported runs on its own SoC only.
    with pytest.raises(RunnerError, match=r"has \.om files for Ascend910B1 "):
        _run_as("Ascend310P3", pte, ptd, inputs, expected, tmp_path / "orig", monkeypatch)


def test_replace_keeps_only_the_new_socs_and_drops_the_old_om(
    resnet, tmp_path, monkeypatch
) -> None:
    model, inputs, pte, ptd = resnet
    out = tmp_path / "model.pte"
    done = _compile(pte, "--data", ptd, "--soc-version", "Ascend310P3", "--replace", "-o", out)
    assert done.returncode == 0, done.stderr
    out_ptd = out.with_suffix(".ptd")
    (before,) = _blobs(pte, [ptd])
    (after,) = _blobs(out, [out_ptd])
    assert after.soc_versions == ("Ascend310P3",)
    assert after.source_key == before.source_key and after.states == before.states
    program = SavedProgram.load(out, [out_ptd])
    assert before.om_key not in program.entries  # nothing refers to it any more
    assert set(k for k in program.entries if k.startswith("ascend/")) == referenced_keys(program)
    # The program's soc_version compile spec follows its first target.
    (_, _, delegate) = program.delegates("AscendBackend")[0]
    assert {cs.key: bytes(cs.value) for cs in delegate.compile_specs}["soc_version"] == (
        b"Ascend310P3"
    )
    expected = eager(model, inputs)
    got = _run_as("Ascend310P3", out, out_ptd, inputs, expected, tmp_path, monkeypatch)
    assert_close(got, expected, "Ascend310P3 only", rel=_rel("Ascend310P3"))
    with pytest.raises(RunnerError, match=r"has \.om files for Ascend310P3 "):
        _run_as(EXPORTED_FOR, out, out_ptd, inputs, expected, tmp_path, monkeypatch)


def test_the_kept_onnx_shares_the_weights_bytes(resnet, tmp_path) -> None:
    """keep_onnx adds the ONNX graph and a manifest; the initializers' bytes are the weight
    files' (one content key), so the .ptd grows by far less than the weights."""
    model, inputs, _, kept_ptd = resnet
    spec = AscendCompileSpec(toolchain="emulator", external_tag="model")
    _, (plain_ptd,) = save(lower(model, inputs, spec).program, tmp_path / "model.pte")
    weights = sum(p.numel() * p.element_size() for p in model.parameters())
    growth = kept_ptd.stat().st_size - plain_ptd.stat().st_size
    assert 0 < growth < 0.1 * weights, (growth, weights)
    program = SavedProgram.load(kept_ptd.with_suffix(".pte"), [kept_ptd])
    (decoded,) = _blobs(kept_ptd.with_suffix(".pte"), [kept_ptd])
    assert decoded.source_key is not None
    source = PartitionSource.from_json(program.read(decoded.source_key))
    assert source.input_names and source.pieces
    weight_keys = {w.key for w in decoded.weights}
    assert {p.key for p in source.pieces} <= weight_keys  # the same bytes, stored once


def test_two_partitions_inline_weights_and_the_precision_mode_carry_over(
    tmp_path, monkeypatch
) -> None:
    """Every delegate is compiled again with its own compile specs: under force_fp16 the new
    .om gives exactly the original's numbers (and not fp32's); the .pte alone holds it all."""
    torch.manual_seed(0)
    model = rescale_weights(FlipBetween().eval())
    inputs = (torch.randn(1, 3, 8, 8, generator=torch.Generator().manual_seed(2)),)
    spec = AscendCompileSpec(toolchain="emulator", precision_mode="force_fp16", keep_onnx=True)
    pte, ptds = save(lower(model, inputs, spec).program, tmp_path / "flip.pte")
    assert ptds == []
    out = tmp_path / "out" / "flip.pte"
    done = _compile(pte, "--soc_version", "Ascend310P3", "-o", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("SoCs: Ascend910B1 -> Ascend910B1, Ascend310P3") == 2
    assert sorted(p.name for p in out.parent.iterdir()) == ["flip.pte"]
    expected = eager(model, inputs)
    original = run_with_runtime(pte, inputs)
    again = _run_as("Ascend310P3", out, None, inputs, expected, tmp_path, monkeypatch)
    assert torch.equal(again[0], original[0])
    assert not torch.allclose(again[0], expected[0], atol=1e-5, rtol=0)  # fp16 did round
    assert_close(again, expected, "force_fp16", rel=1e-2)


def test_a_program_without_kept_onnx_or_its_ptd_is_refused(resnet, tmp_path) -> None:
    model, inputs, pte, ptd = resnet
    plain, _ = save(
        lower(model, inputs, AscendCompileSpec(toolchain="emulator")).program,
        tmp_path / "plain.pte",
    )
    done = _compile(plain, "--soc_version", "Ascend310P3", "-o", tmp_path / "x.pte")
    assert done.returncode == 2
    assert "holds no ONNX source" in done.stderr and "keep_onnx" in done.stderr
    done = _compile(pte, "--soc_version", "Ascend310P3", "-o", tmp_path / "y.pte")
    assert done.returncode == 2
    assert "is missing: pass every .ptd file of the program (--data)" in done.stderr
    done = _compile(pte, "--data", ptd, "--soc_version", "Ascend310P4", "-o", tmp_path / "z.pte")
    assert done.returncode == 2 and "Ascend310P3" in done.stderr  # the nearest names
    done = _compile(pte, "--data", tmp_path / "nothing.ptd", "--soc_version", "Ascend310P3",
                    "-o", tmp_path / "w.pte")  # fmt: skip
    assert done.returncode == 2 and "cannot read the .ptd file" in done.stderr
    assert not any(tmp_path.glob("[xyzw].pt*"))  # nothing half-written


def test_recompile_in_place_and_twice(resnet, tmp_path) -> None:
    """The Python API: compiling for a SoC the blob has replaces that target (no duplicate),
    and a program written over its own files still loads."""
    model, inputs, pte, ptd = resnet
    program = SavedProgram.load(pte, [ptd])
    atc = resolve_atc(AscendCompileSpec(toolchain="emulator"))
    with pytest.raises(RecompileError, match="named twice"):
        recompile(program, ["Ascend310P3", "Ascend310P3"], atc)
    recompile(program, ["Ascend310P3"], atc)
    recompile(program, ["Ascend310P3", EXPORTED_FOR], atc)
    copy_pte, copy_ptd = tmp_path / "model.pte", tmp_path / "model.ptd"
    program.save(copy_pte)
    (decoded,) = _blobs(copy_pte, [copy_ptd])
    assert decoded.soc_versions == ("Ascend310P3", EXPORTED_FOR)
    again = SavedProgram.load(copy_pte, [copy_ptd])
    recompile(again, ["Ascend310B1"], atc)
    again.save(copy_pte)  # over the files it was read from
    assert _blobs(copy_pte, [copy_ptd])[0].soc_versions == ("Ascend310P3", EXPORTED_FOR,
                                                            "Ascend310B1")  # fmt: skip
    assert_close(run_with_runtime(copy_pte, inputs, copy_ptd), eager(model, inputs), "rewritten")


def test_a_damaged_manifest_is_a_source_error_never_another(resnet) -> None:
    """The manifest is a parser's input read from a file: every truncation, and a byte flip at
    every position, gives SourceError (or, where the JSON still says the same, the same source)."""
    _, _, pte, ptd = resnet
    program = SavedProgram.load(pte, [ptd])
    (decoded,) = _blobs(pte, [ptd])
    assert decoded.source_key is not None
    data = bytes(program.read(decoded.source_key))
    source = PartitionSource.from_json(data)
    outcomes = set()
    for n in range(0, len(data), 7):
        with pytest.raises(SourceError):
            PartitionSource.from_json(data[:n])
    for i in range(len(data)):
        for flip in (0x01, 0x20, 0x80):
            damaged = data[:i] + bytes([data[i] ^ flip]) + data[i + 1 :]
            try:
                outcomes.add(PartitionSource.from_json(damaged) == source)
            except SourceError:
                outcomes.add("refused")
    assert "refused" in outcomes
    for bad in (b"[]", b"{}", b'{"format": 1}', b"\xff\xfe", b"null", b'"x"'):
        with pytest.raises(SourceError):
            PartitionSource.from_json(bad)


def test_a_gear_program_is_compiled_again_exactly(tmp_path, monkeypatch) -> None:
    """The manifest gives atc back the gear options the lowering derived: compiled again for
    the SoC it was exported for, the .om is byte for byte the one the export made; compiled for
    another SoC it runs at every gear there."""
    from test_gears import TwoInputs, _eval
    from torch.export import Dim, export

    from executorch_ascend.export import lower_program

    module = _eval(TwoInputs())
    b, s = Dim("b", min=1, max=4), Dim("s", min=1, max=16)
    exported = export(
        module, (torch.randn(2, 4, 8), torch.ones(2, 4)), dynamic_shapes=({0: b, 1: s},) * 2
    )
    gears = ((1, 4), (2, 8), (4, 16))
    spec = AscendCompileSpec(toolchain="emulator", dynamic_dims=gears, keep_onnx=True)
    pte, _ = save(lower_program(exported, spec).program, tmp_path / "dims.pte")
    (exported_blob,) = _blobs(pte, [])
    program = SavedProgram.load(pte)
    source = PartitionSource.from_json(program.read(exported_blob.source_key or ""))
    assert any(o.startswith("--dynamic_dims=") for o in source.gear_options)
    atc = resolve_atc(AscendCompileSpec(toolchain="emulator"))
    recompile(program, [EXPORTED_FOR, "Ascend310P3"], atc)
    out = tmp_path / "out" / "dims.pte"
    program.save(out)
    (decoded,) = _blobs(out, [])
    assert decoded.target(EXPORTED_FOR) == exported_blob.targets[0]  # the same .om, same key
    # Every gear in this process (the emulator as the exported-for SoC); the largest gear, the
    # shape ascend_runner feeds, with the emulator as the other SoC.
    for batch, seq in gears:
        gen = torch.Generator().manual_seed(seq)
        x, m = torch.randn(batch, seq, 8, generator=gen), torch.randn(batch, seq, generator=gen)
        expected = eager(module, [x, m])
        assert_close(run_with_runtime(out, [x, m]), expected, f"gear ({batch}, {seq})")
    got = _run_as("Ascend310P3", out, None, [x, m], expected, tmp_path, monkeypatch)
    assert_close(got, expected, "Ascend310P3 at the largest gear", rel=_rel("Ascend310P3"))


def test_device_state_survives_a_recompile_with_replace(tmp_path) -> None:
    """A partition that keeps state on the device (a running sum starting as zeros, a counter
    with its initial value in named data) keeps it through compile --replace: the state table
    and the initial value's named data stay, and a sequence of calls matches eager's."""
    from test_device_state import Accumulator, _eager_sequence, _inputs

    spec = AscendCompileSpec(toolchain="emulator", keep_onnx=True)
    pte, _ = save(lower(Accumulator(), (torch.zeros(2, 8),), spec).program, tmp_path / "acc.pte")
    out = tmp_path / "out" / "acc.pte"
    done = _compile(pte, "--soc_version", EXPORTED_FOR, "--replace", "-o", out)
    assert done.returncode == 0, done.stderr
    (before,), (after,) = _blobs(pte, []), _blobs(out, [])
    assert len(after.states) == 2 and after.states == before.states
    initial = [st.key for st in after.states if st.key is not None]
    assert initial and all(k in SavedProgram.load(out).entries for k in initial)
    from executorch.runtime import Runtime

    method = Runtime.get().load_program(out).load_method("forward")
    xs = _inputs(4)
    for i, (x, want) in enumerate(zip(xs, _eager_sequence(xs), strict=True)):
        assert_close([method.execute([x])[0]], [want], f"call {i}")
