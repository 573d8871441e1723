# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Padding -> Pad.

CANN's Pad supports only constant_value 0 in constant mode, so other fill values stay on the CPU.
F.pad's reflect and replicate modes are kept whole (aten.pad, keep_whole): to_edge would otherwise
turn them into arange/abs/clamp index arithmetic and an aten.index gather, which stays on the CPU.
They become one Pad with mode reflect / edge.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample
from ._args import arg, rank, shape
from ._dtypes import FLOATS

aten = torch.ops.aten
F = torch.nn.functional


def _pad_supported(node: Node) -> str | None:
    """fill value 0 (CANN), no negative (cropping) pads."""
    pads = [int(p) for p in node.args[1]]
    if any(p < 0 for p in pads):
        return "negative padding (cropping) is not lowered"
    if float(arg(node, 2, "value", 0)) != 0.0:
        return "CANN's Pad supports only constant_value 0"
    return None


@converter(
    aten.constant_pad_nd.default,
    onnx=["Pad"],
    supports=_pad_supported,
    dtypes=FLOATS,
    samples=[
        fn_sample("pad_last", lambda x: F.pad(x, (1, 2)), (2, 3, 4)),
        fn_sample("pad_two_dims", lambda x: F.pad(x, (0, 1, 2, 0)), (1, 2, 3, 3)),
        fn_sample("pad_1d", lambda x: F.pad(x * 2, (3, 0)), (5,)),
    ],
)
def constant_pad(ctx: LoweringContext, node: Node) -> None:
    _emit_pad(ctx, node, "constant")


def _emit_pad(ctx: LoweringContext, node: Node, mode: str) -> None:
    x = node.args[0]
    r = rank(x)
    torch_pads = [int(p) for p in node.args[1]]
    # PyTorch lists (begin, end) pairs from the last dim backwards; ONNX all begins then all ends.
    begins, ends = [0] * r, [0] * r
    for i in range(len(torch_pads) // 2):
        begins[r - 1 - i], ends[r - 1 - i] = torch_pads[2 * i], torch_pads[2 * i + 1]
    ctx.emit("Pad", [ctx.value(x), ctx.int64s(begins + ends)], node, mode=mode)


_PAD_MODES = {"reflect": "reflect", "replicate": "edge"}


def _mode_pad_supported(node: Node) -> str | None:
    """reflect or replicate mode; pads >= 0; reflect pads smaller than the padded dim."""
    mode = str(arg(node, 2, "mode", "constant"))
    if mode not in _PAD_MODES:
        return f"pad mode {mode!r} is not lowered whole"
    pads = [int(p) for p in node.args[1]]
    dims = shape(node.args[0])
    if len(pads) % 2 or len(pads) // 2 > len(dims):
        return f"{len(pads)} pad values for a {len(dims)}-D input"
    if any(p < 0 for p in pads):
        return "negative padding (cropping) is not lowered"
    if mode == "reflect":
        for i, p in enumerate(pads):
            size = dims[len(dims) - 1 - i // 2]
            if p >= size:
                return f"reflect pad {p} is not smaller than the padded dim {size}"
    return None


@converter(
    aten.pad.default,
    onnx=["Pad"],
    supports=_mode_pad_supported,
    dtypes=FLOATS,
    keep_whole=True,
    samples=[
        fn_sample("pad_reflect_2d", lambda x: F.pad(x, (1, 2, 1, 0), mode="reflect"), (1, 2, 4, 4)),
        fn_sample("pad_reflect_1d", lambda x: F.pad(x, (2, 1), mode="reflect"), (2, 3, 5)),
        fn_sample("pad_reflect_1d_nobatch", lambda x: F.pad(x, (0, 3), mode="reflect"), (3, 4)),
        fn_sample(
            "pad_reflect_3d",
            lambda x: F.pad(x, (1, 1, 0, 2, 2, 1), mode="reflect"),
            (1, 2, 3, 4, 5),
        ),
        fn_sample(
            "pad_reflect_2d_nobatch", lambda x: F.pad(x, (0, 1, 2, 2), mode="reflect"), (2, 3, 6)
        ),
        fn_sample(
            "pad_replicate_2d", lambda x: F.pad(x, (2, 0, 1, 3), mode="replicate"), (2, 3, 3, 4)
        ),
        fn_sample("pad_replicate_1d", lambda x: F.pad(x, (4, 1), mode="replicate"), (1, 2, 3)),
        fn_sample(
            "pad_replicate_size1", lambda x: F.pad(x, (2, 2, 0, 3), mode="replicate"), (1, 1, 1, 1)
        ),
        fn_sample(
            "pad_replicate_3d",
            lambda x: F.pad(x, (0, 2, 1, 1, 3, 0), mode="replicate"),
            (2, 1, 2, 3, 2),
        ),
    ],
)
def mode_pad(ctx: LoweringContext, node: Node) -> None:
    _emit_pad(ctx, node, _PAD_MODES[str(arg(node, 2, "mode", "constant"))])
