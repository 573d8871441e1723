# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A model with more than 2 GiB of fp32 weights, end to end: AOT, files, load, memory, correctness.

    python benchmarks/bench_large_weights.py [--layers 10] [--width 8192] [--work-dir DIR]

The model is a stack of `--layers` Linear(width, width) layers (default 10 x 8192 x 8192 fp32 =
2.5 GiB of weights, past protobuf's 2 GB limit for one ONNX file), exported with its weights and
.om in `weights.ptd` (AscendCompileSpec external_tag). Each phase runs in its own process so its
peak RSS is its own:

  aot      torch.export -> AscendPartitioner -> ONNX (external data) -> atc --external_weight=1 ->
           .pte + .ptd; wall time and peak RSS (ru_maxrss);
  python   executorch.runtime: load_program + load_method (the delegate's init uploads every
           weight to the emulated device), then one execute checked against eager; load time,
           RSS before loading, peak RSS (VmHWM), the emulator's live device bytes;
  runner   ascend_runner on the same files; load time (its own "load:" line), peak RSS of the
           process (wait4's ru_maxrss), outputs checked against eager.

"Resident copies" is (peak RSS - RSS before loading) / weight bytes. On the emulator the device
is host memory, so one copy (the device's) is the floor; the mapped .ptd pages of the weight
being uploaded come on top until the backend frees them. To tell the two apart, the parent
process samples the loading process's /proc/<pid>/status every millisecond: RssAnon (heap and
the emulated device) and RssFile (mapped file pages), each at its peak. Run on purpose only; it
needs about 3x the weight bytes of free disk and takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

GIB = 1 << 30
INPUT_SEED = 0


def _rss_bytes(field: str, pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def _watch(child: subprocess.Popen) -> dict:
    """Peaks of the child's anonymous and file-backed RSS, sampled until it exits."""
    peaks = {"peak_rss_anon": 0, "peak_rss_file": 0}
    while child.poll() is None:
        try:
            anon = _rss_bytes("RssAnon", child.pid)
            file = _rss_bytes("RssFile", child.pid)
        except (OSError, RuntimeError):
            break  # exited between poll() and the read
        peaks["peak_rss_anon"] = max(peaks["peak_rss_anon"], anon)
        peaks["peak_rss_file"] = max(peaks["peak_rss_file"], file)
        time.sleep(0.001)
    return peaks


def _model(layers: int, width: int):
    import torch

    torch.manual_seed(0)
    stack = torch.nn.Sequential(*[torch.nn.Linear(width, width) for _ in range(layers)])
    with torch.no_grad():
        # Default init shrinks activations by sqrt(3) per layer; undo it so the output of a deep
        # stack stays far from zero and the comparison with eager means something.
        for layer in stack:
            layer.weight.mul_(math.sqrt(3.0))
    return stack.eval()


def phase_aot(work: Path, layers: int, width: int) -> dict:
    import torch

    from executorch_ascend import AscendCompileSpec, use_emulator
    from executorch_ascend.export import lower, save

    use_emulator()
    model = _model(layers, width)
    x = torch.randn(1, width, generator=torch.Generator().manual_seed(INPUT_SEED))
    with torch.no_grad():
        expected = model(x)
    np.save(work / "input.npy", x.numpy())
    np.save(work / "expected.npy", expected.numpy())
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())

    start = time.perf_counter()
    lowering = lower(model, (x,), AscendCompileSpec(external_tag="weights"))
    lowered = time.perf_counter()
    pte, ptds = save(lowering.program, work / "large.pte")
    saved = time.perf_counter()
    return {
        "weight_bytes": weight_bytes,
        "partitions": lowering.summary.partitions,
        "aot_lower_s": lowered - start,
        "aot_save_s": saved - lowered,
        "aot_peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "pte_bytes": pte.stat().st_size,
        "ptd_files": {p.name: p.stat().st_size for p in ptds},
    }


def phase_python(work: Path) -> dict:
    import torch
    from emulator_stats import EmulatorStats
    from executorch.runtime import Runtime

    from executorch_ascend import use_emulator

    use_emulator()
    x = torch.from_numpy(np.load(work / "input.npy"))
    expected = torch.from_numpy(np.load(work / "expected.npy"))
    runtime = Runtime.get()
    before = _rss_bytes("VmRSS")
    anon_before = _rss_bytes("RssAnon")
    start = time.perf_counter()
    program = runtime.load_program(work / "large.pte", data_path=work / "weights.ptd")
    method = program.load_method("forward")
    load_s = time.perf_counter() - start
    after_load = _rss_bytes("VmRSS")
    peak = _rss_bytes("VmHWM")
    device_bytes = EmulatorStats.of_this_process().live_device_bytes()
    (out,) = method.execute([x])
    return {
        "load_s": load_s,
        "rss_before": before,
        "rss_anon_before": anon_before,
        "rss_after_load": after_load,
        "peak_rss": peak,
        "device_bytes": device_bytes,
        "max_abs_error": float((out - expected).abs().max()),
        "max_abs_expected": float(expected.abs().max()),
    }


def phase_runner(work: Path) -> dict:
    from executorch_ascend import paths, use_emulator

    use_emulator()
    x = np.load(work / "input.npy")
    expected = np.load(work / "expected.npy")
    x.astype(np.float32).tofile(work / "input0.bin")
    out_dir = work / "outputs"
    out_dir.mkdir(exist_ok=True)
    cmd = [str(paths.runner()), "--model", str(work / "large.pte"), "--data",
           str(work / "weights.ptd"), "--inputs", str(work / "input0.bin"),
           "--output-dir", str(out_dir)]  # fmt: skip
    with open(work / "runner.log", "w") as log:
        child = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=os.environ)
        peaks = _watch(child)
        _, status, usage = os.wait4(child.pid, 0)
    text = (work / "runner.log").read_text()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"ascend_runner failed:\n{text}")
    load_ms = next(float(line.split()[1]) for line in text.splitlines() if line.startswith("load:"))
    out = np.fromfile(out_dir / "out0.bin", dtype=np.float32).reshape(expected.shape)
    return {
        "load_s": load_ms / 1000.0,
        "peak_rss": usage.ru_maxrss * 1024,
        "max_abs_error": float(np.abs(out - expected).max()),
        **peaks,
    }


def _run_phase(phase: str, work: Path, args: argparse.Namespace) -> dict:
    cmd = [sys.executable, __file__, "--phase", phase, "--work-dir", str(work),
           "--layers", str(args.layers), "--width", str(args.width)]  # fmt: skip
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        peaks = _watch(child)
        child.wait()
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            raise RuntimeError(f"phase {phase} failed:\n{err.read()[-4000:]}")
        result = json.loads(out.read().strip().splitlines()[-1])
    return {**peaks, **result}


def _gib(n: float) -> str:
    return f"{n / GIB:.3f} GiB"


def report(aot: dict, py: dict, runner: dict) -> str:
    w = aot["weight_bytes"]
    tol = 1e-3 * max(1.0, py["max_abs_expected"])
    rows = [
        "| measure | value |",
        "| --- | --- |",
        f"| weights (fp32) | {w} B ({_gib(w)}) |",
        f"| Ascend partitions | {aot['partitions']} |",
        f"| AOT: export + lower + atc | {aot['aot_lower_s']:.1f} s |",
        f"| AOT: write .pte/.ptd | {aot['aot_save_s']:.1f} s |",
        f"| AOT peak RSS | {_gib(aot['aot_peak_rss'])} ({aot['aot_peak_rss'] / w:.2f} x weights) |",
        f"| .pte | {aot['pte_bytes']} B |",
    ]
    for name, size in aot["ptd_files"].items():
        rows.append(f"| {name} | {size} B ({size / w:.4f} x weights) |")
    extra = py["peak_rss"] - py["rss_before"]
    rows += [
        f"| Python runtime: load_program + load_method | {py['load_s']:.2f} s |",
        f"| Python runtime: RSS before loading | {_gib(py['rss_before'])} |",
        f"| Python runtime: peak RSS | {_gib(py['peak_rss'])} (+{_gib(extra)}) |",
        f"| Python runtime: resident copies at peak | {extra / w:.3f} |",
        f"| Python runtime: RSS after load | {_gib(py['rss_after_load'])} |",
        f"| Python runtime: peak RssAnon (heap + emulated device) | "
        f"+{_gib(py['peak_rss_anon'] - py['rss_anon_before'])} "
        f"({(py['peak_rss_anon'] - py['rss_anon_before']) / w:.3f} x weights) |",
        f"| Python runtime: peak RssFile (mapped pages) | {_gib(py['peak_rss_file'])} |",
        f"| emulated device memory in use | {py['device_bytes']} B "
        f"({py['device_bytes'] / w:.4f} x weights) |",
        f"| ascend_runner: load | {runner['load_s']:.2f} s |",
        f"| ascend_runner: peak RSS | {_gib(runner['peak_rss'])} "
        f"({runner['peak_rss'] / w:.3f} x weights) |",
        f"| ascend_runner: peak RssAnon / RssFile | {_gib(runner['peak_rss_anon'])} "
        f"({runner['peak_rss_anon'] / w:.3f} x weights) / {_gib(runner['peak_rss_file'])} |",
        f"| max abs error vs eager (Python / runner; max abs output {py['max_abs_expected']:.3g}) "
        f"| {py['max_abs_error']:.3g} / {runner['max_abs_error']:.3g} (tolerance {tol:.3g}) |",
    ]  # fmt: skip
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=10)
    parser.add_argument("--width", type=int, default=8192)
    parser.add_argument("--work-dir", type=Path, default=None)
    parser.add_argument("--phase", choices=("aot", "python", "runner"), default=None)
    args = parser.parse_args()
    if args.phase is not None:
        phase = {"aot": phase_aot, "python": phase_python, "runner": phase_runner}[args.phase]
        extra = (args.layers, args.width) if args.phase == "aot" else ()
        print(json.dumps(phase(args.work_dir, *extra)))
        return 0

    with tempfile.TemporaryDirectory(prefix="ascend_large_", dir=args.work_dir) as tmp:
        work = Path(tmp)
        aot = _run_phase("aot", work, args)
        py = _run_phase("python", work, args)
        runner = _run_phase("runner", work, args)
    print(report(aot, py, runner))
    tol = 1e-3 * max(1.0, py["max_abs_expected"])
    if max(py["max_abs_error"], runner["max_abs_error"]) > tol:
        print("FAILED: outputs differ from eager beyond the tolerance", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
