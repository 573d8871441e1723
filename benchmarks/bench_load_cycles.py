# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Load/execute/unload cycles on the emulator: RSS and live ACL objects stay flat.

Each of the test programs (tests/programs/make_test_programs.py: an MLP with named-data weights,
the same with a .ptd, a CNN with inline weights, two delegates around a CPU op) is loaded,
executed once and dropped N times in this process through executorch.runtime (the C++ backend
behind the Python binding). Printed per program: RSS after the first 10 cycles (warm-up:
allocator pools, the backend's first ACL use) and after every quarter, the growth from the
warm-up mark, and the emulator's live objects and device bytes at the end (all must be 0).

    .venv/bin/python benchmarks/bench_load_cycles.py [--cycles 1000]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "programs"))
import make_test_programs  # noqa: E402
from executorch_ascend_emulator.stats import read_stats  # noqa: E402

import executorch_ascend  # noqa: E402

WARMUP = 10
LIVE = ("live_models", "live_descs", "live_datasets", "live_data_buffers", "live_device_allocs")


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def cycle(runtime, pte: Path, ptd: Path | None, inputs: list[torch.Tensor]) -> None:
    program = runtime.load_program(pte, data_path=ptd)
    outputs = program.load_method("forward").execute(inputs)
    assert outputs and all(torch.isfinite(o).all() for o in outputs)
    del outputs, program


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=1000)
    args = parser.parse_args()
    executorch_ascend.use_emulator()
    from executorch.runtime import Runtime

    runtime = Runtime.get()
    library = os.environ["EXECUTORCH_ASCEND_ACL_LIB"]  # set by use_emulator()
    work = Path(tempfile.mkdtemp(prefix="load-cycles-"))
    make_test_programs.main(str(work))
    manifest = (work / "programs.txt").read_text().splitlines()
    ptds = {line.split()[0]: line.split()[1] for line in manifest}
    marks = sorted({WARMUP, *(args.cycles * q // 4 for q in (1, 2, 3, 4))})
    print(f"\n{args.cycles} load/execute/unload cycles per program (executorch.runtime)")
    print(
        "| program | RSS (MiB) after cycle " + " | ".join(f"{m}" for m in marks) + " | growth "
        f"after {WARMUP} | live ACL objects, device bytes at the end |"
    )
    print("| --- " * (len(marks) + 3) + "|")
    for name, (_, shapes, _, _) in make_test_programs.PROGRAMS.items():
        pte, ptd = work / f"{name}.pte", (work / ptds[name]) if ptds[name] != "-" else None
        inputs = [
            torch.from_numpy(np.fromfile(work / f"{name}.input{i}.bin", dtype="<f4").reshape(s))
            for i, s in enumerate(shapes)
        ]
        rss = {}
        for i in range(1, args.cycles + 1):
            cycle(runtime, pte, ptd, inputs)
            if i in marks:
                gc.collect()
                rss[i] = rss_mib()
        stats = read_stats(library)
        live = sum(stats[k] for k in LIVE)
        cells = " | ".join(f"{rss[m]:.1f}" for m in marks)
        growth = rss[marks[-1]] - rss[WARMUP]
        print(f"| {name} | {cells} | {growth:+.1f} MiB | {live}, {stats['live_device_bytes']} |")


if __name__ == "__main__":
    main()
