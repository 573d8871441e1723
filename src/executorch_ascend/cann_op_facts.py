# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What CANN's ONNX parser registers and what CANN can compute per chip family, for the ONNX ops
the lowering emits.

The facts are data, `cann_op_facts.json` beside this file, read from CANN's public sources (the
commits it names): the opsets each ai.onnx op is registered for, which chip families have no
bfloat16 at all, which ops have no float32 on a family (the inference chips' cube units take
float16/int8), which ops have no bfloat16, the operands CANN needs constant, the attribute values
its plugins handle, and the Conv/pool window limits. The emulator's atc reads the same file (a
header generated at build time), so the partitioner, preprocess and atc refuse the same things.
An op or a family the file does not name is not restricted.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING

from .soc_versions import SOC_VERSIONS

if TYPE_CHECKING:
    import onnx

_DATA = json.loads(resources.files(__package__).joinpath("cann_op_facts.json").read_text("utf-8"))

#: Where each fact comes from (short name -> repository@commit, or the document).
SOURCES: dict[str, str] = dict(_DATA["sources"])
_NO_BF16_FAMILIES: dict[str, str] = dict(_DATA["families_without_bfloat16"])
_OPS: dict[str, dict] = dict(_DATA["ops"])

#: The precision mode a chip family gets when the compile spec names none: must_keep_origin_dtype
#: (fp32 parity) where every op has float32, else allow_fp32_to_fp16 (atc runs the ops without
#: float32 in float16 and keeps the rest in float32).
KEEP_DTYPE = "must_keep_origin_dtype"
FP32_TO_FP16 = "allow_fp32_to_fp16"
#: Modes under which atc may run an op without float32 in float16 (docs/atc.md).
MODES_FOR_NO_FLOAT32 = ("allow_fp32_to_fp16", "force_fp16", "allow_mix_precision")


def family(soc_version: str) -> str:
    """CANN's family of a SoC name (Short_SoC_version), or the name itself if unknown."""
    return SOC_VERSIONS.get(soc_version, soc_version)


def soc_has_bf16(soc_version: str) -> bool:
    return family(soc_version) not in _NO_BF16_FAMILIES


def no_bf16_reason(soc_version: str) -> str | None:
    """Why the chip has no bfloat16 at all, or None."""
    return _NO_BF16_FAMILIES.get(family(soc_version))


def no_float32_ops(soc_version: str) -> frozenset[str]:
    """The ONNX ops CANN cannot compute in float32 on `soc_version`'s family."""
    fam = family(soc_version)
    return frozenset(op for op, f in _OPS.items() if fam in f.get("no_float32", ()))


def no_bfloat16_ops() -> frozenset[str]:
    """The ONNX ops CANN cannot compute in bfloat16 on any chip."""
    return frozenset(op for op, f in _OPS.items() if f.get("no_bfloat16", False))


def constant_inputs(op_type: str) -> tuple[int, ...]:
    """The inputs of `op_type` CANN's parser needs as constants (Expand's shape, Resize's scales
    and sizes)."""
    return tuple(_OPS.get(op_type, {}).get("constant_inputs", ()))


def attribute_values(op_type: str) -> dict[str, list]:
    """The values CANN's plugin handles as ONNX means them, per attribute of `op_type` whose other
    values it refuses or ignores (ArgMax select_last_index 0: 1 is refused; Resize nearest_mode
    round_prefer_ceil and ScatterND reduction none: others are ignored, by one of ScatterND's two
    plugins)."""
    attrs = _OPS.get(op_type, {}).get("attributes", {})
    return {name: list(fact["handled"]) for name, fact in attrs.items()}


#: CANN's window limits for Conv, ConvTranspose, MaxPool and AveragePool (inclusive ranges).
WINDOW_LIMITS: dict = dict(_DATA["window_limits"])


def _families(op_type: str, key: str) -> tuple[str, ...]:
    return tuple(_OPS.get(op_type, {}).get(key, ()))


def int8_values(model: onnx.ModelProto) -> frozenset[str]:
    """The int8 values of a lowered graph: AscendQuant's outputs and int8 initializers."""
    import onnx

    int8 = {i.name for i in model.graph.initializer if i.data_type == onnx.TensorProto.INT8}
    int8.update(o for n in model.graph.node if n.op_type == "AscendQuant" for o in n.output)
    return frozenset(int8)


def check_quant_ops(model: onnx.ModelProto, soc_version: str) -> list[str]:
    """What in a quantized graph CANN does not run on `soc_version`'s family, by the facts of this
    file: an op the family lacks ("unsupported"), an int8 Conv/MatMul/Gemm where the family has
    none ("no_int8"), int4 weights where it takes int8 only ("no_int4_weight"), and AMCT's uint64
    deq_scale where the family's AscendDequant reads an fp16 one ("deq_scale_float16"). The
    emulator's atc refuses the same, with the same sources."""
    import onnx

    fam = family(soc_version)
    int8 = int8_values(model)
    dtypes = {i.name: i.data_type for i in model.graph.initializer}
    found: list[str] = []

    def refuse(node: onnx.NodeProto, key: str, what: str) -> None:
        fact = _OPS.get(node.op_type, {})
        source = fact.get(f"{key}_source") or fact.get("source", "")
        found.append(f"{node.op_type} ({node.name}): {what} on {soc_version} ({fam}): {source}")

    for node in model.graph.node:
        op = node.op_type
        second = dtypes.get(node.input[1]) if len(node.input) > 1 else None
        if fam in _families(op, "unsupported"):
            refuse(node, "unsupported", f"CANN has no {op}")
        if fam in _families(op, "no_int8") and node.input and node.input[0] in int8:
            refuse(node, "no_int8", f"CANN has no int8 {op}")
        if fam in _families(op, "no_int4_weight") and second == onnx.TensorProto.INT32:
            refuse(node, "no_int4_weight", "int8 weights only, not int4")
        if fam in _families(op, "deq_scale_float16") and second == onnx.TensorProto.UINT64:
            refuse(node, "deq_scale_float16", "its deq_scale is float16, not a uint64")
    return found


def source_of(op_type: str) -> str:
    return str(_OPS.get(op_type, {}).get("source", ""))


def default_precision_mode(soc_version: str) -> str:
    return FP32_TO_FP16 if no_float32_ops(soc_version) else KEEP_DTYPE


def _opsets(text: str) -> frozenset[int]:
    """'8, 12-18' -> {8, 12, ..., 18}."""
    found: set[int] = set()
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        found.update(range(int(lo), int(hi or lo) + 1))
    return frozenset(found)


_REGISTRATIONS = {op: _opsets(t) for op, t in _DATA["registrations"].items()}


def registered(op_type: str, opset: int) -> bool:
    """Whether CANN's ONNX parser takes an ai.onnx `op_type` node in a model of `opset`
    (Constant is built into the parser)."""
    return op_type == "Constant" or opset in _REGISTRATIONS.get(op_type, frozenset())


def check_onnx(model: onnx.ModelProto, soc_version: str, precision_mode: str) -> list[str]:
    """What in `model` CANN's atc would refuse for `soc_version` under `precision_mode`, by the
    facts of this file: ops its parser does not register at the model's opset, bfloat16 on a
    chip or into an op without it, float32 into an op the chip has no float32 kernel for under
    must_keep_origin_dtype, a computed input where CANN needs a constant, an attribute value its
    plugin does not handle. Empty: nothing. (The emulator's atc refuses the same, but for the
    ignored attribute values and the window limits.)"""
    import onnx  # here: compile_spec imports this module, and the light CLI paths with it

    bf16, fp32 = onnx.TensorProto.BFLOAT16, onnx.TensorProto.FLOAT
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {
        v.name: v.type.tensor_type.elem_type
        for v in (*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output)
    }
    types.update({i.name: i.data_type for i in model.graph.initializer})
    no_fp32 = no_float32_ops(soc_version) if precision_mode == KEEP_DTYPE else frozenset()
    no_bf16 = no_bfloat16_ops()
    constants = {i.name for i in model.graph.initializer} | {
        o for n in model.graph.node if n.op_type == "Constant" for o in n.output
    }
    found: list[str] = []
    for node in model.graph.node:
        where = f"{node.op_type} ({node.name})"
        if node.domain not in ("", "ai.onnx"):
            found.append(f"{where}: domain {node.domain!r} is not ai.onnx")
            continue
        if not registered(node.op_type, opset):
            found.append(f"{where}: not registered by CANN's ONNX parser for opset {opset}")
        dtype = types.get(node.input[0]) if node.input and node.input[0] else None
        if dtype == bf16 and not soc_has_bf16(soc_version):
            found.append(f"{where}: bfloat16 on {soc_version}")
        if dtype == bf16 and node.op_type in no_bf16:
            found.append(f"{where}: bfloat16, which CANN's {node.op_type} does not take")
        if dtype == fp32 and node.op_type in no_fp32:
            found.append(f"{where}: float32 under {precision_mode} on {soc_version}")
        for attr in node.attribute:
            allowed = attribute_values(node.op_type).get(attr.name)
            value = onnx.helper.get_attribute_value(attr)
            value = value.decode() if isinstance(value, bytes) else value
            if allowed is not None and value not in allowed:
                found.append(f"{where}: {attr.name}={value!r}, where CANN handles {allowed}")
        for i in constant_inputs(node.op_type):
            if i < len(node.input) and node.input[i] and node.input[i] not in constants:
                found.append(f"{where}: input {i} is computed, where CANN needs a constant")
    return found + check_quant_ops(model, soc_version)
