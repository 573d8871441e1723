# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Quantized against float32 on the emulator: time per call, program and device weight bytes,
and agreement with the float32 model (docs/benchmarks.md, "Quantized models").

    python benchmarks/bench_quantized.py [--models resnet mobilenet_v2 bert llama]
                                         [--inputs 100] [--rounds 20] [--tokens 32]
                                         [--soc Ascend910B1] [--keep DIR]

Every program is compiled for --soc (default Ascend910B1, the emulator's default chip), and the
emulator plays that chip, with the chip's default precision mode (executorch-ascend's: Ascend910B1
must_keep_origin_dtype, the float models in float32; Ascend310P3 and Ascend310B1, the int8
inference chips, allow_fp32_to_fp16: their cube units have no float32, so the float models'
Conv/MatMul/Gemm compute in float16, as the chip does).

CNN / encoder rows: the float32 model and the AscendQuantizer int8 model (calibrated on 16
inputs), run through executorch.runtime; median ms per call over --rounds calls; agreement with
the float32 model on --inputs other inputs: top-1 (classifiers) and cosine (mean, min). "op µs":
the sum over the .om's ops of each op's fastest time in --rounds calls under ETDump, steadier than
the median on a loaded machine.

Decoder rows: transformers' Llama (--hidden wide, default 256; 2 layers, static cache), float32
and torchao weight-only int8 / int4 (groups of 32 and 128); median ms per decoded token; the
weight bytes of the .ptd and uploaded to the emulated device (aclEmuGetStats). At 256 the float
weights fit the CPU's caches; from about 2048 (a 1B-class decoder's width) every token reads
them from memory, as an NPU decoding does, and the weight bytes set the time.

The emulator runs CPU kernels: the times say how the emulator's int8 kernels compare with its
float ones, nothing about NPU speed. Run on purpose only (never from the tests).
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "examples" / "quantization"))
sys.path.insert(0, str(REPO / "tests" / "python"))
sys.path.insert(0, str(REPO / "benchmarks"))
import dev_build  # noqa: E402

dev_build.wire()  # EXECUTORCH_ASCEND_DEV_BUILD: before executorch_ascend loads

from quant_models import MODELS, quantize_pt2e  # noqa: E402

from executorch_ascend import AscendCompileSpec  # noqa: E402
from executorch_ascend.cann_op_facts import default_precision_mode  # noqa: E402
from executorch_ascend.export import lower_program, save  # noqa: E402
from executorch_ascend.toolchain import cann  # noqa: E402

DEFAULT_SOC = "Ascend910B1"


def _stats() -> dict[str, int]:
    from executorch_ascend_emulator.stats import read_stats

    return read_stats(os.environ["EXECUTORCH_ASCEND_ACL_LIB"])


def _load(pte: Path, ptd: Path | None = None):
    from executorch.runtime import Runtime

    before = _stats()["weight_bytes_loaded"]
    program = Runtime.get().load_program(pte, data_path=ptd)
    method = program.load_method("forward")
    return method, _stats()["weight_bytes_loaded"] - before


def _median_ms(fn, rounds: int) -> float:
    fn()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1e3)
    return statistics.median(samples)


def _op_us(pte: Path, inputs: list, rounds: int, work: Path) -> float:
    """The sum over the delegate's .om ops of each op's fastest time in `rounds` calls, from an
    ETDump (docs/runtime.md "Profiling"): what the emulator's kernels cost, without the time
    between ops, and steadier than a call's median on a loaded machine."""
    from executorch.devtools import Inspector
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte, enable_etdump=True)
    method = program.load_method("forward")
    for _ in range(rounds):
        method.execute(inputs)
    etdump = work / "ops.etdp"
    program.write_etdump_result_to_file(str(etdump), str(work / "ops.bin"))
    fastest: dict[str, float] = {}
    for block in Inspector(etdump_path=str(etdump)).event_blocks:
        for event in block.events:
            # The delegate's op events are named "<node>/<op type>"; ExecuTorch's own are not.
            if event.perf_data is not None and "/" in event.name:
                ms = min(event.perf_data.raw)
                fastest[event.name] = min(ms, fastest.get(event.name, ms))
    return sum(fastest.values()) * 1e3


def bench_model(name: str, inputs: int, rounds: int, soc: str, work: Path) -> list[list[str]]:
    build, make_inputs = MODELS[name]
    model = build()
    quantized = quantize_pt2e(model, make_inputs(16, 1))
    (example,) = make_inputs(1, 2)
    rows = []
    test = make_inputs(inputs, 7)
    with torch.no_grad():
        reference = [model(*x) for x in test]
    for label, program in (("fp32", model), ("int8 static", quantized)):
        lowering = lower_program(
            torch.export.export(program, example),
            AscendCompileSpec(toolchain="emulator", soc_version=soc),
        )
        pte, _ = save(lowering.program, work / f"{name}_{label.split()[0]}.pte")
        method, uploaded = _load(pte)
        ms = _median_ms(lambda m=method: m.execute(list(example)), rounds)
        op_us = _op_us(pte, list(example), rounds, work)
        outs = [method.execute(list(x))[0] for x in test]
        cos = [
            float(torch.nn.functional.cosine_similarity(o.flatten(), r.flatten(), dim=0))
            for o, r in zip(outs, reference, strict=True)
        ]
        top1 = (
            f"{sum(int(o.argmax() == r.argmax()) for o, r in zip(outs, reference, strict=True))}"
            f"/{len(test)}"
            if reference[0].dim() == 2
            else "n/a"
        )
        rows.append(
            [
                name,
                label,
                f"{ms:.2f}",
                f"{op_us:.0f}",
                f"{pte.stat().st_size / 1024:.0f}",
                f"{uploaded / 1024:.0f}",
                top1,
                f"{statistics.mean(cos):.4f} / {min(cos):.4f}",
            ]
        )
    return rows


def bench_decoder(tokens: int, soc: str, hidden: int, work: Path) -> list[list[str]]:
    from model_zoo import static_cache_decoder
    from test_quantized_decoder import MAX_CACHE_LEN, SHAPE, _quantize
    from transformers.integrations.executorch import convert_and_export_with_cache

    rows = []
    for label, dtype, group in (
        ("fp32", None, None),
        ("int8 weight-only", torch.int8, None),
        ("int4 weight-only g32", torch.int4, 32),
        ("int4 weight-only g128", torch.int4, 128),
    ):
        # --hidden: SHAPE's width scaled (heads of 64), the MLP twice as wide.
        shape = {
            **SHAPE,
            "hidden_size": hidden,
            "intermediate_size": 2 * hidden,
            "num_attention_heads": hidden // 64,
        }
        model = static_cache_decoder("LlamaConfig", max_cache_len=MAX_CACHE_LEN, **shape)
        if dtype is not None:
            _quantize(model, dtype, group)
        spec = AscendCompileSpec(toolchain="emulator", soc_version=soc, external_tag="w")
        try:
            lowering = lower_program(convert_and_export_with_cache(model), spec)
        except ValueError as refusal:  # preprocess: what CANN lacks on this chip
            print(f"llama {label} on {soc}: {str(refusal).split(';')[0]}")
            rows.append(
                [f"llama (h{hidden})", label, "refused (below)", "n/a", "", "", "n/a", "n/a"]
            )
            continue
        pte, (ptd,) = save(lowering.program, work / f"llama_{len(rows)}.pte")
        method, uploaded = _load(pte, ptd)
        samples = []
        for position in range(tokens):
            ids, pos = torch.tensor([[1 + position]]), torch.tensor([position])
            start = time.perf_counter()
            method.execute([ids, pos])
            samples.append((time.perf_counter() - start) * 1e3)
        rows.append(
            [
                f"llama (h{hidden})",
                label,
                f"{statistics.median(samples[1:]):.2f}",
                "n/a",
                f"{ptd.stat().st_size / 1024:.0f}",
                f"{uploaded / 1024:.0f}",
                "n/a",
                "n/a",
            ]
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="*", default=[*MODELS, "llama"])
    parser.add_argument("--inputs", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--tokens", type=int, default=32)
    parser.add_argument(
        "--hidden", type=int, default=256, help="the decoder's width (a multiple of 128)"
    )
    parser.add_argument("--soc", default=DEFAULT_SOC, help="the chip compiled for and emulated")
    parser.add_argument(
        "--keep",
        type=Path,
        help="write the programs here and keep them (e.g. to time them with ascend_runner)",
    )
    args = parser.parse_args()
    # Read by the emulator's aclInit: before anything loads a program.
    os.environ["EXECUTORCH_ASCEND_EMU_SOC_NAME"] = args.soc
    cann.use_emulator()
    torch.set_num_threads(1)
    print(f"{args.soc}, precision mode {default_precision_mode(args.soc)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            work = args.keep
        for name in args.models:
            if name == "llama":
                rows += bench_decoder(args.tokens, args.soc, args.hidden, work)
            else:
                rows += bench_model(name, args.inputs, args.rounds, args.soc, work)
    head = [
        "model",
        "program",
        "ms / call (token)",
        "op µs / call",
        "stored KiB (.pte / .ptd)",
        "uploaded weight KiB",
        f"top-1 vs fp32 ({args.inputs})",
        "cosine vs fp32 (mean / min)",
    ]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
