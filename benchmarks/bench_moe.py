# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The two forms of executorch_ascend.transforms.moe, measured on the example's Qwen3-MoE
decoder (examples/llm, 2 experts per token) with 8 and 32 experts: lowering time, .pte size and
decode tokens/s from tools/llm_runner on the CANN emulator, greedy tokens checked against eager's.

    python benchmarks/bench_moe.py [--experts 8,32] [--tokens 48] [--repeats 5]

dense: every expert on every token (num_experts / top_k times the top-k experts' multiply-adds);
gathered: transformers' batched_mm, the top-k experts' weight matrices gathered per token and
slot. The emulator runs CPU reference kernels: the ratio of the two says what each form costs
in work, not NPU speed. Run on purpose only (never from the tests).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "llm"))

from export_llm import export_decoder, lower_decoder
from llm_model import build_model, eager_greedy
from run_llm import run_llm_runner

import executorch_ascend
from executorch_ascend.export import save
from executorch_ascend.transforms import rewrite_moe

PROMPT = [1, 5, 9, 17]
CACHE = 64


def measure(experts: int, form: str, tokens: int, repeats: int, workdir: Path) -> list[str]:
    model = build_model("qwen3_moe", "fp32", CACHE, overrides={"num_experts": experts})
    expected = eager_greedy(copy.deepcopy(model), PROMPT, tokens, CACHE)
    metadata = {
        "get_vocab_size": model.config.vocab_size,
        "get_max_context_len": CACHE,
        "get_max_seq_len": 1,
        "enable_dynamic_shape": False,
        "use_kv_cache": True,
    }
    start = time.perf_counter()
    rewrite_moe(model, form)
    program, summary = lower_decoder(export_decoder(model, 1), "ascend", metadata)
    pte, _ = save(program, workdir / f"moe_{experts}_{form}.pte")
    aot = time.perf_counter() - start
    speeds = []
    for _ in range(repeats):  # the median of several runs: a shared machine is noisy
        report = run_llm_runner(pte, PROMPT, tokens)
        if report.tokens != expected:
            raise SystemExit(f"{form}, {experts} experts: tokens differ from eager's")
        speeds.append(report.tokens_per_s)
    k = model.config.num_experts_per_tok
    macs = experts if form == "dense" else k
    speed = f"{statistics.median(speeds):.0f} ({min(speeds):.0f} to {max(speeds):.0f})"
    return [
        form,
        str(experts),
        f"{macs}/{k}",
        summary,
        f"{aot:.1f}",
        str(pte.stat().st_size),
        speed,
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--experts", default="8,32")
    parser.add_argument("--tokens", type=int, default=48)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    executorch_ascend.use_emulator()
    header = ["form", "experts", "expert MACs / top-k's", "delegation", "AOT (s)", ".pte (B)",
              "decode tokens/s, median (range)"]  # fmt: skip
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for experts in (int(e) for e in args.experts.split(",")):
            for form in ("dense", "gathered"):  # "auto" picks one of them
                print(
                    "| "
                    + " | ".join(measure(experts, form, args.tokens, args.repeats, Path(tmp)))
                    + " |"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
