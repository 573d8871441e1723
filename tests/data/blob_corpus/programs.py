# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What the blob corpus holds: one tiny program per thing a delegate blob and its named data can
carry, each with the compile spec and the inputs it is saved with (generate.py saves and runs
them; tests/python/test_blob_compat.py never imports this file: a saved program must load
without the code that made it).

A program is exported by the public API a user calls (torch.export, AscendQuantizer,
executorch_ascend.export.lower_program/save, the `executorch-ascend compile` command) and is
made of seeded weights, so a later release can regenerate the same set for its own version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch.export import Dim, ExportedProgram

from executorch_ascend import AscendCompileSpec

# The chip the emulator answers by default (aclrtGetSocName), which the programs are exported for.
EXPORTED_FOR = "Ascend910B1"
# The fp32 tolerance against eager (examples/parity.py): 1e-4 of max(1, max |expected|).
FP32_REL = 1e-4
# Ascend310P3's default precision mode (allow_fp32_to_fp16) runs Gemm in float16.
FP16_REL = 1e-2
# int8: output steps of (max - min) / 255 from convert_pt2e's eager model, as test_quantized.py.
INT8_STEPS = 8.0


def _seeded(module: torch.nn.Module, seed: int) -> torch.nn.Module:
    """Weights from `seed`, unit-scale activations (LeCun-normal), in eval mode."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in module.parameters():
            fan_in = p[0].numel() if p.dim() > 1 else p.numel()
            p.copy_(torch.randn(p.shape, generator=gen) * fan_in**-0.5)
    return module.eval()


def _randn(seed: int, *shape: int) -> torch.Tensor:
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed))


class Mlp(torch.nn.Module):
    """32 -> 64 -> 8: an 8 KiB and a 2 KiB weight (weight files at the default 1 KiB threshold),
    biases small enough to stay inside the .om."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(32, 64), torch.nn.Linear(64, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


class Accumulator(torch.nn.Module):
    """Two mutable buffers the partition keeps on the device: a running sum that starts as zeros
    (stored as nothing) and a step counter that starts at 3 (initial value in named data)."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("total", torch.zeros(2, 8))
        self.register_buffer("steps", torch.full((1,), 3.0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.total.add_(x)
        self.steps.add_(1.0)
        return torch.tanh(self.total) * self.steps


class SmallConv(torch.nn.Module):
    """Conv, ReLU, global pooling and a Linear: what int8 turns into CANN's quant ops."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.conv(x)).mean((2, 3))
        return self.fc(y)


@dataclass(frozen=True)
class CorpusProgram:
    """`calls`: the inputs of each call, made in order on one loaded method (state carries
    over). `socs`: the chips it is run as, each with its tolerance against eager (relative to
    max(1, max |eager|), or in int8 output steps). `compile_for`: further SoCs added after saving
    with `executorch-ascend compile` (needs keep_onnx)."""

    name: str
    covers: str
    export: Callable[[], tuple[torch.nn.Module, ExportedProgram]]
    spec: AscendCompileSpec
    calls: tuple[tuple[torch.Tensor, ...], ...]
    socs: dict[str, float] = field(default_factory=lambda: {EXPORTED_FOR: FP32_REL})
    int8: bool = False
    compile_for: tuple[str, ...] = ()


def _spec(**fields: object) -> AscendCompileSpec:
    return AscendCompileSpec(soc_version=EXPORTED_FOR, toolchain="emulator", **fields)  # type: ignore[arg-type]


def _mlp(seed: int) -> Callable[[], tuple[torch.nn.Module, ExportedProgram]]:
    def make() -> tuple[torch.nn.Module, ExportedProgram]:
        model = _seeded(Mlp(), seed)
        return model, torch.export.export(model, (_randn(0, 4, 32),))

    return make


def _accumulator() -> tuple[torch.nn.Module, ExportedProgram]:
    # Exported from its own instance: eager replays the calls on a fresh one (generate.py).
    return Accumulator(), torch.export.export(Accumulator(), (torch.zeros(2, 8),))


def _batch_gears() -> tuple[torch.nn.Module, ExportedProgram]:
    model = _seeded(Mlp(), 3)
    batch = Dim("batch", min=1, max=4)
    return model, torch.export.export(model, (_randn(0, 2, 32),), dynamic_shapes=({0: batch},))


def _int8() -> tuple[torch.nn.Module, ExportedProgram]:
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    from executorch_ascend.quantizer import AscendQuantizer

    model = _seeded(SmallConv(), 4)
    graph = torch.export.export(model, (_randn(0, 1, 3, 8, 8),)).module()
    prepared = prepare_pt2e(graph, AscendQuantizer())  # type: ignore[arg-type]
    with torch.no_grad():
        for seed in range(8):  # calibration
            prepared(_randn(100 + seed, 1, 3, 8, 8))
    quantized = convert_pt2e(prepared)
    return quantized, torch.export.export(quantized, (_randn(0, 1, 3, 8, 8),))


PROGRAMS: tuple[CorpusProgram, ...] = (
    CorpusProgram(
        "mlp_pte",
        "float32, the default spec: the .om and its two weight files as named data in the .pte "
        "(ascend/om/<sha>, ascend/weight/<sha>)",
        _mlp(1),
        _spec(),
        ((_randn(10, 4, 32),),),
    ),
    CorpusProgram(
        "mlp_ptd",
        "external_tag: the .om and its weight files in mlp_ptd.ptd, the .pte holds the blob only",
        _mlp(2),
        _spec(external_tag="mlp_ptd"),
        ((_randn(11, 4, 32),),),
    ),
    CorpusProgram(
        "mlp_weights_in_om",
        "external_weight=0: every weight inside the .om, a blob with no weight entry",
        _mlp(5),
        _spec(external_weight=0),
        ((_randn(12, 4, 32),),),
    ),
    CorpusProgram(
        "device_state",
        "two mutable buffers kept on the device: one starts as zeros, one from named data "
        "(ascend/state/<sha>); three calls, each seeing the state the last one left",
        _accumulator,
        _spec(),
        tuple((_randn(20 + i, 2, 8),) for i in range(3)),
    ),
    CorpusProgram(
        "batch_gears",
        "a symbolic batch compiled as gears (dynamic_batch_size 1, 2, 4): one .om, a call at "
        "each gear",
        _batch_gears,
        _spec(dynamic_batch_size=(1, 2, 4)),
        tuple((_randn(30 + b, b, 32),) for b in (1, 2, 4)),
    ),
    CorpusProgram(
        "int8_conv",
        "static int8 from AscendQuantizer: CANN's quant ops and int8 weights in the .om",
        _int8,
        _spec(),
        ((_randn(40, 1, 3, 8, 8),),),
        socs={EXPORTED_FOR: INT8_STEPS},
        int8=True,
    ),
    CorpusProgram(
        "two_socs",
        "keep_onnx, then `executorch-ascend compile --soc_version Ascend310P3`: two targets in "
        "one blob and the kept ONNX source (ascend/source/<sha>, ascend/onnx/<sha>)",
        _mlp(6),
        _spec(keep_onnx=True),
        ((_randn(13, 4, 32),),),
        socs={EXPORTED_FOR: FP32_REL, "Ascend310P3": FP16_REL},
        compile_for=("Ascend310P3",),
    ),
)
