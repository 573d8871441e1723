# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""torchao's dynamic per-token activation quantization (8da4w / 8da8w) in core ATen ops, before
to_edge.

`Int8DynamicActivationIntxWeightConfig` (optimum's `--qlinear 8da4w`, ExecuTorch's LLM flow)
exports each linear as

    scale, zp = torchao.choose_qparams_affine(x, ASYMMETRIC, [1, .., 1, K], int8, ...)
    xq = torchao.quantize_affine(x, [1, .., 1, K], scale, zp, int8, -128, 127)
    linear(torchao.dequantize_affine(xq, ...), torchao.dequantize_affine(W_int, ...), b)

CANN would run the pair as DynamicQuant + QuantBatchMatmulV3, but its ONNX parser registers
QuantBatchMatMul for opsets 8-16 only and the lowering emits 17 (docs/quantization.md). Left as
they are, the three activation ops have no converter and no ExecuTorch kernel either (they are
torchao's, which only XNNPACK's delegate runs), so the program could not even run on the CPU.

So AscendPartitioner's pre-decomposition step writes the activation's three ops in core ATen
ops, each step torchao's own (its `choose_qparams_affine` body, `_quantize_affine_no_dtype_cast`,
`_dequantize_affine_no_dtype_check`): an amin/amax per token, the scale and zero point, the
rounding to the int8 grid and back, in the dtypes torchao computes them in. Only the two casts to
int8 are left out, of values that are integers within [quant_min, quant_max] (the zero point
stays in the scale's dtype, the quantized activation in its own), so every value is eager's.
They run on Ascend's vector units, and the linear keeps its weight-only form (the weight's
dequantize_affine is untouched, so its int4/int8 weight still reaches WeightQuantBatchMatmulV2
packed). What is given up is the int8 x int8 cube product, which computes the same sums.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch.export import ExportedProgram
from torch.fx import Node

from .whole_ops import retrace_with_decompositions


def _torchao_ops() -> tuple[Any, Any, Any] | None:
    ops = getattr(torch.ops, "torchao", None)
    try:
        return (
            ops.choose_qparams_affine.default,  # type: ignore[union-attr]
            ops.quantize_affine.default,  # type: ignore[union-attr]
            ops.dequantize_affine.default,  # type: ignore[union-attr]
        )
    except AttributeError:  # torchao not imported: no program can hold its ops
        return None


def activation_quant_nodes(program: ExportedProgram) -> list[Node]:
    """The choose_qparams / quantize / dequantize nodes of dynamically quantized activations:
    every choose_qparams_affine and quantize_affine (a weight comes quantized already), and a
    dequantize_affine of a quantize_affine's output (a weight's reads its stored int tensor)."""
    ops = _torchao_ops()
    if ops is None:
        return []
    choose, quantize, dequantize = ops
    found = []
    for node in program.graph.nodes:
        if node.op != "call_function":
            continue
        if node.target in (choose, quantize):
            found.append(node)
        elif node.target is dequantize:
            source = node.args[0]
            if isinstance(source, Node) and source.target is quantize:
                found.append(node)
    return found


def _bodies() -> dict[Any, Callable[..., Any]] | None:
    """The float-domain definitions, keyed by op; None with a torchao that lacks its helpers."""
    ops = _torchao_ops()
    try:
        from torch._inductor.decomposition import decompositions
        from torchao.quantization import quant_primitives as qp

        # torchao registers each op's definition in inductor's table when it defines the op.
        choose_body = decompositions[ops[0]]  # type: ignore[index]
        quantize = qp._quantize_affine_no_dtype_cast
        dequantize = qp._dequantize_affine_no_dtype_check
        qmin_qmax = qp._get_and_check_qmin_qmax
    except (ImportError, AttributeError, KeyError, TypeError):
        return None

    def choose(
        x: torch.Tensor,
        mapping_type: str,
        block_size: list[int],
        target_dtype: Any,
        quant_min: Any = None,
        quant_max: Any = None,
        eps: Any = None,
        scale_dtype: Any = None,
        zero_point_dtype: Any = None,
        keepdim: bool = False,
    ) -> Any:
        # The zero point in the scale's dtype: an integer within the int8 range, exact there.
        # torchao views x per block; a re-trace may see a transposed layout where eager had a
        # contiguous copy (lowering/whole_ops.py), so the view reads a contiguous x.
        return choose_body(
            x.contiguous(),
            mapping_type,
            block_size,
            target_dtype,
            quant_min,
            quant_max,
            eps,
            scale_dtype,
            scale_dtype or x.dtype,
            keepdim,
        )

    def quantize_(
        x: torch.Tensor,
        block_size: list[int],
        scale: torch.Tensor,
        zero_point: Any,
        output_dtype: Any,
        quant_min: Any = None,
        quant_max: Any = None,
    ) -> Any:
        quant_min, quant_max = qmin_qmax(output_dtype, quant_min, quant_max)
        return quantize(x.contiguous(), block_size, scale, zero_point, quant_min, quant_max)

    def dequantize_(
        q: torch.Tensor,
        block_size: list[int],
        scale: torch.Tensor,
        zero_point: Any,
        input_dtype: Any,
        quant_min: Any = None,
        quant_max: Any = None,
        output_dtype: Any = torch.float32,
    ) -> Any:
        quant_min, quant_max = qmin_qmax(input_dtype, quant_min, quant_max)
        return dequantize(q, block_size, scale, zero_point, quant_min, quant_max, output_dtype)

    return dict(zip(ops, (choose, quantize_, dequantize_), strict=True))  # type: ignore[arg-type]


def decompose_activation_quant(program: ExportedProgram) -> ExportedProgram:
    """`program` with its dynamic activation quantization in core ATen ops; unchanged when it has
    none, or when a node is of a kind this does not write (then the registry refuses it and
    says why)."""
    nodes = activation_quant_nodes(program)
    if not nodes:
        return program
    bodies = _bodies()
    if bodies is None or not all(_written(n) for n in nodes):
        return program
    # A node calling a Python function is traced through by run_decompositions; the weights'
    # dequantize_affine nodes keep their op, which the registry keeps whole.
    for node in nodes:
        node.target = bodies[node.target]
    program.graph_module.recompile()
    return retrace_with_decompositions(program, {})


def _written(node: Node) -> bool:
    """Whether the rewrite takes `node`: an ASYMMETRIC or SYMMETRIC choose_qparams_affine, and
    int8/uint8 targets throughout (their zero points and quantized values are integers every
    float dtype holds exactly)."""
    ops = _torchao_ops()
    assert ops is not None
    if node.target is ops[0]:
        mapping, target_dtype = _arg(node, 1, "mapping_type"), _arg(node, 3, "target_dtype")
        return mapping in ("ASYMMETRIC", "SYMMETRIC") and target_dtype in (torch.int8, torch.uint8)
    name = "output_dtype" if node.target is ops[1] else "input_dtype"
    return _arg(node, 4, name) in (torch.int8, torch.uint8)


def _arg(node: Node, index: int, name: str) -> Any:
    return node.args[index] if len(node.args) > index else node.kwargs.get(name)
