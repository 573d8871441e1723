# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What per-op profiling costs: one Ascend program executed plain and under ETDump.

    python benchmarks/bench_profiling.py [--rounds N] [--models resnet bert gpt2] [--json PATH]

The models are bench_vs_ort.py's (small ResNet, BERT, GPT-2 with rescaled random weights). Each is
lowered once to one Ascend partition and loaded twice through executorch.runtime: plainly, and
with ETDump enabled (an event tracer: the backend then subscribes to the emulator's aclprof op
records and logs one delegate event per .om op, docs/profiling.md). Both outputs are checked
against eager PyTorch, and the traced run's ETDump must hold one event per .om op per execute,
before anything is timed. Rounds alternate the two (rotating who goes first); each call is timed by
the calling thread's CPU time. The table shows medians and the ratio traced / plain: what a user
pays for per-op times.
Run on purpose only, never from the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_vs_ort  # wires the dev build, like every benchmark
from executorch.extension.pybindings import portable_lib
from executorch.runtime import Runtime

from executorch_ascend import AscendCompileSpec, use_emulator
from executorch_ascend.export import lower, save
from executorch_ascend.toolchain.atc import om_op_names, resolve_atc

VARIANTS = ("plain", "etdump")


def _events_per_execute(program: object, work: Path, runs: int) -> int:
    """Delegate events (the whole-call event aside) the traced program logged, per execute."""
    from executorch.devtools import Inspector

    etdump = work / "run.etdp"
    program.write_etdump_result_to_file(str(etdump), str(work / "debug.bin"))
    events = [
        e
        for block in Inspector(etdump_path=str(etdump)).event_blocks
        for e in block.events
        if e.is_delegated_op and e.name != "AscendBackend::execute"
    ]
    samples = sum(len(e.perf_data.raw) for e in events)
    if samples % runs:
        raise bench_vs_ort.BenchError(f"{samples} op samples over {runs} executes")
    return samples // runs


def _bench(spec: bench_vs_ort.Spec, work: Path, rounds: int, warmup: int) -> dict[str, float]:
    model = spec.build()
    inputs = spec.make_inputs(torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = model(*inputs).to(torch.float32)
    compile_spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(work / "dump"))
    lowering = lower(model, inputs, compile_spec)
    if lowering.summary.partitions != 1:
        raise bench_vs_ort.BenchError(f"{spec.name}: {lowering.summary}")
    pte, _ = save(lowering.program, work / "model.pte")
    (om,) = (work / "dump").glob("*/part.om")
    om_ops = len(om_op_names(om, resolve_atc(compile_spec)))

    runtime = Runtime.get()
    traced_program = runtime.load_program(pte, enable_etdump=True)  # times, no tensors
    methods = {
        "plain": runtime.load_program(pte).load_method("forward"),
        "etdump": traced_program.load_method("forward"),
    }
    for name, method in methods.items():
        bench_vs_ort._check(spec.name, name, method.execute(list(inputs))[0], expected)
    if (per_execute := _events_per_execute(traced_program, work, 1)) != om_ops:
        raise bench_vs_ort.BenchError(f"{spec.name}: {per_execute} op events, {om_ops} .om ops")

    for _ in range(warmup):
        for method in methods.values():
            method.execute(list(inputs))
    cpu: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for r in range(rounds):
        for v in VARIANTS[r % 2 :] + VARIANTS[: r % 2]:
            c0 = time.thread_time_ns()
            methods[v].execute(list(inputs))
            cpu[v].append((time.thread_time_ns() - c0) / 1e6)
    medians = {v: statistics.median(cpu[v]) for v in VARIANTS}
    return {
        f"{spec.name}.om_ops": om_ops,
        **{f"{spec.name}.{v}.cpu_ms": round(medians[v], 4) for v in VARIANTS},
        f"{spec.name}.etdump_over_plain": round(medians["etdump"] / medians["plain"], 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40, help="alternated rounds (default 40)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds first (default 3)")
    parser.add_argument("--models", nargs="*", default=["resnet", "bert"])
    parser.add_argument("--json", type=Path, help="write the figures as a flat JSON object")
    args = parser.parse_args(argv)
    specs = {m.name: m for m in bench_vs_ort.MODELS}
    if args.rounds < 1 or args.warmup < 0 or not set(args.models) <= specs.keys():
        parser.error(f"--rounds >= 1, --warmup >= 0, models among {sorted(specs)}")

    use_emulator()
    torch.set_num_threads(1)
    portable_lib._unsafe_reset_threadpool(1)
    load_before = os.getloadavg()[0]
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="ascend-profiling-") as tmp:
        for name in args.models:
            print(f"{name} ...", file=sys.stderr, flush=True)
            work = Path(tmp) / name
            work.mkdir()
            figures.update(_bench(specs[name], work, args.rounds, args.warmup))
    load_after = os.getloadavg()[0]
    figures["load_average"] = [load_before, load_after]
    print(f"{args.rounds} alternated rounds, one thread; medians of thread CPU time in ms; "
          f"1-min load average {load_before:.2f} before, {load_after:.2f} after\n")  # fmt: skip
    print("| model | .om ops | plain | under ETDump (per-op events) | traced / plain |")
    print("|---|---|---|---|---|")
    for name in args.models:
        plain, traced = figures[f"{name}.plain.cpu_ms"], figures[f"{name}.etdump.cpu_ms"]
        ratio = figures[f"{name}.etdump_over_plain"]
        ops = figures[f"{name}.om_ops"]
        print(f"| {name} | {ops} | {plain:.3f} | {traced:.3f} | {ratio:.2f}x |")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
