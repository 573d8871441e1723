# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Helpers for declaring converter samples next to the converters."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import torch

from .registry import InputFn, Sample

# A sample's function: one tensor out, or a tuple of them (topk's values and indices).
SampleFn = Callable[..., torch.Tensor | tuple[torch.Tensor, ...]]


class Fn(torch.nn.Module):
    """Wraps a function of tensors as a module, so a sample can be exported."""

    def __init__(self, fn: SampleFn) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *xs: torch.Tensor) -> torch.Tensor | tuple[torch.Tensor, ...]:
        return self.fn(*xs)


def fn_sample(
    id: str,
    fn: SampleFn,
    *shapes: Sequence[int],
    inputs: InputFn | None = None,
    half: bool = False,
) -> Sample:
    return Sample(lambda: Fn(fn), _shapes(shapes), id, inputs, half)


def module_sample(
    id: str,
    make: Callable[[], torch.nn.Module],
    *shapes: Sequence[int],
    inputs: InputFn | None = None,
    half: bool = False,
    rel: float = 1e-4,
) -> Sample:
    return Sample(make, _shapes(shapes), id, inputs, half, rel)


def positive(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Values in [0.1, 3.1): inputs for log, sqrt, pow with a fractional exponent."""
    return torch.rand(shape, generator=gen) * 3 + 0.1


def away_from_integers(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """k + 0.1 .. k + 0.9 around [-4, 4]: floor/ceil/round/remainder never sit on a boundary where
    a rounding difference of one ulp would flip the result."""
    whole = torch.randint(-4, 4, shape, generator=gen).float()
    return whole + 0.1 + 0.8 * torch.rand(shape, generator=gen)


def with_specials(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Normal values with about one in six each of +inf, -inf and NaN (and a large finite value)."""
    x = torch.randn(shape, generator=gen) * 3
    pick = torch.randint(0, 6, shape, generator=gen)
    x = torch.where(pick == 0, math.inf, x)
    x = torch.where(pick == 1, -math.inf, x)
    x = torch.where(pick == 2, math.nan, x)
    return torch.where(pick == 3, 6.0e4, x)  # finite in float16 too (max 65504)


def int_inputs(low: int, high: int, dtype: torch.dtype = torch.int64) -> InputFn:
    """Ints in [low, high) of `dtype`: index inputs and the samples of an op's integer forms."""
    return lambda shape, gen: torch.randint(low, high, shape, generator=gen, dtype=dtype)


# int64 values in [-100, 100): samples of the integer forms of data-movement ops.
ints = int_inputs(-100, 100)
# int64 values in [-5, 5): small, so equal elements (ties) occur.
tied_ints = int_inputs(-5, 5)


# Input shapes of a unary op's samples: 1-D, 3-D, and 4-D with size-1 dims.
UNARY_SHAPES = ((7,), (2, 3, 4), (1, 3, 1, 5))


def binary_shapes(
    broadcast: str = "broadcast",
) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]:
    """(id suffix, shape, shape) of a binary op's samples: equal shapes, one operand broadcast
    (`broadcast` names that one), both broadcast."""
    return (
        ("same", (2, 3), (2, 3)),
        (broadcast, (2, 3, 4), (4,)),
        ("broadcast_both", (1, 3, 1, 5), (2, 1, 4, 1)),
    )


def index_inputs(highs: dict[tuple[int, ...], int]) -> InputFn:
    """float inputs, except those of a shape in `highs`: ints in [-high, high) (index inputs,
    negatives included)."""

    def make(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
        high = highs.get(tuple(shape))
        if high is not None:
            return torch.randint(-high, high, shape, generator=gen)
        return torch.randn(shape, generator=gen)

    return make


class ConstantIndices(torch.nn.Module):
    """A sample module whose index lists are buffers (constant indices); None entries stay None
    (full slices)."""

    def __init__(self, indices: Sequence[list | None]) -> None:
        super().__init__()
        self.slots: list[str | None] = []
        for j, index in enumerate(indices):
            if index is None:
                self.slots.append(None)
            else:
                self.register_buffer(f"i{j}", torch.tensor(index))
                self.slots.append(f"i{j}")

    def indices(self) -> list[torch.Tensor | None]:
        return [None if s is None else getattr(self, s) for s in self.slots]


def _shapes(shapes: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(d) for d in s) for s in shapes)
