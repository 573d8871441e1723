# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Ahead-of-time time and peak memory against model size: AscendPartitioner vs XnnpackPartitioner.

    python benchmarks/bench_aot.py [--layers 1,8,32] [--width 1024] [--tokens 0]
        [--partitioners ascend,xnnpack] [--placements pte,ptd] [--json PATH] [--work-dir DIR]

The model is a transformer-like stack of `--layers` MLP blocks (x + Linear(4w, w)(relu(Linear(w,
4w)(x))), fp32), 32 MiB of weights per block at width 1024. Each (partitioner, placement, layers)
runs in its own process, which imports everything, builds the module, then lowers it:
torch.export -> to_edge_transform_and_lower(partitioner) -> to_executorch -> save the .pte (and the
.ptd). Placement "pte" keeps the weights in the .pte; "ptd" sends them to weights.ptd (Ascend:
AscendCompileSpec(external_tag); XNNPACK: delegate_external_constants_pass_unlifted, which
exports twice). The input is (4, width), or (1, tokens, width) with --tokens: a Linear on a 3-D
input is lowered to MatMul with its weight transposed at lowering time (a new array per weight,
docs/packaging.md), a 2-D one to Gemm reading the weight in place.

Memory: the lowering process's own peak (VmHWM, exact), and, sampled every 2 ms by this parent,
the peak of its children (atc; VmRSS summed over the descendants that exec'd another program) and
of the process tree (the process and those children together). getrusage's ru_maxrss cannot give
atc's peak: a child created by (v)fork inherits its parent's high-water mark before exec.
"Peak / weights" is the lowering process's peak RSS over the weight bytes; it counts the
module's own parameters (one copy, alive for the whole run) and the imported libraries (torch,
ExecuTorch: "RSS before", measured after building the module and before export). "Beyond
module" is (peak - RSS before) / weights: what the lowering itself adds.

Correctness first: each lowered program is loaded by ExecuTorch's Python runtime in another
process and its output compared with eager at the fp32 tolerance; a mismatch fails the run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

MIB = 1 << 20
SAMPLE_S = 0.002


# --- the lowering process ----------------------------------------------------------------------


def _status(field: str, pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0  # a zombie has no VmRSS line


def _model(layers: int, width: int):
    import torch

    class Block(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.up = torch.nn.Linear(width, 4 * width)
            self.down = torch.nn.Linear(4 * width, width)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x + self.down(torch.relu(self.up(x)))

    torch.manual_seed(0)
    return torch.nn.Sequential(*[Block() for _ in range(layers)]).eval()


def _exported(model, inputs: tuple, partitioner: str, placement: str):
    import torch

    if placement == "ptd" and partitioner == "xnnpack":
        from executorch.exir.passes.external_constants_pass import (
            delegate_external_constants_pass_unlifted,
        )

        unlifted = torch.export.export(model, inputs).module()
        delegate_external_constants_pass_unlifted(unlifted, gen_tag_fn=lambda _: "weights")
        return torch.export.export(unlifted, inputs)
    return torch.export.export(model, inputs)


def _partitioner(partitioner: str, placement: str):
    if partitioner == "xnnpack":
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner

        return XnnpackPartitioner()
    from executorch_ascend import AscendCompileSpec, AscendPartitioner

    tag = "weights" if placement == "ptd" else None
    return AscendPartitioner(AscendCompileSpec(toolchain="emulator", external_tag=tag))


def phase_lower(
    work: Path, partitioner: str, placement: str, layers: int, width: int, tokens: int
) -> dict:
    import torch
    from executorch.exir import to_edge_transform_and_lower

    import executorch_ascend
    from executorch_ascend.export import save

    executorch_ascend.use_emulator()
    model = _model(layers, width)
    shape = (1, tokens, width) if tokens > 0 else (4, width)
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = model(x)
    np.save(work / "input.npy", x.numpy())
    np.save(work / "expected.npy", expected.numpy())
    weights = sum(p.numel() * p.element_size() for p in model.parameters())
    rss_before = _status("VmRSS")

    start = time.perf_counter()
    exported = _exported(model, (x,), partitioner, placement)
    t_export = time.perf_counter()
    edge = to_edge_transform_and_lower(exported, partitioner=[_partitioner(partitioner, placement)])
    t_lower = time.perf_counter()
    program = edge.to_executorch()
    t_emit = time.perf_counter()
    pte, ptds = save(program, work / "model.pte")
    t_save = time.perf_counter()
    return {
        "weight_bytes": weights,
        "rss_before": rss_before,
        "peak_rss": _status("VmHWM"),
        "export_s": t_export - start,
        "lower_s": t_lower - t_export,
        "to_executorch_s": t_emit - t_lower,
        "save_s": t_save - t_emit,
        "total_s": t_save - start,
        "pte_bytes": pte.stat().st_size,
        "ptd_bytes": sum(p.stat().st_size for p in ptds),
    }


def phase_check(work: Path) -> dict:
    """Runs the saved program once in ExecuTorch's Python runtime; the max abs error vs eager."""
    import torch
    from executorch.runtime import Runtime

    import executorch_ascend

    executorch_ascend.use_emulator()  # loads the Ascend backend into the runtime
    x = torch.from_numpy(np.load(work / "input.npy"))
    expected = np.load(work / "expected.npy")
    ptd = work / "weights.ptd"
    program = Runtime.get().load_program(
        work / "model.pte", data_path=ptd if ptd.exists() else None
    )
    (out,) = program.load_method("forward").execute([x])
    return {
        "max_abs_error": float(np.abs(out.numpy() - expected).max()),
        "max_abs_expected": float(np.abs(expected).max()),
    }


# --- the parent: one process per measurement, its tree sampled ----------------------------------


def _tree(pid: int) -> list[int]:
    """`pid` and its descendants (through /proc/<pid>/task/<tid>/children)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                text = Path(f"/proc/{p}/task/{task}/children").read_text()
                todo.extend(int(c) for c in text.split())
        except OSError:
            continue
    return found


def _rss_of_tree(pid: int) -> tuple[int, int]:
    """VmRSS of `pid`, and the sum over its descendants that run another program (atc).

    A child between (v)fork and exec still runs Python in the parent's memory and would count
    the parent's pages twice: it is left out until it has exec'd.
    """
    try:
        own, exe = _status("VmRSS", pid), os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return 0, 0
    children = 0
    for p in _tree(pid)[1:]:
        try:
            if os.readlink(f"/proc/{p}/exe") != exe:
                children += _status("VmRSS", p)
        except OSError:
            pass  # exited meanwhile
    return own, children


def _run(args: list[str]) -> tuple[dict, dict]:
    """Runs this script with `args` in a child; its JSON result and the sampled peaks (children:
    its descendants, i.e. atc; tree: the child and its descendants together)."""
    cmd = [sys.executable, __file__, *args]
    peaks = {"children_peak_rss": 0, "tree_peak_rss": 0}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, text=True)
        while child.poll() is None:
            own, children = _rss_of_tree(child.pid)
            peaks["children_peak_rss"] = max(peaks["children_peak_rss"], children)
            peaks["tree_peak_rss"] = max(peaks["tree_peak_rss"], own + children)
            time.sleep(SAMPLE_S)
        out.seek(0)
        err.seek(0)
        if child.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed:\n{err.read()[-4000:]}")
        return json.loads(out.read().strip().splitlines()[-1]), peaks


def measure(
    work: Path, partitioner: str, placement: str, layers: int, width: int, tokens: int
) -> dict:
    folder = work / f"{partitioner}_{placement}_{layers}"
    folder.mkdir()
    lowered, peaks = _run(
        ["--phase", "lower", "--work-dir", str(folder), "--partitioners", partitioner,
         "--placements", placement, "--layers", str(layers), "--width", str(width),
         "--tokens", str(tokens)]
    )  # fmt: skip
    checked, _ = _run(["--phase", "check", "--work-dir", str(folder)])
    tolerance = 1e-4 * max(1.0, checked["max_abs_expected"])
    if checked["max_abs_error"] > tolerance:
        raise RuntimeError(
            f"{partitioner}/{placement}/{layers} layers: max abs error "
            f"{checked['max_abs_error']:.3g} > {tolerance:.3g}"
        )
    for f in folder.iterdir():
        f.unlink()  # the next runs need the disk
    folder.rmdir()
    return {"partitioner": partitioner, "placement": placement, "layers": layers,
            **peaks, **lowered, **checked}  # fmt: skip


def table(rows: list[dict]) -> str:
    lines = [
        "| partitioner | weights in | layers | weights | AOT time | RSS before | peak RSS | "
        "peak / weights | beyond module / weights | atc peak | process tree peak |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        w = r["weight_bytes"]
        atc = f"{r['children_peak_rss'] / MIB:.0f} MiB" if r["children_peak_rss"] else "-"
        lines.append(
            f"| {r['partitioner']} | .{r['placement']} | {r['layers']} | {w / MIB:.0f} MiB | "
            f"{r['total_s']:.1f} s | {r['rss_before'] / MIB:.0f} MiB | "
            f"{r['peak_rss'] / MIB:.0f} MiB | {r['peak_rss'] / w:.2f} | "
            f"{(r['peak_rss'] - r['rss_before']) / w:.2f} | {atc} | "
            f"{r['tree_peak_rss'] / MIB:.0f} MiB |"
        )
    return "\n".join(lines)


def flat(rows: list[dict]) -> dict:
    """One flat JSON object: <partitioner>_<placement>_<layers>L_<figure>."""
    figures = ("weight_bytes", "total_s", "export_s", "lower_s", "to_executorch_s",
               "save_s", "rss_before", "peak_rss", "children_peak_rss", "tree_peak_rss",
               "max_abs_error")  # fmt: skip
    out: dict[str, float | int] = {}
    for r in rows:
        prefix = f"{r['partitioner']}_{r['placement']}_{r['layers']}L"
        for f in figures:
            out[f"{prefix}_{f}"] = r[f]
        out[f"{prefix}_peak_over_weights"] = r["peak_rss"] / r["weight_bytes"]
        out[f"{prefix}_beyond_module_over_weights"] = (r["peak_rss"] - r["rss_before"]) / r[
            "weight_bytes"
        ]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default="1,8,32", help="comma-separated block counts")
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--tokens", type=int, default=0, help="a 3-D input (1, tokens, width)")
    parser.add_argument("--partitioners", default="ascend,xnnpack")
    parser.add_argument("--placements", default="pte,ptd")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--work-dir", type=Path, default=None)
    parser.add_argument("--phase", choices=("lower", "check"), default=None)
    args = parser.parse_args()
    if args.phase == "lower":
        result = phase_lower(
            args.work_dir,
            args.partitioners,
            args.placements,
            int(args.layers),
            args.width,
            args.tokens,
        )
        print(json.dumps(result))
        return 0
    if args.phase == "check":
        print(json.dumps(phase_check(args.work_dir)))
        return 0

    rows = []
    with tempfile.TemporaryDirectory(prefix="ascend_aot_", dir=args.work_dir) as tmp:
        for layers in (int(n) for n in args.layers.split(",")):
            for partitioner in args.partitioners.split(","):
                for placement in args.placements.split(","):
                    rows.append(
                        measure(Path(tmp), partitioner, placement, layers, args.width, args.tokens)
                    )
                    print(table(rows[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps(flat(rows), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
