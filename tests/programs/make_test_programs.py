# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Writes small real ExecuTorch programs lowered to Ascend on the emulator, for the C++ tests
that need whole .pte/.ptd files (runtime_module_threads) and for the seeds of fuzz_program.

Each program <name> is written as <name>.pte, <name>.ptd when its data is external, its inputs
as <name>.input<i>.bin and eager PyTorch's outputs as <name>.expected<i>.bin (raw little-endian
float32, the format ascend_runner reads), and one line in programs.txt:

    <name> <ptd file or -> <inputs> <outputs>

Usage: make_test_programs.py <out_dir>   (the installed executorch_ascend and its emulator)
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
from example_models import Mlp, small_cnn

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save
from executorch_ascend.run import write_raw


class FlipBetween(torch.nn.Module):
    """Two Ascend partitions around a CPU op (atan has no converter; the name is older)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.atan(torch.relu(self.fc1(x))))


class AddRelu(torch.nn.Module):
    """Two inputs, elementwise only: the per-call path with (almost) no kernel work, for the
    allocation check of runtime_method_noalloc (the kernels have their own)."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + y)


def _spec(**kwargs) -> AscendCompileSpec:
    return AscendCompileSpec(toolchain="emulator", **kwargs)


# name: (model factory, input shapes, compile spec, Ascend partitions expected)
PROGRAMS = {
    # Weight files as named data inside the .pte.
    "mlp": (Mlp, [(4, 32)], _spec(), 1),
    # The .om and its weight files in mlp_data.ptd.
    "mlp_ptd": (Mlp, [(4, 32)], _spec(external_tag="mlp_data"), 1),
    # Weights inline in the .om.
    "cnn": (small_cnn, [(1, 3, 16, 16)], _spec(external_weight=0), 1),
    # Two delegates and a portable kernel between them.
    "flip": (FlipBetween, [(4, 8)], _spec(), 2),
    # Two inputs, elementwise ops only.
    "add_relu": (AddRelu, [(4, 8), (4, 8)], _spec(), 1),
}


def main(out_dir: str) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for name, (factory, shapes, spec, partitions) in PROGRAMS.items():
        torch.manual_seed(0)
        model = factory().eval()
        gen = torch.Generator().manual_seed(1)
        inputs = tuple(torch.randn(s, generator=gen) for s in shapes)
        lowering = lower(model, inputs, spec)
        if lowering.summary.partitions != partitions:
            raise SystemExit(f"{name}: {lowering.summary} (expected {partitions} partitions)")
        _, ptds = save(lowering.program, out / f"{name}.pte")
        with torch.no_grad():
            expected = model(*inputs)
        expected = expected if isinstance(expected, tuple) else (expected,)
        for i, t in enumerate(inputs):
            write_raw(t, out / f"{name}.input{i}.bin")
        for i, t in enumerate(expected):
            write_raw(t, out / f"{name}.expected{i}.bin")
        if len(ptds) > 1:
            raise SystemExit(f"{name}: {len(ptds)} .ptd files; the manifest holds one")
        ptd = ptds[0].name if ptds else "-"
        manifest.append(f"{name} {ptd} {len(inputs)} {len(expected)}")
    (out / "programs.txt").write_text("\n".join(manifest) + "\n")
    print(f"test programs: {', '.join(PROGRAMS)} in {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
