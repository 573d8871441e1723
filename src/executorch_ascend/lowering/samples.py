"""Helpers for declaring converter samples next to the converters."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch

from .registry import Sample


class Fn(torch.nn.Module):
    """Wraps a function of tensors as a module, so a sample can be exported."""

    def __init__(self, fn: Callable[..., torch.Tensor]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *xs: torch.Tensor) -> torch.Tensor:
        return self.fn(*xs)


def fn_sample(id: str, fn: Callable[..., torch.Tensor], *shapes: Sequence[int]) -> Sample:
    return Sample(lambda: Fn(fn), _shapes(shapes), id)


def module_sample(id: str, make: Callable[[], torch.nn.Module], *shapes: Sequence[int]) -> Sample:
    return Sample(make, _shapes(shapes), id)


def _shapes(shapes: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(d) for d in s) for s in shapes)
