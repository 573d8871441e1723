# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The model zoo (tests/python/model_zoo.py) compiled for one chip with that chip's default
precision mode and run on the emulator configured as that chip (docs/model-zoo.md, "On the
inference chips").

    python scripts/zoo_on_chip.py --soc Ascend310P3                # every zoo model, fp32
    python scripts/zoo_on_chip.py --soc Ascend310P3 --models resnet,bert,llama

On Ascend310P3 and Ascend310B1 the default is allow_fp32_to_fp16: Conv, MatMul and Gemm (and
AveragePool, ArgMax/ArgMin) compute in float16, the rest in float32, as CANN does on chips without
float32 cube units. Prints one row per model: partitions, the max abs error against eager fp32
relative to the output's scale, and whether that is within the mode's tolerance (1e-2, as for the
zoo's fp16 runs); exits 1 if any model is not. Each partition's ONNX (the file atc got) is also
checked against CANN's facts (cann_op_facts.check_onnx) for Ascend910B1, Ascend310P3 and
Ascend310B1 under each chip's default mode; a finding fails the run too. The emulator reads its chip
(EXECUTORCH_ASCEND_EMU_SOC_NAME) once per process, so this script sets it before anything loads."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "python"), str(REPO / "examples")]

TOLERANCE = 1e-2  # of the output's scale (max |eager|, at least 1)
CHECKED_CHIPS = ("Ascend910B1", "Ascend310P3", "Ascend310B1")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default="Ascend310P3", help="the chip (Ascend310P3)")
    parser.add_argument("--models", default="", help="comma-separated zoo names (default: all)")
    args = parser.parse_args(argv)
    os.environ["EXECUTORCH_ASCEND_EMU_SOC_NAME"] = args.soc

    import onnx
    import torch
    from ascend_helpers import eager
    from model_zoo import ZOO

    import executorch_ascend
    from executorch_ascend import AscendCompileSpec
    from executorch_ascend.cann_op_facts import check_onnx, default_precision_mode
    from executorch_ascend.export import lower_program
    from executorch_ascend.run import run_with_runtime

    executorch_ascend.use_emulator()
    dumps = Path(tempfile.mkdtemp(prefix="zoo-on-chip-"))
    spec = AscendCompileSpec(soc_version=args.soc, toolchain="emulator", dump_dir=str(dumps))
    wanted = {m for m in args.models.split(",") if m}
    models = [m for m in ZOO if not wanted or m.name in wanted]
    if wanted - {m.name for m in models}:
        print(f"unknown zoo models: {sorted(wanted - {m.name for m in models})}", file=sys.stderr)
        return 2
    print(f"{args.soc}, precision_mode={spec.precision_mode}, {len(models)} model(s)")
    print("| model | partitions | max abs error / scale | within 1e-2 |")
    print("| --- | ---: | ---: | --- |")
    failed = []
    for model in models:
        start = time.perf_counter()
        module, inputs = model.build(), model.inputs(model.seqs[0])
        expected = eager(module, inputs)
        lowering = lower_program(torch.export.export(module, inputs), spec)
        outputs = run_with_runtime(lowering.program.buffer, inputs)
        scale = max(1.0, *(float(e.abs().max()) for e in expected))
        error = max(
            float((o.float() - e.float()).abs().max())
            for o, e in zip(outputs, expected, strict=True)
        )
        ok = error / scale <= TOLERANCE
        parts = sorted(dumps.glob("*/part.onnx"))
        if len(parts) != lowering.summary.partitions:
            print(f"  {model.name}: {len(parts)} dumped graph(s) for {lowering.summary.partitions}")
            ok = False
        for part in parts:
            graph = onnx.load(str(part), load_external_data=False)
            for soc in CHECKED_CHIPS:
                for finding in check_onnx(graph, soc, default_precision_mode(soc)):
                    print(f"  {model.name} on {soc}: {finding}")
                    ok = False
            part.unlink()
        if not ok:
            failed.append(model.name)
        print(
            f"| {model.name} | {lowering.summary.partitions} | {error / scale:.1e} | "
            f"{'yes' if ok else 'NO'} |  ({time.perf_counter() - start:.1f} s)",
            flush=True,
        )
    shutil.rmtree(dumps, ignore_errors=True)
    if failed:
        print(f"beyond {TOLERANCE:g} of the output's scale, or refused by CANN's facts: {failed}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
