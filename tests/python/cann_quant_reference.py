# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's quantization ops in numpy, for onnx.reference: the ONNX-level check of graphs ONNX
Runtime cannot run (it has no AscendQuant). A second implementation of the formulas the
emulator's kernels follow (cann-quant reference, section 2; docs/quantization.md), written from
the formulas, not from the C++.

int8 Conv, Gemm and MatMul read their activation offset from the AscendQuant producing their
input, as CANN's graph engine sets the cube op's offset_x: `with_offsets` writes it on a copy of
the model as an `offset_x` attribute these implementations read (only where the AscendQuant feeds
the op directly, as CANN finds it).

`exact=True` runs the same graph with exact arithmetic instead of CANN's fp16 steps (AscendQuant in
float64, AscendDequant and AscendAntiQuant to float32): what PT2E's eager model computes. A graph
that matches eager that way is lowered right; what remains against eager on the device is CANN's
fp16 arithmetic.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun
from onnx.reference.ops.op_conv import Conv as _FloatConv
from onnx.reference.ops.op_gemm import Gemm_7 as _FloatGemm

VENDOR_OPS = {"AscendQuant", "AscendDequant", "AscendAntiQuant", "NPUWeightQuantBatchMatmulV2"}
f16 = np.float16


def _or(value, default):
    return default if value is None else value


def _round(x: np.ndarray, mode: str) -> np.ndarray:
    return {"Round": np.rint, "Floor": np.floor, "Ceil": np.ceil, "Trunc": np.trunc}[mode](x)


class AscendQuant(OpRun):
    op_domain = ""

    def _run(self, x, scale=None, offset=None, sqrt_mode=None, round_mode=None, dst_type=None):
        # onnx.reference passes None for an attribute the node leaves out once the schema is
        # registered (lowering/cann_schemas.py): CANN's defaults then.
        scale, offset, sqrt_mode = _or(scale, 0.0), _or(offset, 0.0), _or(sqrt_mode, 0)
        round_mode = _or(round_mode, "Round")
        h = x.astype(f16)
        if scale != 1.0:
            for _ in range(2 if sqrt_mode else 1):
                h = (h * f16(scale)).astype(f16)
        if offset != 0.0:
            h = (h + f16(offset)).astype(f16)
        r = _round(h.astype(np.float32), round_mode)
        r = np.where(np.isnan(r), 0, r)
        return (np.clip(r, -128, 127).astype(np.int8),)


class AscendAntiQuant(OpRun):
    op_domain = ""

    def _run(self, x, scale=None, offset=None, dtype=None, sqrt_mode=None):
        scale, offset, sqrt_mode = _or(scale, 0.0), _or(offset, 0.0), _or(sqrt_mode, 0)
        h = (x.astype(f16) + f16(-offset)).astype(f16)
        for _ in range(2 if sqrt_mode else 1):
            h = (h * f16(scale)).astype(f16)
        return (h,)


class AscendDequant(OpRun):
    op_domain = ""

    def _run(self, x, deq_scale, dtype=None, sqrt_mode=None, relu_flag=None):
        relu_flag = _or(relu_flag, 0)
        if deq_scale.dtype == np.uint64:
            scale = (deq_scale & 0xFFFFFFFF).astype(np.uint32).view(np.float32).astype(np.float64)
            y = x.astype(np.float64) * _per_channel(scale, x)
            y = y.astype(np.float32).astype(f16)
        else:
            y = (x.astype(f16) * _per_channel(deq_scale, x)).astype(f16)
        return (np.maximum(y, f16(0)) if relu_flag else y,)


def _per_channel(scale: np.ndarray, x: np.ndarray) -> np.ndarray:
    shape = [1] * x.ndim
    if scale.size > 1:
        shape[1] = scale.size
    return scale.reshape(shape)


class Conv(OpRun):
    op_domain = ""

    def _run(self, x, w, b=None, offset_x=0, **attrs):
        if x.dtype != np.int8:
            return _FloatConv._run(self, x, w, b, **attrs)
        # Exact in float64: |sum| < 2^53. Padding holds offset_x, i.e. zero after the shift.
        xs = x.astype(np.float64) - offset_x
        (y,) = _FloatConv._run(self, xs, w.astype(np.float64), None, **attrs)
        if b is not None:
            y = y + b.reshape(1, -1, *([1] * (y.ndim - 2)))
        return (np.rint(y).astype(np.int32),)


class Gemm(OpRun):
    op_domain = ""

    def _run(self, a, b, c=None, offset_x=0, alpha=1.0, beta=1.0, transA=0, transB=0):
        if a.dtype != np.int8:
            return _FloatGemm._run(self, a, b, c, alpha, beta, transA, transB)
        a = a.astype(np.int64) - offset_x
        b = b.astype(np.int64).T if transB else b.astype(np.int64)
        y = a @ b + (0 if c is None else c.astype(np.int64))
        return (y.astype(np.int32),)


class MatMul(OpRun):
    op_domain = ""

    def _run(self, a, b, offset_x=0):
        if a.dtype != np.int8:
            return (np.matmul(a, b),)
        return (np.matmul(a.astype(np.int64) - offset_x, b.astype(np.int64)).astype(np.int32),)


def _int4_unpack(w: np.ndarray) -> np.ndarray:
    """int32 [K, N/8] holding 8 int4 each, element 8j+i in bits 4i..4i+3 -> int8 [K, N]."""
    u = w.astype(np.uint32)[..., None] >> (4 * np.arange(8, dtype=np.uint32))
    nib = (u & 0xF).astype(np.int8)
    nib = np.where(nib > 7, nib - 16, nib).astype(np.int8)
    return nib.reshape(w.shape[0], -1)


class NPUWeightQuantBatchMatmulV2(OpRun):
    op_domain = ""

    def _run(
        self,
        x,
        weight,
        antiquant_scale,
        antiquant_offset=None,
        quant_scale=None,
        quant_offset=None,
        bias=None,
        antiquant_group_size=None,
        dtype=None,
        transpose_x=None,
        transpose_weight=None,
    ):
        antiquant_group_size = _or(antiquant_group_size, 0)
        w = _int4_unpack(weight) if weight.dtype == np.int32 else weight
        k = w.shape[0]
        scale, offset = antiquant_scale, antiquant_offset
        if antiquant_group_size:  # [ceil(K/G), N] -> one row per k
            rows = np.arange(k) // antiquant_group_size
            scale = scale[rows]
            offset = None if offset is None else offset[rows]
        wf = w.astype(x.dtype)
        if offset is not None:
            wf = (wf + offset.reshape(-1, w.shape[1]) if offset.ndim else wf + offset).astype(
                x.dtype
            )
        wf = (wf * scale.reshape(-1, w.shape[1])).astype(x.dtype)
        y = x.astype(np.float32) @ wf.astype(np.float32)
        if bias is not None:
            y = y + bias.astype(np.float32)
        return (y.astype(x.dtype),)


class ExactAscendQuant(AscendQuant):
    op_type = "AscendQuant"

    def _run(self, x, scale=0.0, offset=0.0, sqrt_mode=0, round_mode="Round", dst_type="INT8"):
        r = _round(
            x.astype(np.float64) * scale * (scale if sqrt_mode else 1.0) + offset, round_mode
        )
        return (np.clip(r, -128, 127).astype(np.int8),)


class ExactAscendAntiQuant(AscendAntiQuant):
    op_type = "AscendAntiQuant"

    def _run(self, x, scale=None, offset=None, dtype=None, sqrt_mode=None):
        scale, offset = _or(scale, 0.0), _or(offset, 0.0)
        return (((x.astype(np.float64) - offset) * scale).astype(np.float32),)


class ExactAscendDequant(AscendDequant):
    op_type = "AscendDequant"

    def _run(self, x, deq_scale, dtype=None, sqrt_mode=None, relu_flag=None):
        scale = (deq_scale & 0xFFFFFFFF).astype(np.uint32).view(np.float32).astype(np.float64)
        y = (x.astype(np.float64) * _per_channel(scale, x)).astype(np.float32)
        return (np.maximum(y, 0) if relu_flag else y,)


def with_offsets(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy where each Conv/Gemm fed by an AscendQuant carries that AscendQuant's offset as
    `offset_x` (what CANN's graph engine does)."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    offsets = {}
    for node in model.graph.node:
        if node.op_type == "AscendQuant":
            attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
            offsets[node.output[0]] = round(attrs.get("offset", 0.0))
    for node in model.graph.node:
        if node.op_type in ("Conv", "Gemm", "MatMul") and node.input[0] in offsets:
            node.attribute.append(onnx.helper.make_attribute("offset_x", offsets[node.input[0]]))
    return model


def has_vendor_ops(model: onnx.ModelProto) -> bool:
    return any(n.op_type in VENDOR_OPS for n in model.graph.node)


def run_reference(
    model: onnx.ModelProto, feeds: dict[str, np.ndarray], exact: bool = False
) -> list[np.ndarray]:
    ops: list[type[OpRun]] = [Conv, Gemm, MatMul, NPUWeightQuantBatchMatmulV2]
    if exact:
        ops += [_named(ExactAscendQuant), _named(ExactAscendAntiQuant), _named(ExactAscendDequant)]
    else:
        ops += [AscendQuant, AscendAntiQuant, AscendDequant]
    return ReferenceEvaluator(with_offsets(model), new_ops=ops).run(None, feeds)


def _named(cls: type[OpRun]) -> type[OpRun]:
    """onnx.reference finds an implementation by its class name: the exact variant as the op."""
    return type(cls.op_type, (cls,), {})
