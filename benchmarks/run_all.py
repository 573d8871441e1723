# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Every benchmark issue 14's performance claims rest on, in one run, and the summary table.

    python benchmarks/run_all.py [--build build/bench] [--native-build build/bench-native]
                                 [--out out/bench] [--quick]

One after the other on the same machine, each writing its figures with --json into --out:

  percall   benchmarks/bench_percall.py --callgrind: per-call ns, heap allocations per call and
            callgrind instructions of the bare ACL sequence, the model work, a plain memcpy of
            the I/O and AscendBackend (C++ harness benchmarks/percall/, one process)
  kernels   ascend_emu_kernel_bench: dense and depthwise 3x3 Conv at [1, 64, 32, 32] (FLOP/s per
            CPU-second, Google Benchmark's JSON)
  vs_ort    benchmarks/bench_vs_ort.py: ResNet, BERT, GPT-2 on eager, XNNPACK, ONNX Runtime on
            the backend's ONNX and the emulator, one thread, interleaved
  load      benchmarks/bench_load.py: load time and peak RSS of a large model (inline and
            external weights, XNNPACK)
  aot       benchmarks/bench_aot.py: lowering time and peak RSS against the number of layers

Then it prints one table: each figure the issue names, its target and whether this run meets
it, and writes everything to <out>/summary.json. Its native parts come from two CMake builds,
which it configures and builds if needed (Release, benchmarks and the in-tree emulator on):

  --native-build (default build/bench-native): the emulator's kernels compiled for this CPU
            (-march=native, what a CMake build of the emulator does by default), for every
            benchmark but the per-call one: the kernels' FLOP/s, the model latencies, load, AOT;
  --build (default build/bench): the kernels compiled for x86-64-v3 (AVX2/FMA), for the per-call
            benchmark only, because valgrind (3.19, Debian 12) cannot decode AVX-512 and a native
            build on an AVX-512 host dies under callgrind with SIGILL.

oneDNN picks its instruction set at run time in both. Until 2026-12-04 every figure came from the
x86-64-v3 build, which set oneDNN's AVX-512 dense Conv against the emulator's own depthwise code
compiled for AVX2 (docs/benchmarks.md, "Issue 14 in one run"). The Python code is this
checkout's (PYTHONPATH), whatever is pip-installed. --quick runs smaller sizes (for trying the
script, not for the docs). Run on purpose only, never from tests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
import dev_build  # noqa: E402

BENCH = REPO / "benchmarks"
# Dense runs on oneDNN as a loaded model runs it (onednn:1), depthwise on its own path.
DENSE = "BM_Conv/C:64/F:64/HW:32/group:1/k:3/stride:1/onednn:1/process_time"
DEPTHWISE = "BM_Conv/C:64/F:64/HW:32/group:64/k:3/stride:1/onednn:0/process_time"


def _run(name: str, cmd: list[str], env: dict[str, str], out: Path, reuse: bool = False) -> None:
    if reuse and (out / f"{name}.json").exists():
        print(f"[run_all] {name}: reusing {out / (name + '.json')}", flush=True)
        return
    print(f"[run_all] {name}: {' '.join(cmd)}", flush=True)
    start = time.monotonic()
    with open(out / f"{name}.log", "w") as log:
        done = subprocess.run(cmd, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    print(f"[run_all] {name}: exit {done.returncode} in {time.monotonic() - start:.0f} s")
    if done.returncode != 0:
        raise SystemExit(f"{name} failed; see {out / (name + '.log')}")


def _build(build: Path, env: dict[str, str], arch: str) -> None:
    """Configures (first time, the emulator's kernels for `arch`) and builds the targets the
    benchmarks run."""
    if not (build / "CMakeCache.txt").exists():
        configure = [
            "cmake", "-S", str(REPO), "-B", str(build), "-G", "Ninja",
            "-DCMAKE_BUILD_TYPE=Release", "-DEXECUTORCH_ASCEND_BUILD_TESTS=ON",
            "-DEXECUTORCH_ASCEND_BUILD_BENCHMARKS=ON",
            f"-DEXECUTORCH_ASCEND_EMULATOR_ARCH={arch}",
        ]  # fmt: skip
        subprocess.run(configure, env=env, check=True, stdout=subprocess.DEVNULL)
    targets = ["executorch_backend_ascend", "ascendcl", "atc", "ascend_percall_bench",
               "ascend_emu_kernel_bench"]  # fmt: skip
    subprocess.run(
        ["cmake", "--build", str(build), "-j2", "--target", *targets], env=env, check=True
    )


def _kernel_flops(path: Path) -> dict[str, float]:
    """FLOP/s of the dense and depthwise Conv rows (medians over the repetitions)."""
    rows = json.loads(path.read_text())["benchmarks"]
    found = {
        r["run_name"]: r["FLOP/s"]
        for r in rows
        if r.get("aggregate_name") == "median" and r["run_name"] in (DENSE, DEPTHWISE)
    }
    missing = {DENSE, DEPTHWISE} - found.keys()
    if missing:
        raise SystemExit(f"kernel benchmark rows missing: {sorted(missing)}")
    return {
        "dense_flops": found[DENSE],
        "depthwise_flops": found[DEPTHWISE],
        "dense_over_depthwise": found[DENSE] / found[DEPTHWISE],
    }


@dataclass(frozen=True)
class Criterion:
    """One figure the issue names: where the run wrote it and the most it may be."""

    what: str
    benchmark: str  # the JSON file (benchmark) holding it
    key: str
    limit: float
    count: bool = False  # a count (shown as an integer), not a ratio

    def value(self, figures: dict[str, dict]) -> float:
        return figures[self.benchmark][self.key]

    @property
    def target(self) -> str:
        return f"{self.limit:g}" if self.count and self.limit == 0 else f"<= {self.limit:g}"

    def shown(self, value: float) -> str:
        return f"{value:.0f}" if self.count else f"{value:.2f}x"


def _criteria(layers: int) -> list[Criterion]:
    allocs = "heap allocations per call"
    acl = "ACL sequence / (model work + memcpy), instructions"
    return [
        Criterion(f"{allocs}, ACL sequence (add model)", "percall",
                  "add.acl_sequence.allocs_per_call", 0, count=True),
        Criterion(f"{allocs}, ACL sequence (mlp model)", "percall",
                  "mlp.acl_sequence.allocs_per_call", 0, count=True),
        Criterion(f"{allocs}, AscendBackend Method (mlp)", "percall",
                  "mlp.ascend.allocs_per_call", 0, count=True),
        Criterion(f"{acl} (mlp)", "percall", "mlp.acl_ratio", 1.2),
        Criterion(f"{acl} (add)", "percall", "add.acl_ratio", 1.2),
        *(
            Criterion(f"{model}: emulator / ONNX Runtime, thread CPU time", "vs_ort",
                      f"{model}.emulator_over_ort", 1.0)
            for model in ("resnet", "bert", "gpt2")
        ),
        Criterion("dense Conv FLOP/s / depthwise Conv FLOP/s ([1,64,32,32] 3x3)", "kernels",
                  "dense_over_depthwise", 2.0),
        *(
            Criterion(f"load peak RssAnon beyond the mapped file / weights ({variant})", "load",
                      f"{variant}_peak_anon_over_weights", 1.1)
            for variant in ("inline", "external")
        ),
        *(
            Criterion(f"lowering peak RSS / weights (Ascend, .{placement}, {layers} layers)",
                      "aot", f"ascend_{placement}_{layers}L_peak_over_weights", 2.5)
            for placement in ("pte", "ptd")
        ),
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--build",
        type=Path,
        default=REPO / "build" / "bench",
        help="the x86-64-v3 build, for the per-call benchmark (callgrind)",
    )
    parser.add_argument(
        "--native-build",
        type=Path,
        default=REPO / "build" / "bench-native",
        help="the -march=native build, for the other benchmarks",
    )
    parser.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    parser.add_argument("--quick", action="store_true", help="small sizes, to try the script")
    parser.add_argument("--aot-layers", default=None, help="bench_aot.py --layers (1,8,32)")
    parser.add_argument(
        "--aot-partitioners", default="ascend,xnnpack", help="bench_aot.py --partitioners"
    )
    parser.add_argument(
        "--reuse", action="store_true", help="skip a benchmark whose JSON is already in --out"
    )
    args = parser.parse_args()
    build, native, out = args.build.resolve(), args.native_build.resolve(), args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    # A build's native parts and this checkout's Python code (the backend's and the
    # emulator's), whatever is pip-installed.
    pythonpath = os.pathsep.join([str(REPO / "src"), str(REPO / "emulator" / "python")])

    def environment(tree: Path) -> dict[str, str]:
        env = dict(os.environ, EXECUTORCH_ASCEND_DEV_BUILD=str(tree), PYTHONPATH=pythonpath)
        env.update(dev_build.environment(tree))
        return env

    v3_env, env = environment(build), environment(native)
    py = sys.executable
    load_layers, aot_layers = ("4", "1,4") if args.quick else ("16", "1,8,32")
    aot_layers = args.aot_layers or aot_layers
    biggest = int(aot_layers.split(",")[-1])
    _build(build, v3_env, "x86-64-v3")
    _build(native, env, "native")
    kernel_bench = native / "benchmarks" / "kernels" / "ascend_emu_kernel_bench"
    load_before = os.getloadavg()[0]

    _run(
        "percall",
        [py, str(BENCH / "bench_percall.py"), "--build", str(build), "--callgrind",
         "--models-dir", str(out / "percall_models"), "--json", str(out / "percall.json")],
        v3_env, out, args.reuse,
    )  # fmt: skip
    _run(
        "kernels",
        [str(kernel_bench), "--benchmark_filter=BM_Conv/C:64/F:64/HW:32/",
         "--benchmark_min_time=0.5", "--benchmark_repetitions=3",
         "--benchmark_report_aggregates_only=true", "--benchmark_format=json",
         f"--benchmark_out={out / 'kernels_raw.json'}"],
        env, out, args.reuse,
    )  # fmt: skip
    (out / "kernels.json").write_text(json.dumps(_kernel_flops(out / "kernels_raw.json")))
    _run(
        "vs_ort",
        [py, str(BENCH / "bench_vs_ort.py"), "--rounds", "10" if args.quick else "40",
         "--json", str(out / "vs_ort.json")],
        env, out, args.reuse,
    )  # fmt: skip
    _run(
        "load",
        [py, str(BENCH / "bench_load.py"), "--layers", load_layers, "--dev-build", str(native),
         "--json", str(out / "load.json")],
        env, out, args.reuse,
    )  # fmt: skip
    _run(
        "aot",
        [py, str(BENCH / "bench_aot.py"), "--layers", aot_layers,
         "--partitioners", args.aot_partitioners, "--json", str(out / "aot.json")],
        env, out, args.reuse,
    )  # fmt: skip

    figures = {
        name: json.loads((out / f"{name}.json").read_text())
        for name in ("percall", "kernels", "vs_ort", "load", "aot")
    }
    rows = [
        "| figure | this run | target | met |",
        "| --- | --- | --- | --- |",
    ]
    summary = {}
    for c in _criteria(biggest):
        value = c.value(figures)
        ok = value <= c.limit
        summary[c.what] = {"value": value, "target": c.target, "met": ok}
        rows.append(f"| {c.what} | {c.shown(value)} | {c.target} | {'yes' if ok else '**no**'} |")
    load_after = os.getloadavg()[0]
    print("\n".join(rows))
    print(f"\n1-minute load average {load_before:.1f} before, {load_after:.1f} after "
          f"({os.cpu_count()} CPUs)")  # fmt: skip
    summary["load_average"] = [load_before, load_after]
    (out / "summary.json").write_text(json.dumps({"criteria": summary, **figures}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
