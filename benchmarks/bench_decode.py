# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Decode speed and per-token host<->device traffic of the example decoder (examples/llm), through
the Ascend delegate on the CANN emulator and through ExecuTorch's XNNPACK delegate, in one run.

    python benchmarks/bench_decode.py [--model llama] [--dtype fp32] [--tokens 64] [--repeats 3]

Both programs come from the same model (examples/llm/export_llm.py, one with AscendPartitioner,
one with XnnpackPartitioner) and are run by the same C++ loop, tools/llm_runner, which times the
decode calls and reads the emulator's counters (aclEmuGetStats); XNNPACK has no device, so its
traffic is n/a. Eager PyTorch through the same static-cache wrapper is the reference row. Every
path's greedy tokens must equal eager's, else the run fails instead of printing a number.

The emulator runs CPU reference kernels: its tokens/s says nothing about NPU speed. What the
numbers are for: the delegate's per-token traffic (with the KV cache as device state, only the
token, its position and the logits cross) and regressions. Run on purpose only (never from the
tests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "llm"))

from export_llm import export_llm
from llm_model import DTYPES, MODELS, build_model, eager_greedy, kv_cache_bytes
from run_llm import Report, llm_runner_path, run_llm_runner

import executorch_ascend


class BenchError(RuntimeError):
    """A path's tokens differ from eager's, or its report is incomplete."""


@dataclass(frozen=True)
class Row:
    path: str
    tokens_per_s: list[float]  # one per repeat
    h2d: str
    d2h: str
    executes: str
    aot_s: float | None = None
    pte_bytes: int | None = None

    def cells(self) -> list[str]:
        median = statistics.median(self.tokens_per_s)
        return [
            self.path,
            f"{median:.1f}",
            f"{min(self.tokens_per_s):.1f} to {max(self.tokens_per_s):.1f}",
            f"{1000 / median:.3f}",
            self.h2d,
            self.d2h,
            self.executes,
            "-" if self.aot_s is None else f"{self.aot_s:.1f}",
            "-" if self.pte_bytes is None else str(self.pte_bytes),
        ]


HEADER = [
    "path",
    "decode tokens/s (median)",
    "range",
    "ms/token",
    "host->device B/token",
    "device->host B/token",
    "aclmdlExecute/token",
    "AOT (s)",
    ".pte (B)",
]


def eager_row(model: torch.nn.Module, prompt: list[int], tokens: int, cache: int, repeats: int):
    """Eager decode tokens/s through the same static-cache wrapper, the prompt fed one token per
    call and the tokens-1 decode calls timed, as llm_runner does."""
    from transformers.integrations.executorch import TorchExportableModuleWithStaticCache

    rates = []
    for _ in range(repeats):
        module = TorchExportableModuleWithStaticCache(model, batch_size=1, max_cache_len=cache)
        with torch.no_grad():
            for pos, tok in enumerate(prompt):
                logits = module(input_ids=torch.tensor([[tok]]), cache_position=torch.tensor([pos]))
            start = time.perf_counter()
            for pos in range(len(prompt), len(prompt) + tokens - 1):
                token = logits[:, -1:].argmax(-1)
                logits = module(input_ids=token, cache_position=torch.tensor([pos]))
            rates.append((tokens - 1) / (time.perf_counter() - start))
    return Row("eager PyTorch (static cache, 1 thread)", rates, "n/a", "n/a", "n/a")


def delegate_row(
    label: str, pte: Path, aot_s: float, prompt: list[int], tokens: int, expected: list[int],
    repeats: int,
) -> Row:  # fmt: skip
    reports: list[Report] = [run_llm_runner(pte, prompt, tokens) for _ in range(repeats)]
    for report in reports:
        if report.tokens != expected:
            raise BenchError(f"{label}: tokens {report.tokens} != eager {expected}")
    traffic = reports[-1].decode_traffic
    if traffic is None:
        h2d = d2h = execs = "n/a"  # no device: XNNPACK runs in host memory
    else:
        h2d, d2h, execs = (
            f"{traffic.host_to_device:.0f}",
            f"{traffic.device_to_host:.0f}",
            f"{traffic.executes:.2f}",
        )
    rates = [r.tokens_per_s for r in reports]
    return Row(label, rates, h2d, d2h, execs, aot_s, pte.stat().st_size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_decode.py", description=__doc__)
    parser.add_argument("--model", choices=MODELS, default="llama")
    parser.add_argument("--dtype", choices=tuple(DTYPES), default="fp32")
    parser.add_argument("--max-cache-len", type=int, default=128)
    parser.add_argument("--tokens", type=int, default=64, help="new tokens per run")
    parser.add_argument("--prompt", default="1,5,9,17,33,65,129,200")
    parser.add_argument("--repeats", type=int, default=3, help="llm_runner runs per path")
    parser.add_argument("--work-dir", type=Path, help="keep the .pte files here")
    args = parser.parse_args(argv)
    prompt = [int(t) for t in args.prompt.split(",")]
    executorch_ascend.use_emulator()  # before anything loads the backend
    torch.set_num_threads(1)  # the emulator executes on one thread

    work = args.work_dir or Path(tempfile.mkdtemp(prefix="bench_decode_"))
    model = build_model(args.model, args.dtype, args.max_cache_len)
    expected = eager_greedy(model, prompt, args.tokens, args.max_cache_len)
    rows = [eager_row(model, prompt, args.tokens, args.max_cache_len, args.repeats)]
    for backend, label in (
        ("ascend", "ExecuTorch + AscendBackend (CANN emulator)"),
        ("xnnpack", "ExecuTorch + XnnpackBackend"),
    ):
        pte = work / f"{args.model}_{args.dtype}_{backend}.pte"
        start = time.perf_counter()
        export_llm(args.model, args.dtype, args.max_cache_len, 1, pte, backend)
        aot_s = time.perf_counter() - start
        rows.append(delegate_row(label, pte, aot_s, prompt, args.tokens, expected, args.repeats))

    load = os.getloadavg()[0]
    print()
    print(
        f"{args.model} {args.dtype}, cache {args.max_cache_len} positions "
        f"(KV cache {kv_cache_bytes(model, args.max_cache_len)} B), prompt {len(prompt)} tokens "
        f"(one per call), {args.tokens} new tokens ({args.tokens - 1} decode calls), "
        f"{args.repeats} runs per path; llm_runner {llm_runner_path()}; "
        f"1-min load average {load:.2f} ({os.cpu_count()} CPUs); greedy tokens equal eager's on "
        "every path"
    )
    print()
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
