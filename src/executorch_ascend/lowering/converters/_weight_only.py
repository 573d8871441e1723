# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Weight-only quantized linears (torchao) -> CANN's WeightQuantBatchMatmulV2.

torchao's weight-only configs (`IntxWeightOnlyConfig`, `Int8WeightOnlyConfig`; what
optimum-executorch's `--qlinear 4w` / `8w` and ExecuTorch's LLM export produce) reach the edge
graph as

    linear(x, torchao.dequantize_affine(q int8 [N, K], block_size [1, G], scale, zero_point))

with q in [-8, 7] for int4 and [-128, 127] for int8, and per-channel (G = K) or per-group scales.
CANN computes the same in one op (cann-quant reference, section 2, and hicann/ops-nn
matmul/weight_quant_batch_matmul_v2), which its ONNX parser registers as
NPUWeightQuantBatchMatmulV2 (ai.onnx 11-19) with transpose_x and transpose_weight forced false:

    y = x @ ((w + antiquant_offset) * antiquant_scale) + bias,   w: [K, N]

  - x is fp16 or bf16 (a float32 graph casts x to fp16 and the result back: W8A16 / W4A16);
  - w is int8 [K, N], or int4 packed eight to an int32 [K, N/8], element 8j+i in bits 4i..4i+3
    (ConvertWeightToINT4Pack's order: element 2i in a byte's low nibble);
  - antiquant_scale is [N] per channel or [K/G, N] per group (G a multiple of 32 below K), in x's
    dtype; antiquant_offset = -zero_point, left out when every zero point is 0;
  - bias is in x's dtype (fp32 when x is bf16).

The weights stay int8 / packed int4 in the ONNX initializers, so the .ptd and the device hold
1/4 and 1/8 of the float32 bytes. CANN takes N up to 65535: a wider weight (an LM head over a
large vocabulary) becomes one op per even column chunk and a Concat, still int8 / int4.
"""

from __future__ import annotations

import logging

import numpy as np
import torch
from torch.fx import Node

from ...dtypes import numpy_dtype, onnx_elem_type, to_numpy
from ..context import LoweringContext, LoweringError
from ._args import shape, tensor_val
from ._quant import target

logger = logging.getLogger(__name__)

# int4 and int8 as torchao writes them: int8 storage with these ranges.
_INT4_RANGE = (-8, 7)
_INT8_RANGES = ((-128, 127), (-127, 127))
_MIN_GROUP = 32  # CANN: a group size is a multiple of 32 in [32, K - 1]
_MAX_DIM = 65535  # CANN (Ascend910B): K and N in [1, 65535]


def _dequantize_affine() -> object:
    ops = getattr(torch.ops, "torchao", None)
    return getattr(getattr(ops, "dequantize_affine", None), "default", None)


def is_weight_only(weight: object) -> bool:
    """`weight` is a torchao dequantize_affine of an int8-stored tensor."""
    op = _dequantize_affine()
    return op is not None and target(weight) is op


def weight_only_refusal(node: Node) -> str | None:
    """Why a linear with a dequantize_affine weight cannot use WeightQuantBatchMatmulV2 (it then
    lowers as a float linear of the dequantized weight); None if it can."""
    dq = node.args[1]
    assert isinstance(dq, Node)
    block, _, _, dtype, qmin, qmax = dq.args[1:7]
    n, k = shape(dq.args[0])
    if dtype != torch.int8 or ((qmin, qmax) != _INT4_RANGE and (qmin, qmax) not in _INT8_RANGES):
        return f"weight range [{qmin}, {qmax}] of {dtype} is neither int4 nor int8"
    if list(block) != [1, block[1]] or k % int(block[1]):
        return f"block size {list(block)} (CANN groups along K only: [1, G])"
    group = int(block[1])
    if group != k and (group % _MIN_GROUP or group >= k):
        return f"group size {group} (CANN: a multiple of 32 below K = {k})"
    if (qmin, qmax) == _INT4_RANGE and n % 8:
        return f"int4 weight with N = {n} (packed eight to an int32: N must be a multiple of 8)"
    if k > _MAX_DIM:
        return f"weight [{n}, {k}] (CANN: K at most 65535; a larger N is split into ops)"
    if tensor_val(node.args[0]).dtype not in (torch.float32, torch.float16, torch.bfloat16):
        return "the activation is not float32, float16 or bfloat16"
    return None


def warn_float_weight(node: Node, reason: str) -> None:
    logger.warning(
        "%s: weight-only quantized linear lowered with its weight dequantized to float (%s); "
        "docs/quantization.md says which forms CANN's WeightQuantBatchMatmulV2 takes",
        node.name,
        reason,
    )


def _pack_int4(w: np.ndarray) -> np.ndarray:
    """int8 [K, N] in [-8, 7] -> int32 [K, N/8], element 8j+i in bits 4i..4i+3."""
    nibbles = (w.astype(np.uint32) & 0xF).reshape(w.shape[0], -1, 8)
    shifts = np.arange(8, dtype=np.uint32) * 4
    return np.bitwise_or.reduce(nibbles << shifts, axis=2).astype(np.uint32).view(np.int32)


def _column_chunks(n: int) -> list[slice]:
    """N in as few even chunks as CANN's N <= 65535 allows, each a multiple of 8 (int4 packs
    eight columns to an int32): an LM head over a 151 936-token vocabulary is three ops."""
    count = -(-n // _MAX_DIM)
    size = -(-n // count // 8) * 8 if count > 1 else n
    return [slice(start, min(start + size, n)) for start in range(0, n, size)]


def emit_weight_only_linear(ctx: LoweringContext, node: Node) -> None:
    dq = node.args[1]
    assert isinstance(dq, Node)
    q, scale, zero_point = (
        ctx.constant(dq.args[0]),
        ctx.constant(dq.args[2]),
        ctx.constant(dq.args[3]),
    )
    if q is None or scale is None:
        raise LoweringError(f"{node.name}: the weight-only weight is not a constant")
    n, k = q.shape
    group = int(dq.args[1][1])
    x_dtype, out_dtype = tensor_val(node.args[0]).dtype, tensor_val(node).dtype
    compute = x_dtype if x_dtype in (torch.float16, torch.bfloat16) else torch.float16
    np_compute = numpy_dtype(compute)

    x = ctx.value(node.args[0])
    in_shape = shape(node.args[0])
    if x_dtype != compute:
        x = ctx.tmp("Cast", [x], to=onnx_elem_type(compute))
    if len(in_shape) != 2:
        x = ctx.tmp("Reshape", [x, ctx.int64s([-1, k])])

    w_t = to_numpy(q).T  # [K, N]
    int4 = (int(dq.args[5]), int(dq.args[6])) == _INT4_RANGE
    scales = scale.double().numpy().reshape(n, -1).T  # [K/G, N]
    per_channel = scales.shape[0] == 1
    offsets = None
    if zero_point is not None and bool(torch.any(zero_point != 0)):
        offsets = -zero_point.double().numpy().reshape(n, -1).T
    bias = node.args[2] if len(node.args) > 2 else node.kwargs.get("bias")
    bias_dtype = torch.float32 if compute == torch.bfloat16 else compute
    bias_value = ctx.constant(bias) if isinstance(bias, Node) else None
    if isinstance(bias, Node) and bias_value is None:
        b_all = ctx.tmp("Cast", [ctx.value(bias)], to=onnx_elem_type(bias_dtype))

    def per_column(values: np.ndarray, cols: slice) -> np.ndarray:
        return np.ascontiguousarray(values[0, cols] if per_channel else values[:, cols])

    outputs = []
    for cols in _column_chunks(n):
        w_cols = np.ascontiguousarray(w_t[:, cols])
        packed = _pack_int4(w_cols) if int4 else w_cols
        w = ctx.derived_initializer(packed, "weight_int4" if int4 else "weight_int8", [dq])
        s = ctx.derived_initializer(
            per_column(scales, cols).astype(np_compute), "antiquant_scale", [dq]
        )
        inputs = [x, w, s]
        if offsets is not None:
            inputs.append(
                ctx.derived_initializer(
                    per_column(offsets, cols).astype(np_compute), "antiquant_offset", [dq]
                )
            )
        if isinstance(bias, Node):
            if bias_value is not None:
                b = ctx.derived_initializer(
                    to_numpy(bias_value.to(bias_dtype))[cols], "bias", [bias]
                )
            elif cols == slice(0, n):
                b = b_all
            else:
                b = ctx.tmp("Slice", [b_all, ctx.int64s([cols.start]), ctx.int64s([cols.stop])])
            inputs += [""] * (6 - len(inputs)) + [b]
        outputs.append(
            ctx.tmp(
                "NPUWeightQuantBatchMatmulV2",
                inputs,
                antiquant_group_size=0 if per_channel else group,
                dtype=-1,
                transpose_x=0,
                transpose_weight=0,
            )
        )
    y = outputs[0] if len(outputs) == 1 else ctx.tmp("Concat", outputs, axis=1)
    out_shape = shape(node)
    if len(out_shape) != 2:
        y = ctx.tmp("Reshape", [y, ctx.int64s(out_shape)])
    if out_dtype == compute:
        ctx.emit("Identity", [y], node)
    else:
        ctx.emit("Cast", [y], node, to=onnx_elem_type(out_dtype))
