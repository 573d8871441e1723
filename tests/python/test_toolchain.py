# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The atc driver: which atc is chosen, what it is told, and how its failures surface."""

from __future__ import annotations

import hashlib
import logging
import os
import stat
from pathlib import Path

import pytest
import torch
from ascend_helpers import ascend_lowered_modules, named_data, seeded_inputs
from executorch.exir._serialize._cord import FileBackedData

from executorch_ascend import AscendCompileSpec
from executorch_ascend.backend import om_key
from executorch_ascend.export import lower
from executorch_ascend.serialization import blob
from executorch_ascend.toolchain import cann
from executorch_ascend.toolchain.atc import (
    Atc,
    ToolchainError,
    atc_command,
    compile_onnx,
    resolve_atc,
)

# Stands in for CANN's atc (no CANN toolkit can be installed here): it checks the parts of the
# command line every atc run needs and writes <output>.om recording its arguments and the model.
FAKE_CANN_ATC = """#!/bin/sh
out=""; fw=""; model=""; soc=""
for a in "$@"; do
  case "$a" in
    --output=*) out="${a#--output=}";;
    --framework=*) fw="${a#--framework=}";;
    --model=*) model="${a#--model=}";;
    --soc_version=*) soc="${a#--soc_version=}";;
  esac
done
[ "$fw" = 5 ] || { echo "E10001: --framework must be 5 for ONNX" >&2; exit 2; }
[ -f "$model" ] || { echo "E10001: model file $model not found" >&2; exit 3; }
[ -n "$soc" ] || { echo "E10001: --soc_version is required" >&2; exit 4; }
{ echo "FAKE-CANN-OM"; printf '%s\\n' "$@"; cat "$model"; } > "$out.om"
echo "ATC run success, welcome to the next use."
"""


def _write_script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def no_cann(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    monkeypatch.delenv("ASCEND_TOOLKIT_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))


@pytest.fixture
def fake_cann(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    home = tmp_path / "Ascend" / "ascend-toolkit" / "latest"
    atc = _write_script(home / "bin" / "atc", FAKE_CANN_ATC)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(home))
    monkeypatch.delenv("ASCEND_TOOLKIT_HOME", raising=False)
    monkeypatch.setattr(cann, "_chosen", None)  # a CANN host: the emulator is not chosen
    return atc


class _Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(6, 8), torch.nn.Linear(8, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


@pytest.mark.emulator
def test_auto_uses_the_emulator_only_when_it_was_chosen(native, no_cann, monkeypatch) -> None:
    emulator = cann.find_emulator()
    assert emulator is not None
    monkeypatch.setattr(cann, "_chosen", emulator)  # as use_emulator() leaves it
    atc = resolve_atc(AscendCompileSpec(toolchain="auto"))
    assert atc.is_emulator and atc.path == emulator.atc
    assert atc.description.startswith("emulator ")
    monkeypatch.setattr(cann, "_chosen", None)  # production: CANN or a clear error
    with pytest.raises(ToolchainError, match=r"no CANN atc was found.*use_emulator"):
        resolve_atc(AscendCompileSpec(toolchain="auto"))


def test_a_chosen_emulator_wins_over_an_installed_cann(fake_cann, monkeypatch) -> None:
    emulator = cann.Emulator(fake_cann.parent / "emu-atc", fake_cann.parent / "emu.so")
    emu_atc = _write_script(emulator.atc, "#!/bin/sh\necho emulator 1\n")
    monkeypatch.setattr(cann, "find_emulator", lambda: emulator)
    monkeypatch.setattr(cann, "_chosen", emulator)
    assert resolve_atc(AscendCompileSpec(toolchain="auto")).path == emu_atc
    # An explicit CANN atc still means CANN.
    explicit = AscendCompileSpec(toolchain="auto", atc_path=str(fake_cann))
    assert resolve_atc(explicit).path == fake_cann


@pytest.mark.emulator
def test_emulator_toolchain_does_not_warn(native, no_cann, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="executorch_ascend.toolchain"):
        resolve_atc(AscendCompileSpec(toolchain="emulator"))
    assert not caplog.records


def test_cann_toolchain_without_cann_is_a_clear_error(no_cann) -> None:
    with pytest.raises(ToolchainError, match="no CANN atc was found"):
        resolve_atc(AscendCompileSpec(toolchain="cann"))


def test_missing_emulator_atc_is_a_clear_error(no_cann, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(cann.ENV_EMULATOR_ATC, str(tmp_path / "nope" / "atc"))
    with pytest.raises(ToolchainError, match="emulator's atc is missing"):
        resolve_atc(AscendCompileSpec(toolchain="emulator"))


def test_explicit_atc_path_must_exist(no_cann, tmp_path) -> None:
    with pytest.raises(ToolchainError, match="not an executable"):
        resolve_atc(AscendCompileSpec(toolchain="cann", atc_path=str(tmp_path / "atc")))


def test_cann_atc_is_found_in_the_toolkit_and_on_path(fake_cann, monkeypatch, tmp_path) -> None:
    assert cann.cann_atc() == fake_cann
    auto = resolve_atc(AscendCompileSpec(toolchain="auto"))
    assert (auto.kind, auto.description) == ("cann", f"cann {fake_cann}")

    monkeypatch.delenv("ASCEND_HOME_PATH")
    monkeypatch.setenv("ASCEND_TOOLKIT_HOME", str(fake_cann.parent.parent))
    assert cann.cann_atc() == fake_cann

    monkeypatch.delenv("ASCEND_TOOLKIT_HOME")
    monkeypatch.setenv("PATH", str(fake_cann.parent))
    assert cann.cann_atc() == fake_cann


def test_our_emulator_atc_on_path_is_not_mistaken_for_cann(no_cann, monkeypatch, tmp_path) -> None:
    ours = _write_script(tmp_path / "emu" / "bin" / "atc", "#!/bin/sh\nexit 0\n")
    monkeypatch.setenv(cann.ENV_EMULATOR_ATC, str(ours))
    monkeypatch.setenv(cann.ENV_EMULATOR_ACL_LIB, str(tmp_path / "emu" / "lib64" / "x.so"))
    monkeypatch.setenv("PATH", str(ours.parent))
    assert cann.cann_atc() is None


def test_command_line() -> None:
    spec = AscendCompileSpec(soc_version="Ascend310P3", precision_mode="force_fp32")
    fake = Atc(Path("/opt/atc"), "cann", "cann /opt/atc")
    nchw = atc_command(fake, spec, ["input_0", "input_1"], [(1, 3, 8, 8), (2, 3, 4, 4)])
    assert nchw == [
        "/opt/atc",
        "--framework=5",
        "--model=part.onnx",
        "--output=part",
        "--input_shape=input_0:1,3,8,8;input_1:2,3,4,4",
        "--soc_version=Ascend310P3",
        "--precision_mode=force_fp32",
        "--input_format=NCHW",
        "--mode=0",
        "--external_weight=1",
    ]
    nd = atc_command(fake, spec, ["input_0", "input_1"], [(2, 3), ()])
    assert "--input_format=ND" in nd and "--input_shape=input_0:2,3" in nd
    for mode in (0, 1, 2):
        cmd = atc_command(fake, AscendCompileSpec(external_weight=mode), ["input_0"], [(2,)])
        assert cmd[-1] == f"--external_weight={mode}"  # 0 too: never atc's default
    assert "--model=other.onnx" in atc_command(fake, spec, [], [], model_file="other.onnx")


@pytest.mark.emulator
def test_atc_failure_carries_atcs_message(native) -> None:
    spec = AscendCompileSpec(toolchain="emulator")
    with pytest.raises(ToolchainError) as info:
        compile_onnx(b"this is not an onnx model", spec, ["input_0"], [(2, 2)])
    message = str(info.value)
    assert "failed with exit code" in message and "ATC run failed" in message


def test_atc_that_writes_no_om_is_an_error(no_cann, monkeypatch, tmp_path) -> None:
    quiet = _write_script(tmp_path / "bin" / "atc", "#!/bin/sh\necho done\n")
    spec = AscendCompileSpec(toolchain="cann", atc_path=str(quiet))
    with pytest.raises(ToolchainError, match=r"wrote no part\.om"):
        compile_onnx(b"x", spec, [], [])


def _runtime_specs(module) -> dict[str, str]:
    """The compile specs the runtime reads, as stored with the delegate."""
    return {
        s.key: bytes(s.value).decode()
        for s in module.compile_specs
        if s.key in blob.RUNTIME_COMPILE_SPECS
    }


def test_fake_cann_atc_path_is_taken_and_the_specs_reach_the_runtime(fake_cann) -> None:
    spec = AscendCompileSpec(toolchain="cann", soc_version="Ascend310P3", device_id=1)
    lowering = lower(_Mlp().eval(), seeded_inputs((2, 6)), spec)
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    assert _runtime_specs(module) == {"device_id": "1"}
    assert decoded.soc_versions == ("Ascend310P3",)  # the SoC travels in the blob
    om = named_data(module, decoded.om_key)
    assert decoded.om_key == om_key(om)
    assert om.startswith(b"FAKE-CANN-OM\n")
    assert b"--soc_version=Ascend310P3\n" in om and b"--input_shape=input_0:2,6\n" in om


@pytest.mark.emulator
def test_emulator_build_is_marked_by_the_om_magic_and_external_tag(native, no_cann) -> None:
    spec = AscendCompileSpec(toolchain="emulator", external_tag="weights")
    lowering = lower(_Mlp().eval(), seeded_inputs((2, 6)), spec)
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    om = named_data(module, decoded.om_key, tag="weights")
    assert om[:8] == b"AEMU.OM\0"  # acl/emulator_ids.h: the one emulator-build marker
    assert decoded.om_key not in module.named_data_store_output.pte_data
    assert os.environ.get("ASCEND_HOME_PATH") is None


def _atc_then(tmp_path: Path, body: str) -> AscendCompileSpec:
    """A CANN-like atc that writes part.om, then runs `body` in its working directory."""
    atc = _write_script(tmp_path / "bin" / "atc", f"#!/bin/sh\necho om > part.om\n{body}\n")
    return AscendCompileSpec(toolchain="cann", atc_path=str(atc))


def test_weight_files_atc_wrote_are_collected_by_name(tmp_path) -> None:
    spec = _atc_then(
        tmp_path, "mkdir weight; printf abc > weight/weight_b; printf x > weight/weight_a"
    )
    compiled = compile_onnx(b"x", spec, [], [])
    assert compiled.om == b"om\n"
    assert [(w.name, w.size, w.read_bytes()) for w in compiled.weights] == [
        ("weight_a", 1, b"x"),
        ("weight_b", 3, b"abc"),
    ]
    # Kept as files (never read into memory by the driver), each hashed for its named-data key.
    assert all(isinstance(w.data, FileBackedData) for w in compiled.weights)
    assert compiled.weights[1].digest == hashlib.sha256(b"abc").hexdigest()
    # No weight/ folder (external_weight=0, or no large constant): no weight files.
    assert compile_onnx(b"x", _atc_then(tmp_path / "none", ""), [], []).weights == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("mkdir weight; : > weight/weight_0", r"empty weight file weight/weight_0"),
        ("mkdir -p weight/sub", r"weight/sub, which is not a regular file"),
        ("mkdir weight; ln -s ../part.om weight/link", r"weight/link, which is not a regular"),
        ("printf x > weight", r"wrote weight, which is not a folder"),
        ("mkdir elsewhere; ln -s elsewhere weight", r"wrote weight, which is not a folder"),
    ],
)
def test_weight_folder_entries_atc_should_not_write_are_errors(
    tmp_path, body: str, message: str
) -> None:
    with pytest.raises(ToolchainError, match=message):
        compile_onnx(b"x", _atc_then(tmp_path, body), [], [])


class _TwoFiles:
    """An ONNX model that saves itself as two files (as a LoweredGraph with external data)."""

    def save(self, directory: Path) -> Path:
        (directory / "net.weights").write_bytes(b"w" * 64)
        (directory / "net.onnx").write_bytes(b"model")
        return directory / "net.onnx"


def test_a_model_with_external_data_is_saved_beside_it_for_atc(tmp_path) -> None:
    spec = _atc_then(
        tmp_path,
        'for a in "$@"; do [ "$a" = --model=net.onnx ] && ok=1; done\n'
        '[ -n "$ok" ] && [ -f net.weights ] || { echo "bad model files" >&2; exit 7; }',
    )
    compiled = compile_onnx(_TwoFiles(), spec, [], [])
    assert compiled.om == b"om\n" and compiled.weights == []


def test_pass_through_options_reach_canns_atc(fake_cann, tmp_path) -> None:
    keep = tmp_path / "keep.cfg"
    keep.write_text("OpType::MatMul\n")
    spec = AscendCompileSpec(
        toolchain="cann",
        atc_options={"op_select_implmode": "high_precision", "keep_dtype": str(keep)},
    )
    lowering = lower(_Mlp().eval(), seeded_inputs((2, 6)), spec)
    (module,) = ascend_lowered_modules(lowering.edge)
    om = named_data(module, blob.decode(module.processed_bytes).om_key)
    assert b"--op_select_implmode=high_precision\n" in om
    assert b"--keep_dtype=atc_option_files/keep_dtype/keep.cfg\n" in om


def test_the_atc_timeout_comes_from_the_spec(monkeypatch, tmp_path) -> None:
    import subprocess

    seen: list[float] = []

    def run(cmd, **kwargs):
        seen.append(kwargs["timeout"])
        (Path(kwargs["cwd"]) / "part.om").write_bytes(b"om")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(subprocess, "run", run)
    atc = _write_script(tmp_path / "bin" / "atc", "#!/bin/sh\n")
    compile_onnx(b"x", AscendCompileSpec(toolchain="cann", atc_path=str(atc)), [], [])
    compile_onnx(
        b"x", AscendCompileSpec(toolchain="cann", atc_path=str(atc), atc_timeout_s=7), [], []
    )
    assert seen == [600, 7]
