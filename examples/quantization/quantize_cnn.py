# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Static int8 on Ascend: a ResNet quantized with AscendQuantizer (PT2E), calibrated on 16
inputs, lowered to CANN's int8 ops (AscendQuant -> int8 Conv/Gemm -> AscendDequant), run on the
emulator and compared with the quantized eager model and the float one.

    python examples/quantization/quantize_cnn.py [--model resnet|mobilenet_v2|bert] [--soc SOC]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))

from quant_models import MODELS, quantize_pt2e

import executorch_ascend
from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower_program, save
from executorch_ascend.run import run_with_runtime

# What the program may differ from convert_pt2e's model by, in steps of the output's range / 255,
# and the least cosine with the float model (docs/quantization.md, "Accuracy").
MAX_STEPS = 8.0
MIN_COSINE = 0.98


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=list(MODELS), default="resnet")
    parser.add_argument("--soc", default="Ascend310P3")
    parser.add_argument("--output", default="out/quantization/model_int8.pte")
    args = parser.parse_args(argv)
    # No NPU here: the CANN emulator's atc and ACL, emulating the chip compiled for.
    os.environ.setdefault("EXECUTORCH_ASCEND_EMU_SOC_NAME", args.soc)
    executorch_ascend.use_emulator()

    build, make_inputs = MODELS[args.model]
    model = build()
    quantized = quantize_pt2e(model, make_inputs(16, 1))
    (example,) = make_inputs(1, 2)
    spec = AscendCompileSpec(toolchain="emulator", soc_version=args.soc)
    lowering = lower_program(torch.export.export(quantized, example), spec)
    print(lowering.summary)
    pte, _ = save(lowering.program, Path(args.output))
    print(f"wrote {pte} ({pte.stat().st_size} bytes)")

    (got,) = run_with_runtime(pte, list(example))
    with torch.no_grad():
        want, ref = quantized(*example), model(*example)
    step = float(want.max() - want.min()) / 255
    cosine = torch.nn.functional.cosine_similarity(got.flatten(), ref.flatten(), dim=0)
    steps = float((got - want).abs().max()) / step
    print(f"vs quantized eager: max error {steps:.2f} steps of the output")
    print(f"vs the float model: cosine {float(cosine):.4f}")
    ok = steps <= MAX_STEPS and float(cosine) >= MIN_COSINE
    print(" OK" if ok else f" MISMATCH (allowed: {MAX_STEPS} steps, cosine {MIN_COSINE})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
