# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""An explicit cast in front of every `copy_` whose source dtype differs from its destination's.

`dst.copy_(src)` converts `src` to `dst`'s dtype. torch.export (torch 2.13) keeps such a
`copy_` in its training-IR graph, but the functionalisation that `run_decompositions` runs (the
first step of ExecuTorch's `to_edge_transform_and_lower`) drops the conversion when `dst` is a
buffer: the buffer's new value, and every later read of it, becomes `src` itself, in `src`'s
dtype. The graph then computes with the unrounded value (not what eager computes), records a
float32 value as the mutation of a float16 buffer, and the `_assert_tensor_metadata` that export
put in front of a later `buffer.to(...)` (it still says float16) fails when ExecuTorch re-traces
the graph: "Tensor dtype mismatch! Expected: torch.float16, Got: torch.float32".

transformers' longrope (Phi-3, Phi-3.5, Phi-4-mini) does exactly this in a float16 or bfloat16
model: `inv_freq.copy_(torch.where(long, long_inv_freq, original_inv_freq))`, where
`long_inv_freq` is a plain float32 attribute (it does not follow `model.to(dtype)`) and the
buffers are float16, so `where` promotes to float32.

Casting the source first (`copy_(dst, src.to(dst.dtype))`) is what `copy_` does anyway, so the
rewrite changes no value; afterwards the functionalised graph reads the buffer in its own dtype.
AscendPartitioner applies it in its pre-decomposition step, so every path through the
partitioner gets it (`executorch_ascend.export`, the CLI, the optimum recipe, a user's own
`to_edge_transform_and_lower` call).
"""

from __future__ import annotations

import torch
from torch.export import ExportedProgram

aten = torch.ops.aten


def _dtype(node: object) -> torch.dtype | None:
    value = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    return value.dtype if isinstance(value, torch.Tensor) else None


def cast_copy_sources(program: ExportedProgram) -> list[str]:
    """Inserts `_to_copy(src, dtype=dst.dtype)` before every `aten.copy_` whose dtypes differ,
    in place. Returns the names of the `copy_` nodes changed (empty: the program is as it was;
    a second run finds nothing to do)."""
    graph = program.graph_module.graph
    changed: list[str] = []
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not aten.copy_.default:
            continue
        dst, src = node.args[0], node.args[1]
        dst_dtype, src_dtype = _dtype(dst), _dtype(src)
        if dst_dtype is None or src_dtype is None or dst_dtype == src_dtype:
            continue
        assert isinstance(src, torch.fx.Node)
        with graph.inserting_before(node):
            cast = graph.call_function(aten._to_copy.default, (src,), {"dtype": dst_dtype})
        cast.meta.update(src.meta)
        cast.meta["val"] = src.meta["val"].to(dst_dtype)
        node.args = (dst, cast, *node.args[2:])
        changed.append(node.name)
    if changed:
        program.graph_module.recompile()
    return changed
