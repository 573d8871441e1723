# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend export` in a child process, as a user runs it from a folder with their
model: a CNN (float pixels) and a BERT encoder (int64 token ids and mask), each run with
executorch.runtime afterwards and compared with eager PyTorch; and the one-line errors for
mistakes on the command line."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch
from parity import fp32_tolerance, max_abs_error

from executorch_ascend.cli import main
from executorch_ascend.cli.inputs import InputSpec, make_tensor, parse_input
from executorch_ascend.run import run_with_runtime

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def _export(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "executorch_ascend.cli", "--emulator", "export", *args]
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600, env=os.environ)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.emulator
def test_export_a_cnn_and_run_it(native, tmp_path: Path) -> None:
    from example_models import small_cnn

    pte = tmp_path / "cnn.pte"
    done = _export(
        EXAMPLES, "example_models:small_cnn", "--input", "x:2,3,16,16:float32",
        "-o", str(pte), "--ptd", "cnn",
    )  # fmt: skip
    for stage in ("[1/5] build", "[2/5] torch.export", "[3/5] partition, ONNX, atc", "[5/5] save"):
        assert stage in done.stdout, done.stdout
    assert "1 Ascend partition(s)" in done.stdout and "AscendBackend:" in done.stdout
    assert f"wrote {tmp_path / 'cnn.ptd'}" in done.stdout
    assert "Failed to load" not in done.stderr and "Traceback" not in done.stderr

    image = torch.randn(2, 3, 16, 16, generator=torch.Generator().manual_seed(5))
    torch.manual_seed(0)  # the CLI calls the factory after torch.manual_seed(--seed 0)
    with torch.no_grad():
        expected = [small_cnn()(image)]
    actual = run_with_runtime(pte, [image], ptd=tmp_path / "cnn.ptd")
    assert max_abs_error(actual, expected) <= fp32_tolerance(expected)


@pytest.mark.emulator
def test_export_quantized_int8_with_calibration(native, tmp_path: Path) -> None:
    """--quantize int8 --calibration a folder of .npy samples: a progress line per calibration
    batch, the int8 program delegated to Ascend and close to the float model."""
    import numpy as np
    from example_models import small_cnn

    calibration = tmp_path / "calibration"
    calibration.mkdir()
    gen = torch.Generator().manual_seed(3)
    for i in range(4):
        np.save(calibration / f"{i:02}.npy", torch.randn(2, 3, 16, 16, generator=gen).numpy())
    pte = tmp_path / "cnn_int8.pte"
    done = _export(
        EXAMPLES, "example_models:small_cnn", "--input", "x:2,3,16,16:float32",
        "-o", str(pte), "--quantize", "int8", "--calibration", str(calibration),
    )  # fmt: skip
    assert "[2/6] quantize (int8)" in done.stdout, done.stdout
    for i in range(1, 5):
        assert f"calibration batch {i}/4" in done.stdout, done.stdout
    assert "1 Ascend partition(s)" in done.stdout

    image = torch.randn(2, 3, 16, 16, generator=gen)
    torch.manual_seed(0)
    with torch.no_grad():
        expected = small_cnn()(image)
    (actual,) = run_with_runtime(pte, [image])
    cosine = torch.nn.functional.cosine_similarity(actual.flatten(), expected.flatten(), dim=0)
    assert cosine > 0.98, float(cosine)


@pytest.mark.emulator
def test_export_an_integer_input_encoder_and_run_it(native, tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    sys.path.insert(0, str(EXAMPLES / "encoder"))
    from encoder_model import VOCAB, example_inputs, small_bert

    pte = tmp_path / "bert.pte"
    done = _export(
        EXAMPLES / "encoder", "encoder_model:small_bert",
        "--input", f"input_ids:2,16:int64:{VOCAB}", "--input", "attention_mask:2,16:int64:ones",
        "-o", str(pte),
    )  # fmt: skip
    assert "1 Ascend partition(s)" in done.stdout, done.stdout
    assert "  on the CPU: " not in done.stdout, done.stdout

    inputs = example_inputs(2, 16, seed=3)  # other ids, and a padded mask
    with torch.no_grad():
        expected = [small_bert()(**inputs)]
    actual = run_with_runtime(pte, [inputs["input_ids"], inputs["attention_mask"]])
    assert max_abs_error(actual, expected) <= fp32_tolerance(expected)


def test_typed_inputs() -> None:
    gen = torch.Generator().manual_seed(0)
    ids = make_tensor(parse_input("input_ids:2,8:int64:5..9"), gen)
    assert ids.dtype == torch.int64 and ids.shape == (2, 8)
    assert int(ids.min()) >= 5 and int(ids.max()) < 9
    default = make_tensor(parse_input("ids:64:int32"), gen)
    assert set(default.unique().tolist()) <= {0, 1}
    mask = make_tensor(parse_input("attention_mask:1,4:int64:ones"), gen)
    assert mask.tolist() == [[1, 1, 1, 1]]
    half = make_tensor(parse_input("x:3:fp16"), gen)
    assert half.dtype == torch.float16
    assert parse_input("scalar::float32") == InputSpec("scalar", (), "float32")


@pytest.fixture
def user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the user's own module, the current directory as the user runs the CLI."""
    (tmp_path / "cli_user_models.py").write_text(
        textwrap.dedent(
            """
            import torch

            class Net(torch.nn.Module):
                def forward(self, pixel_values):
                    return torch.relu(pixel_values)

            def make_net():
                return Net()

            def broken():
                raise ValueError("the checkpoint is missing")

            def with_inputs():
                return Net(), (torch.randn(1, 4),)

            class Histogram(torch.nn.Module):
                def forward(self, input):
                    return torch.histc(input, bins=4)

            def not_core_aten():
                # histc is outside core ATen: ExecuTorch's to_edge refuses it.
                return Histogram()
            """
        )
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


ERRORS = {
    "shape written with x": (
        ["cli_user_models:make_net", "--input", "1x3x32x32"],
        "bad --input '1x3x32x32': expected NAME:SHAPE:DTYPE",
    ),
    "bad shape in --input-shape": (
        ["cli_user_models:make_net", "--input-shape", "1x3x32x32"],
        "shape '1x3x32x32' must be comma-separated sizes",
    ),
    "unknown dtype": (
        ["cli_user_models:make_net", "--input", "pixel_values:1,3:float33"],
        "unknown dtype 'float33'",
    ),
    "misspelled factory": (
        ["cli_user_models:make_nte", "--input", "pixel_values:1,3:float32"],
        "has no 'make_nte'; did you mean 'make_net'?",
    ),
    "misspelled module": (
        ["cli_user_modles:make_net", "--input", "pixel_values:1,3:float32"],
        "no module named 'cli_user_modles'",
    ),
    "no colon": (["cli_user_models", "--input", "pixel_values:1:float32"], "MODULE:FACTORY"),
    "factory raises": (
        ["cli_user_models:broken", "--input", "pixel_values:1,3:float32"],
        "cli_user_models:broken() raised ValueError: the checkpoint is missing",
    ),
    "unknown parameter": (
        ["cli_user_models:make_net", "--input", "image:1,3:float32"],
        "forward has no parameter 'image' (it takes pixel_values)",
    ),
    "no inputs": (["cli_user_models:make_net"], "without example inputs"),
}
QUANTIZE_ERRORS = {
    "int8 without calibration": (["--quantize", "int8"], "--quantize int8 needs --calibration"),
    "calibration without int8": (
        ["--quantize", "int4-weight", "--calibration", "x.npy"],
        "--calibration is for --quantize int8",
    ),
    "int4 group size CANN does not take": (
        ["--quantize", "int4-weight", "--group-size", "48"],
        "--group-size 48: one of (32, 64, 128)",
    ),
    "missing calibration": (
        ["--quantize", "int8", "--calibration", "nowhere.npy"],
        "--calibration nowhere.npy: no such file or folder",
    ),
}


@pytest.mark.parametrize("case", list(QUANTIZE_ERRORS))
def test_quantize_mistakes_are_one_line(user_folder: Path, capsys, case) -> None:
    args, message = QUANTIZE_ERRORS[case]
    command = ["export", "cli_user_models:make_net", "--input", "pixel_values:1,3:float32"]
    assert main([*command, *args, "-o", "m.pte", "--emulator"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("command", ["export", "explain"])
@pytest.mark.parametrize("case", list(ERRORS))
def test_command_line_mistakes_are_one_line(user_folder: Path, capsys, command, case) -> None:
    args, message = ERRORS[case]
    extra = ["-o", "m.pte", "--emulator"] if command == "export" else []
    assert main([command, *args, *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err, err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"executorch-ascend {command}: error: ")


@pytest.mark.emulator
def test_explain_takes_a_model_from_the_current_folder(native, user_folder: Path, capsys) -> None:
    assert main(["explain", "cli_user_models:with_inputs"]) == 0  # the factory's own inputs
    out = capsys.readouterr().out
    assert "Ascend can take 1 of 1 ops, in 1 partition(s)" in out, out


def test_bad_atc_option_is_one_line(user_folder: Path, capsys) -> None:
    args = ["cli_user_models:make_net", "--input", "pixel_values:1,3:float32", "-o", "m.pte"]
    assert main(["export", *args, "--emulator", "--atc-option", "op_select_implmode"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "executorch-ascend export: error: bad --atc-option 'op_select_implmode': "
        "expected NAME=VALUE"
    )


def test_a_failing_atc_is_reported_whole_without_a_traceback(
    user_folder: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    from executorch_ascend.toolchain import cann

    atc = user_folder / "failing_atc"
    atc.write_text("#!/bin/sh\necho 'E10001: simulated atc failure' >&2\nexit 3\n")
    atc.chmod(0o755)
    monkeypatch.setenv(cann.ENV_EMULATOR_ATC, str(atc))
    monkeypatch.setattr(cann, "_chosen", cann._chosen)  # main(--emulator) chooses the fake atc
    args = ["cli_user_models:make_net", "--input", "pixel_values:1,3:float32", "-o", "m.pte"]
    assert main(["export", *args, "--emulator"]) == 1
    err = capsys.readouterr().err
    assert "executorch-ascend export: error: lowering failed: " in err, err
    assert "E10001: simulated atc failure" in err and "Traceback" not in err, err


def test_explain_reports_a_refused_to_edge_without_a_traceback(user_folder: Path, capsys) -> None:
    args = ["cli_user_models:not_core_aten", "--input", "input:1,3,8,8:float32"]
    assert main(["explain", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("executorch-ascend explain: error: to_edge failed: SpecViolationError")
    assert "histc" in err and "Traceback" not in err, err
