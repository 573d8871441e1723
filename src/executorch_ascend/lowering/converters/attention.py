# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""scaled_dot_product_attention -> one region of MatMul, Mul, Softmax (and the mask ops).

The op is kept whole through to_edge (keep_whole), so one attention is one small ONNX region
instead of the decomposition's expand/view/bmm chain:
    scores = MatMul(Q, Transpose(K)) * scale
    scores = Where(mask, scores, -inf) (bool or causal mask) | scores + mask (float mask)
    out    = MatMul(Softmax(scores, -1), V)
PyTorch gives 0 (not NaN) for a row whose scores are all -inf after masking (its "safe softmax"),
so when a mask can mask a whole row, Where(ReduceMax(row) == -inf, 0, softmax) follows the Softmax.
A causal mask never masks a whole row (row i always sees column 0), and a constant mask is
checked when lowering, so only a mask that is a graph value pays for the extra ops.
"""

from __future__ import annotations

import math

import torch
from torch.fx import Node

from ..context import LoweringContext
from ..registry import converter
from ..samples import fn_sample, module_sample
from ._args import arg, rank, shape, tensor_val
from ._dtypes import FLOATS

aten = torch.ops.aten
F = torch.nn.functional

# CANN maps MatMul to BatchMatMulV2, documented for ranks 1..6; enable_gqa reshapes K and V to
# one rank more (the head groups), so it stops at 5-D.
_MAX_RANK = 6
_MAX_GQA_RANK = 5


def _mask(node: Node) -> Node | None:
    mask = arg(node, 3, "attn_mask")
    return mask if isinstance(mask, Node) else None


def _is_causal(node: Node) -> bool:
    return bool(arg(node, 5, "is_causal", False))


def _gqa(node: Node) -> bool:
    return bool(node.kwargs.get("enable_gqa", False))


def _sdpa_supported(node: Node) -> str | None:
    """2..6-D, dropout_p 0; bool/float mask broadcasting to the scores, or is_causal; gqa 3..5-D."""
    q, k, v = node.args[:3]
    dtype = tensor_val(q).dtype
    if dtype not in FLOATS or any(tensor_val(t).dtype != dtype for t in (k, v)):
        return "query, key and value must share one float dtype"
    if float(arg(node, 4, "dropout_p", 0.0)) != 0.0:
        return "dropout_p != 0 is not lowered"
    ranks = {rank(t) for t in (q, k, v)}
    if len(ranks) != 1 or not 2 <= min(ranks) <= _MAX_RANK:
        return f"query, key and value must have one rank in 2..{_MAX_RANK} (CANN BatchMatMulV2)"
    qs, ks, vs = shape(q), shape(k), shape(v)
    if qs[-1] != ks[-1] or ks[-2] != vs[-2]:
        return f"mismatched query/key/value shapes {qs}, {ks}, {vs}"
    if _gqa(node):
        if not 3 <= len(qs) <= _MAX_GQA_RANK or ks[-3] != vs[-3] or qs[-3] % ks[-3]:
            return f"enable_gqa needs 3..{_MAX_GQA_RANK}-D inputs, query heads a multiple of K/V's"
        ks, vs = ks[:-3] + qs[-3:-2] + ks[-2:], vs[:-3] + qs[-3:-2] + vs[-2:]
    if not qs[:-2] == ks[:-2] == vs[:-2]:
        return f"query/key/value batch dims differ: {qs}, {ks}, {vs}"
    mask = _mask(node)
    if mask is not None:
        if _is_causal(node):
            return "attn_mask together with is_causal"
        mask_dtype = tensor_val(mask).dtype
        if mask_dtype not in (torch.bool, dtype):
            return f"attn_mask dtype {mask_dtype} (bool or the query's dtype)"
        scores = (*qs[:-1], ks[-2])
        try:
            broadcast = tuple(torch.broadcast_shapes(tuple(shape(mask)), scores))
        except RuntimeError:
            broadcast = None
        if broadcast != scores:
            return f"attn_mask of shape {shape(mask)} does not broadcast to the scores {scores}"
    return None


def _repeat_heads(ctx: LoweringContext, x: str, dims: list[int], heads: int) -> str:
    # enable_gqa repeats each key/value head heads // H times in place (repeat_interleave on -3):
    # (..., H, S, E) -> (..., H, 1, S, E) -> expand (..., H, g, S, E) -> (..., heads, S, E).
    *batch, h, s, e = dims
    grouped = ctx.tmp("Reshape", [x, ctx.int64s([*batch, h, 1, s, e])])
    expanded = ctx.tmp("Expand", [grouped, ctx.int64s([*batch, h, heads // h, s, e])])
    return ctx.tmp("Reshape", [expanded, ctx.int64s([*batch, heads, s, e])])


def _may_mask_a_row(ctx: LoweringContext, mask: Node) -> bool:
    """Whether some row of the mask hides every key (always, unless the mask is a constant)."""
    value = ctx.constant(mask)
    if value is None:
        return True
    hidden = ~value if value.dtype == torch.bool else value == float("-inf")
    return bool(hidden.all(dim=-1).any())


def _mask_from(x: torch.Tensor) -> torch.Tensor:
    return x > 0


def _row_1_negative(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Standard-normal; a 2-D shape (a mask source) gets row 1 < 0, so `> 0` hides that row."""
    x = torch.randn(shape_, generator=gen)
    if len(shape_) == 2:
        x[1] = -x[1].abs() - 0.1
    return x


def _float_mask(shape_: tuple[int, ...], gen: torch.Generator) -> torch.Tensor:
    """Standard-normal Q/K/V; a 2-D shape is an additive mask with -inf holes and a -inf row."""
    x = torch.randn(shape_, generator=gen)
    if len(shape_) != 2:
        return x
    x = x.masked_fill(torch.rand(shape_, generator=gen) < 0.3, float("-inf"))
    x[1, :] = float("-inf")
    return x


class _ConstMaskAttention(torch.nn.Module):
    """A bool mask held as a buffer: lowered as a constant; it hides no whole row."""

    def __init__(self, length: int, keys: int) -> None:
        super().__init__()
        mask = torch.rand(length, keys, generator=torch.Generator().manual_seed(3)) > 0.4
        mask[:, 0] = True
        self.register_buffer("mask", mask)

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=self.mask)


_SDPA = F.scaled_dot_product_attention
_SAMPLES = [
    fn_sample(
        "sdpa_plain", lambda q, k, v: _SDPA(q, k, v), (2, 3, 4, 8), (2, 3, 4, 8), (2, 3, 4, 8)
    ),
    fn_sample("sdpa_3d_l_ne_s", lambda q, k, v: _SDPA(q, k, v), (3, 2, 5), (3, 6, 5), (3, 6, 4)),
    fn_sample(
        "sdpa_bool_mask",
        lambda q, k, v, m: _SDPA(q, k, v, attn_mask=_mask_from(m)),
        (2, 3, 4, 8),
        (2, 3, 5, 8),
        (2, 3, 5, 8),
        (2, 1, 4, 5),
    ),
    fn_sample(
        "sdpa_bool_mask_hidden_row",
        lambda q, k, v, m: _SDPA(q, k, v, attn_mask=_mask_from(m)),
        (1, 2, 3, 4),
        (1, 2, 6, 4),
        (1, 2, 6, 4),
        (3, 6),
        inputs=_row_1_negative,
    ),
    fn_sample(
        "sdpa_float_mask",
        lambda q, k, v, m: _SDPA(q, k, v, attn_mask=m),
        (2, 2, 4, 6),
        (2, 2, 5, 6),
        (2, 2, 5, 6),
        (1, 2, 4, 5),
    ),
    fn_sample(
        "sdpa_float_mask_inf_row",
        lambda q, k, v, m: _SDPA(q, k, v, attn_mask=m),
        (2, 3, 4),
        (2, 5, 4),
        (2, 5, 4),
        (3, 5),
        inputs=_float_mask,
        half=True,
    ),
    module_sample(
        "sdpa_const_bool_mask",
        lambda: _ConstMaskAttention(4, 6),
        (1, 2, 4, 8),
        (1, 2, 6, 8),
        (1, 2, 6, 8),
    ),
    fn_sample(
        "sdpa_causal",
        lambda q, k, v: _SDPA(q, k, v, is_causal=True),
        (1, 2, 5, 4),
        (1, 2, 5, 4),
        (1, 2, 5, 4),
        half=True,
    ),
    fn_sample(
        "sdpa_causal_l_gt_s",
        lambda q, k, v: _SDPA(q, k, v, is_causal=True),
        (2, 6, 4),
        (2, 3, 4),
        (2, 3, 4),
    ),
    fn_sample(
        "sdpa_causal_l_lt_s",
        lambda q, k, v: _SDPA(q, k, v, is_causal=True),
        (1, 1, 3, 4),
        (1, 1, 5, 4),
        (1, 1, 5, 4),
    ),
    fn_sample(
        "sdpa_scale",
        lambda q, k, v: _SDPA(q, k, v, scale=0.3),
        (1, 2, 3, 16),
        (1, 2, 7, 16),
        (1, 2, 7, 8),
    ),
    fn_sample("sdpa_2d", lambda q, k, v: _SDPA(q, k, v), (3, 4), (5, 4), (5, 2)),
    fn_sample(
        "sdpa_5d_causal",
        lambda q, k, v: _SDPA(q, k, v, is_causal=True),
        (2, 1, 2, 4, 3),
        (2, 1, 2, 4, 3),
        (2, 1, 2, 4, 3),
    ),
    fn_sample(
        "sdpa_gqa_3d_mask",
        lambda q, k, v, m: _SDPA(q, k, v, attn_mask=_mask_from(m), enable_gqa=True),
        (4, 3, 5),
        (2, 6, 5),
        (2, 6, 5),
        (3, 6),
        inputs=_row_1_negative,
    ),
    fn_sample(
        "sdpa_gqa",
        lambda q, k, v: _SDPA(q, k, v, enable_gqa=True),
        (1, 6, 3, 4),
        (1, 2, 5, 4),
        (1, 2, 5, 4),
    ),
]


@converter(
    aten.scaled_dot_product_attention.default,
    onnx=[
        *("MatMul", "Transpose", "Mul", "Softmax"),
        *("Add", "Where", "ReduceMax", "Equal"),  # masks
        *("Reshape", "Expand"),  # enable_gqa
    ],
    supports=_sdpa_supported,
    dtypes=(*FLOATS, torch.bool),
    keep_whole=True,
    # PyTorch's CPU kernels return an output laid out like q (flash) or contiguous (math, with a
    # mask), and which one a trace sees differs between export and the re-traces of to_edge.
    layout_varies=True,
    samples=_SAMPLES,
)
def scaled_dot_product_attention(ctx: LoweringContext, node: Node) -> None:
    q, k, v = node.args[:3]
    qs, ks, vs = shape(q), shape(k), shape(v)
    r = len(qs)
    dtype = tensor_val(q).dtype
    key, value = ctx.value(k), ctx.value(v)
    if _gqa(node) and ks[-3] != qs[-3]:
        key = _repeat_heads(ctx, key, ks, qs[-3])
        value = _repeat_heads(ctx, value, vs, qs[-3])
    scale = node.kwargs.get("scale")
    scale = 1.0 / math.sqrt(qs[-1]) if scale is None else float(scale)

    perm = [*range(r - 2), r - 1, r - 2]
    key_t = ctx.tmp("Transpose", [key], perm=perm)
    scores = ctx.tmp("MatMul", [ctx.value(q), key_t])
    scores = ctx.tmp("Mul", [scores, ctx.scalar(scale, dtype)])

    neg_inf = ctx.scalar(float("-inf"), dtype)
    mask = _mask(node)
    safe = False
    if _is_causal(node):
        causal = torch.ones(qs[-2], ks[-2], dtype=torch.bool).tril()
        causal_name = ctx.builder.add_initializer(causal.numpy(), "causal_mask")
        scores = ctx.tmp("Where", [causal_name, scores, neg_inf])
    elif mask is not None:
        if tensor_val(mask).dtype == torch.bool:
            scores = ctx.tmp("Where", [ctx.value(mask), scores, neg_inf])
        else:
            scores = ctx.tmp("Add", [scores, ctx.value(mask)])
        safe = _may_mask_a_row(ctx, mask)

    probs = ctx.tmp("Softmax", [scores], axis=r - 1)
    if safe:
        row_max = ctx.tmp("ReduceMax", [scores], axes=[r - 1], keepdims=1)
        hidden_row = ctx.tmp("Equal", [row_max, neg_inf])
        probs = ctx.tmp("Where", [hidden_row, ctx.scalar(0.0, dtype), probs])
    ctx.emit("MatMul", [probs, value], node)
