# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ascend_runner end to end: a model lowered with AscendPartitioner (emulator atc), run by the
C++ runner against the emulator's libascendcl.so, compared with eager PyTorch.

Run by ctest (tests/cpp/runtime/CMakeLists.txt) as:
    python runner_e2e.py RUNNER ATC ACL_LIB WORK_DIR
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

from executorch_ascend.compile_spec import AscendCompileSpec
from executorch_ascend.export import lower, save

TOLERANCE = 1e-5  # fp32 end to end (precision_mode must_keep_origin_dtype)


class Model(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(4, 3)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # relu(linear) + y is delegated; sin stays on ExecuTorch's CPU kernels.
        return torch.relu(self.linear(x)) + y, torch.sin(x)


def deterministic_input(index: int, shape: tuple[int, ...]) -> torch.Tensor:
    """The runner's documented fill for float inputs: ((i + 3k) % 17 - 8) / 8."""
    count = int(np.prod(shape))
    values = [((i + 3 * index) % 17 - 8) / 8.0 for i in range(count)]
    return torch.tensor(values, dtype=torch.float32).reshape(shape)


def run_runner(
    runner: str, args: list[str], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([runner, *args], env=env, capture_output=True, text=True, check=False)


def check_outputs(out_dir: Path, expected: tuple[torch.Tensor, ...]) -> None:
    for i, ref in enumerate(expected):
        got = np.fromfile(out_dir / f"out{i}.bin", dtype=np.float32)
        want = ref.detach().numpy().reshape(-1)
        assert got.shape == want.shape, f"out{i}: {got.shape} != {want.shape}"
        err = float(np.abs(got - want).max())
        assert err <= TOLERANCE, f"out{i}: max abs error {err} > {TOLERANCE}"


def case(runner: str, env: dict[str, str], work: Path, tag: str | None) -> None:
    torch.manual_seed(0)
    model = Model().eval()
    x = torch.randn(2, 4)
    y = torch.randn(2, 3)
    lowering = lower(model, (x, y), AscendCompileSpec(toolchain="emulator", external_tag=tag))
    assert lowering.summary.partitions == 1, str(lowering.summary)
    pte, ptds = save(lowering.program, work / "model.pte")
    data_args: list[str] = ["--data", str(ptds[0])] if tag else []
    assert bool(ptds) == bool(tag), f"expected a .ptd only with a tag, got {ptds}"

    x.numpy().tofile(work / "x.bin")
    y.numpy().tofile(work / "y.bin")
    out = work / "given"
    result = run_runner(
        runner,
        [
            "--model",
            str(pte),
            *data_args,
            "--inputs",
            f"{work / 'x.bin'},{work / 'y.bin'}",
            "--output-dir",
            str(out),
            "--iterations",
            "3",
            "--warmup",
            "1",
        ],
        env,
    )
    assert result.returncode == 0, result.stderr
    assert "output 0: Float [2, 3]" in result.stdout, result.stdout
    assert "latency over 3 iteration(s)" in result.stdout, result.stdout
    with torch.no_grad():
        check_outputs(out, model(x, y))

    out = work / "filled"
    result = run_runner(runner, ["--model", str(pte), *data_args, "--output-dir", str(out)], env)
    assert result.returncode == 0, result.stderr
    fx, fy = deterministic_input(0, (2, 4)), deterministic_input(1, (2, 3))
    with torch.no_grad():
        check_outputs(out, model(fx, fy))

    # The default verification is InternalConsistency; Minimal still runs a sound program, and a
    # value that is neither is a command-line error (status 2).
    out = work / "minimal"
    result = run_runner(
        runner,
        ["--model", str(pte), *data_args, "--output-dir", str(out), "--verification", "minimal"],
        env,
    )
    assert result.returncode == 0, result.stderr
    with torch.no_grad():
        check_outputs(out, model(fx, fy))
    result = run_runner(runner, ["--model", str(pte), "--verification", "full"], env)
    assert result.returncode == 2, result
    assert "--verification needs 'minimal' or 'internal'" in result.stderr, result.stderr

    # A wrong-sized input file is a clear error, not a crash.
    result = run_runner(
        runner,
        ["--model", str(pte), *data_args, "--inputs", f"{work / 'y.bin'},{work / 'y.bin'}"],
        env,
    )
    assert result.returncode == 1, result
    assert "has 24 bytes; the input is Float [2, 4], 32 bytes" in result.stderr, result.stderr

    if tag:
        # Without the .ptd the delegate cannot find its .om.
        result = run_runner(runner, ["--model", str(pte)], env)
        assert result.returncode == 1, result
        assert "load its .ptd file" in result.stderr, result.stderr


def read_frames(out_dir: Path, frames: int, outputs: int) -> list[list[bytes]]:
    return [
        [(out_dir / f"frame{f}" / f"out{i}.bin").read_bytes() for i in range(outputs)]
        for f in range(frames)
    ]


def frames_case(runner: str, env: dict[str, str], work: Path) -> None:
    """--frames with and without --pipeline: every frame's outputs equal, byte for byte, and equal
    eager PyTorch on that frame's inputs; in RC mode (the emulator's run mode 'device') the same
    outputs with no byte copied between host and device."""
    torch.manual_seed(0)
    model = Model().eval()
    x, y = torch.randn(2, 4), torch.randn(2, 3)
    lowering = lower(model, (x, y), AscendCompileSpec(toolchain="emulator", external_tag="w"))
    pte, ptds = save(lowering.program, work / "model.pte")
    common = ["--model", str(pte), "--data", str(ptds[0]), "--frames", "13"]
    runs: dict[str, list[list[bytes]]] = {}
    for name, extra, run_env in (
        ("plain", [], env),
        ("pipeline2", ["--pipeline", "2"], env),
        ("pipeline3", ["--pipeline", "3", "--warmup", "1"], env),
        ("rc", ["--pipeline", "2"], {**env, "EXECUTORCH_ASCEND_EMU_RUN_MODE": "device"}),
    ):
        out = work / name
        result = run_runner(runner, [*common, *extra, "--output-dir", str(out)], run_env)
        assert result.returncode == 0, result.stderr
        assert "frames: 13 in " in result.stdout, result.stdout
        # One host wait per frame: the delegate's one aclrtSynchronizeStream.
        assert "per frame: 1.00 host waits" in result.stdout, result.stdout
        if name == "rc":
            assert "0.0 bytes to the device, 0.0 bytes back" in result.stdout, result.stdout
        else:
            assert "56.0 bytes to the device, 56.0 bytes back" in result.stdout, result.stdout
        runs[name] = read_frames(out, 13, 2)
    for name in ("pipeline2", "pipeline3", "rc"):
        for f in range(13):
            assert runs[name][f] == runs["plain"][f], f"{name}: frame {f} differs from plain"
    assert runs["plain"][0] != runs["plain"][1], "frames must differ"
    for f in (0, 1, 12):
        fx, fy = deterministic_input(2 * f, (2, 4)), deterministic_input(2 * f + 1, (2, 3))
        with torch.no_grad():
            want = model(fx, fy)
        for i, ref in enumerate(want):
            got = np.frombuffer(runs["pipeline2"][f][i], dtype=np.float32)
            err = float(np.abs(got - ref.numpy().reshape(-1)).max())
            assert err <= TOLERANCE, f"frame {f} out{i}: max abs error {err}"
    result = run_runner(runner, ["--model", str(pte), "--pipeline", "2"], env)
    assert result.returncode == 2, result
    assert "--pipeline needs --frames" in result.stderr, result.stderr


def main(argv: list[str]) -> int:
    runner, atc, acl_lib, work_dir = argv[1:5]
    env = dict(os.environ)
    env["EXECUTORCH_ASCEND_ACL_LIB"] = acl_lib
    os.environ["EXECUTORCH_ASCEND_EMULATOR_ATC"] = atc
    os.environ["EXECUTORCH_ASCEND_EMULATOR_ACL_LIB"] = acl_lib
    for tag in (None, "weights"):
        work = Path(work_dir) / (tag or "inline")
        work.mkdir(parents=True, exist_ok=True)
        case(runner, env, work, tag)
        print(f"ok: {'.pte + .ptd' if tag else '.pte only'}")
    work = Path(work_dir) / "frames"
    work.mkdir(parents=True, exist_ok=True)
    frames_case(runner, env, work)
    print("ok: --frames, --pipeline, RC mode")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
