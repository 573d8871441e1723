# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A real-size decoder the way a user runs one: a Hugging Face model directory (Qwen2.5 shapes,
random weights, tied embeddings) -> optimum-executorch's export with the `ascend` recipe, and with
optimum's own `xnnpack` recipe for comparison -> ExecuTorch's TextLLMRunner.

    python benchmarks/bench_llm.py [--size 0.5b|1.5b|tiny] [--dtype bf16|fp16|fp32]
                                   [--qlinear 8w|4w] [--backends ascend,xnnpack]
                                   [--prompt-tokens 64] [--tokens 32] [--prefill-chunk 8] [--phases]

Per backend, each phase in its own process so its peak RSS is its own: export (AOT seconds and
peak RSS, the .pte/.ptd bytes) and generation (TextLLMRunner: load seconds, peak RSS, prefill and
decode tokens/s from the runner's own stats). The weights' bytes are the model directory's
safetensors. --phases prints the export's peak RSS per step (aot_phases.py). Run on purpose only
(never from the tests): a 1.5b export takes minutes and gigabytes.

What the numbers mean: the emulator runs CPU kernels, so its tokens/s says nothing about an NPU;
the AOT time and RSS, the stored bytes and the host-side load are what a user meets on any
machine. docs/benchmarks.md has today's figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_build

dev_build.wire()  # $EXECUTORCH_ASCEND_DEV_BUILD's native parts, before executorch_ascend loads

# Qwen2.5's published shapes (config.json of Qwen/Qwen2.5-0.5B and -1.5B); "tiny" checks the
# script in seconds.
SIZES: dict[str, dict[str, object]] = {
    "0.5b": dict(hidden_size=896, intermediate_size=4864, num_hidden_layers=24,
                 num_attention_heads=14, num_key_value_heads=2),
    "1.5b": dict(hidden_size=1536, intermediate_size=8960, num_hidden_layers=28,
                 num_attention_heads=12, num_key_value_heads=2),
    "tiny": dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                 num_attention_heads=4, num_key_value_heads=2),
}  # fmt: skip
VOCAB = {"0.5b": 151936, "1.5b": 151936, "tiny": 2048}
DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}


def _make_model_dir(directory: Path, size: str, dtype: str) -> int:
    """Writes the model directory; returns its weight bytes."""
    import torch
    import transformers

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
    from hf_model_dirs import write_tokenizer

    directory.mkdir(parents=True, exist_ok=True)
    _padded_tokenizer(write_tokenizer(directory), VOCAB[size])
    config = transformers.Qwen2Config(
        vocab_size=VOCAB[size], tie_word_embeddings=True, max_position_embeddings=32768,
        bos_token_id=0, eos_token_id=1, **SIZES[size],
    )  # fmt: skip
    torch.manual_seed(0)
    with torch.device("meta"):
        model = transformers.Qwen2ForCausalLM(config)
    model = model.to_empty(device="cpu").to(getattr(torch, DTYPES[dtype]))
    model.tie_weights()  # to_empty gave the LM head its own storage
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.fill_(1.0)
            else:
                fan_in = p.shape[-1] if p.dim() > 1 and "embed" not in name else 1
                p.copy_(torch.randn(p.shape, generator=gen, dtype=torch.float32) * fan_in**-0.5)
    model.save_pretrained(directory)
    return sum(f.stat().st_size for f in directory.glob("*.safetensors"))


def _padded_tokenizer(path: Path, vocab: int) -> None:
    """Pads the small trained tokenizer to the model's vocabulary with unreachable entries, so
    every id a random model picks decodes (to a placeholder)."""
    data = json.loads(path.read_text())
    entries = data["model"]["vocab"]
    for i in range(len(entries) + len(data.get("added_tokens", [])), vocab):
        entries[f"tok{i}"] = i
    path.write_text(json.dumps(data))


def _export(
    model_dir: Path,
    out: Path,
    backend: str,
    dtype: str,
    cache: int,
    prefill_chunk: int = 8,
    qlinear: str | None = None,
) -> None:
    if backend == "ascend":
        import executorch_ascend

        executorch_ascend.use_emulator()
        import executorch_ascend.optimum
    from optimum.exporters.executorch import main_export

    recipe_kwargs = {"toolchain": "emulator", "prefill_chunk": prefill_chunk}
    kwargs: dict[str, object] = {"recipe_kwargs": recipe_kwargs} if backend == "ascend" else {}
    if qlinear is not None:
        kwargs["qlinear"] = qlinear  # optimum's torchao weight-only quantization of the linears
    main_export(str(model_dir), "text-generation", backend, str(out),
                dtype=DTYPES[dtype], max_seq_len=cache, **kwargs)  # fmt: skip


def _generate(model_dir: Path, out: Path, prompt_tokens: int, tokens: int) -> dict[str, float]:
    import executorch_ascend

    executorch_ascend.use_emulator()
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner

    ptds = sorted(out.glob("*.ptd"))
    start = time.perf_counter()
    runner = TextLLMRunner(
        str(out / "model.pte"), str(model_dir / "tokenizer.json"), str(ptds[0]) if ptds else None
    )
    stats: dict[str, float] = {}

    def on_stats(s: object) -> None:
        stats.update(json.loads(s.to_json_string()))  # type: ignore[attr-defined]

    prompt = " ".join(["the cat sat on the mat"] * prompt_tokens)[: prompt_tokens * 3]
    config = GenerationConfig(echo=False, max_new_tokens=tokens, temperature=0.0)
    runner.generate(prompt, config, token_callback=lambda s: None, stats_callback=on_stats)
    total = time.perf_counter() - start
    scale = stats.get("SCALING_FACTOR_UNITS_PER_SECOND", 1000.0)
    load = (stats["model_load_end_ms"] - stats["model_load_start_ms"]) / scale
    prefill = (stats["prompt_eval_end_ms"] - stats["inference_start_ms"]) / scale
    decode = (stats["inference_end_ms"] - stats["prompt_eval_end_ms"]) / scale
    return {
        "load_s": load,
        "prompt_tokens": stats["prompt_tokens"],
        "prefill_tok_s": stats["prompt_tokens"] / max(prefill, 1e-9),
        "decode_tok_s": (stats["generated_tokens"] - 1) / max(decode, 1e-9),
        "total_s": total,
    }


def _export_phases(args: argparse.Namespace) -> str:
    """The export with its RSS per step (aot_phases.py); returns the table."""
    from aot_phases import PhaseRss

    weights = sum(f.stat().st_size for f in args.model_dir.glob("*.safetensors"))
    with PhaseRss("outside the steps below: imports, loading the model, the recipe") as rss:
        from executorch.backends.xnnpack.xnnpack_preprocess import XnnpackBackend
        from executorch.exir.program import _program
        from optimum.exporters.executorch.integrations import CausalLMExportableModule

        import executorch_ascend.backend as ascend_backend
        import executorch_ascend.toolchain.atc as atc

        rss.wrap(CausalLMExportableModule, "export", "torch.export")
        rss.wrap(_program, "_gen_edge_manager_for_partitioners", "to_edge")
        rss.wrap(_program.EdgeProgramManager, "to_backend", "partitioner, ExecuTorch's steps")
        rss.wrap(ascend_backend.AscendBackend, "preprocess", "preprocess: checks, packaging")
        rss.wrap(XnnpackBackend, "preprocess", "preprocess (XNNPACK)")
        rss.wrap(ascend_backend, "lower_partition", "preprocess: lowering to ONNX")
        rss.wrap(ascend_backend, "compile_onnx", "preprocess: writing the ONNX files")
        rss.wrap(atc, "_run_atc", "preprocess: atc (a child process)")
        rss.wrap(_program.EdgeProgramManager, "to_executorch", "to_executorch")
        rss.wrap(_program.ExecutorchProgramManager, "write_to_file", "writing the .pte")
        rss.wrap(_program.ExecutorchProgramManager, "write_tensor_data_to_file", "writing the .ptd")
        _export(args.model_dir, args.out, args.backend, args.dtype, args.cache,
                args.prefill_chunk, args.qlinear)  # fmt: skip
    return rss.table(weights)


def _child(args: argparse.Namespace) -> None:
    """One phase in this process; prints its result as JSON with the process's peak RSS."""
    start = time.perf_counter()
    if args.phase == "export":
        if args.phases:
            print(_export_phases(args), file=sys.stderr)
        else:
            _export(args.model_dir, args.out, args.backend, args.dtype, args.cache,
                    args.prefill_chunk, args.qlinear)  # fmt: skip
        result: dict[str, float] = {"aot_s": time.perf_counter() - start}
    else:
        result = _generate(args.model_dir, args.out, args.prompt_tokens, args.tokens)
    # This process's own peak (VmHWM): not ru_maxrss, which Linux carries over exec from the
    # forked copy of the parent (here the peak of making the model's random weights). atc's
    # (a child) is not in it (docs/benchmarks.md has atc's).
    with open("/proc/self/status") as status:
        hwm = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    result["peak_rss_gib"] = hwm / 2**20
    print("RESULT " + json.dumps(result))


def _phase(args: argparse.Namespace, phase: str, backend: str, out: Path) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--phase", phase, "--backend", backend, "--out", str(out),
           "--model-dir", str(args.model_dir), "--dtype", args.dtype, "--cache", str(args.cache),
           "--prompt-tokens", str(args.prompt_tokens), "--tokens", str(args.tokens),
           "--prefill-chunk", str(args.prefill_chunk)]  # fmt: skip
    if args.phases:
        cmd.append("--phases")
    if args.qlinear:
        cmd += ["--qlinear", args.qlinear]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if args.phases and phase == "export":
        table = proc.stderr[proc.stderr.find("| phase |") :]
        print(f"{backend} export, RSS per step:\n{table}", flush=True)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"{backend} {phase} failed:\n{proc.stderr[-4000:]}")
    return json.loads(lines[-1][len("RESULT ") :])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--size", choices=SIZES, default="0.5b")
    p.add_argument("--dtype", choices=DTYPES, default="bf16")
    p.add_argument(
        "--qlinear",
        choices=("8w", "4w", "8da4w", "8da8w"),
        help="optimum's quantization of the linears (torchao: weight-only int8 per channel, int4 "
        "per group of 32; 8da: with int8 per-token activations); the rest stays --dtype",
    )
    p.add_argument("--backends", default="ascend,xnnpack")
    p.add_argument("--cache", type=int, default=256, help="KV cache positions")
    p.add_argument("--prompt-tokens", type=int, default=64)
    p.add_argument("--tokens", type=int, default=32)
    p.add_argument(
        "--prefill-chunk",
        type=int,
        default=8,
        help="the ascend recipe's prefill_chunk (gears 1..P; past 15 layers ACL's 128-dim limit "
        "makes the recipe fall back to 1, after lowering one gear)",
    )
    p.add_argument(
        "--phases",
        action="store_true",
        help="print the export's RSS per step (benchmarks/aot_phases.py; sampling costs little)",
    )
    p.add_argument("--phase", choices=("export", "generate"), help=argparse.SUPPRESS)
    p.add_argument("--backend", help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--model-dir", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.phase:
        _child(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        args.model_dir = Path(tmp) / "model"
        weights = _make_model_dir(args.model_dir, args.size, args.dtype)
        print(
            f"Qwen2.5-{args.size} shape, {args.dtype}, --qlinear {args.qlinear or 'none'}, "
            f"weights {weights / 2**30:.2f} GiB, "
            f"cache {args.cache}, prompt ~{args.prompt_tokens} tokens, {args.tokens} new"
        )
        print("| backend | AOT s | AOT peak RSS GiB (x weights) | .pte+.ptd GiB | load s | "
              "run peak RSS GiB | prefill tok/s | decode tok/s |")  # fmt: skip
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for backend in args.backends.split(","):
            out = Path(tmp) / backend
            aot = _phase(args, "export", backend, out)
            stored = sum(f.stat().st_size for f in out.iterdir() if f.suffix in (".pte", ".ptd"))
            run = _phase(args, "generate", backend, out)
            print(f"| {backend} | {aot['aot_s']:.1f} | {aot['peak_rss_gib']:.2f} "
                  f"({aot['peak_rss_gib'] * 2**30 / weights:.2f}x) | {stored / 2**30:.2f} | "
                  f"{run['load_s']:.2f} | {run['peak_rss_gib']:.2f} | {run['prefill_tok_s']:.1f} | "
                  f"{run['decode_tok_s']:.1f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
