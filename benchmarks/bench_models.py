# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Benchmarks the Ascend delegate on the CANN emulator against eager PyTorch and ExecuTorch CPU.

    python benchmarks/bench_models.py [--iterations N] [--warmup N] [--work-dir DIR]

For each model (an MLP, a small CNN, transformers' ResNet with a small config) it prints markdown
tables of: AOT time and artifact sizes; latency of eager PyTorch, ExecuTorch + AscendBackend via
executorch.runtime and via ascend_runner, and ExecuTorch CPU-only (no partitioner); and the
delegate's host<->device traffic per execute from the emulator's aclEmuGetStats, checked against
the delegate's I/O tensor sizes.

Everything runs single-threaded (torch and ExecuTorch's threadpool set to 1 thread) because the
emulator executes on one thread. The emulator runs CPU reference kernels: its latency says nothing
about NPU speed. The numbers are for delegate overhead and for catching regressions.
Run on purpose only (never from the tests); it takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import torch

# Importing executorch_ascend registers AscendBackend with the pybindings' runtime; main()
# chooses the CANN emulator. `models` also puts examples/ (parity) on the path.
from emulator_stats import EmulatorStats, Traffic
from executorch.exir import to_edge_transform_and_lower
from executorch.exir.lowered_backend_module import get_lowered_submodules
from executorch.extension.pybindings import portable_lib
from executorch.runtime import Method, Runtime
from models import MODELS, BenchModel
from parity import fp32_tolerance, max_abs_error
from timing import Latency, measure, timed

from executorch_ascend import AscendBackend, AscendCompileSpec, paths, use_emulator
from executorch_ascend.export import lower, save
from executorch_ascend.run import write_raw

_RUNNER_LATENCY = re.compile(
    r"latency over (\d+) iteration\(s\): min ([0-9.]+) ms, mean ([0-9.]+) ms"
)
_RUNNER_LOAD = re.compile(r"^load: ([0-9.]+) ms", re.MULTILINE)


class BenchError(RuntimeError):
    """A measured path failed or produced wrong numbers."""


@dataclass(frozen=True)
class RunnerLatency:
    min_ms: float
    mean_ms: float
    load_ms: float

    def cell(self) -> str:
        return f"{self.min_ms:.3f} / {self.mean_ms:.3f}"


@dataclass(frozen=True)
class Result:
    name: str
    aot_ascend_s: float
    aot_cpu_s: float
    partitions: int
    pte_bytes: int
    ptd_bytes: int
    blob_bytes: int
    cpu_pte_bytes: int
    load_ms: float  # executorch.runtime load_program + load_method of the Ascend .pte
    eager: Latency
    ascend_runtime: Latency
    ascend_runner: RunnerLatency
    cpu_runtime: Latency
    cpu_runner: RunnerLatency
    per_execute: Traffic  # emulator traffic per forward() call
    expected_h2d: int  # bytes the delegates' inputs occupy, per forward()
    expected_d2h: int
    traffic_ok: bool  # the totals over all calls are exactly calls x expected


def _nbytes(node: torch.fx.Node) -> int:
    val = node.meta["val"]
    return val.numel() * val.element_size()


def _io_bytes(lowered) -> tuple[int, int]:
    """The bytes one execute of a delegate copies in and out: its user inputs and its outputs
    (the constants are inside the .om)."""
    program = lowered.original_module
    nodes = {n.name: n for n in program.graph.nodes}
    h2d = sum(_nbytes(nodes[name]) for name in program.graph_signature.user_inputs)
    (output,) = [n for n in program.graph.nodes if n.op == "output"]
    d2h = sum(_nbytes(n) for n in output.args[0])
    return h2d, d2h


def _check(what: str, actual: list[torch.Tensor], expected: list[torch.Tensor]) -> None:
    err, tol = max_abs_error(actual, expected), fp32_tolerance(expected)
    if err > tol:
        raise BenchError(f"{what}: max abs error {err:.3g} > tolerance {tol:.3g}")


def _run_runner(
    pte: Path,
    ptd: Path | None,
    inputs: tuple[torch.Tensor, ...],
    work: Path,
    args: argparse.Namespace,
) -> RunnerLatency:
    files = []
    for i, t in enumerate(inputs):
        files.append(work / f"input{i}.bin")
        write_raw(t, files[-1])
    cmd = [str(paths.runner()), "--model", str(pte), "--inputs", ",".join(map(str, files))]
    cmd += ["--iterations", str(args.iterations), "--warmup", str(args.warmup)]
    if ptd is not None:
        cmd += ["--data", str(ptd)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    latency = _RUNNER_LATENCY.search(done.stdout)
    load = _RUNNER_LOAD.search(done.stdout)
    if done.returncode != 0 or latency is None or load is None:
        raise BenchError(f"ascend_runner failed ({done.returncode}):\n{done.stderr}\n{done.stdout}")
    if int(latency.group(1)) != args.iterations:
        raise BenchError(f"ascend_runner timed {latency.group(1)} runs, not {args.iterations}")
    return RunnerLatency(float(latency.group(2)), float(latency.group(3)), float(load.group(1)))


def _cpu_only(model: torch.nn.Module, inputs: tuple[torch.Tensor, ...]) -> tuple[bytes, float]:
    """The reference: the same model through ExecuTorch with no partitioner (CPU kernels)."""

    def build() -> bytes:
        exported = torch.export.export(model, inputs)
        return to_edge_transform_and_lower(exported).to_executorch().buffer

    return timed(build)


def bench(spec: BenchModel, args: argparse.Namespace, stats: EmulatorStats, work: Path) -> Result:
    model = spec.build()
    inputs = spec.inputs()
    with torch.no_grad():
        out = model(*inputs)
    expected = list(out) if isinstance(out, (tuple, list)) else [out]

    def run_eager() -> object:
        with torch.no_grad():
            return model(*inputs)

    eager = measure(run_eager, args.iterations, args.warmup)

    compile_spec = AscendCompileSpec(toolchain="emulator", external_tag=spec.external_tag)
    lowering, aot_ascend = timed(lambda: lower(model, inputs, compile_spec))
    gm = lowering.edge.exported_program().graph_module
    delegates = [
        m for _, m, _ in get_lowered_submodules(gm) if m.backend_id == AscendBackend.__name__
    ]
    io_bytes = [_io_bytes(m) for m in delegates]
    model_dir = work / re.sub(r"[^A-Za-z0-9_]+", "_", spec.name)
    pte, ptds = save(lowering.program, model_dir / "model.pte")
    ptd = ptds[0] if ptds else None

    runtime = Runtime.get()

    def load() -> Method:
        return runtime.load_program(pte, data_path=ptd).load_method("forward")

    method, load_s = timed(load)
    _check(
        f"{spec.name} Ascend via executorch.runtime", list(method.execute(list(inputs))), expected
    )
    before = stats.traffic()
    ascend_runtime = measure(
        lambda: method.execute(list(inputs)),
        args.iterations,
        args.warmup,
    )
    calls = args.iterations + args.warmup
    delta = stats.traffic() - before
    per_execute = Traffic(
        delta.bytes_host_to_device // calls,
        delta.bytes_device_to_host // calls,
        delta.executes // calls,
    )
    if delta.executes != calls * len(delegates):
        raise BenchError(
            f"{spec.name}: the emulator counted {delta.executes} executes for {calls} calls of "
            f"{len(delegates)} delegate(s); {stats.library} is not the copy the backend uses"
        )
    expected_h2d = sum(h2d for h2d, _ in io_bytes)
    expected_d2h = sum(d2h for _, d2h in io_bytes)
    traffic_ok = (
        delta.bytes_host_to_device == calls * expected_h2d
        and delta.bytes_device_to_host == calls * expected_d2h
    )
    ascend_runner = _run_runner(pte, ptd, inputs, model_dir, args)

    cpu_buffer, aot_cpu = _cpu_only(model, inputs)
    cpu_pte = model_dir / "cpu_only.pte"
    cpu_pte.write_bytes(cpu_buffer)
    cpu_method = runtime.load_program(cpu_buffer).load_method("forward")
    _check(
        f"{spec.name} CPU-only via executorch.runtime",
        list(cpu_method.execute(list(inputs))),
        expected,
    )
    cpu_runtime = measure(lambda: cpu_method.execute(list(inputs)), args.iterations, args.warmup)
    cpu_runner = _run_runner(cpu_pte, None, inputs, model_dir, args)

    return Result(
        name=spec.name,
        aot_ascend_s=aot_ascend,
        aot_cpu_s=aot_cpu,
        partitions=len(delegates),
        pte_bytes=pte.stat().st_size,
        ptd_bytes=sum(p.stat().st_size for p in ptds),
        blob_bytes=sum(len(m.processed_bytes) for m in delegates),
        cpu_pte_bytes=len(cpu_buffer),
        load_ms=load_s * 1e3,
        eager=eager,
        ascend_runtime=ascend_runtime,
        ascend_runner=ascend_runner,
        cpu_runtime=cpu_runtime,
        cpu_runner=cpu_runner,
        per_execute=per_execute,
        expected_h2d=expected_h2d,
        expected_d2h=expected_d2h,
        traffic_ok=traffic_ok,
    )


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def report(results: list[Result], args: argparse.Namespace) -> str:
    aot = _table(
        ["model", "AOT Ascend (s)", "AOT CPU-only (s)", "partitions", ".pte (B)", ".ptd (B)",
         "delegate blob (B)", "CPU-only .pte (B)", "load Ascend, runtime / runner (ms)"],
        [
            [r.name, f"{r.aot_ascend_s:.2f}", f"{r.aot_cpu_s:.2f}", str(r.partitions),
             str(r.pte_bytes), str(r.ptd_bytes), str(r.blob_bytes), str(r.cpu_pte_bytes),
             f"{r.load_ms:.1f} / {r.ascend_runner.load_ms:.1f}"]
            for r in results
        ],
    )  # fmt: skip
    latency = _table(
        ["model", "(a) eager PyTorch", "(b) ET + Ascend, executorch.runtime",
         "(c) ET + Ascend, ascend_runner (min / mean)", "(d) ET CPU-only, executorch.runtime",
         "(d') ET CPU-only, ascend_runner (min / mean)"],
        [
            [r.name, r.eager.cell(), r.ascend_runtime.cell(), r.ascend_runner.cell(),
             r.cpu_runtime.cell(), r.cpu_runner.cell()]
            for r in results
        ],
    )  # fmt: skip
    traffic = _table(
        ["model", "host->device B/run", "expected (delegate inputs)", "device->host B/run",
         "expected (delegate outputs)", "aclmdlExecute/run", "matches"],
        [
            [r.name, str(r.per_execute.bytes_host_to_device), str(r.expected_h2d),
             str(r.per_execute.bytes_device_to_host), str(r.expected_d2h),
             str(r.per_execute.executes), "yes" if r.traffic_ok else "NO"]
            for r in results
        ],
    )  # fmt: skip
    return (
        f"### AOT and artifacts\n\n{aot}\n\n"
        f"### Latency, ms ({args.iterations} timed runs after {args.warmup} warm-up; "
        "median / p90 unless noted; 1 thread)\n\n"
        f"{latency}\n\n"
        f"### Delegate traffic per forward() (emulator aclEmuGetStats)\n\n{traffic}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=50, help="timed runs (default 50)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed runs first (default 5)")
    parser.add_argument("--work-dir", type=Path, help="keep the .pte/.ptd files here")
    parser.add_argument("--models", nargs="*", help="subset of model names (prefix match)")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.warmup < 0:
        parser.error("--iterations must be >= 1 and --warmup >= 0")

    use_emulator()  # no NPU here: the delegate runs on the CANN emulator
    # One thread everywhere: the emulator's kernels are single-threaded.
    torch.set_num_threads(1)
    portable_lib._unsafe_reset_threadpool(1)
    stats = EmulatorStats.of_this_process()
    chosen = [
        m for m in MODELS if not args.models or any(m.name.startswith(p) for p in args.models)
    ]

    if not chosen:
        parser.error(f"no model matches {args.models}; have {[m.name for m in MODELS]}")
    # First-use costs (lazy imports, tracing caches) would land in the first model's AOT time.
    warm = chosen[0].build()
    lower(warm, chosen[0].inputs(), AscendCompileSpec(toolchain="emulator"))
    _cpu_only(warm, chosen[0].inputs())

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ascend-bench-") as tmp:
        work = args.work_dir or Path(tmp)
        results = []
        for spec in chosen:
            print(f"benchmarking {spec.name} ...", file=sys.stderr, flush=True)
            results.append(bench(spec, args, stats, work))
    print(f"emulator: {stats.library}; torch threads: {torch.get_num_threads()}; "
          f"ExecuTorch threadpool: {portable_lib._threadpool_get_thread_count()}; "
          f"1-min load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after "
          f"({os.cpu_count()} CPUs)\n")  # fmt: skip
    print(report(results, args))
    return 0 if all(r.traffic_ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
