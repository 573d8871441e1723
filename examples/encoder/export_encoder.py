# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""python examples/encoder/export_encoder.py: a BERT encoder (input_ids + attention_mask, small
config, random weights) to encoder.pte with one Ascend partition.

    python examples/encoder/export_encoder.py --output-dir out/encoder

The same from the command line (docs/cli.md), run in examples/encoder/:

    executorch-ascend --emulator export encoder_model:small_bert \\
        --input input_ids:2,16:int64:128 --input attention_mask:2,16:int64:ones \\
        -o out/encoder/encoder.pte

run_encoder.py runs it and compares with eager PyTorch.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
from encoder_model import example_inputs, small_bert

import executorch_ascend
from executorch_ascend import AscendCompileSpec
from executorch_ascend.compile_spec import TOOLCHAINS
from executorch_ascend.export import lower_program, save

SEED = 0  # the weights: run_encoder.py rebuilds the same eager model from it


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python examples/encoder/export_encoder.py", description=__doc__
    )
    parser.add_argument("--output-dir", type=Path, default=Path("out/encoder"))
    parser.add_argument("--toolchain", choices=TOOLCHAINS, default="emulator")
    parser.add_argument("--soc", default="Ascend910B1", help="atc --soc_version")
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--seq", type=int, default=16)
    args = parser.parse_args(argv)
    if args.toolchain == "emulator":
        executorch_ascend.use_emulator()

    model = small_bert(seed=SEED)
    # By keyword: the method takes input_ids, then attention_mask.
    exported = torch.export.export(model, (), kwargs=example_inputs(args.batch, args.seq))
    spec = AscendCompileSpec(soc_version=args.soc, toolchain=args.toolchain)
    lowering = lower_program(exported, spec)
    pte, _ = save(lowering.program, args.output_dir / "encoder.pte")
    print(f"delegation: {lowering.summary}")
    print(f"wrote {pte}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
