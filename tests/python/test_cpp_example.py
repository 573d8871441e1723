# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The installed package as a C++ developer uses it: examples/cpp is configured with nothing but
CMAKE_PREFIX_PATH set to executorch_ascend.paths.cmake_prefix() (find_package(executorch_ascend)
then finds ExecuTorch's package beside it), built, and run on a program lowered here, and its
output matches eager PyTorch. Also: the ascend_runner launcher a pip install puts on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

REPO = Path(__file__).resolve().parents[2]
TOLERANCE = 1e-4  # of the output's scale: float32 through the emulator's kernels

pytestmark = pytest.mark.emulator


class SmallCnn(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4 * 4 * 4, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
        return self.fc(y.flatten(1))


def _lower(work: Path) -> tuple[Path, Path, np.ndarray, np.ndarray]:
    from executorch.exir import to_edge_transform_and_lower

    from executorch_ascend import AscendCompileSpec, AscendPartitioner

    torch.manual_seed(0)
    model = SmallCnn().eval()
    x = torch.randn(1, 3, 8, 8)
    program = to_edge_transform_and_lower(
        torch.export.export(model, (x,)),
        partitioner=[AscendPartitioner(AscendCompileSpec(external_tag="model"))],
    ).to_executorch()
    program.save(str(work / "model.pte"))
    program.write_tensor_data_to_file(str(work))
    return work / "model.pte", work / "model.ptd", x.numpy(), model(x).detach().numpy()


def test_the_cpp_example_builds_against_the_installed_package_and_runs(
    native: None, tmp_path: Path
) -> None:
    from executorch_ascend import paths
    from executorch_ascend.toolchain import cann

    config = paths.cmake_config_dir() / "executorch_ascendConfig.cmake"
    assert config.is_file(), f"{config} is missing: pip install the package (scripts/setup.sh)"
    cmake, ninja = shutil.which("cmake"), shutil.which("ninja")
    assert cmake and ninja, "cmake and ninja (pip install cmake ninja) are needed"

    build = tmp_path / "build"
    configure = subprocess.run(
        [cmake, "-S", REPO / "examples" / "cpp", "-B", build, "-G", "Ninja",
         "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={paths.cmake_prefix()}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert configure.returncode == 0, configure.stdout + configure.stderr
    assert "ascend_app: the backend will dlopen" in configure.stdout
    built = subprocess.run(
        [cmake, "--build", build, "-j2"], capture_output=True, text=True, check=False
    )
    assert built.returncode == 0, built.stdout + built.stderr

    pte, ptd, x, expected = _lower(tmp_path)
    (tmp_path / "input0.bin").write_bytes(x.tobytes())
    env = dict(os.environ, EXECUTORCH_ASCEND_ACL_LIB=str(cann.acl_library()))
    done = subprocess.run(
        [build / "ascend_app", pte, ptd, "--input", tmp_path / "input0.bin",
         "--output-dir", tmp_path / "out"],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "output 0: shape [1, 5]" in done.stdout
    got = np.fromfile(tmp_path / "out" / "out0.bin", dtype=np.float32).reshape(expected.shape)
    scale = max(1.0, float(np.abs(expected).max()))
    assert np.abs(got - expected).max() <= TOLERANCE * scale


def test_the_cpp_example_without_acl_names_the_way_out(native: None, tmp_path: Path) -> None:
    """No libascendcl.so anywhere: the app fails cleanly and the log says what to set."""
    from executorch_ascend import paths

    build = tmp_path / "build"
    for cmd in (
        ["cmake", "-S", str(REPO / "examples" / "cpp"), "-B", str(build), "-G", "Ninja",
         f"-DCMAKE_PREFIX_PATH={paths.cmake_prefix()}"],
        ["cmake", "--build", str(build), "-j2"],
    ):  # fmt: skip
        subprocess.run(cmd, capture_output=True, check=True)
    pte, ptd, _, _ = _lower(tmp_path)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("EXECUTORCH_ASCEND_ACL_LIB", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")
    }
    done = subprocess.run(
        [build / "ascend_app", pte, ptd], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 1
    log = done.stdout + done.stderr
    assert "cannot load ACL library 'libascendcl.so'" in log
    assert "source CANN's set_env.sh (it sets ASCEND_HOME_PATH)" in log
    assert "EXECUTORCH_ASCEND_ACL_LIB" in log


def test_the_ascend_runner_launcher_runs_the_packaged_binary() -> None:
    launch = (
        "import sys; from executorch_ascend.launchers import ascend_runner; "
        "sys.argv[0] = 'ascend_runner'; ascend_runner()"
    )
    done = subprocess.run(
        [sys.executable, "-c", launch, "--help"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ascend_runner --model MODEL.pte")
