# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What the indexing and layout converters refuse, and why (the reasons `explain` shows)."""

from __future__ import annotations

import torch

from executorch_ascend.explain import explain


class _Fn(torch.nn.Module):
    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *xs: torch.Tensor) -> torch.Tensor:
        return self.fn(*xs)


class _Convs(torch.nn.Module):
    """conv -> channels_last -> conv, the second conv's (channels_last) result returned."""

    def __init__(self, return_layout_copy: bool = False) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 4, 3)
        self.c2 = torch.nn.Conv2d(4, 2, 1)
        self.return_layout_copy = return_layout_copy

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.c1(x).to(memory_format=torch.channels_last)
        return y if self.return_layout_copy else self.c2(y)


def _reasons(module: torch.nn.Module, *inputs: torch.Tensor) -> dict[str, str]:
    """node name -> why it stays on the CPU (names say the op: aten_index_tensor, ...)."""
    exported = torch.export.export(module.eval(), inputs)
    return {r.name: r.reason for r in explain(exported) if r.reason is not None}


def test_channels_last_model_output_stays_on_cpu() -> None:
    reasons = _reasons(_Convs(return_layout_copy=True), torch.randn(1, 3, 6, 6))
    reason = reasons["dim_order_ops__to_dim_order_copy_default"]
    assert "dim order [0, 2, 3, 1]" in reason and "model output" in reason


def test_channels_last_inherited_by_a_model_output_stays_on_cpu() -> None:
    # The second conv's result is channels_last too: it would leave the partition in that layout.
    reasons = _reasons(_Convs(), torch.randn(1, 3, 6, 6))
    assert "model output" in reasons["dim_order_ops__to_dim_order_copy_default"]
    assert "aten_convolution_default" not in reasons


def test_channels_last_clone_feeding_a_cpu_op_stays_on_cpu() -> None:
    reasons = _reasons(
        _Fn(lambda x: torch.flip(x.clone(memory_format=torch.channels_last), [1]).contiguous()),
        torch.randn(1, 2, 3, 3),
    )
    if "aten_flip_default" in reasons:  # a CPU op today; nothing to check once it is lowered
        # Both copies stay: the channels_last one (its result feeds flip) and the contiguous one
        # after flip (its input is a channels_last tensor from the CPU).
        first, second = [r for n, r in reasons.items() if n.startswith("dim_order_ops__clone")]
        assert "stays on the CPU" in first and "aten.flip.default" in first
        assert "comes from outside the partition" in second


def test_contiguous_copy_of_a_channels_last_model_input_stays_on_cpu() -> None:
    x = torch.randn(1, 3, 2, 2).to(memory_format=torch.channels_last)
    reasons = _reasons(_Fn(lambda x: x.contiguous() * 2), x)
    reason = reasons.get("dim_order_ops__clone_dim_order_default")
    assert reason is not None and "comes from outside the partition" in reason


def test_bool_mask_index_stays_on_cpu() -> None:
    # Even a constant mask selects a data-dependent number of rows: the result has no static shape.
    reasons = _reasons(_Fn(lambda x, m: x[m]), torch.randn(3, 2), torch.tensor([True, False, True]))
    assert "dynamic output shape" in reasons["aten_index_tensor"]
