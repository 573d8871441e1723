# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Which dtypes CANN computes an op in on the chosen chip (facts: cann_op_facts.json).

- bfloat16: a chip family without it (Ascend310P) takes no bf16 node, and ops CANN defines without
  bf16 (GlobalAveragePool, Resize) take none on any chip. The partitioner leaves such nodes on
  the CPU with the reason (the model still runs); preprocess refuses a subgraph another
  partitioner tagged with one.
- bfloat16 and ONNX itself: the lowering writes opset 17, whose schemas define some float ops
  without bfloat16 (Conv, ConvTranspose, AveragePool, MaxPool, GlobalAveragePool, TopK, ...; bf16
  came to them in later opsets). onnx.checker refuses such a graph, so those nodes stay on the
  CPU too, with that reason (ONNX's own schemas decide, onnx.defs).
- float32 on the inference chips (Ascend310P, Ascend310B): their cube units take float16/int8,
  so Conv, MatMul, Gemm (and AveragePool, ArgMax/ArgMin per CANN's ONNX operator list) have no
  float32 kernel. Their default precision mode is allow_fp32_to_fp16 (compile_spec.py), under
  which atc runs those ops in float16; an explicit must_keep_origin_dtype with such an op in
  float32 is refused by preprocess, naming the ops and the modes that work.
"""

from __future__ import annotations

from functools import cache

import onnx.defs
import torch
from torch.export import ExportedProgram
from torch.fx import Node

from . import cann_op_facts as facts
from .lowering.onnx_graph import OPSET as _OPSET
from .lowering.registry import lookup


def soc_has_bf16(soc_version: str) -> bool:
    return facts.soc_has_bf16(soc_version)


def _tensor_dtypes(node: Node) -> list[torch.dtype]:
    val = node.meta.get("val")
    vals = val if isinstance(val, (list, tuple)) else [val]
    return [v.dtype for v in vals if isinstance(v, torch.Tensor)]


def _holds_bf16(node: Node) -> bool:
    return any(torch.bfloat16 in _tensor_dtypes(n) for n in (node, *node.all_input_nodes))


def bf16_refusal(node: Node, soc_version: str) -> str | None:
    """Why `node` cannot run on `soc_version` for its bf16 operands, or None."""
    if not _holds_bf16(node):
        return None
    why = facts.no_bf16_reason(soc_version)
    if why is not None:
        return (
            f"bfloat16 on {soc_version}: {why} (cast the model to float16 or float32 to "
            "delegate it)"
        )
    conv = lookup(node)
    ops = conv.onnx_ops if conv is not None else ()
    in_float32 = conv.bf16_in_float32 if conv is not None else ()
    lacking = sorted((set(ops) & facts.no_bfloat16_ops()) - set(in_float32))
    if lacking:
        return (
            f"bfloat16 {', '.join(lacking)}: CANN defines it without bfloat16 "
            f"({facts.source_of(lacking[0])})"
        )
    lacking = [op for op in ops if _onnx_float_op_without_bf16(op) and op not in in_float32]
    if lacking:
        return (
            f"bfloat16 {', '.join(lacking)}: ONNX opset {_OPSET} defines it without bfloat16 "
            "(cast the model to float16 or float32 to delegate it)"
        )
    return None


@cache
def _onnx_float_op_without_bf16(op_type: str) -> bool:
    """Whether ONNX's schema of `op_type` at the lowering's opset takes float tensors but not
    bfloat16 ones (bool-only ops, such as Not, are not float ops)."""
    try:
        schema = onnx.defs.get_schema(op_type, _OPSET, "")
    except onnx.defs.SchemaError:
        return False
    allowed = {t for c in schema.type_constraints for t in c.allowed_type_strs}
    return "tensor(float)" in allowed and "tensor(bfloat16)" not in allowed


def check_program(program: ExportedProgram, soc_version: str) -> None:
    """Raises ValueError when a subgraph for `soc_version` holds a bf16 tensor it cannot take."""
    for node in program.graph.nodes:
        if node.op in ("placeholder", "call_function"):
            reason = bf16_refusal(node, soc_version)
            if reason is not None:
                raise ValueError(f"AscendBackend: {node.name}: {reason}")


def _input_dtype(node: Node | None) -> torch.dtype | None:
    """The dtype of the first tensor `node` reads (an FX node of the partition)."""
    if node is None:
        return None
    for n in node.all_input_nodes:
        dtypes = _tensor_dtypes(n)
        if dtypes:
            return dtypes[0]
    return None


def check_float32_ops(
    onnx_nodes: list[tuple[str, str]],
    fx_nodes: dict[str, Node],
    soc_version: str,
    precision_mode: str,
) -> None:
    """Raises ValueError when `precision_mode` keeps float32 for an op `soc_version` has no
    float32 kernel for. `onnx_nodes`: (op type, source FX node name) of the lowered graph."""
    if precision_mode != facts.KEEP_DTYPE:
        return
    lacking = facts.no_float32_ops(soc_version)
    found: dict[str, list[str]] = {}
    for op_type, source in onnx_nodes:
        if op_type in lacking and _input_dtype(fx_nodes.get(source)) == torch.float32:
            found.setdefault(op_type, []).append(source)
    if not found:
        return
    ops = "; ".join(f"{op} ({', '.join(sorted(set(srcs))[:3])})" for op, srcs in found.items())
    raise ValueError(
        f"AscendBackend: precision_mode='{facts.KEEP_DTYPE}' keeps float32, and CANN has no "
        f"float32 kernel on {soc_version} ({facts.family(soc_version)}) for: {ops}. Use "
        f"precision_mode='{facts.FP32_TO_FP16}' (this chip's default: those ops run in float16, "
        f"the rest stay float32), or one of {', '.join(facts.MODES_FOR_NO_FLOAT32[1:])}; or "
        "cast the model to float16"
    )
