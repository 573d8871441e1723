# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend export-hf MODEL_DIR --task TASK -o OUT_DIR`: a Hugging Face model directory
through optimum-executorch's task export and the `ascend` recipe (executorch_ascend.optimum), as
`optimum-cli export executorch --recipe ascend` would if optimum-cli could find a recipe outside
its own package. Writes OUT_DIR/model.pte (and .ptd files) and prints the delegation per method."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any

from .inputs import CliError

TASKS = (
    "text-generation",
    "fill-mask",
    "image-classification",
    "text2text-generation",
    "automatic-speech-recognition",
)
DTYPES = ("float32", "float16", "bfloat16")


def add_export_hf_parser(sub: Any) -> None:
    from .export import add_atc_arguments, add_spec_arguments

    p = sub.add_parser(
        "export-hf",
        help="a Hugging Face model directory -> OUT_DIR/model.pte through optimum-executorch's "
        "task export and the ascend recipe",
    )
    p.add_argument("model_dir", help="a local model directory (config.json and the weights)")
    p.add_argument("--task", required=True, choices=TASKS)
    p.add_argument("-o", "--output-dir", required=True, help="where model.pte is written")
    p.add_argument("--dtype", choices=DTYPES, default="float32", help="the weights' dtype")
    p.add_argument(
        "--max-seq-len", type=int, help="a decoder's KV cache length (optimum's default: 2048)"
    )
    p.add_argument(
        "--prefill-chunk",
        type=int,
        help="a decoder's largest prompt chunk P: shape gears S = 1..P (default 8; 1: the decode "
        "shape only, the prompt fed one token per call)",
    )
    p.add_argument(
        "--encoder-lengths",
        type=int,
        help="a seq2seq (T5) encoder's longest input N: shape gears 1..N (default 16; T5's "
        "encoder takes no attention mask, so a prompt runs at its own length)",
    )
    p.add_argument(
        "--qlinear",
        choices=("8w", "4w", "8da4w", "8da8w"),
        help="optimum's quantization of the linears (torchao: weight-only int8 per channel or "
        "int4 per group of 32, 8da also int8 per-token activations): NPUWeightQuantBatchMatmulV2 "
        "on Ascend (docs/quantization.md)",
    )
    p.add_argument(
        "--ptd", metavar="TAG", help="put the .om and weight files into TAG.ptd beside model.pte"
    )
    add_spec_arguments(p)
    add_atc_arguments(p)
    p.set_defaults(fn=run_export_hf)


def run_export_hf(args: argparse.Namespace) -> int:
    from .export import compile_spec_from_args

    model_dir = Path(args.model_dir)
    if not (model_dir / "config.json").is_file():
        raise CliError(f"{model_dir} is not a model directory (no config.json)")
    spec = compile_spec_from_args(args, external_tag=args.ptd)
    try:
        from optimum.exporters.executorch import main_export

        import executorch_ascend.optimum  # noqa: F401  (registers the recipe)
    except ImportError as e:
        raise CliError(
            f"optimum-executorch is not installed ({e}); docs/llm.md says how to install it"
        ) from None
    recipe_kwargs: dict[str, Any] = {
        f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)
    }
    if args.prefill_chunk is not None:
        recipe_kwargs["prefill_chunk"] = args.prefill_chunk
    if args.encoder_lengths is not None:
        recipe_kwargs["encoder_lengths"] = args.encoder_lengths
    task_kwargs: dict[str, Any] = {"dtype": args.dtype}
    if args.max_seq_len is not None:
        task_kwargs["max_seq_len"] = args.max_seq_len
    if args.qlinear is not None:
        task_kwargs["qlinear"] = args.qlinear
    out = Path(args.output_dir)
    programs = main_export(
        str(model_dir),
        args.task,
        "ascend",
        str(out),
        local_files_only=True,
        recipe_kwargs=recipe_kwargs,
        **task_kwargs,
    )
    for stem in programs:
        print(f"wrote {out / (stem + '.pte')}")
    for ptd in sorted(out.glob("*.ptd")):
        print(f"wrote {ptd}")
    return 0
