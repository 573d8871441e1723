# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""dtype conversions (and layout changes with them) -> Cast, or Identity where the dtype stays."""

from __future__ import annotations

import executorch.exir.passes.dim_order_ops_registry  # noqa: F401  (defines dim_order_ops)
import torch
from torch.fx import Node

from ...dtypes import onnx_elem_type
from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import tensor_val
from ._layout import layout_reason, requested_dim_order

aten = torch.ops.aten
dim_order_ops = torch.ops.dim_order_ops


_CAST_DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int64, torch.bool)


def _cast_supported(node: Node) -> str | None:
    """float32/float16/int32/int64/bool; any dim order whose non-default layout stays inside the
    partition.

    Inside ONNX values have no layout, so `x.to(dtype, memory_format=channels_last)` is a Cast (or
    an Identity). Its result and whatever inherits its layout (a conv of a channels_last input is
    channels_last too) must not leave the partition: the Ascend runtime exchanges only
    default-dim-order tensors with ExecuTorch (see _layout.py). So channels_last between two convs
    is taken when the chain ends in a contiguous copy on the device, and refused (with that
    reason) when a channels_last tensor would be a model output or feed a CPU op.
    """
    return layout_reason(node, requested_dim_order(node))


class _ChannelsLastConvs(torch.nn.Module):
    """conv -> channels_last -> conv -> contiguous: the layout never leaves the device."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 4, 3)
        self.c2 = torch.nn.Conv2d(4, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.c1(x).to(memory_format=torch.channels_last)
        return torch.relu(self.c2(y)).contiguous()


@converter(
    dim_order_ops._to_dim_order_copy.default,
    aten._to_copy.default,  # with EdgeCompileConfig(_skip_dim_order=True), as optimum lowers
    onnx=["Cast", "Identity"],
    supports=_cast_supported,
    dtypes=_CAST_DTYPES,
    samples=[
        fn_sample("cast_to_int32", lambda x: (x * 3).to(torch.int32), (2, 3)),
        fn_sample("cast_bool_to_float", lambda x: (x > 0).float() * x, (3, 1, 4)),
        fn_sample("cast_to_half", lambda x: x.half(), (4,)),
        fn_sample("cast_int64_to_float", lambda x: x.long().float() + 1, (2, 2)),
        module_sample("to_channels_last_convs", _ChannelsLastConvs, (1, 3, 6, 5), half=True),
        fn_sample(
            "to_channels_last_half",
            lambda x: (x.to(torch.float16, memory_format=torch.channels_last) * 2).contiguous(),
            (2, 3, 2, 2),
        ),
    ],
)
def cast(ctx: LoweringContext, node: Node) -> None:
    src = tensor_val(node.args[0]).dtype
    dst = tensor_val(node).dtype
    if src == dst:
        ctx.emit("Identity", [ctx.value(node.args[0])], node)
    else:
        ctx.emit("Cast", [ctx.value(node.args[0])], node, to=onnx_elem_type(dst))
