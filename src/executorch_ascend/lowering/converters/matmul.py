# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Matrix products -> Gemm (2-D with bias/scales) or MatMul (numpy matmul semantics, like torch).

`linear` and `matmul` are kept whole through to_edge (ops_to_not_decompose), so a Linear becomes
one Gemm instead of permute + addmm, and a batched matmul one MatMul instead of expand/view/bmm.
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ...dtypes import to_numpy
from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import arg, rank
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
        "Transpose",
        "Add",
        "AscendDequant",
        "NPUWeightQuantBatchMatmulV2",
        "Reshape",
        "Cast",
    ],
    dtypes=FLOATS,
    supports=_linear_supported,
    keep_whole=True,
    samples=[
        # First, so the fp16 leg covers the transposed-weight initializer (fp16 Gemm: addmm's).
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
    x, w = ctx.value(node.args[0]), node.args[1]
    bias = arg(node, 2, "bias")
    if rank(node.args[0]) == 2:
        inputs = [x, ctx.value(w)] + ([ctx.value(bias)] if bias is not None else [])
        ctx.emit("Gemm", inputs, node, transB=1)
        return
    weight = ctx.constant(w)
    if weight is not None:
        # The folded transpose keeps the weight's own dtype (fp16 under model.half()). A view:
        # its bytes are written transposed block by block (GraphConstant.chunks), so the
        # lowering never holds a transposed copy of the weight.
        w_t = ctx.derived_initializer(to_numpy(weight.t()), "weight_t", [w])
    else:
        w_t = ctx.tmp("Transpose", [ctx.value(w)], perm=[1, 0])
    if bias is None:
        ctx.emit("MatMul", [x, w_t], node)
    else:
        ctx.emit("Add", [ctx.tmp("MatMul", [x, w_t]), ctx.value(bias)], node)


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
