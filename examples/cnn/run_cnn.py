# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""python examples/cnn/run_cnn.py: runs export_cnn.py's model.pte (+ model.ptd) with ExecuTorch's
Python runtime (executorch.runtime, AscendBackend registered by `import executorch_ascend`) and
compares it with the eager model on the same image. Exits 1 on a mismatch.

    python examples/cnn/run_cnn.py --output-dir out/cnn
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/: the shared models

import torch
from example_models import small_resnet
from export_cnn import SEED, example_image
from parity import fp32_tolerance, max_abs_error

import executorch_ascend
from executorch_ascend.run import run_with_runtime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python examples/cnn/run_cnn.py", description=__doc__)
    parser.add_argument("--output-dir", type=Path, default=Path("out/cnn"))
    parser.add_argument("--image-size", type=int, default=64)
    parser.add_argument("--cann", action="store_true", help="run on CANN, not the emulator")
    args = parser.parse_args(argv)
    if not args.cann:
        executorch_ascend.use_emulator()

    image = example_image(args.image_size, seed=2)  # not the export's example input
    with torch.no_grad():
        expected = [small_resnet(seed=SEED)(image)]
    pte, ptd = args.output_dir / "model.pte", args.output_dir / "model.ptd"
    actual = run_with_runtime(pte, [image], ptd=ptd if ptd.is_file() else None)
    error, tolerance = max_abs_error(actual, expected), fp32_tolerance(expected)
    verdict = "OK" if error <= tolerance else "MISMATCH"
    shape = list(actual[0].shape)
    print(f"logits {shape}: max abs error {error:.3g} (tolerance {tolerance:.3g}) {verdict}")
    return 0 if error <= tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
