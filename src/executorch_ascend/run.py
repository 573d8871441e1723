# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Running lowered programs: with the C++ ascend_runner (raw files) or the Python runtime."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch

from . import paths
from .dtypes import numpy_dtype, to_numpy
from .ptd_check import check_ptd

PathLike = str | Path


class RunnerError(RuntimeError):
    """ascend_runner is missing or failed."""


def write_raw(tensor: torch.Tensor, path: PathLike) -> None:
    """Raw little-endian bytes, the format ascend_runner --inputs reads."""
    array = to_numpy(tensor.contiguous())
    array.astype(array.dtype.newbyteorder("<"), copy=False).tofile(path)


def read_raw(path: PathLike, like: torch.Tensor) -> torch.Tensor:
    dtype = numpy_dtype(like.dtype).newbyteorder("<")
    data = np.fromfile(path, dtype=dtype)
    if data.size != like.numel():
        raise RunnerError(f"{path} holds {data.size} values; expected {like.numel()}")
    data = data.astype(dtype.newbyteorder("="))
    if like.dtype == torch.bfloat16:  # torch.from_numpy knows no ml_dtypes.bfloat16
        return torch.from_numpy(data.view(np.int16)).view(torch.bfloat16).reshape(like.shape)
    return torch.from_numpy(data).reshape(like.shape)


def run_with_runner(
    pte: PathLike,
    inputs: Sequence[torch.Tensor],
    expected_like: Sequence[torch.Tensor],
    work_dir: PathLike,
    ptd: PathLike | None = None,
    runner: PathLike | None = None,
    timeout_s: float = 600,
) -> list[torch.Tensor]:
    """Runs `forward` with ascend_runner; outputs are read back shaped like `expected_like`."""
    exe = Path(runner) if runner is not None else paths.runner()
    if not exe.is_file():
        raise RunnerError(f"ascend_runner not found at {exe} (set {paths.ENV_RUNNER})")
    work = Path(work_dir)
    out_dir = work / "outputs"
    out_dir.mkdir(parents=True, exist_ok=True)
    input_files = []
    for i, t in enumerate(inputs):
        f = work / f"input{i}.bin"
        write_raw(t, f)
        input_files.append(str(f))
    cmd = [str(exe), "--model", str(pte), "--output-dir", str(out_dir)]
    if input_files:
        cmd += ["--inputs", ",".join(input_files)]
    if ptd is not None:
        cmd += ["--data", str(ptd)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, check=False)
    if done.returncode != 0:
        raise RunnerError(
            f"ascend_runner exited with {done.returncode}:\n"
            f"{done.stderr.strip()}\n{done.stdout.strip()}"
        )
    return [read_raw(out_dir / f"out{i}.bin", like) for i, like in enumerate(expected_like)]


def _contiguous(value: object) -> object:
    return value.contiguous() if isinstance(value, torch.Tensor) else value


def run_with_runtime(
    pte: PathLike | bytes, inputs: Sequence[torch.Tensor], ptd: PathLike | None = None
) -> list[torch.Tensor]:
    """Runs `forward` in this process with executorch.runtime (AscendBackend must be loaded).

    Inputs are made contiguous first: ExecuTorch's Python binding hands a tensor's storage to
    the method as it lies, so a channels_last or transposed view of a program's contiguous input
    would be read in the wrong order (a CPU-only program computes the same wrong result)."""
    from executorch.runtime import Runtime

    if ptd is not None:
        check_ptd(ptd)  # ExecuTorch verifies no .ptd (ptd_check.py)
    program = Runtime.get().load_program(pte, data_path=ptd)
    outputs = program.load_method("forward").execute([_contiguous(t) for t in inputs])
    return [o for o in outputs if isinstance(o, torch.Tensor)]
