# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`torch.median` (all elements, or along a dim with its index) in core ATen ops, before to_edge.

`aten.median.default` and `aten.median.dim` are not core ATen and have no ATen decomposition, so
ExecuTorch's to_edge refuses them, and to_edge_transform_and_lower cannot keep them whole for a
converter: ExecuTorch 1.5 adds an op it is asked to preserve to the verifier's exception list only
when the default table would decompose it. ONNX opset 17 has no Median either. AscendPartitioner's
pre-decomposition step therefore writes them as what the registry lowers:

- the lower median, PyTorch's: the element at sorted position (n - 1) // 2 of an ascending
  `sort` of the axis (the TopK converter: ties in index order, so of equal medians the lowest
  index is returned; PyTorch's CPU kernel leaves that index unspecified);
- a NaN anywhere along the axis makes the value NaN and the index the first NaN's, as PyTorch
  does (`isnan`, `any`, `argmax` of the mask as int32, a `where` for the value and int64
  arithmetic for the index).

Applied only where the sort lowers (float16/float32, rank >= 1; median.default of any rank >= 1):
anything else stays as it was, and to_edge refuses it as without this backend (the portable
library has no sort kernel for a CPU fallback).
"""

from __future__ import annotations

import torch
from torch.export import ExportedProgram

from .converters.topk import sort_input_refusal
from .whole_ops import retrace_with_decompositions

aten = torch.ops.aten
MEDIANS = (aten.median.default, aten.median.dim)


def median_along(
    x: torch.Tensor, dim: int, keepdim: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """torch.median(x, dim, keepdim) in core ATen ops (the module docstring's rules)."""
    dim = dim % x.dim()
    middle = (x.shape[dim] - 1) // 2
    values, indices = torch.sort(x, dim)
    value, index = values.select(dim, middle), indices.select(dim, middle)
    nan = torch.isnan(x)
    has_nan = nan.any(dim)
    first_nan = torch.argmax(nan.to(torch.int32), dim)
    value = torch.where(has_nan, torch.full_like(value, float("nan")), value)
    # int64 arithmetic, not a where: CANN's Select takes no int64 (the where converter's rule).
    index = index + has_nan.to(torch.int64) * (first_nan - index)
    if keepdim:
        value, index = value.unsqueeze(dim), index.unsqueeze(dim)
    return value, index


def _median_all(x: torch.Tensor) -> torch.Tensor:
    return median_along(x.reshape(-1), 0)[0]


def _lowerable(program: ExportedProgram) -> bool:
    medians = [n for n in program.graph.nodes if n.op == "call_function" and n.target in MEDIANS]
    return bool(medians) and all(sort_input_refusal(n) is None for n in medians)


def decompose_medians(program: ExportedProgram) -> ExportedProgram:
    """`program` with its medians in core ATen ops; unchanged when it has none, or when one of
    them takes an input the sort does not lower (the export then fails as without this backend)."""
    if not _lowerable(program):
        return program
    return retrace_with_decompositions(
        program, {aten.median.default: _median_all, aten.median.dim: median_along}
    )
