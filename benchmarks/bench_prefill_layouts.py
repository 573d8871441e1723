# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Prefill + decode in one program, two ways, on the CANN emulator: one method with shape gears
{1, P} (the KV cache device state of its one delegate), or two methods, `prefill` (S = P) and
`forward` (S = 1), sharing the cache through ExecuTorch (share_mutable_buffers).

    python benchmarks/bench_prefill_layouts.py [--model llama] [--prefill-len 4] [--repeats 3]

Both come from examples/llm/export_llm.py (--layout gears | two-methods) and run through the
same Python loop (examples/llm/generate.py): lowering time, .pte size, device memory the loads
take, prefill time of the prompt, decode tokens/s, host<->device bytes per decode token. Every
run's greedy tokens must equal eager's, else the benchmark fails instead of printing a number.
Run on purpose only (never from the tests); numbers in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "llm"))

from export_llm import LAYOUTS, export_llm
from generate import generate
from llm_model import MODELS, build_model, eager_greedy, kv_cache_bytes

import executorch_ascend

HEADER = [
    "layout",
    "AOT (s)",
    ".pte (B)",
    "device B at load (per method)",
    "prefill ms (median)",
    "decode tokens/s (median)",
    "host->device B/token",
    "device->host B/token",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/bench_prefill_layouts.py", description=__doc__
    )
    parser.add_argument("--model", choices=MODELS, default="llama")
    parser.add_argument("--max-cache-len", type=int, default=64)
    parser.add_argument("--prefill-len", type=int, default=4)
    parser.add_argument("--tokens", type=int, default=32, help="new tokens per run")
    parser.add_argument("--prompt", default="1,5,9,17,33,65,129,200")
    parser.add_argument("--repeats", type=int, default=3, help="generations per layout")
    parser.add_argument("--work-dir", type=Path, help="keep the .pte files here")
    args = parser.parse_args(argv)
    prompt = [int(t) for t in args.prompt.split(",")]
    executorch_ascend.use_emulator()  # before anything loads the backend
    torch.set_num_threads(1)  # the emulator executes on one thread

    work = args.work_dir or Path(tempfile.mkdtemp(prefix="bench_layouts_"))
    model = build_model(args.model, "fp32", args.max_cache_len)
    expected = eager_greedy(model, prompt, args.tokens, args.max_cache_len)
    rows = []
    for layout in LAYOUTS:
        pte = work / f"{args.model}_{layout}.pte"
        start = time.perf_counter()
        export_llm(
            args.model, "fp32", args.max_cache_len, args.prefill_len, pte, layout=layout
        )  # fmt: skip
        aot_s = time.perf_counter() - start
        runs = [generate(pte, prompt, args.tokens, args.prefill_len) for _ in range(args.repeats)]
        for run in runs:
            if run.tokens != expected:
                raise RuntimeError(f"{layout}: tokens {run.tokens} != eager {expected}")
        first = runs[0]  # later runs find the weights already in the weights cache
        loads = ", ".join(f"{m} {b}" for m, b in first.load_device_bytes.items())
        rows.append([
            layout,
            f"{aot_s:.1f}",
            str(pte.stat().st_size),
            loads,
            f"{1000 * statistics.median(r.prefill_s for r in runs):.2f}",
            f"{statistics.median(r.decode_tokens_per_s for r in runs):.1f}",
            f"{runs[-1].h2d_per_token:.0f}",
            f"{runs[-1].d2h_per_token:.0f}",
        ])  # fmt: skip

    load = os.getloadavg()[0]
    print()
    print(
        f"{args.model} fp32, cache {args.max_cache_len} positions (KV cache "
        f"{kv_cache_bytes(model, args.max_cache_len)} B), prompt {len(prompt)} tokens in chunks "
        f"of {args.prefill_len}, {args.tokens} new tokens, {args.repeats} runs per layout "
        f"(ExecuTorch's Python runtime); 1-min load average {load:.2f} ({os.cpu_count()} CPUs); "
        "greedy tokens equal eager's in every run"
    )
    print()
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
