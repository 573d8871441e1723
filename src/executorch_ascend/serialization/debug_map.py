# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The delegate's debug handle map: which ATen/edge nodes each .om op came from.

The runtime logs one ETDump delegate event per .om op, named after the op (docs/runtime.md,
"Profiling"); `executorch.devtools.Inspector` finds the event's name in this map (stored in the
ETRecord through `PreprocessResult.debug_handle_map`) and so the nodes of the exported graph.

Keys are .om op names. atc names each op after its ONNX node, and the lowering names each ONNX
node after the FX node it was converted from ("aten_linear_default/Gemm", lowering/onnx_graph.py).
When atc fuses ONNX nodes into one op, the op's name is their names joined with '+' in graph
order ("aten_convolution_default/Conv+aten_relu_default/Relu"): such an op maps to the union of
their nodes' handles. The map has every ONNX node's name, and every fused name the .om holds
when its op list can be read (`toolchain.om_op_names`: the emulator's atc lists it; for CANN's
.om the map has the node names only).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from executorch.exir.backend.utils import DelegateMappingBuilder
from torch.export import ExportedProgram

FUSED_SEPARATOR = "+"


def debug_handle_map(
    program: ExportedProgram,
    sources: Mapping[str, str],
    op_names: Iterable[str] | None = None,
) -> dict[str, tuple[int, ...]]:
    """.om op name -> the debug handles of the edge nodes it computes.

    `sources`: ONNX node name -> FX node name (LoweredGraph.sources); `op_names`: the .om's ops,
    for the fused ones. A node without a debug handle (none in the program) maps to nothing.
    """
    nodes = {n.name: n for n in program.graph.nodes if n.meta.get("debug_handle") is not None}
    builder = DelegateMappingBuilder(generated_identifiers=False)
    for onnx_name, fx_name in sources.items():
        node = nodes.get(fx_name)
        if node is not None:
            builder.insert_delegate_mapping_entry(nodes=node, identifier=onnx_name)
    for op in op_names or ():
        if FUSED_SEPARATOR not in op:
            continue
        parts = [nodes.get(sources.get(part, "")) for part in op.split(FUSED_SEPARATOR)]
        found = [n for n in parts if n is not None]
        if found:
            builder.insert_delegate_mapping_entry(nodes=found, identifier=op)
    return builder.get_delegate_mapping()
