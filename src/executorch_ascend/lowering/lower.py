# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The lowering's front door: one partition (an edge-dialect ExportedProgram) -> one ONNX graph.

`lower_partition` is what AscendBackend.preprocess calls. Its walk:

1. plan the shape gears (gears/plan.py) from the partition's inputs (partition.py): none for a
   static partition;
2. lower with `to_onnx` (lowered_graph.py): read the partition's inputs, state and outputs
   (partition.py), then one converter per node (registry.py, converters/) writes ONNX through the
   context (context.py, constants.py, onnx_graph.py);
3. with gears, step 2 runs on the partition specialised to each gear (gears/specialize.py), and
   the per-gear graphs are merged into one graph with symbolic input dims (gears/merge.py).

The result, a LoweredPartition, holds the graph and the atc options its gears need.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from torch.export import ExportedProgram

from ..compile_spec import AscendCompileSpec
from ..soc_versions import MAX_GEARED_INPUT_DIMS
from .context import LoweringError
from .gears.merge import merge_gears
from .gears.plan import GearPlan, atc_gear_options, plan_gears
from .gears.specialize import specialize
from .lowered_graph import LoweredGraph, to_onnx
from .partition import read_io, tensor_meta


@dataclass(frozen=True)
class LoweredPartition:
    """One partition, lowered: its ONNX graph (every gear's, merged, when it has gears) and the
    atc options for those gears (--dynamic_batch_size or --dynamic_dims; none when static)."""

    graph: LoweredGraph
    gear_options: tuple[str, ...] = ()


class TooManyGearedDims(LoweringError):
    """The partition's inputs have more dims together than ACL can report gears for."""


def _check_geared_dims(dims: list[list[sympy.Expr | int]]) -> None:
    """ACL's aclmdlGetInputDynamicDims lists the dims of every input together in one
    aclmdlIODims (soc_versions.json, gear_limits.max_input_dims)."""
    total = sum(len(d) for d in dims)
    if total > MAX_GEARED_INPUT_DIMS:
        raise TooManyGearedDims(
            f"shape gears need the dims of all the partition's inputs to fit ACL's "
            f"aclmdlIODims ({MAX_GEARED_INPUT_DIMS}, ACL_MAX_DIM_CNT), and its {len(dims)} inputs "
            f"(device state included, each flattened to one dim) have {total}: "
            "aclmdlGetInputDynamicDims would fail at "
            "load. Compile without gears (a decoder: one token per call)"
        )


def _states_must_be_flat(edge_program: ExportedProgram, plan: GearPlan) -> bool:
    """Whether the device states (a KV cache) must be rank 1 for the inputs' dims to fit
    aclmdlIODims: each state then counts one dim instead of its rank (lowered_graph.py)."""
    if plan.batch:
        return False
    states = read_io(edge_program).states
    total = sum(len(d) for d in plan.input_dims)
    total += sum(len(tensor_meta(s.placeholder).shape) for s in states)
    return total > MAX_GEARED_INPUT_DIMS


def lower_partition(
    edge_program: ExportedProgram,
    spec: AscendCompileSpec,
    external_threshold: int | None,
    check: bool = True,
) -> LoweredPartition:
    """Lowers a delegated partition for `spec`'s shape gears.

    `external_threshold`: initializers of at least this many bytes become ONNX external data
    (None keeps them all in the model). `check`: run onnx.checker on a graph without external data
    here, in memory; False when the caller saves the graph (LoweredGraph.save checks the files
    then: one serialization)."""
    plan = plan_gears(edge_program, spec)
    if plan is None:
        return LoweredPartition(to_onnx(edge_program, external_threshold, check=check))
    if isinstance(plan, str):
        raise LoweringError(plan)
    if len(plan.gears) == 1:
        # Every gear gives this partition's symbols the same values: it is static.
        special = specialize(edge_program, plan.bindings()[0])
        return LoweredPartition(to_onnx(special, external_threshold, check=check))
    graphs: list[LoweredGraph] = []
    dims: list[list[sympy.Expr | int]] = []
    flat = _states_must_be_flat(edge_program, plan)
    for binding, gear in zip(plan.bindings(), plan.gears, strict=True):
        try:
            graphs.append(
                to_onnx(
                    specialize(edge_program, binding),
                    external_threshold,
                    check=check,
                    flat_states=flat,
                )
            )
        except LoweringError as e:
            raise LoweringError(f"at gear ({plan.label(gear)}): {e}") from e
        if len(graphs) == 1:
            # Device-state inputs (a KV cache, partition.py) follow the user inputs: static.
            dims = [list(d) for d in plan.input_dims]
            dims += [list(v.dims) for v in graphs[0].inputs[len(dims) :]]
            if not plan.batch:
                _check_geared_dims(dims)  # before lowering the other gears
    merged = merge_gears(graphs, plan, dims, external_threshold, check=check)
    return LoweredPartition(merged, tuple(atc_gear_options(plan, dims)))
