# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Model load time and peak RSS: ExecuTorch + AscendBackend on the emulator vs XNNPACK (issue 14).

    python benchmarks/bench_load.py [--layers 16] [--width 4096] [--repeats 3]
        [--variants inline,external,xnnpack,inline_verified,external_verified]
        [--dev-build DIR] [--artifacts DIR] [--json PATH]

The model is a stack of `--layers` Linear(width, width) layers (default 16 x 4096 x 4096 fp32 =
1 GiB of weights), lowered three ways, each in its own process:

  inline    AscendPartitioner, AscendCompileSpec(external_weight=0): the weights inside the .om,
            the .om inside the .pte (the emulator copies them from the mapped .pte to device
            memory at aclmdlLoadFromMem);
  external  AscendPartitioner, AscendCompileSpec(external_tag="weights"): atc --external_weight=1,
            the .om and one weight file per Linear in weights.ptd (the backend copies each from
            the mapped .ptd to device memory and binds it, aclmdlSetExternalWeightAddress);
  xnnpack   XnnpackPartitioner: XNNPACK packs the weights from the mapped .pte at init.

and `inline_verified` / `external_verified` load the inline / external programs with
EXECUTORCH_ASCEND_VERIFY_WEIGHTS=1: every .om and weight file is checked against the SHA-256 its
named-data key names before it is uploaded (docs/runtime.md, "Verifying weights"); the difference
to the unverified variant is the check's cost.

Each load (executorch.runtime: load_program + load_method) runs in a fresh process, the variants
interleaved, `--repeats` times, each with its files just read once (a warm page cache, as for a
second load of the model); the figures are medians. The loading process checks one execute
against eager (outputs saved by the AOT phase) before it exits, so a load that dropped weights
fails the benchmark. Its parent samples /proc/<pid>/status every millisecond until the load
has returned: RssAnon (heap and, on the emulator, the emulated device memory) and RssFile
(mapped file pages, the .pte/.ptd). Every RSS figure is the growth over the process's RSS just
before loading (Python, torch and the libraries), in weight bytes; "peak RSS beyond the mapped
file" is that of RssAnon: the issue asks <= 1.1. The load's own CPU time (process CPU
time, so a loaded machine does not inflate it) and wall time are reported too.

--dev-build DIR runs the native parts (backend, emulator libascendcl.so and atc) of that CMake
build, as tests/python/conftest.py does; without it, those of the installed package.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_build

GIB = 1 << 30
VARIANTS = ("inline", "external", "xnnpack", "inline_verified", "external_verified")
LABELS = {
    "inline": "AscendBackend, weights inside the .om (.pte)",
    "external": "AscendBackend, external weight files (.ptd)",
    "xnnpack": "XNNPACK (XnnpackPartitioner .pte)",
    "inline_verified": "AscendBackend, weights inside the .om, verified",
    "external_verified": "AscendBackend, external weight files, verified",
}
VERIFIED = "_verified"


def _program(variant: str) -> str:
    """The lowered program a variant loads: a verified variant loads its unverified twin's."""
    return variant.removesuffix(VERIFIED)


def _status(field: str, pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def _model(layers: int, width: int):
    import torch

    torch.manual_seed(0)
    stack = torch.nn.Sequential(*[torch.nn.Linear(width, width) for _ in range(layers)])
    with torch.no_grad():
        for layer in stack:  # keep the activations of a deep stack far from zero
            layer.weight.mul_(math.sqrt(3.0))
    return stack.eval()


def phase_aot(work: Path, variant: str, layers: int, width: int) -> dict:
    """Lowers the model one way; writes <variant>.pte (+ .ptd) and the reference once."""
    import torch

    model = _model(layers, width)
    x = torch.randn(1, width, generator=torch.Generator().manual_seed(0))
    if not (work / "expected.npy").exists():
        with torch.no_grad():
            np.save(work / "expected.npy", model(x).numpy())
        np.save(work / "input.npy", x.numpy())
    out = work / variant
    out.mkdir(exist_ok=True)
    if variant == "xnnpack":
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import (
            XnnpackPartitioner,
        )
        from executorch.exir import to_edge_transform_and_lower

        edge = to_edge_transform_and_lower(
            torch.export.export(model, (x,)), partitioner=[XnnpackPartitioner()]
        )
        with open(out / "model.pte", "wb") as f:
            edge.to_executorch().write_to_file(f)
    else:
        from executorch_ascend import AscendCompileSpec, use_emulator
        from executorch_ascend.export import lower, save

        use_emulator()
        spec = (
            AscendCompileSpec(external_weight=0)
            if variant == "inline"
            else AscendCompileSpec(external_tag="weights")
        )
        lowering = lower(model, (x,), spec)
        if lowering.summary.partitions != 1:
            raise RuntimeError(f"{variant}: {lowering.summary.partitions} Ascend partitions")
        save(lowering.program, out / "model.pte")
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    files = {p.name: p.stat().st_size for p in sorted(out.iterdir())}
    result = {"weight_bytes": weight_bytes, "files": files}
    (out / "aot.json").write_text(json.dumps(result))
    return result


def phase_load(work: Path, variant: str) -> dict:
    """Loads <variant>.pte once (the measured part), then checks one execute against eager."""
    import torch
    from executorch.runtime import Runtime

    if variant != "xnnpack":
        from executorch_ascend import use_emulator

        use_emulator()  # registers AscendBackend, on the emulator
    x = torch.from_numpy(np.load(work / "input.npy"))
    expected = torch.from_numpy(np.load(work / "expected.npy"))
    os.environ["EXECUTORCH_ASCEND_VERIFY_WEIGHTS"] = "1" if variant.endswith(VERIFIED) else "0"
    pte = work / _program(variant) / "model.pte"
    ptd = work / _program(variant) / "weights.ptd"
    runtime = Runtime.get()
    before = {f: _status(f) for f in ("VmRSS", "RssAnon", "RssFile")}
    cpu0, wall0 = time.process_time(), time.perf_counter()
    program = runtime.load_program(pte, data_path=ptd if ptd.exists() else None)
    method = program.load_method("forward")
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    peak_total = _status("VmHWM")
    (work / f"loaded.{os.getpid()}").touch()  # the parent stops sampling here
    (out,) = method.execute([x])
    error = float((out - expected).abs().max())
    return {
        "load_cpu_s": cpu,
        "load_wall_s": wall,
        "rss_before": before["VmRSS"],
        "rss_anon_before": before["RssAnon"],
        "rss_file_before": before["RssFile"],
        "peak_rss_total": peak_total,
        "max_abs_error": error,
        "max_abs_expected": float(expected.abs().max()),
    }


def _child(args: list[str], work: Path) -> tuple[dict, dict]:
    """Runs this script with `args`; returns its JSON and its sampled RSS peaks during the load."""
    cmd = [sys.executable, __file__, *args, "--work-dir", str(work)]
    peaks = {"peak_rss_anon": 0, "peak_rss_file": 0}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        marker = work / f"loaded.{child.pid}"
        while child.poll() is None:
            if not marker.exists():
                try:
                    anon = _status("RssAnon", child.pid)
                    file = _status("RssFile", child.pid)
                except (OSError, RuntimeError):
                    break  # exited between poll() and the read
                peaks["peak_rss_anon"] = max(peaks["peak_rss_anon"], anon)
                peaks["peak_rss_file"] = max(peaks["peak_rss_file"], file)
            time.sleep(0.001)
        child.wait()
        marker.unlink(missing_ok=True)
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed:\n{err.read()[-4000:]}")
        result = json.loads(out.read().strip().splitlines()[-1])
    return result, peaks


def _warm(folder: Path) -> None:
    """Reads the program's files once, so each load finds them in the page cache (as a second
    load of the same model would) and the wall time measures the load, not the disk."""
    for path in folder.iterdir():
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass


def measure(work: Path, args: argparse.Namespace) -> dict:
    variants = [v for v in args.variants.split(",") if v]
    aot = {}
    for v in dict.fromkeys(_program(v) for v in variants):
        if (work / v / "aot.json").exists():  # --artifacts from an earlier run
            aot[v] = json.loads((work / v / "aot.json").read_text())
            continue
        aot[v], _ = _child(
            ["--phase", "aot", "--variant", v, "--layers", str(args.layers),
             "--width", str(args.width)], work)  # fmt: skip
    weight_bytes = aot[_program(variants[0])]["weight_bytes"]
    runs: dict[str, list[dict]] = {v: [] for v in variants}
    for r in range(args.repeats):
        order = variants[r % len(variants) :] + variants[: r % len(variants)]
        for v in order:
            _warm(work / _program(v))
            result, peaks = _child(["--phase", "load", "--variant", v], work)
            tol = 1e-3 * max(1.0, result["max_abs_expected"])
            if result["max_abs_error"] > tol:
                raise RuntimeError(f"{v}: max abs error {result['max_abs_error']} > {tol}")
            runs[v].append({**result, **peaks})
    figures: dict[str, float] = {"weight_bytes": weight_bytes, "repeats": args.repeats}
    for v in variants:
        rs = runs[v]
        figures[f"{v}_load_cpu_s"] = statistics.median(r["load_cpu_s"] for r in rs)
        figures[f"{v}_load_wall_s"] = statistics.median(r["load_wall_s"] for r in rs)
        figures[f"{v}_peak_anon_over_weights"] = statistics.median(
            (r["peak_rss_anon"] - r["rss_anon_before"]) / weight_bytes for r in rs
        )
        figures[f"{v}_peak_file_over_weights"] = statistics.median(
            (r["peak_rss_file"] - r["rss_file_before"]) / weight_bytes for r in rs
        )
        figures[f"{v}_peak_total_over_weights"] = statistics.median(
            (r["peak_rss_total"] - r["rss_before"]) / weight_bytes for r in rs
        )
        figures[f"{v}_max_abs_error"] = max(r["max_abs_error"] for r in rs)
        figures[f"{v}_file_bytes"] = sum(aot[_program(v)]["files"].values())
    if "xnnpack" in variants:
        base = figures["xnnpack_load_cpu_s"]
        for v in variants:
            figures[f"{v}_load_cpu_vs_xnnpack"] = figures[f"{v}_load_cpu_s"] / base
    return figures


def report(f: dict, variants: list[str]) -> str:
    w = f["weight_bytes"]
    rows = [
        f"Weights: {w} B ({w / GIB:.3f} GiB fp32); medians of {f['repeats']} loads per variant.",
        "",
        "| variant | load CPU | vs XNNPACK | load wall | peak RSS beyond the mapped file "
        "(RssAnon) | peak mapped file pages (RssFile) | peak RSS (VmHWM) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for v in variants:
        ratio = f.get(f"{v}_load_cpu_vs_xnnpack")
        rows.append(
            f"| {LABELS[v]} | {f[f'{v}_load_cpu_s']:.3f} s | "
            f"{'' if ratio is None else f'{ratio:.2f}x'} | {f[f'{v}_load_wall_s']:.3f} s | "
            f"{f[f'{v}_peak_anon_over_weights']:.3f} x weights | "
            f"{f[f'{v}_peak_file_over_weights']:.3f} x weights | "
            f"{f[f'{v}_peak_total_over_weights']:.3f} x weights |"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=16)
    parser.add_argument("--width", type=int, default=4096)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--dev-build", type=Path, default=None)
    parser.add_argument("--work-dir", type=Path, default=None)
    parser.add_argument(
        "--artifacts", type=Path, default=None,
        help="keep the lowered programs in this folder and reuse them when present",
    )  # fmt: skip
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--phase", choices=("aot", "load"), default=None)
    parser.add_argument("--variant", choices=VARIANTS, default=None)
    args = parser.parse_args()
    if args.phase == "aot":
        print(json.dumps(phase_aot(args.work_dir, args.variant, args.layers, args.width)))
        return 0
    if args.phase == "load":
        print(json.dumps(phase_load(args.work_dir, args.variant)))
        return 0

    if args.dev_build is not None:
        os.environ.update(dev_build.environment(args.dev_build))
    unknown = set(args.variants.split(",")) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variants {sorted(unknown)}; choose from {VARIANTS}")
    if args.artifacts is not None:
        args.artifacts.mkdir(parents=True, exist_ok=True)
        figures = measure(args.artifacts.resolve(), args)
    else:
        with tempfile.TemporaryDirectory(prefix="ascend_load_", dir=args.work_dir) as tmp:
            figures = measure(Path(tmp), args)
    print(report(figures, [v for v in args.variants.split(",") if v]))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
