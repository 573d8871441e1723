# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""python examples/llm/export_llm.py: a small Llama/Qwen2 decoder (random weights) to a .pte that
tools/llm_runner/llm_runner generates with.

The program has one method, `forward(input_ids [1, S] int64, cache_position [S] int64) -> logits
[1, S, vocab]`, from transformers' static-cache export: the KV cache lives in the program as
mutable buffers, so the loop passes only tokens and positions. S is 1 (decode), or with
`--prefill-len P` (P > 1) also P, through Ascend shape gears (AscendCompileSpec.dynamic_dims);
without gears the prompt is fed one token per call through the decode shape.

What the loop needs is stored in the .pte as constant methods, named as ExecuTorch's own LLM
runner names them: get_vocab_size, get_max_context_len (the cache positions), get_max_seq_len (the
largest number of tokens per call: the prefill gear, 1 without), enable_dynamic_shape,
use_kv_cache.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import logging
import sys
import time
from pathlib import Path

import torch
from executorch.exir import (
    EdgeProgramManager,
    ExecutorchProgramManager,
    to_edge_transform_and_lower,
)
from executorch.exir.lowered_backend_module import get_lowered_submodules
from llm_model import DTYPES, MODELS, build_model
from torch.export import ExportedProgram

import executorch_ascend
from executorch_ascend import AscendCompileSpec, AscendPartitioner
from executorch_ascend.compile_spec import TOOLCHAINS
from executorch_ascend.export import delegation_summary, save

BACKENDS = ("ascend", "xnnpack")
log = logging.getLogger("export_llm")


def gears_supported() -> bool:
    """True when this executorch_ascend compiles shape gears (AscendCompileSpec.dynamic_dims)."""
    return "dynamic_dims" in {f.name for f in dataclasses.fields(AscendCompileSpec)}


def export_decoder(model: torch.nn.Module, prefill_len: int) -> ExportedProgram:
    """transformers' static-cache export; with prefill_len > 1 the sequence dim is a bounded
    torch.export.Dim in [1, prefill_len], so one method serves both prompt chunks and decode."""
    from transformers.integrations.executorch import convert_and_export_with_cache

    if prefill_len == 1:
        return convert_and_export_with_cache(model)  # example: one token at position 0
    seq = torch.export.Dim("seq", min=1, max=prefill_len)
    return convert_and_export_with_cache(
        model,
        example_input_ids=torch.ones(1, prefill_len, dtype=torch.long),
        example_cache_position=torch.arange(prefill_len),
        dynamic_shapes={"input_ids": {1: seq}, "cache_position": {0: seq}},
    )


def lower_decoder(
    exported: ExportedProgram,
    backend: str,
    metadata: dict[str, object],
    toolchain: str = "emulator",
    prefill_len: int = 1,
) -> tuple[ExecutorchProgramManager, str]:
    if backend == "ascend":
        spec_args: dict[str, object] = {"toolchain": toolchain}
        if prefill_len > 1:
            # Two gears of the one symbolic dim: the decode step and a full prompt chunk.
            spec_args["dynamic_dims"] = ((1,), (prefill_len,))
        partitioner = AscendPartitioner(AscendCompileSpec(**spec_args))
    else:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner

        partitioner = XnnpackPartitioner()
    edge = to_edge_transform_and_lower(
        exported, partitioner=[partitioner], constant_methods=metadata
    )
    summary = _summary(edge)  # before to_executorch, which rewrites the graph
    return edge.to_executorch(), summary


def _summary(edge: EdgeProgramManager) -> str:
    """Delegate calls per backend and the compute ops left on the CPU."""
    lowered = get_lowered_submodules(edge.exported_program().graph_module)
    calls = collections.Counter(m.backend_id for _, m, _ in lowered)
    cpu = delegation_summary(edge).cpu_ops
    parts = [f"{n} {backend} call(s)" for backend, n in sorted(calls.items())]
    return ", ".join([*parts, f"{len(cpu)} compute op(s) on the CPU"])


def export_llm(
    model_name: str = "llama",
    dtype: str = "fp32",
    max_cache_len: int = 64,
    prefill_len: int = 1,
    output: Path = Path("llm.pte"),
    backend: str = "ascend",
    toolchain: str = "emulator",
) -> dict[str, object]:
    """Builds, exports, lowers and saves the decoder; returns the metadata stored in the .pte."""
    if not 1 <= prefill_len <= max_cache_len:
        raise ValueError(f"--prefill-len must be in [1, {max_cache_len}], got {prefill_len}")
    if prefill_len > 1 and backend == "ascend" and not gears_supported():
        log.warning(
            "--prefill-len %d needs Ascend shape gears (AscendCompileSpec.dynamic_dims), which "
            "this executorch_ascend does not have: exporting the decode shape only; the prompt "
            "is fed one token per call",
            prefill_len,
        )
        prefill_len = 1
    model = build_model(model_name, dtype, max_cache_len)
    metadata: dict[str, object] = {
        "get_vocab_size": model.config.vocab_size,
        "get_max_context_len": max_cache_len,
        "get_max_seq_len": prefill_len,
        "enable_dynamic_shape": prefill_len > 1,
        "use_kv_cache": True,
    }
    start = time.perf_counter()
    exported = export_decoder(model, prefill_len)
    program, summary = lower_decoder(exported, backend, metadata, toolchain, prefill_len)
    pte, ptds = save(program, output)
    seconds = time.perf_counter() - start
    print(f"{model_name} {dtype} -> {pte} ({pte.stat().st_size} B) in {seconds:.1f} s")
    print(f"delegation: {summary}")
    print("metadata: " + ", ".join(f"{k}={v}" for k, v in metadata.items()))
    if ptds:
        print("data files: " + ", ".join(str(p) for p in ptds))
    return metadata


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python examples/llm/export_llm.py", description=__doc__)
    parser.add_argument("--model", choices=MODELS, default="llama")
    parser.add_argument("--dtype", choices=tuple(DTYPES), default="fp32")
    parser.add_argument("--max-cache-len", type=int, default=64, help="KV cache positions")
    parser.add_argument(
        "--prefill-len", type=int, default=1,
        help="tokens per prompt call (P > 1 needs Ascend shape gears; default 1: token by token)",
    )  # fmt: skip
    parser.add_argument("--output", type=Path, default=Path("llm.pte"))
    parser.add_argument("--backend", choices=BACKENDS, default="ascend")
    parser.add_argument("--toolchain", choices=TOOLCHAINS, default="emulator")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.backend == "ascend" and args.toolchain != "cann":
        executorch_ascend.use_emulator()  # no NPU here: compile with the emulator's atc
    export_llm(
        args.model, args.dtype, args.max_cache_len, args.prefill_len, args.output, args.backend,
        args.toolchain,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
