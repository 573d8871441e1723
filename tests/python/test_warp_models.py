# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Optical-flow style warps with F.grid_sample (bilinear, border padding), the models of issue 36:
a named module taking an image and a flow, and an nn.Sequential that predicts its own flow. Each
lowers to one Ascend partition with nothing left on the CPU, in float32 and float16, its output
of eager's dtype and within 1e-4 (fp32) / 1e-2 (fp16) of the output's scale."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
import torch.nn.functional as F
from ascend_helpers import assert_close, eager

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime

H, W = 12, 16


def _base_grid() -> torch.Tensor:
    """The identity sampling grid of an H x W image (align_corners=False pixel centres)."""
    ys = (torch.arange(H) * 2 + 1) / H - 1
    xs = (torch.arange(W) * 2 + 1) / W - 1
    grid_y, grid_x = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack((grid_x, grid_y), dim=-1).unsqueeze(0)


class FlowWarp(torch.nn.Module):
    """Warps an image by a flow in pixels (N, 2, H, W), as optical-flow models do."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("base", _base_grid())
        self.register_buffer("to_unit", torch.tensor([2.0 / W, 2.0 / H]))

    def forward(self, image: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
        grid = self.base + flow.permute(0, 2, 3, 1) * self.to_unit
        return F.grid_sample(
            image, grid, mode="bilinear", padding_mode="border", align_corners=False
        )


class SelfWarp(torch.nn.Module):
    """Warps its input by a flow a convolution predicts from it."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.flow = torch.nn.Conv2d(channels, 2, 3, padding=1)
        self.warp = FlowWarp()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.warp(x, self.flow(x) * 4)


def _two_inputs() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    gen = torch.Generator().manual_seed(0)
    image = torch.randn(2, 3, H, W, generator=gen)
    flow = torch.randn(2, 2, H, W, generator=gen) * 3  # pixels: some samples leave the image
    return FlowWarp(), (image, flow)


def _sequential() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ReLU(), SelfWarp(4))
    image = torch.randn(1, 3, H, W, generator=torch.Generator().manual_seed(1))
    return model, (image,)


MODELS: dict[str, Callable[[], tuple[torch.nn.Module, tuple[torch.Tensor, ...]]]] = {
    "flow_warp": _two_inputs,
    "sequential_self_warp": _sequential,
}


@pytest.mark.emulator
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["fp32", "fp16"])
@pytest.mark.parametrize("name", list(MODELS))
def test_warp_is_one_ascend_partition_matching_eager(native, name: str, dtype) -> None:
    model, inputs = MODELS[name]()
    model = model.eval()
    # The reference: the fp32 model on the (rounded) inputs, in the model's dtype at the end.
    inputs = tuple(t.to(dtype) for t in inputs)
    expected = [e.to(dtype) for e in eager(model, tuple(t.float() for t in inputs))]
    model = model.to(dtype)
    assert [e.dtype for e in eager(model, inputs)] == [dtype]  # eager's own output dtype

    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1, summary
    assert summary.delegated_nodes == summary.total_nodes, summary
    assert not summary.cpu_ops, summary

    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert_close(outputs, expected, f"{name} {dtype}", rel=1e-4 if dtype == torch.float32 else 1e-2)


def _refusal(fn: Callable[..., torch.Tensor], *inputs: torch.Tensor) -> str | None:
    from executorch_ascend.explain import explain
    from executorch_ascend.lowering.samples import Fn

    # explain lowers an exported program to edge as to_edge_transform_and_lower does.
    exported = torch.export.export(Fn(fn).eval(), inputs)
    reasons = [r.reason for r in explain(exported) if r.op.endswith("grid_sampler_2d.default")]
    assert len(reasons) == 1
    return reasons[0]


def test_bicubic_and_bfloat16_grid_sampling_stay_on_the_cpu_with_a_reason() -> None:
    x, grid = torch.randn(1, 2, 4, 4), torch.rand(1, 3, 3, 2) * 2 - 1
    assert _refusal(lambda a, g: F.grid_sample(a, g, align_corners=False), x, grid) is None
    bicubic = _refusal(
        lambda a, g: F.grid_sample(a, g, mode="bicubic", align_corners=False), x, grid
    )
    assert bicubic is not None and "bicubic" in bicubic
    bf16 = _refusal(
        lambda a, g: F.grid_sample(a, g, align_corners=False), x.bfloat16(), grid.bfloat16()
    )
    assert bf16 is not None and "GridSample" in bf16 and "bfloat16" in bf16
