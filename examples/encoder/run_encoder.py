# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""python examples/encoder/run_encoder.py: runs export_encoder.py's encoder.pte with ExecuTorch's
Python runtime on new token ids and a padded mask, and compares the hidden states with eager
PyTorch. Exits 1 on a mismatch.

    python examples/encoder/run_encoder.py --output-dir out/encoder
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/: parity helpers

import torch
from encoder_model import example_inputs, small_bert
from export_encoder import SEED
from parity import fp32_tolerance, max_abs_error

import executorch_ascend
from executorch_ascend.run import run_with_runtime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python examples/encoder/run_encoder.py", description=__doc__
    )
    parser.add_argument("--output-dir", type=Path, default=Path("out/encoder"))
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--cann", action="store_true", help="run on CANN, not the emulator")
    args = parser.parse_args(argv)
    if not args.cann:
        executorch_ascend.use_emulator()

    inputs = example_inputs(args.batch, args.seq, seed=2)  # not the export's example inputs
    with torch.no_grad():
        expected = [small_bert(seed=SEED)(**inputs)]
    actual = run_with_runtime(args.output_dir / "encoder.pte", list(inputs.values()))
    error, tolerance = max_abs_error(actual, expected), fp32_tolerance(expected)
    verdict = "OK" if error <= tolerance else "MISMATCH"
    shape = list(actual[0].shape)
    print(f"hidden states {shape}: max abs error {error:.3g} (tolerance {tolerance:.3g}) {verdict}")
    return 0 if error <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
