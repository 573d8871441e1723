# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's quantization ops as ONNX schemas, so onnx.checker checks the graphs that use them.

CANN's ONNX parser registers AscendQuant, AscendDequant, AscendAntiQuant (ai.onnx opsets 8-22)
and NPUWeightQuantBatchMatmulV2 (ai.onnx 11-19) in the default domain (hicann/ops-nn@e5c3fa93,
quant/*/framework/*_onnx_plugin.cpp; cann_op_facts.json), which ONNX itself does not define.
Registering their inputs, outputs and attributes here lets onnx.checker validate a quantized
graph as it validates any other.

ONNX's Conv and Gemm allow float types only; CANN's take int8 x and weight with an int32 bias (its
int8 cube path). onnx.checker's full check (type inference) therefore cannot pass a graph with
int8 Conv/Gemm: `full_check` says when to ask for it.
"""

from __future__ import annotations

import onnx
from onnx.defs import OpSchema

_FLOAT = OpSchema.AttrType.FLOAT
_INT = OpSchema.AttrType.INT
_STRING = OpSchema.AttrType.STRING
_OPTIONAL = OpSchema.FormalParameterOption.Optional


def _attr(name: str, kind: OpSchema.AttrType) -> OpSchema.Attribute:
    return OpSchema.Attribute(name, kind, "", required=False)


def _param(name: str, type_str: str, optional: bool = False) -> OpSchema.FormalParameter:
    if optional:
        return OpSchema.FormalParameter(name, type_str, "", param_option=_OPTIONAL)
    return OpSchema.FormalParameter(name, type_str, "")


_FLOAT16_32 = ["tensor(float16)", "tensor(float)"]
_SCHEMAS = [
    OpSchema(
        "AscendQuant",
        "",
        8,
        "y = saturate_int8(round(fp16(x) * scale + offset)) (fp16 arithmetic)",
        inputs=[_param("x", "T")],
        outputs=[_param("y", "tensor(int8)")],
        type_constraints=[("T", _FLOAT16_32, "")],
        attributes=[
            _attr("scale", _FLOAT),
            _attr("offset", _FLOAT),
            _attr("sqrt_mode", _INT),
            _attr("round_mode", _STRING),
            _attr("dst_type", _STRING),
        ],
    ),
    OpSchema(
        "AscendDequant",
        "",
        8,
        "y = fp16(x * deq_scale) per tensor or per channel (dim 1)",
        inputs=[_param("x", "tensor(int32)"), _param("deq_scale", "T")],
        outputs=[_param("y", "tensor(float16)")],
        type_constraints=[("T", ["tensor(uint64)", "tensor(float16)"], "")],
        attributes=[_attr("dtype", _INT), _attr("sqrt_mode", _INT), _attr("relu_flag", _INT)],
    ),
    OpSchema(
        "AscendAntiQuant",
        "",
        8,
        "y = (fp16(x) - offset) * scale (fp16 arithmetic)",
        inputs=[_param("x", "tensor(int8)")],
        outputs=[_param("y", "tensor(float16)")],
        attributes=[
            _attr("scale", _FLOAT),
            _attr("offset", _FLOAT),
            _attr("dtype", _INT),
            _attr("sqrt_mode", _INT),
        ],
    ),
    OpSchema(
        "NPUWeightQuantBatchMatmulV2",
        "",
        11,
        "y = x @ ((weight + antiquant_offset) * antiquant_scale) + bias",
        inputs=[
            _param("x", "T"),
            _param("weight", "W"),
            _param("antiquant_scale", "T"),
            _param("antiquant_offset", "T", optional=True),
            _param("quant_scale", "tensor(float)", optional=True),
            _param("quant_offset", "tensor(float)", optional=True),
            _param("bias", "B", optional=True),
        ],
        outputs=[_param("y", "T")],
        type_constraints=[
            ("T", ["tensor(float16)", "tensor(bfloat16)"], ""),
            ("W", ["tensor(int8)", "tensor(int32)"], ""),
            ("B", ["tensor(float16)", "tensor(float)"], ""),
        ],
        attributes=[
            _attr("antiquant_group_size", _INT),
            _attr("dtype", _INT),
            _attr("transpose_x", _INT),
            _attr("transpose_weight", _INT),
        ],
    ),
]


def _register() -> None:
    for schema in _SCHEMAS:
        try:
            onnx.defs.get_schema(schema.name, 22, schema.domain)
        except onnx.defs.SchemaError:
            onnx.defs.register_schema(schema)


_register()

# The cube ops CANN runs on int8 operands, which ONNX's own schemas (float only) reject.
_INT8_CUBE_OPS = {"Conv", "Gemm", "MatMul"}


def full_check(model: onnx.ModelProto) -> bool:
    """Whether onnx.checker's full check (type inference) applies: not to a graph whose Conv,
    Gemm or MatMul reads an int8 initializer (CANN's int8 path, outside ONNX's types)."""
    int8 = {i.name for i in model.graph.initializer if i.data_type == onnx.TensorProto.INT8}
    return not any(
        n.op_type in _INT8_CUBE_OPS and any(i in int8 for i in n.input) for n in model.graph.node
    )
