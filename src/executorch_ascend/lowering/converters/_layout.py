# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Dim orders (memory layouts) at the edge of an Ascend partition.

Inside an ONNX graph values have no layout: a copy into channels_last (`_clone_dim_order` /
`_to_dim_order_copy` with dim_order [0, 2, 3, 1]) changes no value and lowers to Identity (or
Cast). But ExecuTorch gives every tensor the dim order its recorded strides imply, and that order
propagates: a conv or an add of a channels_last tensor records a channels_last result too. The
Ascend runtime exchanges only default-dim-order tensors with ExecuTorch (AscendDelegate checks
every input and output and refuses the call otherwise; the device buffers are plain row-major).
So such a copy is taken only when its non-default layout never crosses the partition boundary:
every tensor that inherits it must be consumed by ops Ascend lowers, and none may be a model
output, until a contiguous copy (`.contiguous()`, a reshape, a reduction...) ends it. Likewise a
layout copy whose own input is non-default must get that input from inside the partition.

This reads only the graph around the node, not the partitioner's final grouping: two supported
neighbours normally share a partition, but a partition split to avoid a cycle could still put a
channels_last tensor on a partition boundary, which the runtime then refuses with a clear error.
"""

from __future__ import annotations

import torch
from executorch.exir.tensor import dim_order_from_stride
from torch.fx import Node

from ..registry import op_name, why_unsupported


def dim_order(value: object) -> list[int] | None:
    """The dim order ExecuTorch gives the tensor `value` holds (None: not a tensor)."""
    val = value.meta.get("val") if isinstance(value, Node) else None
    if isinstance(val, (list, tuple)):
        val = val[0] if val else None
    if not isinstance(val, torch.Tensor):
        return None
    return _order_of(val)


def _order_of(val: torch.Tensor) -> list[int]:
    """The dim order of `val`'s strides. A zero stride (a broadcast view, as `expand` records it
    when the edge program keeps aten views) has none: ExecuTorch stores such a tensor
    contiguous, so it counts as the default order."""
    if 0 in val.stride():
        return list(range(val.dim()))
    return [int(d) for d in dim_order_from_stride(val.stride())]


_MEMORY_FORMAT_ORDERS = {
    torch.contiguous_format: lambda n: list(range(n)),
    torch.channels_last: lambda n: [0, 2, 3, 1],
    torch.channels_last_3d: lambda n: [0, 2, 3, 4, 1],
}


def requested_dim_order(node: Node) -> list[int] | None:
    """The dim order a layout copy asks for (None: keep its input's). ExecuTorch's edge dialect
    says it as `dim_order` (`_clone_dim_order`, `_to_dim_order_copy`); with
    `EdgeCompileConfig(_skip_dim_order=True)`, as optimum-executorch lowers, the copies stay
    `aten.clone` / `aten._to_copy` with a `memory_format`."""
    order = node.kwargs.get("dim_order")
    if order is not None:
        return [int(d) for d in order]
    memory_format = node.kwargs.get("memory_format")
    to_order = _MEMORY_FORMAT_ORDERS.get(memory_format) if memory_format is not None else None
    val = node.meta.get("val")
    if to_order is None or not isinstance(val, torch.Tensor):
        return None  # preserve_format: the input's order
    return to_order(val.dim())


def _has_default_order(node: Node) -> bool:
    vals = node.meta.get("val")
    for val in vals if isinstance(vals, (list, tuple)) else [vals]:
        if isinstance(val, torch.Tensor):
            if _order_of(val) != list(range(val.dim())):
                return False
    return True


# Layout copies whose check is under way: one asking about its users may reach a layout copy
# that asks about its input, the first one; that one counts as inside while it is being decided.
_deciding: set[Node] = set()


def layout_reason(node: Node, requested: list[int] | None) -> str | None:
    """None if the layout copy `node` (to dim order `requested`, None = keep) can lower to an
    Identity without a non-default-dim-order tensor crossing the partition boundary."""
    _deciding.add(node)
    try:
        return _layout_reason(node, requested)
    finally:
        _deciding.discard(node)


def _layout_reason(node: Node, requested: list[int] | None) -> str | None:
    src = node.args[0]
    if isinstance(src, Node) and not _has_default_order(src) and src not in _deciding:
        outside = src.op == "placeholder" or (
            src.op == "call_function" and why_unsupported(src) is not None
        )
        if outside:
            return (
                f"its input has dim order {dim_order(src)} and comes from outside the partition "
                "(the Ascend runtime takes only default-dim-order inputs)"
            )
    if requested is None or requested == list(range(len(requested))):
        return None
    name = f"dim order {requested}"
    seen: set[Node] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        for user in current.users:
            if user in seen:
                continue
            seen.add(user)
            if user.op == "output":
                return (
                    f"a tensor in {name} (this copy's result or one derived from it) would be a "
                    "model output, and the Ascend runtime returns only default-dim-order tensors"
                )
            if user.op != "call_function" or why_unsupported(user) is not None:
                return (
                    f"a tensor in {name} is used by {user.name} ({op_name(user)}), which stays "
                    "on the CPU, and the Ascend runtime returns only default-dim-order tensors"
                )
            if not _has_default_order(user):
                stack.append(user)
    return None
