# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""python examples/cnn/export_cnn.py: a transformers ResNet (small config, random weights) to
model.pte + model.ptd with one Ascend partition, as ExecuTorch's examples/xnnpack/aot_compiler.py
does for XNNPACK.

    python examples/cnn/export_cnn.py --output-dir out/cnn          # on the CANN emulator
    python examples/cnn/export_cnn.py --output-dir out/cnn --toolchain cann --soc Ascend310P3

The same export from the command line (docs/cli.md), run in examples/:

    executorch-ascend --emulator export example_models:small_resnet \\
        --input pixel_values:1,3,64,64:float32 -o out/cnn/model.pte --ptd model

run_cnn.py runs the program and compares it with eager PyTorch.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # examples/: the shared models

from example_models import small_resnet

import executorch_ascend
from executorch_ascend import AscendCompileSpec
from executorch_ascend.compile_spec import TOOLCHAINS
from executorch_ascend.export import lower, save

SEED = 0  # the weights: run_cnn.py rebuilds the same eager model from it


def example_image(image_size: int, seed: int = 1):  # -> torch.Tensor
    import torch

    return torch.randn(1, 3, image_size, image_size, generator=torch.Generator().manual_seed(seed))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python examples/cnn/export_cnn.py", description=__doc__)
    parser.add_argument("--output-dir", type=Path, default=Path("out/cnn"))
    parser.add_argument("--toolchain", choices=TOOLCHAINS, default="emulator")
    parser.add_argument("--soc", default="Ascend910B1", help="atc --soc_version")
    parser.add_argument("--image-size", type=int, default=64)
    args = parser.parse_args(argv)
    if args.toolchain == "emulator":
        executorch_ascend.use_emulator()  # no NPU here: the CANN emulator's atc and ACL

    model = small_resnet(seed=SEED)
    spec = AscendCompileSpec(
        soc_version=args.soc, toolchain=args.toolchain, external_tag="model"
    )  # the .om and its weights go to model.ptd
    lowering = lower(model, (example_image(args.image_size),), spec)
    pte, ptds = save(lowering.program, args.output_dir / "model.pte")
    print(f"delegation: {lowering.summary}")
    print(f"wrote {pte}" + "".join(f" and {p}" for p in ptds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
