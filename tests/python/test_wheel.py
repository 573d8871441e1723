# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The backend's wheel alone: built from this checkout, it holds the backend and the runner and
nothing of the CANN emulator, and once installed it registers AscendBackend with the ExecuTorch
runtime (unavailable, since this machine has no CANN) and never finds an emulator."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Run in the installed wheel's interpreter state: the emulator package is hidden, no variable
# points anywhere, and the package must come from the wheel, not from src/ or the dev install.
PROBE = """
import sys
sys.modules["executorch_ascend_emulator"] = None  # not installed
import executorch_ascend
from executorch.runtime import Runtime
from executorch_ascend.toolchain import cann
registry = Runtime.get().backend_registry
print("file", executorch_ascend.__file__)
print("registered", "AscendBackend" in registry.registered_backend_names)
print("available", registry.is_available("AscendBackend"))
print("emulator", cann.find_emulator())
try:
    executorch_ascend.use_emulator()
    print("use_emulator ok")
except cann.EmulatorNotFound:
    print("use_emulator refused")
"""


@pytest.fixture(scope="module")
def backend_wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         str(REPO), "-w", str(out), "-C", f"build-dir={REPO / 'build' / 'wheel-check'}"],
        check=True, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    (wheel,) = out.glob("executorch_ascend-*.whl")
    return wheel


def test_the_wheel_holds_no_emulator(backend_wheel: Path) -> None:
    names = zipfile.ZipFile(backend_wheel).namelist()
    assert "executorch_ascend/lib/libexecutorch_backend_ascend.so" in names
    assert "executorch_ascend/lib/libexecutorch_ascend_ptd_check.so" in names
    assert "executorch_ascend/bin/ascend_runner" in names
    assert "executorch_ascend/delegate_blob.json" in names
    emulator = [
        n for n in names
        if "libascendcl" in n or "libacl_" in n or n.endswith("/atc") or "emulator" in n
    ]  # fmt: skip
    assert emulator == []
    # Examples, tolerance helpers and the test-suite flow are not part of the package.
    assert not [n for n in names if n.split("/")[-1] in ("demo.py", "example_models.py")]
    assert not [n for n in names if "test_suite" in n]


def test_the_wheel_holds_the_cmake_package_and_no_absolute_run_path(
    backend_wheel: Path, tmp_path: Path
) -> None:
    """find_package(executorch_ascend) works from the wheel (docs/cpp-integration.md), and no
    binary remembers the build machine: ExecuTorch's targets pass their absolute library folder as
    a raw -rpath, which the build filters out."""
    wheel = zipfile.ZipFile(backend_wheel)
    names = wheel.namelist()
    cmake_dir = "executorch_ascend/share/cmake/executorch_ascend/"
    for name in ("executorch_ascendConfig.cmake", "executorch_ascendConfigVersion.cmake",
                 "executorch_ascendTargets.cmake"):  # fmt: skip
        assert cmake_dir + name in names
    config = wheel.read(cmake_dir + "executorch_ascendConfig.cmake").decode()
    assert "--no-as-needed" in config and "find_dependency(executorch" in config
    binaries = [n for n in names if ("/lib/" in n and n.endswith(".so")) or "/bin/" in n]
    assert len(binaries) == 4
    for name in binaries:
        path = tmp_path / Path(name).name
        path.write_bytes(wheel.read(name))
        dynamic = subprocess.run(
            ["readelf", "-d", str(path)], capture_output=True, text=True, check=True
        ).stdout
        runpaths = [line.split("[", 1)[1].rstrip("]") for line in dynamic.splitlines()
                    if "RUNPATH" in line or "RPATH" in line]  # fmt: skip
        entries = [e for r in runpaths for e in r.split(":")]
        assert entries, f"{name} has no RUNPATH"
        assert all(e.startswith("$ORIGIN") for e in entries), f"{name}: {entries}"


def test_the_wheel_alone_registers_the_backend_without_an_emulator(
    backend_wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
         str(backend_wheel)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("EXECUTORCH_ASCEND_", "ASCEND_"))
    }
    env["PYTHONPATH"] = str(site)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    assert Path(lines["file"]).is_relative_to(site)
    assert lines["registered"] == "True"
    assert lines["available"] == "False"  # no CANN here, and the emulator is not chosen
    assert lines["emulator"] == "None"
    assert lines["use_emulator"] == "refused"
