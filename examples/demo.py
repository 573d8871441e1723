# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""python examples/demo.py: a transformers ResNet lowered to Ascend, run on the CANN emulator.

Builds ResNetForImageClassification from a small ResNetConfig (random weights, nothing
downloaded), exports it, lowers it with the emulator's atc, saves model.pte + model.ptd (the .om
goes to the .ptd), runs it with the C++ ascend_runner and with executorch.runtime, and compares
both with eager PyTorch. Exits non-zero on a mismatch.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
from pathlib import Path

import torch
from example_models import small_resnet
from parity import fp32_tolerance, max_abs_error

import executorch_ascend
from executorch_ascend import paths
from executorch_ascend.compile_spec import TOOLCHAINS, AscendCompileSpec
from executorch_ascend.export import lower, save
from executorch_ascend.run import run_with_runner, run_with_runtime


def _runner_latency(pte: Path, ptd: Path | None, iterations: int = 20) -> str:
    """ascend_runner's own load and latency report (emulator speed: CPU reference kernels)."""
    cmd = [str(paths.runner()), "--model", str(pte), "--iterations", str(iterations)]
    cmd += ["--data", str(ptd)] if ptd else []
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith(("load:", "latency"))]
    return "; ".join(lines) if done.returncode == 0 else f"latency run failed ({done.returncode})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python examples/demo.py", description=__doc__)
    parser.add_argument("--output-dir", type=Path, default=Path("ascend_demo"))
    parser.add_argument("--toolchain", choices=TOOLCHAINS, default="emulator")
    parser.add_argument("--image-size", type=int, default=64)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.toolchain != "cann":
        executorch_ascend.use_emulator()  # this machine has no NPU: run on the CANN emulator

    model = small_resnet()
    image = torch.randn(
        1, 3, args.image_size, args.image_size, generator=torch.Generator().manual_seed(1)
    )
    with torch.no_grad():
        expected = [model(image)]

    spec = AscendCompileSpec(toolchain=args.toolchain, external_tag="model")
    lowering = lower(model, (image,), spec)
    pte, ptds = save(lowering.program, args.output_dir / "model.pte")
    ptd = ptds[0] if ptds else None
    tolerance = fp32_tolerance(expected)
    print(f"delegation: {lowering.summary}")
    print(f"wrote {pte}" + (f" and {ptd}" if ptd else ""))
    print(f"tolerance (fp32): max abs error <= {tolerance:.3g}")

    ok = True
    runner_out = run_with_runner(pte, [image], expected, args.output_dir / "runner", ptd=ptd)
    err = max_abs_error(runner_out, expected)
    ok &= err <= tolerance
    print(f"ascend_runner:     max abs error {err:.3g}  {'OK' if err <= tolerance else 'MISMATCH'}")
    print(f"ascend_runner:     {_runner_latency(pte, ptd)}")

    runtime_out = run_with_runtime(pte, [image], ptd=ptd)
    err = max_abs_error(runtime_out, expected)
    ok &= err <= tolerance
    print(
        f"executorch.runtime: max abs error {err:.3g}  {'OK' if err <= tolerance else 'MISMATCH'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
