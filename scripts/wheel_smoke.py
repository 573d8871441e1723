# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The installed wheels end to end, for scripts/check_wheel.sh (which copies this file out of the
repository and runs it in a fresh venv, from a temporary folder, so nothing can come from src/).

    python wheel_smoke.py lower WORK      lower a small CNN with the emulator's atc into
                                          WORK/model.pte + WORK/model.ptd, run it with
                                          executorch.runtime and with ascend_runner from PATH,
                                          compare both with eager PyTorch; writes
                                          WORK/input0.bin and WORK/expected0.bin
    python wheel_smoke.py compare OUT EXPECTED   compare a raw float32 output with eager's
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

# Max abs error allowed, relative to the output's scale: float32 end to end, the emulator's
# kernels sum in another order than PyTorch's.
TOLERANCE = 1e-4


def check(name: str, got: np.ndarray, expected: np.ndarray) -> None:
    scale = max(1.0, float(np.abs(expected).max()))
    err = float(np.abs(got.reshape(expected.shape) - expected).max())
    ok = err <= TOLERANCE * scale
    print(f"[wheel_smoke] {name}: max abs error {err:.3g} (tolerance {TOLERANCE * scale:.3g})")
    if not ok:
        raise SystemExit(f"[wheel_smoke] {name} differs from eager PyTorch")


def lower(work: Path) -> None:
    import torch
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    import executorch_ascend
    from executorch_ascend import AscendCompileSpec, AscendPartitioner

    where = Path(executorch_ascend.__file__).resolve()
    print(f"[wheel_smoke] executorch_ascend from {where}")
    if not where.is_relative_to(Path(sys.prefix).resolve()):
        raise SystemExit("[wheel_smoke] executorch_ascend does not come from this venv")
    executorch_ascend.use_emulator()

    class SmallCnn(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.fc = torch.nn.Linear(8 * 8 * 8, 10)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = torch.nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
            return torch.softmax(self.fc(y.flatten(1)), dim=-1)

    torch.manual_seed(0)
    model = SmallCnn().eval()
    x = torch.randn(1, 3, 16, 16)
    expected = model(x).detach().numpy()

    lowered = to_edge_transform_and_lower(
        torch.export.export(model, (x,)),
        partitioner=[AscendPartitioner(AscendCompileSpec(external_tag="model"))],
    )
    program = lowered.to_executorch()
    pte, ptd = work / "model.pte", work / "model.ptd"
    program.save(str(pte))
    program.write_tensor_data_to_file(str(work))
    if not ptd.is_file():
        raise SystemExit(f"[wheel_smoke] lowering wrote no {ptd}")
    delegates = program.buffer.count(b"AscendBackend")
    print(f"[wheel_smoke] lowered: {pte.stat().st_size} B .pte, {ptd.stat().st_size} B .ptd")
    if delegates == 0:
        raise SystemExit("[wheel_smoke] the program has no AscendBackend delegate")

    method = Runtime.get().load_program(pte, data_path=ptd).load_method("forward")
    check("executorch.runtime", method.execute([x])[0].numpy(), expected)

    runner = shutil.which("ascend_runner")
    if runner is None or not Path(runner).resolve().is_relative_to(Path(sys.prefix).resolve()):
        raise SystemExit(f"[wheel_smoke] ascend_runner on PATH is {runner}, not this venv's")
    x.numpy().tofile(work / "input0.bin")
    expected.tofile(work / "expected0.bin")
    done = subprocess.run(
        [runner, "--model", pte, "--data", ptd, "--inputs", work / "input0.bin",
         "--output-dir", work / "runner"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"[wheel_smoke] ascend_runner failed:\n{done.stderr}\n{done.stdout}")
    got = np.fromfile(work / "runner" / "out0.bin", dtype=np.float32)
    check(f"ascend_runner ({runner})", got, expected)


def compare(out: Path, expected: Path) -> None:
    check(f"C++ app ({out})", np.fromfile(out, np.float32), np.fromfile(expected, np.float32))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "lower":
        lower(Path(sys.argv[2]).resolve())
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        raise SystemExit(__doc__)
