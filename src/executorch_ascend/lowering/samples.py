"""Helpers for declaring converter samples next to the converters."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch

from .registry import InputFn, Sample


class Fn(torch.nn.Module):
    """Wraps a function of tensors as a module, so a sample can be exported."""

    def __init__(self, fn: Callable[..., torch.Tensor]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *xs: torch.Tensor) -> torch.Tensor:
        return self.fn(*xs)


def fn_sample(
    id: str,
    fn: Callable[..., torch.Tensor],
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
) -> Sample:
    return Sample(make, _shapes(shapes), id, inputs, half)


def positive(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Values in [0.1, 3.1): inputs for log, sqrt, pow with a fractional exponent."""
    return torch.rand(shape, generator=gen) * 3 + 0.1


def away_from_integers(shape: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """k + 0.1 .. k + 0.9 around [-4, 4]: floor/ceil/round/remainder never sit on a boundary where
    a rounding difference of one ulp would flip the result."""
    whole = torch.randint(-4, 4, shape, generator=gen).float()
    return whole + 0.1 + 0.8 * torch.rand(shape, generator=gen)


def _shapes(shapes: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(d) for d in s) for s in shapes)
