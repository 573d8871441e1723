# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`sort(stable=...)` and `argsort(stable=...)` as the `aten.sort.default` the TopK converter
lowers, before to_edge.

torch.export writes `torch.sort(x, stable=True)` (and any `stable=` argument, False included) as
`aten.sort.stable`, and `torch.argsort(x, stable=True)` as `aten.argsort.stable`. Neither is core
ATen and neither has a decomposition, so ExecuTorch's to_edge refuses the program before any
partitioner sees it.

The rewrite is exact where the sort is lowered: the converter sorts with one ONNX TopK of the
whole axis, and ONNX defines TopK's order of equal values as index order (the lower index first,
for largest=1 and largest=0 alike; the emulator keeps it), which is what a stable sort returns in
either direction; `stable=False` promises no order, so the stable one is as good. It is applied
only where the converter takes the input (float16/float32, rank >= 1): anything else stays as it
was (and to_edge refuses it, as without this backend), so a sort.default never reaches a CPU
kernel whose tie order differs. ExecuTorch's portable library has no sort kernel at all.
"""

from __future__ import annotations

import operator

import torch
from torch.export import ExportedProgram
from torch.fx import Node

from .converters.topk import sort_input_refusal

aten = torch.ops.aten
STABLE_SORTS = (aten.sort.stable, aten.argsort.stable)


def stable_sorts_as_sorts(program: ExportedProgram) -> list[str]:
    """Rewrites, in place, every sort.stable / argsort.stable the TopK converter can lower into
    aten.sort.default (argsort: its indices output). Returns the rewritten nodes' names."""
    graph = program.graph_module.graph
    rewritten: list[str] = []
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target not in STABLE_SORTS:
            continue
        if sort_input_refusal(node) is not None:
            continue
        x = node.args[0]
        assert isinstance(x, Node)
        dim = int(node.kwargs.get("dim", -1))
        descending = bool(node.kwargs.get("descending", False))
        with graph.inserting_before(node):
            sort = graph.call_function(aten.sort.default, (x, dim, descending))
        sort.meta.update(node.meta)
        values, indices = aten.sort.default(x.meta["val"], dim, descending)
        sort.meta["val"] = (values, indices)
        if node.target is aten.argsort.stable:
            with graph.inserting_after(sort):
                result = graph.call_function(operator.getitem, (sort, 1))
            result.meta.update(node.meta)
            result.meta["val"] = indices
        else:
            result = sort
        node.replace_all_uses_with(result)
        graph.erase_node(node)
        rewritten.append(node.name)
    if rewritten:
        program.graph_module.recompile()
    return rewritten
