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
when its op list can be read (`om_op_names`: the emulator's atc lists it; for CANN's .om the
map has the node names only).
"""

from __future__ import annotations

import logging
import re
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from executorch.exir.backend.utils import DelegateMappingBuilder
from torch.export import ExportedProgram

from .toolchain import Atc

logger = logging.getLogger(__name__)

FUSED_SEPARATOR = "+"
# One line of `atc --mode=6` per op: "  op 3 'aten_relu_default/Relu' Relu".
_OP_LINE = re.compile(r"^\s*op (\d+) '(.*)' (\S+)$")


def om_op_names(om: bytes, atc: Atc) -> list[str] | None:
    """The .om's op names in order (of gear 0 for a gear model), or None when they cannot be
    read: only the emulator's atc lists them (`atc --mode=6`)."""
    if not atc.is_emulator:
        return None
    with tempfile.TemporaryDirectory(prefix="executorch_ascend_ops_") as tmp:
        path = Path(tmp) / "part.om"
        path.write_bytes(om)
        try:
            done = subprocess.run(
                [str(atc.path), "--mode=6", f"--om={path}"],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            logger.warning("could not list the .om's ops with %s: %s", atc.description, e)
            return None
    if done.returncode != 0:
        logger.warning("could not list the .om's ops: %s", done.stderr.strip())
        return None
    ops = [
        (int(m.group(1)), m.group(2)) for m in map(_OP_LINE.match, done.stdout.splitlines()) if m
    ]
    return [name for _, name in sorted(ops)]


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
    return builder.get_delegate_mapping()  # type: ignore[return-value]
