# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Greedy generation from Python through ExecuTorch's runtime, for either program layout of
export_llm.py: one method (`forward`, prompt chunks of its prefill gear) or two (`prefill` for
chunks of P, `forward` for decode). The C++ llm_runner runs the first; this loop runs both, so
the layout benchmark (benchmarks/bench_prefill_layouts.py) and its test compare them through one
runtime. On the emulator it also reports the device memory each method's load took and the
host<->device bytes per decode token (aclEmuGetStats).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import torch


@dataclass(frozen=True)
class Generation:
    tokens: list[int]
    prefill_calls: int
    prefill_s: float
    decode_tokens_per_s: float
    load_device_bytes: dict[str, int]  # method -> device bytes its load allocated
    h2d_per_token: float | None  # decode calls only; None off the emulator
    d2h_per_token: float | None


def _stats() -> dict[str, int] | None:
    library = os.environ.get("EXECUTORCH_ASCEND_ACL_LIB")
    if not library:
        return None
    from executorch_ascend_emulator.stats import read_stats

    try:
        return read_stats(library)
    except RuntimeError:  # real CANN: no counters
        return None


def _bytes(key: str, before: dict[str, int] | None, after: dict[str, int] | None) -> int:
    return 0 if before is None or after is None else after[key] - before[key]


def generate(pte: Path, prompt: list[int], new_tokens: int, prefill_len: int) -> Generation:
    """`new_tokens` greedy tokens after `prompt`. Whole chunks of `prefill_len` go through
    `prefill` if the program has it, else through `forward` (its prefill gear); the rest of the
    prompt and every decode step go through `forward` one token per call."""
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(str(pte))
    names = set(program.method_names)
    load_bytes: dict[str, int] = {}

    def load(name: str):
        before = _stats()
        method = program.load_method(name)
        load_bytes[name] = _bytes("live_device_bytes", before, _stats())
        return method

    chunk_method = load("prefill") if "prefill" in names else None
    forward = load("forward")
    chunked = chunk_method or forward

    def call(method, ids: list[int], start: int) -> torch.Tensor:
        inputs = [torch.tensor([ids]), torch.arange(start, start + len(ids))]
        return method.execute(inputs)[0]

    start = time.perf_counter()
    logits, pos, calls = None, 0, 0
    while pos < len(prompt):
        n = prefill_len if prefill_len > 1 and len(prompt) - pos >= prefill_len else 1
        logits = call(chunked if n > 1 else forward, prompt[pos : pos + n], pos)
        pos, calls = pos + n, calls + 1
    prefill_s = time.perf_counter() - start
    assert logits is not None, "empty prompt"
    tokens = [int(logits[0, -1].float().argmax())]
    before = _stats()
    start = time.perf_counter()
    for step in range(new_tokens - 1):
        logits = call(forward, [tokens[-1]], len(prompt) + step)
        tokens.append(int(logits[0, -1].float().argmax()))
    decode_s = time.perf_counter() - start
    after = _stats()
    steps = max(new_tokens - 1, 1)

    def per_token(key: str) -> float | None:
        return None if before is None or after is None else _bytes(key, before, after) / steps

    return Generation(
        tokens=tokens,
        prefill_calls=calls,
        prefill_s=prefill_s,
        decode_tokens_per_s=(new_tokens - 1) / decode_s if decode_s > 0 else 0.0,
        load_device_bytes=load_bytes,
        h2d_per_token=per_token("bytes_host_to_device"),
        d2h_per_token=per_token("bytes_device_to_host"),
    )


def main(argv: list[str] | None = None) -> int:
    """python examples/llm/generate.py --pte out/llm/llama.pte --model llama: greedy tokens from
    the program through executorch.runtime, compared with eager transformers' greedy tokens for
    the same model (export_llm.py's seed and config); exits 1 when they differ."""
    import argparse
    import sys

    from llm_model import DTYPES, MODELS, build_model, eager_greedy

    import executorch_ascend

    parser = argparse.ArgumentParser(
        prog="python examples/llm/generate.py", description=main.__doc__
    )
    parser.add_argument("--pte", type=Path, required=True, help="export_llm.py's program")
    parser.add_argument("--model", choices=MODELS, default="llama", help="as exported")
    parser.add_argument("--dtype", choices=tuple(DTYPES), default="fp32", help="as exported")
    parser.add_argument("--max-cache-len", type=int, default=64, help="as exported")
    parser.add_argument("--prefill-len", type=int, default=1, help="as exported")
    parser.add_argument("--prompt", default="1,5,9,17,33", help="token ids")
    parser.add_argument("--tokens", type=int, default=16, help="new tokens")
    parser.add_argument("--cann", action="store_true", help="run on CANN, not the emulator")
    args = parser.parse_args(argv)
    if not args.cann:
        executorch_ascend.use_emulator()
    prompt = [int(t) for t in args.prompt.split(",")]

    run = generate(args.pte, prompt, args.tokens, args.prefill_len)
    model = build_model(args.model, args.dtype, args.max_cache_len)
    expected = eager_greedy(model, prompt, args.tokens, args.max_cache_len)
    same = run.tokens == expected
    print(f"tokens: {','.join(map(str, run.tokens))}")
    print(f"decode: {run.decode_tokens_per_s:.1f} tokens/s ({run.prefill_calls} prompt call(s))")
    print(f"eager transformers: {'the same tokens' if same else 'DIFFERENT: ' + str(expected)}")
    sys.stdout.flush()
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
