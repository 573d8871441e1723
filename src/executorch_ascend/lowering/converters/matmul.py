# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Matrix products -> Gemm (2-D with bias/scales) or MatMul (numpy matmul semantics, like torch).

`linear` and `matmul` are kept whole through to_edge (ops_to_not_decompose), so a Linear becomes
one Gemm instead of permute + addmm, and a batched matmul one MatMul instead of expand/view/bmm.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import arg, rank, shape
from ._dtypes import FLOATS
from ._quant import takes_int8
from ._weight_only import (
    emit_weight_only_linear,
    is_weight_only,
    warn_float_weight,
    weight_only_refusal,
)
from .quantized import emit_int8_linear

aten = torch.ops.aten

# CANN maps MatMul to BatchMatMulV2, documented for ranks 1..6.
_MAX_MATMUL_RANK = 6


def _linear_supported(node: Node) -> str | None:
    """2-D weight, 1-D bias, input rank 1..6."""
    if rank(node.args[1]) != 2:
        return "linear weight must be 2-D"
    bias = arg(node, 2, "bias")
    if bias is not None and rank(bias) != 1:
        return "linear bias must be 1-D"
    if not 1 <= rank(node.args[0]) <= _MAX_MATMUL_RANK:
        return f"linear input rank must be 1..{_MAX_MATMUL_RANK} (CANN BatchMatMulV2)"
    return None


@converter(
    aten.linear.default,
    onnx=[
        "Gemm",
        "MatMul",
        "Add",
        "AscendDequant",
        "NPUWeightQuantBatchMatmulV2",
        "Reshape",
        "Cast",
        "Concat",
        "Slice",
    ],
    dtypes=FLOATS,
    supports=_linear_supported,
    keep_whole=True,
    samples=[
        # First, so the fp16 leg covers the flattened rows around Gemm (fp16 Gemm: addmm's).
        module_sample("linear_3d", lambda: torch.nn.Linear(5, 6), (2, 3, 5)),
        module_sample("linear_2d", lambda: torch.nn.Linear(8, 4), (3, 8)),
        module_sample("linear_no_bias", lambda: torch.nn.Linear(6, 2, bias=False), (4, 6)),
        module_sample("linear_1d", lambda: torch.nn.Linear(3, 5), (3,)),
    ],
)
def linear(ctx: LoweringContext, node: Node) -> None:
    if takes_int8(node):
        emit_int8_linear(ctx, node)
        return
    if is_weight_only(node.args[1]):
        refusal = weight_only_refusal(node)
        if refusal is None:
            emit_weight_only_linear(ctx, node)
            return
        warn_float_weight(node, refusal)
    x, w = ctx.value(node.args[0]), ctx.value(node.args[1])
    bias = arg(node, 2, "bias")
    inputs = [w] + ([ctx.value(bias)] if bias is not None else [])
    if rank(node.args[0]) == 2:
        ctx.emit("Gemm", [x, *inputs], node, transB=1)
        return
    # Any other rank: rows flattened to 2-D around one Gemm with transB=1 (CANN's Gemm is 2-D;
    # the Reshapes move no data). The weight is read as stored, never as a transposed copy: a
    # weight another op reads too (a tied LM head and embedding table) stays one initializer,
    # one weight file and one named-data key.
    in_features = shape(node.args[1])[1]
    rows = ctx.tmp("Reshape", [x, ctx.int64s([-1, in_features])])
    y = ctx.tmp("Gemm", [rows, *inputs], transB=1)
    ctx.emit("Reshape", [y, ctx.int64s(shape(node))], node)


def _number(node: Node, index: int, name: str) -> str | None:
    value = arg(node, index, name, 1)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{name} must be a number, got {value!r}"
    return None


def _addmm_supported(node: Node) -> str | None:
    """alpha and beta are numbers."""
    return _number(node, 3, "beta") or _number(node, 4, "alpha")


@converter(
    aten.addmm.default,
    onnx=["Gemm"],
    dtypes=FLOATS,
    supports=_addmm_supported,
    samples=[
        fn_sample("addmm_row_bias", lambda b, x, y: torch.addmm(b, x, y), (5,), (3, 4), (4, 5)),
        fn_sample(
            "addmm_scaled",
            lambda b, x, y: torch.addmm(b, x, y, beta=0.5, alpha=2.0),
            (3, 5),
            (3, 4),
            (4, 5),
        ),
    ],
)
def addmm(ctx: LoweringContext, node: Node) -> None:
    bias, m1, m2 = (ctx.value(a) for a in node.args[:3])
    alpha = float(arg(node, 4, "alpha", 1))
    beta = float(arg(node, 3, "beta", 1))
    ctx.emit("Gemm", [m1, m2, bias], node, alpha=alpha, beta=beta)


@converter(
    aten.mm.default,
    aten.bmm.default,
    onnx=["MatMul"],
    dtypes=FLOATS,
    samples=[
        fn_sample("mm", torch.mm, (3, 4), (4, 5)),
        fn_sample("mm_vector_like", torch.mm, (1, 6), (6, 1)),
        fn_sample("bmm", torch.bmm, (2, 3, 4), (2, 4, 5)),
        # baddbmm has no converter of its own: to_edge decomposes it into bmm, mul and add.
        fn_sample(
            "baddbmm_scaled",
            lambda b, x, y: torch.baddbmm(b, x, y, beta=0.5, alpha=2.0),
            (2, 1, 5),
            (2, 3, 4),
            (2, 4, 5),
        ),
    ],
)
def mm(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("MatMul", [ctx.value(node.args[0]), ctx.value(node.args[1])], node)


def _matmul_supported(node: Node) -> str | None:
    """operand ranks 1..6 (CANN BatchMatMulV2)."""
    for operand in node.args[:2]:
        if not 1 <= rank(operand) <= _MAX_MATMUL_RANK:
            return f"matmul operand rank must be 1..{_MAX_MATMUL_RANK} (CANN BatchMatMulV2)"
    return None


@converter(
    aten.matmul.default,
    onnx=["MatMul"],
    dtypes=FLOATS,
    supports=_matmul_supported,
    keep_whole=True,
    samples=[
        fn_sample("matmul_batched_broadcast", torch.matmul, (2, 1, 3, 4), (5, 4, 6)),
        fn_sample("matmul_3d_2d", torch.matmul, (3, 2, 4), (4, 5)),
        fn_sample("matmul_vector", torch.matmul, (3, 4), (4,)),
    ],
)
def matmul(ctx: LoweringContext, node: Node) -> None:
    ctx.emit("MatMul", [ctx.value(node.args[0]), ctx.value(node.args[1])], node)
