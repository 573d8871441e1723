# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Small helpers for reading op arguments the same way on ATen and edge nodes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import torch
from torch.fx import Node

_INT_MAX = 2**63 - 1


def arg(node: Node, index: int, name: str, default: object = None) -> object:
    """Positional argument `index`, else keyword `name`, else the schema default given."""
    if len(node.args) > index:
        return node.args[index]
    return node.kwargs.get(name, default)


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rank(value: object) -> int:
    return len(tensor_val(value).shape)


def tensor_val(value: object) -> torch.Tensor:
    if not isinstance(value, Node):
        raise TypeError(f"expected a graph value, got {value!r}")
    val = value.meta["val"]
    if isinstance(val, (list, tuple)):
        val = val[0]
    return val


def shape(value: object) -> list[int]:
    return [int(d) for d in tensor_val(value).shape]


def ints(value: object, length: int) -> list[int]:
    """An int or int list argument, expanded to `length` entries (pool/conv style)."""
    if isinstance(value, int):
        return [value] * length
    values = [int(v) for v in cast("Sequence[int]", value)]  # a list or tuple otherwise
    if len(values) == 1:
        return values * length
    return values


def norm_dim(dim: int, rank_: int) -> int:
    return dim + rank_ if dim < 0 else dim


def norm_dims(dims: Sequence[int] | None, rank_: int) -> list[int]:
    return [norm_dim(int(d), rank_) for d in (dims or [])]


def slice_range(size: int, start: object, end: object) -> tuple[int, int]:
    """PyTorch's slice bounds (None, negative, past the end) as 0 <= start, end <= size."""
    start = 0 if start is None else int(start)
    end = size if end is None or int(end) >= _INT_MAX else int(end)
    start = min(max(start + size if start < 0 else start, 0), size)
    end = min(max(end + size if end < 0 else end, 0), size)
    return start, end
