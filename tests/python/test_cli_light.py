# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The quick commands stay quick: `import executorch_ascend`, `--help`, `--version`, `info`, `ops`
and `run --help` import neither executorch.exir nor torch (checked in a fresh interpreter with
`python -X importtime`), `info` tries the atc and ACL library it reports, and the lazy package
names are the real objects."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from executorch_ascend.cli import info as cli_info
from executorch_ascend.toolchain import cann

HEAVY = ("executorch.exir", "torch")


def _imported_modules(*args: str) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args], capture_output=True, text=True, timeout=120
    )
    modules = {
        line.split("|")[-1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return modules, done


@pytest.mark.parametrize(
    "command",
    [["--help"], ["--version"], ["info"], ["--emulator", "info"], ["ops"]],
    ids=lambda c: " ".join(c),
)
def test_quick_commands_import_no_aot_stack(command: list[str]) -> None:
    modules, done = _imported_modules("-m", "executorch_ascend.cli", *command)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not [m for m in HEAVY if m in modules], sorted(m for m in modules if "torch" in m)[:20]
    assert "Failed to load" not in done.stderr


@pytest.mark.emulator
def test_run_imports_no_aot_stack(native, tmp_path: Path) -> None:
    """`run` only starts ascend_runner (which fails here on a missing file, as it should)."""
    missing = tmp_path / "missing.pte"
    modules, done = _imported_modules("-m", "executorch_ascend.cli", "run", "--model", str(missing))
    assert done.returncode != 0 and "does not exist" in done.stderr, done.stderr[-2000:]
    assert not [m for m in HEAVY if m in modules]


def test_import_is_light_and_lazy_names_resolve() -> None:
    code = (
        "import sys, executorch_ascend as e\n"
        "assert 'torch' not in sys.modules and 'executorch.exir' not in sys.modules\n"
        "import executorch_ascend.explain\n"  # the submodule must not replace the function
        "from executorch_ascend import AscendPartitioner, AscendCompileSpec, explain\n"
        "assert callable(explain) and explain.__name__ == 'explain', explain\n"
        "assert e.AscendBackend.__name__ == 'AscendBackend'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_version_names_torch_and_executorch() -> None:
    text = cli_info.version_text()
    assert text.startswith("executorch-ascend ")
    assert "executorch 1.5.1" in text and "torch 2.13" in text


def test_info_tries_the_atc_it_reports(tmp_path: Path) -> None:
    broken = tmp_path / "atc"
    broken.write_text(
        "#!/bin/sh\necho 'atc: error while loading shared libraries: libonnx.so.1' >&2\nexit 127\n"
    )
    broken.chmod(0o755)
    probe = cli_info.probe_atc(broken)
    assert not probe.ok
    assert "127" in probe.detail and "libonnx.so.1" in probe.detail
    assert not cli_info.probe_acl(tmp_path / "libascendcl.so").ok


@pytest.mark.emulator
def test_info_says_the_emulator_runs(native) -> None:
    text = "\n".join(cli_info.info_lines())
    assert "atc (emulator)" in text and "OK, `atc --help` runs" in text
    assert "libascendcl (emulator)" in text and "OK, dlopen works" in text
    assert "ACL the backend loads:" in text


@pytest.mark.emulator
def test_info_names_the_split_layout(native, monkeypatch) -> None:
    emulator = cann.find_emulator()
    assert emulator is not None
    runtime_half = emulator.acl_library.parent / "libacl_rt.so"
    monkeypatch.setenv(cann.ENV_ACL_LIB, str(runtime_half))
    line = next(x for x in cli_info.info_lines() if x.startswith("ACL the backend loads"))
    assert "libacl_rt.so + " in line and "split layout" in line and "OK, dlopen works" in line


def test_packaged_op_table_matches_the_registry() -> None:
    from executorch_ascend.cli import OP_TABLE
    from executorch_ascend.lowering.op_table import render_op_table

    assert OP_TABLE.read_text() == render_op_table(), (
        "src/executorch_ascend/op_support_table.md is stale: regenerate it with "
        "`executorch-ascend ops --from-registry > src/executorch_ascend/op_support_table.md`"
    )
