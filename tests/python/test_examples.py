# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""examples/cnn and examples/encoder as a user runs them: the export script, then the run script,
which compares the program with eager PyTorch on new inputs and exits non-zero on a mismatch
(called through their main() in this process, small configs); and examples/llm's Python loop
(generate.py) on export_llm.py's program. test_llm_example.py tests the C++ llm_runner."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("transformers")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES / "llm"))
sys.path.insert(0, str(EXAMPLES / "encoder"))
sys.path.insert(0, str(EXAMPLES / "cnn"))
sys.path.insert(0, str(EXAMPLES / "quantization"))

import export_cnn  # noqa: E402
import export_encoder  # noqa: E402
import export_llm  # noqa: E402
import generate  # noqa: E402
import quantize_cnn  # noqa: E402
import run_cnn  # noqa: E402
import run_encoder  # noqa: E402


@pytest.mark.emulator
def test_cnn_example_exports_and_matches_eager(native, tmp_path: Path, capsys) -> None:
    args = ["--output-dir", str(tmp_path), "--image-size", "32"]
    assert export_cnn.main(args) == 0
    assert (tmp_path / "model.pte").is_file() and (tmp_path / "model.ptd").is_file()
    assert run_cnn.main(args) == 0
    out = capsys.readouterr().out
    assert "1 Ascend partition(s)" in out and " OK" in out, out


@pytest.mark.emulator
def test_encoder_example_exports_and_matches_eager(native, tmp_path: Path, capsys) -> None:
    args = ["--output-dir", str(tmp_path), "--seq", "8"]
    assert export_encoder.main(args) == 0
    assert run_encoder.main(args) == 0
    out = capsys.readouterr().out
    assert "1 Ascend partition(s)" in out and " OK" in out, out


@pytest.mark.emulator
def test_quantization_example_runs_int8_on_ascend(native, tmp_path: Path, capsys) -> None:
    args = ["--model", "bert", "--soc", "Ascend910B1", "--output", str(tmp_path / "bert.pte")]
    assert quantize_cnn.main(args) == 0
    out = capsys.readouterr().out
    assert "1 Ascend partition(s)" in out and " OK" in out, out


@pytest.mark.emulator
def test_llm_example_generates_eager_tokens_from_python(native, tmp_path: Path, capsys) -> None:
    pte = tmp_path / "llama.pte"
    assert export_llm.main(["--model", "llama", "--max-cache-len", "32", "--output", str(pte)]) == 0
    args = ["--pte", str(pte), "--model", "llama", "--max-cache-len", "32", "--tokens", "8"]
    assert generate.main(args) == 0
    assert "eager transformers: the same tokens" in capsys.readouterr().out


def test_examples_readme_links_every_example() -> None:
    readme = (EXAMPLES / "README.md").read_text()
    for folder in ("cnn", "encoder", "llm", "quantization"):
        assert f"]({folder}/" in readme, folder
