# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""softmax -> Softmax, log_softmax -> LogSoftmax: one op each, as CANN registers both (opsets
8-18, ../shared facts in docs/atc.md)."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import norm_dim, rank
from ._dtypes import FLOATS

aten = torch.ops.aten


def _softmax_supported(node: Node) -> str | None:
    """no half_to_float."""
    return "half_to_float softmax is not lowered" if node.args[2] else None


@converter(
    aten._softmax.default,
    onnx=["Softmax"],
    dtypes=FLOATS,
    supports=_softmax_supported,
    samples=[
        fn_sample("softmax_last", lambda x: torch.softmax(x, -1), (3, 7)),
        fn_sample("softmax_dim1", lambda x: torch.softmax(x * 4, 1), (2, 5, 3)),
        fn_sample("softmax_4d", lambda x: torch.nn.functional.softmax(x, dim=0), (3, 2, 2, 2)),
    ],
)
def softmax(ctx: LoweringContext, node: Node) -> None:
    axis = norm_dim(int(node.args[1]), rank(node.args[0]))
    ctx.emit("Softmax", [ctx.value(node.args[0])], node, axis=axis)


def _log_softmax_supported(node: Node) -> str | None:
    """no half_to_float."""
    return "half_to_float log_softmax is not lowered" if node.args[2] else None


@converter(
    aten._log_softmax.default,
    onnx=["LogSoftmax"],
    supports=_log_softmax_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("log_softmax_last", lambda x: torch.log_softmax(x * 3, -1), (3, 7)),
        fn_sample("log_softmax_dim1", lambda x: torch.log_softmax(x, 1), (2, 5, 3)),
        fn_sample("log_softmax_size1", lambda x: torch.log_softmax(x, 0), (1, 4)),
        fn_sample("log_softmax_large", lambda x: torch.log_softmax(x * 50, -1), (2, 6)),
    ],
)
def log_softmax(ctx: LoweringContext, node: Node) -> None:
    axis = norm_dim(int(node.args[1]), rank(node.args[0]))
    ctx.emit("LogSoftmax", [ctx.value(node.args[0])], node, axis=axis)
