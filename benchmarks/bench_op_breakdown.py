# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Where a model's time goes, by op type: the emulator's per-op times against ONNX Runtime's, on
the same ONNX (one thread each), to find the op behind an emulator/ORT ratio above 1.0.

    python benchmarks/bench_op_breakdown.py [--runs N] [--top K] [--models llama convnext ...]
                                            [--json PATH]

The models are bench_vs_ort.py's (its defaults and its optional survey models). Each is lowered
with AscendCompileSpec(toolchain="emulator", dump_dir=...) as bench_vs_ort.py does, and both the
emulator's and ONNX Runtime's outputs are checked against eager PyTorch first. Then:
- the emulator: the program runs `--runs` times under ETDump (Runtime.load_program(...,
  enable_etdump=True)); the delegate logs one event per .om op (docs/runtime.md "Profiling"),
  whose median over the runs is summed by op type (a fused op such as "Pad+Conv+Mul+Add" is its
  own type);
- ONNX Runtime: the dumped part.onnx with intra_op_num_threads=1 and its profiler
  (SessionOptions.enable_profiling), the median of each node's "*_kernel_time" events summed by
  op type (after ORT's own fusions, so its types are its fused kernels).
The table lists the `--top` op types of each side by time, in µs. Sums of per-op times leave out
what happens between ops (the ACL call, the Python binding), and the two profilers differ: read
the table for where the time goes, bench_vs_ort.py for the ratio. Run on purpose only.
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
# first: bench_vs_ort wires a dev build (dev_build.wire) before executorch_ascend loads
import bench_vs_ort
import onnxruntime as ort
from executorch.devtools import Inspector
from executorch.runtime import Runtime

from executorch_ascend import AscendCompileSpec, use_emulator
from executorch_ascend.export import lower, save


def _op_kind(name: str) -> str:
    """'aten_linear_default_4/MatMul' -> 'MatMul'; fused ops keep every part's type."""
    return "+".join(part.rsplit("/", 1)[-1].rstrip("_0123456789") for part in name.split("+"))


def _emulator_times(pte: Path, ptd: Path | None, inputs: tuple, runs: int, work: Path):
    program = Runtime.get().load_program(
        pte, data_path=str(ptd) if ptd else None, enable_etdump=True
    )
    method = program.load_method("forward")
    out = None
    for _ in range(runs):
        out = method.execute(list(inputs))
    etdump = work / "run.etdp"
    program.write_etdump_result_to_file(str(etdump), str(work / "debug.bin"))
    samples: dict[str, list[float]] = collections.defaultdict(list)
    for block in Inspector(etdump_path=str(etdump)).event_blocks:
        for event in block.events:
            # ExecuTorch's own events (Method::execute, AscendBackend::execute, the whole
            # DELEGATE_CALL...) name no op
            if event.perf_data is None or "::" in event.name or event.name.isupper():
                continue
            samples[event.name].extend(event.perf_data.raw)
    by_kind: collections.Counter[str] = collections.Counter()
    for name, times in samples.items():
        by_kind[_op_kind(name)] += statistics.median(times) * 1000.0  # ms -> µs
    return by_kind, out


def _ort_times(onnx_path: Path, inputs: tuple, runs: int, work: Path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.enable_profiling = True
    options.profile_file_prefix = str(work / "ort_profile")
    session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
    feed = {i.name: t.numpy() for i, t in zip(session.get_inputs(), inputs, strict=True)}
    out = None
    for _ in range(runs):
        out = session.run(None, feed)
    events = json.loads(Path(session.end_profiling()).read_text())
    samples: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            samples[(e["name"], e["args"]["op_name"])].append(float(e["dur"]))  # µs
    by_kind: collections.Counter[str] = collections.Counter()
    for (_, op), times in samples.items():
        by_kind[op] += statistics.median(times)
    return by_kind, out


def _breakdown(spec: bench_vs_ort.Spec, runs: int, work: Path):
    model = spec.build()
    inputs = spec.make_inputs(torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = model(*inputs).to(torch.float32)
    dump = work / spec.name / "dump"
    shutil.rmtree(dump, ignore_errors=True)
    lowering = lower(
        model,
        inputs,
        AscendCompileSpec(toolchain="emulator", dump_dir=str(dump), external_tag="model"),
    )
    pte, ptds = save(lowering.program, work / spec.name / "model.pte")
    onnx_files = sorted(dump.glob("partition_*/part.onnx"))
    if lowering.summary.partitions != 1 or len(onnx_files) != 1:
        raise bench_vs_ort.BenchError(f"{spec.name}: not one partition: {lowering.summary}")
    emu, emu_out = _emulator_times(pte, ptds[0] if ptds else None, inputs, runs, work / spec.name)
    ort_by_kind, ort_out = _ort_times(onnx_files[0], inputs, runs, work / spec.name)
    bench_vs_ort._check(spec.name, "ascend", emu_out[0], expected)
    bench_vs_ort._check(spec.name, "ort", torch.from_numpy(ort_out[0]), expected)
    return emu, ort_by_kind


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    known = {m.name: m for m in bench_vs_ort.MODELS + bench_vs_ort.EXTRA_MODELS}
    parser.add_argument("--runs", type=int, default=30, help="profiled runs (default 30)")
    parser.add_argument("--top", type=int, default=6, help="op types listed per side (default 6)")
    parser.add_argument("--models", nargs="*", default=["llama", "convnext", "mobilenetv2"])
    parser.add_argument("--json", type=Path, help="write the figures as a flat JSON object")
    args = parser.parse_args(argv)
    unknown = [n for n in args.models if n not in known]
    if unknown or args.runs < 1 or args.top < 1:
        parser.error(f"--runs/--top >= 1; models among {list(known)} (unknown: {unknown})")
    use_emulator()
    torch.set_num_threads(1)
    figures: dict[str, float] = {}
    print("| model | emulator: op type µs (sum of per-op medians) | ORT: op type µs |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="ascend-op-breakdown-") as tmp:
        for name in args.models:
            print(f"profiling {name} ...", file=sys.stderr, flush=True)
            emu, ort_by_kind = _breakdown(known[name], args.runs, Path(tmp))
            cells = []
            for side, by_kind in (("emulator", emu), ("ort", ort_by_kind)):
                figures[f"{name}.{side}.total_us"] = round(sum(by_kind.values()), 1)
                for kind, us in by_kind.items():
                    figures[f"{name}.{side}.{kind}_us"] = round(us, 1)
                top = by_kind.most_common(args.top)
                cells.append(
                    f"total {sum(by_kind.values()):.0f}: "
                    + ", ".join(f"{k} {v:.0f}" for k, v in top)
                )
            print(f"| {name} | {cells[0]} | {cells[1]} |")
    figures["runs"] = args.runs
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
