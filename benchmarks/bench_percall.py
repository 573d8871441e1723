# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Per-call cost of a tiny model: the bare ACL sequence on the emulator, AscendBackend, XNNPACK and
ExecuTorch's CPU kernels, in one process (docs/benchmarks.md, "Per-call cost").

Drives the C++ harness benchmarks/percall (built with -DEXECUTORCH_ASCEND_BUILD_BENCHMARKS=ON):
exports the models (benchmarks/percall/export_models.py) unless they are there, runs the harness
in time mode (interleaved rounds, thread CPU time, median; heap allocations per call) and, with
--callgrind, once more under valgrind's callgrind, which gives instructions per call of each path
and splits the ACL sequence into model work + plain memcpy + the rest. The harness checks every
path's output against eager PyTorch before measuring it. valgrind 3.19 (Debian 12) cannot decode
AVX-512: on an AVX-512 host --callgrind needs a build whose emulator kernels are compiled for
less (-DEXECUTORCH_ASCEND_EMULATOR_ARCH=x86-64-v3, as benchmarks/run_all.py configures it); a
native build dies under callgrind with SIGILL.

    python benchmarks/bench_percall.py --build build/dev --callgrind --json percall.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HARNESS = "benchmarks/percall/ascend_percall_bench"
PATHS = ("acl_sequence", "model_work", "plain_memcpy", "ascend", "xnnpack", "portable")
# The bound: the ACL sequence within 1.2x of model work + a plain memcpy of the I/O.
RATIO_BOUND = 1.2


def _harness(build: Path) -> Path:
    harness = build / HARNESS
    if not harness.exists():
        raise SystemExit(
            f"{harness} is missing: configure with -DEXECUTORCH_ASCEND_BUILD_TESTS=ON "
            "-DEXECUTORCH_ASCEND_BUILD_BENCHMARKS=ON and build the ascend_percall_bench target"
        )
    return harness


def _run(cmd: list[str], env: dict[str, str]) -> None:
    """Runs cmd quietly; on failure shows its output (the harness says which check failed)."""
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"failed ({done.returncode}): {' '.join(cmd)}")


def _export(models_dir: Path) -> None:
    if (models_dir / "models.txt").exists():
        return
    script = REPO / "benchmarks" / "percall" / "export_models.py"
    subprocess.run([sys.executable, str(script), str(models_dir)], check=True)


def _time(harness: Path, args: argparse.Namespace, env: dict[str, str]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "time.json"
        cmd = [
            str(harness),
            "--dir",
            str(args.models_dir),
            "--models",
            args.models,
            "--rounds",
            str(args.rounds),
            "--calls",
            str(args.calls),
            "--json",
            str(out),
        ]
        _run(cmd, env)
        return json.loads(out.read_text())


def _self_cost_by_object(dump: Path) -> Counter[str]:
    """Instructions spent in each object's own code (self cost), from callgrind_annotate."""
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", str(dump)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    by_object: Counter[str] = Counter()
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\(\s*([\d.]+)%\)\s+.*\[([^\[\]]+)\]$", line)
        # The frames below the collected region show the whole total: not self cost.
        if m and m.group(2) != "100.0":
            by_object[Path(m.group(3)).name] += int(m.group(1).replace(",", ""))
    return by_object


def _callgrind(harness: Path, args: argparse.Namespace, env: dict[str, str]) -> dict[str, float]:
    if shutil.which("valgrind") is None:
        raise SystemExit("--callgrind needs valgrind (apt-get install valgrind)")
    calls = args.callgrind_calls
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            f"--callgrind-out-file={base}",
            str(harness),
            "--dir",
            str(args.models_dir),
            "--models",
            args.models,
            "--calls",
            str(calls),
            "--callgrind",
        ]
        _run(cmd, env)
        for dump in sorted(Path(tmp).glob("callgrind.out.*")):
            text = dump.read_text(errors="replace")
            name = re.search(r"^desc: Trigger: Client Request: (\S+)$", text, re.M)
            total = re.search(r"^summary: (\d+)$", text, re.M)
            if not name or not total:
                continue
            model, path = name.group(1).split(":")
            figures[f"{model}.{path}.instructions_per_call"] = int(total.group(1)) / calls
            if path == "ascend":
                own = _self_cost_by_object(dump)
                figures[f"{model}.ascend.backend_own_instructions_per_call"] = (
                    own["libexecutorch_backend_ascend.so"] / calls
                )
    for model in args.models.split(","):
        acl = figures[f"{model}.acl_sequence.instructions_per_call"]
        work = figures[f"{model}.model_work.instructions_per_call"]
        copy = figures[f"{model}.plain_memcpy.instructions_per_call"]
        figures[f"{model}.acl_overhead_instructions_per_call"] = acl - work - copy
        figures[f"{model}.acl_ratio"] = acl / (work + copy)
    return figures


def _table(args: argparse.Namespace, figures: dict[str, float]) -> str:
    rows = [
        "| model | path | ns/call (median) | heap allocations/call | instructions/call |",
        "|---|---|---:|---:|---:|",
    ]
    for model in args.models.split(","):
        for path in PATHS:
            key = f"{model}.{path}"
            ns = figures.get(f"{key}.ns_per_call")
            allocs = figures.get(f"{key}.allocs_per_call")
            instr = figures.get(f"{key}.instructions_per_call")
            rows.append(
                f"| {model} | {path} | {'' if ns is None else f'{ns:.0f}'} | "
                f"{'' if allocs is None else f'{allocs:.2f}'} | "
                f"{'' if instr is None else f'{instr:.0f}'} |"
            )
    if args.callgrind:
        rows += [
            "",
            "| model | ACL sequence | model work | plain memcpy | ACL overhead | "
            "ACL / (model + memcpy) | backend's own code |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for model in args.models.split(","):
            ratio = figures[f"{model}.acl_ratio"]
            mark = "" if ratio <= RATIO_BOUND else f" (> {RATIO_BOUND})"
            rows.append(
                f"| {model} | {figures[f'{model}.acl_sequence.instructions_per_call']:.0f} | "
                f"{figures[f'{model}.model_work.instructions_per_call']:.0f} | "
                f"{figures[f'{model}.plain_memcpy.instructions_per_call']:.0f} | "
                f"{figures[f'{model}.acl_overhead_instructions_per_call']:.0f} | "
                f"{ratio:.2f}x{mark} | "
                f"{figures[f'{model}.ascend.backend_own_instructions_per_call']:.0f} |"
            )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--build",
        type=Path,
        default=Path(os.environ.get("EXECUTORCH_ASCEND_DEV_BUILD", "build/dev")),
        help="the CMake build holding the harness (default build/dev)",
    )
    parser.add_argument(
        "--models-dir",
        type=Path,
        default=Path("out/percall"),
        help="where the exported models are (written if missing)",
    )
    parser.add_argument("--models", default="mlp,add")
    parser.add_argument(
        "--acl-lib", type=Path, default=None, help="libascendcl.so (default: the build's emulator)"
    )
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--calls", type=int, default=2000, help="calls per path per round")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions")
    parser.add_argument("--callgrind-calls", type=int, default=500)
    parser.add_argument("--json", type=Path, default=None, help="write the figures (flat JSON)")
    args = parser.parse_args()

    harness = _harness(args.build)
    acl_lib = args.acl_lib or args.build / "emulator" / "acl" / "libascendcl.so"
    env = dict(os.environ, EXECUTORCH_ASCEND_ACL_LIB=str(acl_lib.resolve()))
    env.pop("EXECUTORCH_ASCEND_EMU_VERBOSE", None)
    _export(args.models_dir)
    figures = _time(harness, args, env)
    if args.callgrind:
        figures.update(_callgrind(harness, args, env))
    print(_table(args, figures))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
