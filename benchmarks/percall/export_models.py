# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Writes the tiny models of the per-call benchmark (benchmarks/bench_percall.py) in every form the
C++ harness (percall_bench.cc) runs, into <out_dir>:

    <name>.om            the Ascend partition's .om (weights inside), for the bare ACL sequence
    <name>_ascend.pte    the whole model delegated to AscendBackend (weights inside the .om)
    <name>_xnnpack.pte   the same model delegated to XNNPACK
    <name>_portable.pte  the same model on ExecuTorch's CPU kernels (no delegate)
    <name>.input<i>.bin  its inputs, <name>.expected.bin eager PyTorch's output (raw float32)

and a manifest, models.txt, one line per model: `<name> <inputs> <numel of each input> <numel of
the output>`. The models are tiny on purpose: the per-call cost around the model work is what is
measured, so the model work must not hide it.

Usage: export_models.py <out_dir>   (executorch_ascend and its emulator importable)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import torch
from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
from executorch.exir import to_edge_transform_and_lower

import executorch_ascend
from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower


class TinyMlp(torch.nn.Module):
    """16 -> 32 -> 16 with a ReLU: about 1k multiply-adds."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


class OneAdd(torch.nn.Module):
    """x + y on 16 floats: almost no model work, the worst case for the per-call overhead."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x + y


MODELS: dict[str, tuple[type[torch.nn.Module], list[tuple[int, ...]]]] = {
    "mlp": (TinyMlp, [(1, 16)]),
    "add": (OneAdd, [(1, 16), (1, 16)]),
}


def _write_raw(t: torch.Tensor, path: Path) -> None:
    path.write_bytes(t.detach().contiguous().to(torch.float32).numpy().tobytes())


def _export_ascend(
    model: torch.nn.Module, inputs: tuple[torch.Tensor, ...], out: Path, name: str
) -> None:
    with tempfile.TemporaryDirectory() as dump:
        spec = AscendCompileSpec(toolchain="emulator", external_weight=0, dump_dir=dump)
        lowering = lower(model, inputs, spec)
        if lowering.summary.partitions != 1 or lowering.summary.cpu_ops:
            raise SystemExit(f"{name}: expected one Ascend partition, got {lowering.summary}")
        (out / f"{name}_ascend.pte").write_bytes(lowering.program.buffer)
        oms = sorted(Path(dump).glob("partition_*/part.om"))
        if len(oms) != 1:
            raise SystemExit(f"{name}: expected one dumped .om, found {len(oms)}")
        shutil.copyfile(oms[0], out / f"{name}.om")


def _export_cpu(
    model: torch.nn.Module, inputs: tuple[torch.Tensor, ...], path: Path, xnnpack: bool
) -> None:
    exported = torch.export.export(model, inputs)
    partitioners = [XnnpackPartitioner()] if xnnpack else []
    edge = to_edge_transform_and_lower(exported, partitioner=partitioners)
    path.write_bytes(edge.to_executorch().buffer)


def main(out_dir: str) -> None:
    executorch_ascend.use_emulator()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    torch.manual_seed(0)
    for name, (factory, shapes) in MODELS.items():
        model = factory().eval()
        inputs = tuple(torch.randn(s) for s in shapes)
        with torch.no_grad():
            expected = model(*inputs)
        _export_ascend(model, inputs, out, name)
        _export_cpu(model, inputs, out / f"{name}_xnnpack.pte", xnnpack=True)
        _export_cpu(model, inputs, out / f"{name}_portable.pte", xnnpack=False)
        for i, t in enumerate(inputs):
            _write_raw(t, out / f"{name}.input{i}.bin")
        _write_raw(expected, out / f"{name}.expected.bin")
        numels = " ".join(str(t.numel()) for t in inputs)
        manifest.append(f"{name} {len(inputs)} {numels} {expected.numel()}")
    (out / "models.txt").write_text("\n".join(manifest) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
