# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""python examples/llm/export_llm.py: a small Llama/Qwen2 decoder (random weights) to a .pte that
tools/llm_runner/llm_runner generates with.

The program has one method, `forward(input_ids [1, S] int64, cache_position [S] int64) -> logits
[1, S, vocab]`, from transformers' static-cache export: the KV cache lives in the program as
mutable buffers, so the loop passes only tokens and positions. S is 1 (decode), or with
`--prefill-len P` (P > 1) also P, through Ascend shape gears (AscendCompileSpec.dynamic_dims);
without gears the prompt is fed one token per call through the decode shape.

`--layout two-methods` exports the other shape of program for comparison: a `prefill` method
(S = P, static) beside `forward` (S = 1), the KV cache shared between them by ExecuTorch
(share_mutable_buffers) and therefore left with ExecuTorch, not kept on the device
(docs/llm.md, "One method with gears or two methods").

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
    ExecutorchBackendConfig,
    ExecutorchProgramManager,
    to_edge_transform_and_lower,
)
from executorch.exir.lowered_backend_module import get_lowered_submodules
from executorch.exir.passes import MemoryPlanningPass
from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass
from llm_model import DTYPES, MODELS, build_model
from torch.export import ExportedProgram

import executorch_ascend
from executorch_ascend import AscendCompileSpec, AscendPartitioner
from executorch_ascend.compile_spec import TOOLCHAINS
from executorch_ascend.export import delegation_summary, save
from executorch_ascend.transforms import rewrite_moe

BACKENDS = ("ascend", "xnnpack")
LAYOUTS = ("gears", "two-methods")
log = logging.getLogger("export_llm")


def gears_supported() -> bool:
    """True when this executorch_ascend compiles shape gears (AscendCompileSpec.dynamic_dims)."""
    return "dynamic_dims" in {f.name for f in dataclasses.fields(AscendCompileSpec)}


def export_decoder(model: torch.nn.Module, prefill_len: int) -> ExportedProgram:
    """transformers' static-cache export; with prefill_len > 1 the sequence dim is a bounded
    torch.export.Dim in [1, prefill_len], so one method serves both prompt chunks and decode."""
    from transformers.integrations.executorch import convert_and_export_with_cache

    rewrite_moe(model)  # MoE routing without data-dependent ops (no-op for dense decoders)
    if prefill_len == 1:
        return convert_and_export_with_cache(model)  # example: one token at position 0
    seq = torch.export.Dim("seq", min=1, max=prefill_len)
    return convert_and_export_with_cache(
        model,
        example_input_ids=torch.ones(1, prefill_len, dtype=torch.long),
        example_cache_position=torch.arange(prefill_len),
        dynamic_shapes={"input_ids": {1: seq}, "cache_position": {0: seq}},
    )


def export_two_methods(model: torch.nn.Module, prefill_len: int) -> dict[str, ExportedProgram]:
    """`prefill` takes [1, prefill_len] tokens, `forward` one (decode): two static exports of
    the same model, whose cache buffers carry the same names, so ExecuTorch can share them."""
    from transformers.integrations.executorch import convert_and_export_with_cache

    rewrite_moe(model)
    return {
        "prefill": convert_and_export_with_cache(
            model,
            example_input_ids=torch.ones(1, prefill_len, dtype=torch.long),
            example_cache_position=torch.arange(prefill_len),
        ),
        "forward": convert_and_export_with_cache(model),
    }


def lower_decoder(
    exported: ExportedProgram | dict[str, ExportedProgram],
    backend: str,
    metadata: dict[str, object],
    toolchain: str = "emulator",
    prefill_len: int = 1,
) -> tuple[ExecutorchProgramManager, str]:
    """One program from `exported`: one method, or (a dict) the two methods of the two-methods
    layout, whose mutable buffers ExecuTorch then shares between them."""
    two_methods = isinstance(exported, dict)
    if backend == "ascend":
        spec_args: dict[str, object] = {"toolchain": toolchain}
        if prefill_len > 1 and not two_methods:
            # Two gears of the one symbolic dim: the decode step and a full prompt chunk.
            spec_args["dynamic_dims"] = ((1,), (prefill_len,))
        # A delegate's device state belongs to its method: a cache two methods share stays
        # with ExecuTorch.
        partitioner = AscendPartitioner(
            AscendCompileSpec(**spec_args), take_over_mutable_buffer=not two_methods
        )
    else:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner

        partitioner = XnnpackPartitioner()
    edge = to_edge_transform_and_lower(
        exported, partitioner=[partitioner], constant_methods=metadata
    )
    summary = _summary(edge)  # before to_executorch, which rewrites the graph
    config = ExecutorchBackendConfig(
        memory_planning_pass=MemoryPlanningPass(share_mutable_buffers=two_methods),
        emit_mutable_buffer_names=two_methods,
        # A buffer ExecuTorch keeps starts "meaningless" unless marked: the per-layer fill
        # counters must start at 0 (the cache itself is masked past the filled positions).
        passes=[InitializedMutableBufferPass(["cumulative_length"])] if two_methods else [],
    )
    return edge.to_executorch(config), summary


def _summary(edge: EdgeProgramManager) -> str:
    """Delegate calls per backend and the compute ops left on the CPU, per method."""
    methods = sorted(edge.methods)
    lines = []
    for method in methods:
        program = edge.exported_program(method)
        lowered = get_lowered_submodules(program.graph_module)
        calls = collections.Counter(m.backend_id for _, m, _ in lowered)
        cpu = delegation_summary(program).cpu_ops
        parts = [f"{n} {backend} call(s)" for backend, n in sorted(calls.items())]
        line = ", ".join([*parts, f"{len(cpu)} compute op(s) on the CPU"])
        lines.append(line if len(methods) == 1 else f"{method}: {line}")
    return "; ".join(lines)


def export_llm(
    model_name: str = "llama",
    dtype: str = "fp32",
    max_cache_len: int = 64,
    prefill_len: int = 1,
    output: Path = Path("llm.pte"),
    backend: str = "ascend",
    toolchain: str = "emulator",
    layout: str = "gears",
) -> dict[str, object]:
    """Builds, exports, lowers and saves the decoder; returns the metadata stored in the .pte."""
    if not 1 <= prefill_len <= max_cache_len:
        raise ValueError(f"--prefill-len must be in [1, {max_cache_len}], got {prefill_len}")
    if layout not in LAYOUTS:
        raise ValueError(f"--layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    if layout == "two-methods" and prefill_len == 1:
        raise ValueError("--layout two-methods needs --prefill-len P > 1 (the prefill method's S)")
    if prefill_len > 1 and layout == "gears" and backend == "ascend" and not gears_supported():
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
        "enable_dynamic_shape": prefill_len > 1 and layout == "gears",
        "use_kv_cache": True,
    }
    start = time.perf_counter()
    exported = (
        export_two_methods(model, prefill_len)
        if layout == "two-methods"
        else export_decoder(model, prefill_len)
    )
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
    parser.add_argument(
        "--layout", choices=LAYOUTS, default="gears",
        help="gears: one method, S in {1, P}; two-methods: prefill (S = P) and forward (S = 1)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.backend == "ascend" and args.toolchain != "cann":
        executorch_ascend.use_emulator()  # no NPU here: compile with the emulator's atc
    export_llm(
        args.model, args.dtype, args.max_cache_len, args.prefill_len, args.output, args.backend,
        args.toolchain, args.layout,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
