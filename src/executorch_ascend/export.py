# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""One-call export: nn.Module -> .pte (+ .ptd) with Ascend delegates, and what got delegated."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from pathlib import Path

import torch
from executorch.exir import (
    EdgeProgramManager,
    ExecutorchProgramManager,
    to_edge_transform_and_lower,
)
from executorch.exir.lowered_backend_module import get_lowered_submodules
from torch.export import ExportedProgram

from .backend import AscendBackend
from .compile_spec import SpecLike, as_compile_spec
from .lowering.registry import op_name
from .partitioner import AscendPartitioner
from .transforms.moe import rewrite_moe


@dataclass(frozen=True)
class DelegationSummary:
    partitions: int  # Ascend delegate calls in the program
    delegated_nodes: int  # compute nodes inside Ascend partitions
    total_nodes: int  # compute nodes, delegated or not
    cpu_ops: tuple[str, ...] = ()  # the op of every compute node outside all delegates

    def __str__(self) -> str:
        return (
            f"{self.partitions} Ascend partition(s), "
            f"{self.delegated_nodes}/{self.total_nodes} compute nodes delegated"
        )


def _is_compute(node: torch.fx.Node) -> bool:
    return node.op == "call_function" and node.target is not operator.getitem


def delegation_summary(program: EdgeProgramManager | ExportedProgram) -> DelegationSummary:
    """Counts on the edge program after lowering (to_executorch rewrites the graph in place, so
    this must run before it)."""
    ep = program.exported_program() if isinstance(program, EdgeProgramManager) else program
    gm = ep.graph_module
    lowered = get_lowered_submodules(gm)
    ascend = [(m, call) for _, m, call in lowered if m.backend_id == AscendBackend.__name__]
    delegate_calls = {call for _, _, call in lowered}
    delegated = sum(1 for m, _ in ascend for n in m.original_module.graph.nodes if _is_compute(n))
    other_delegated = sum(
        1
        for _, m, _ in lowered
        if m.backend_id != AscendBackend.__name__
        for n in m.original_module.graph.nodes
        if _is_compute(n)
    )
    cpu = [op_name(n) for n in gm.graph.nodes if _is_compute(n) and n not in delegate_calls]
    return DelegationSummary(
        len(ascend), delegated, delegated + other_delegated + len(cpu), tuple(cpu)
    )


@dataclass(frozen=True)
class AscendLowering:
    edge: EdgeProgramManager
    program: ExecutorchProgramManager
    summary: DelegationSummary


def lower(
    model: torch.nn.Module,
    example_inputs: tuple[torch.Tensor, ...],
    compile_spec: SpecLike = None,
) -> AscendLowering:
    """torch.export -> to_edge_transform_and_lower(AscendPartitioner) -> to_executorch.

    transformers' mixture-of-experts blocks are rewritten first, in place (transforms.moe:
    their default routing exports data-dependent ops no backend lowers)."""
    rewrite_moe(model)
    return lower_program(torch.export.export(model, tuple(example_inputs)), compile_spec)


def lower_program(exported: ExportedProgram, compile_spec: SpecLike = None) -> AscendLowering:
    """to_edge_transform_and_lower(AscendPartitioner) -> to_executorch, from torch.export's
    program."""
    spec = as_compile_spec(compile_spec)
    edge = to_edge_transform_and_lower(exported, partitioner=[AscendPartitioner(spec)])
    summary = delegation_summary(edge)
    return AscendLowering(edge, edge.to_executorch(), summary)


def save(
    program: ExecutorchProgramManager, path: str | Path, ptd_dir: str | Path | None = None
) -> tuple[Path, list[Path]]:
    """Writes the .pte and, when the program has external data, the <tag>.ptd files.

    Returns the .pte path and the .ptd paths written (to `ptd_dir`, default: beside the .pte).
    """
    pte = Path(path)
    pte.parent.mkdir(parents=True, exist_ok=True)
    with open(pte, "wb") as f:
        program.write_to_file(f)
    data_dir = Path(ptd_dir) if ptd_dir is not None else pte.parent
    written: list[Path] = []
    # ExecutorchProgramManager exposes its .ptd contents only through this attribute (1.5.1).
    data_files = getattr(program, "_tensor_data", None) or {}
    if data_files:
        data_dir.mkdir(parents=True, exist_ok=True)
        program.write_tensor_data_to_file(str(data_dir))
        written = sorted(
            data_dir / (name if name.endswith(".ptd") else f"{name}.ptd") for name in data_files
        )
    return pte, written


def edge_for_analysis(
    model: torch.nn.Module,
    example_inputs: tuple[torch.Tensor, ...],
    compile_spec: SpecLike = None,
) -> ExportedProgram:
    """The edge program AscendPartitioner sees when `lower` runs, without lowering (no atc).

    Built by the same step as to_edge_transform_and_lower (explain.edge_program): the same ops
    are kept whole, decomposed and re-traced.
    """
    from .explain import edge_program

    exported = torch.export.export(model, tuple(example_inputs))
    return edge_program(exported, compile_spec)[0]
