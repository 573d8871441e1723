# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Which dtypes a SoC family can compute with, as CANN documents it.

CANN's operator specifications list bfloat16 for the Ascend 910B / 910_93 (Atlas A2/A3) products
and leave it out for the Atlas inference series built on Ascend310P, whose atc refuses bf16
graphs. The partitioner leaves bf16 nodes on the CPU for such a chip (the model still runs), and
preprocess refuses a bf16 subgraph handed to it for one. Only Ascend310P is refused: it is the
family documented without bf16 for sure (docs/atc.md, "bf16"); the emulator's atc agrees.
"""

from __future__ import annotations

import torch
from torch.export import ExportedProgram
from torch.fx import Node

_NO_BF16_PREFIXES = ("Ascend310P",)


def soc_has_bf16(soc_version: str) -> bool:
    return not soc_version.startswith(_NO_BF16_PREFIXES)


def _tensor_dtypes(node: Node) -> list[torch.dtype]:
    val = node.meta.get("val")
    vals = val if isinstance(val, (list, tuple)) else [val]
    return [v.dtype for v in vals if isinstance(v, torch.Tensor)]


def bf16_refusal(node: Node, soc_version: str) -> str | None:
    """Why `node` cannot run on `soc_version` for its bf16 operands, or None."""
    if soc_has_bf16(soc_version):
        return None
    for n in (node, *node.all_input_nodes):
        if torch.bfloat16 in _tensor_dtypes(n):
            return (
                f"bfloat16 on {soc_version}: CANN documents no bf16 for Ascend310P "
                "(cast the model to float16 or float32 to delegate it)"
            )
    return None


def check_program(program: ExportedProgram, soc_version: str) -> None:
    """Raises ValueError when a subgraph for `soc_version` holds a bf16 tensor."""
    for node in program.graph.nodes:
        if node.op in ("placeholder", "call_function"):
            reason = bf16_refusal(node, soc_version)
            if reason is not None:
                raise ValueError(f"AscendBackend: {node.name}: {reason}")
