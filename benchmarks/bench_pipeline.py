# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Pipelined frames (docs/benchmarks.md, "Pipelined frames"): a stream of 100 frames through
`ascend_runner --frames 100`, with one method instance (`--pipeline 1`) and with two on two
threads (`--pipeline 2`: frame f+1's fill and upload while frame f computes), on the emulator.

For each model and mode: frames per second (median of --rounds runs, each after one warm-up call
per instance), and per frame the host waits (aclrtSynchronizeStream calls), bytes each way and
model runs, from the emulator's counters as the runner prints them. Every mode's outputs are
checked against the plain run's, frame by frame, before the figures are taken. With
--baseline-runner (an ascend_runner built from an older tree, e.g. main before streams, with its
own emulator in --baseline-acl-lib), the same program's latency there, 100 iterations, as frames
per second.

    python benchmarks/bench_pipeline.py --build build/cmake --models small_cnn resnet
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "src"))

FRAMES_LINE = re.compile(r"frames: (\d+) in ([\d.]+) ms, ([\d.]+) frames/s")
PER_FRAME = re.compile(
    r"per frame: ([\d.]+) host waits \(aclrtSynchronizeStream\), ([\d.]+) bytes to the device, "
    r"([\d.]+) bytes back, ([\d.]+) model runs"
)
LATENCY = re.compile(r"latency over \d+ iteration\(s\): min ([\d.]+) ms, mean ([\d.]+) ms")


def _export(name: str, work: Path) -> tuple[Path, Path | None, int]:
    """The model's program and .ptd, and the ACL calls one delegate call blocked on before
    streams: an aclrtMemcpy per input and per output, and aclmdlExecute."""
    import torch
    from models import MODELS

    from executorch_ascend.compile_spec import AscendCompileSpec
    from executorch_ascend.export import lower, save

    spec = next(m for m in MODELS if m.name.startswith(name))
    model = spec.build()
    inputs = spec.inputs()
    with torch.no_grad():
        outputs = torch.utils._pytree.tree_leaves(model(*inputs))
    lowering = lower(
        model,
        inputs,
        AscendCompileSpec(toolchain="emulator", external_tag=spec.external_tag),
    )
    pte, ptds = save(lowering.program, work / f"{name}.pte")
    return pte, (ptds[0] if ptds else None), len(inputs) + 1 + len(outputs)


def _run(cmd: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}\n{done.stderr}")
    return done.stdout


def _files(out: Path, frames: int) -> list[bytes]:
    return [
        b"".join(p.read_bytes() for p in sorted((out / f"frame{f}").glob("out*.bin")))
        for f in range(frames)
    ]


def bench(args: argparse.Namespace, name: str, work: Path, env: dict[str, str]) -> list[str]:
    pte, ptd, blocking_calls = _export(name, work)
    base = [str(args.runner), "--model", str(pte)] + (["--data", str(ptd)] if ptd else [])
    frames = ["--frames", str(args.frames), "--warmup", "1"]
    # Outputs first: every pipelined frame equals the plain run's.
    reference: list[bytes] | None = None
    for depth in args.pipelines:
        out = work / f"{name}-p{depth}"
        _run([*base, *frames, "--pipeline", str(depth), "--output-dir", str(out)], env)
        got = _files(out, args.frames)
        if reference is None:
            reference = got
        elif got != reference:
            bad = next(f for f in range(args.frames) if got[f] != reference[f])
            raise SystemExit(f"{name}: --pipeline {depth} frame {bad} differs from --pipeline 1")
        shutil.rmtree(out)
    rows = []
    for depth in args.pipelines:
        fps, per = [], None
        for _ in range(args.rounds):
            text = _run([*base, *frames, "--pipeline", str(depth)], env)
            fps.append(float(FRAMES_LINE.search(text).group(3)))  # type: ignore[union-attr]
            per = PER_FRAME.search(text)
        assert per is not None, "the runner printed no counters: not the emulator?"
        rows.append(
            f"| {name} | {depth} | {statistics.median(fps):.1f} ({min(fps):.1f}-{max(fps):.1f}) "
            f"| {float(per.group(1)):.2f} | {float(per.group(2)):.0f} / {float(per.group(3)):.0f} "
            f"| {float(per.group(4)):.2f} |"
        )
    if args.baseline_runner:
        base_env = dict(env)
        base_env["EXECUTORCH_ASCEND_ACL_LIB"] = str(args.baseline_acl_lib)
        cmd = [str(args.baseline_runner), *base[1:], "--warmup", "1"]
        cmd += ["--iterations", str(args.frames)]
        fps = []
        for _ in range(args.rounds):
            mean_ms = float(LATENCY.search(_run(cmd, base_env)).group(2))  # type: ignore[union-attr]
            fps.append(1000.0 / mean_ms)
        rows.append(
            f"| {name} | before (synchronous calls) | {statistics.median(fps):.1f} "
            f"({min(fps):.1f}-{max(fps):.1f}) | {blocking_calls} (blocking ACL calls: each copy "
            "and the execute) | | |"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=REPO / "build" / "cmake")
    parser.add_argument("--models", nargs="+", default=["small_cnn", "resnet"])
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pipelines", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--baseline-runner", type=Path)
    parser.add_argument("--baseline-acl-lib", type=Path)
    parser.add_argument("--work-dir", type=Path)
    args = parser.parse_args(argv)
    args.build = args.build.resolve()
    args.runner = args.build / "tools" / "runner" / "ascend_runner"
    acl_lib = args.build / "emulator" / "acl" / "libascendcl.so"
    os.environ.setdefault("EXECUTORCH_ASCEND_EMULATOR_ATC", str(args.build / "emulator/atc/atc"))
    os.environ.setdefault("EXECUTORCH_ASCEND_EMULATOR_ACL_LIB", str(acl_lib))
    env = dict(os.environ)
    env["EXECUTORCH_ASCEND_ACL_LIB"] = str(acl_lib)
    rows = [
        "| model | instances (`--pipeline`) | frames/s, median (min-max) | host waits per frame "
        "| bytes per frame to / from the device | model runs per frame |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work_dir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for name in args.models:
            rows += bench(args, name, work, env)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
