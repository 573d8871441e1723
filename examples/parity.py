# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""How close an Ascend output is to eager PyTorch: the comparison the demo, the tests and the
benchmarks make (fp32 to 1e-4 relative to the largest expected magnitude, bf16 to 3e-2)."""

from __future__ import annotations

from collections.abc import Sequence

import torch


def max_abs_error(actual: Sequence[torch.Tensor], expected: Sequence[torch.Tensor]) -> float:
    if len(actual) != len(expected):
        raise ValueError(f"{len(actual)} outputs, expected {len(expected)}")
    return max(
        (float((a.float() - e.float()).abs().max()) if e.numel() else 0.0)
        for a, e in zip(actual, expected, strict=True)
    )


def fp32_tolerance(expected: Sequence[torch.Tensor]) -> float:
    """The project's fp32 tolerance: 1e-4 * max(1, max |expected|)."""
    peak = max((float(e.float().abs().max()) for e in expected if e.numel()), default=0.0)
    return 1e-4 * max(1.0, peak)


def bf16_tolerance(expected: Sequence[torch.Tensor]) -> float:
    """The project's bf16 tolerance: 3e-2 * max(1, max |expected|). bf16 keeps 8 significant bits
    (a rounding is up to 2^-9 ~ 2e-3 relative); the emulator, like the NPU, accumulates in fp32
    and rounds each op's output once, eager bf16 on the CPU rounds at other points, so a few
    layers differ by several roundings."""
    peak = max((float(e.float().abs().max()) for e in expected if e.numel()), default=0.0)
    return 3e-2 * max(1.0, peak)
