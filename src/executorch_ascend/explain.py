# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What lowering to Ascend will do with a program, found by the very steps lowering takes.

`explain(torch.export.export(model, inputs))` turns the program into the edge program that
`to_edge_transform_and_lower` hands `AscendPartitioner.partition` (same pre-decomposition
transform, same ops kept whole, same decompositions: ExecuTorch's own function for that step), then
runs the partitioner's decisions on it, without compiling anything. So what it reports is what
lowering does, including which ops were kept whole and which were decomposed, and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from torch.export import ExportedProgram
from torch.fx import Node

from .compile_spec import SpecLike, as_compile_spec
from .lowering.gears.partitioning import has_symbolic_shape
from .lowering.registry import op_name, ops_kept_whole, why_unsupported
from .partitioner import AscendPartitioner, analyze, propose_partitions


@dataclass(frozen=True)
class NodeReport:
    name: str
    op: str
    reason: str | None  # None: the node goes to an Ascend partition

    @property
    def supported(self) -> bool:
        return self.reason is None


@dataclass(frozen=True)
class Explanation:
    """One report per call_function node of the edge program, in graph order; iterating an
    Explanation yields them."""

    reports: tuple[NodeReport, ...]
    partitions: int  # Ascend partitions lowering will make
    notes: tuple[str, ...]  # whole-op choices: kept ops that get decomposed, layout fixes

    def __iter__(self) -> Iterator[NodeReport]:
        return iter(self.reports)

    def __len__(self) -> int:
        return len(self.reports)

    @property
    def cpu(self) -> list[NodeReport]:
        return [r for r in self.reports if not r.supported]


def edge_program(
    exported: ExportedProgram, compile_spec: SpecLike = None
) -> tuple[ExportedProgram, AscendPartitioner]:
    """The edge program `to_edge_transform_and_lower(exported, [AscendPartitioner(spec)])` would
    partition, and the partitioner that shaped it. `exported` is edited as lowering edits it
    (lowering/whole_ops.py: a value-neutral clone after some kept ops)."""
    from executorch.exir import EdgeCompileConfig
    from executorch.exir.program._program import _gen_edge_manager_for_partitioners

    partitioner = AscendPartitioner(compile_spec)
    # ExecuTorch 1.5.1's to_edge_transform_and_lower builds its edge program with exactly this
    # call (no public API exposes the step on its own); the wheel is pinned, so is this.
    manager = _gen_edge_manager_for_partitioners(
        {"forward": [partitioner]}, {"forward": exported}, EdgeCompileConfig(), None
    )
    return manager.exported_program(), partitioner


def explain(program: ExportedProgram, compile_spec: SpecLike = None) -> Explanation:
    """Which ops Ascend takes, how many partitions, and why the rest stays on the CPU.

    `program` is what `torch.export.export` returns (it is lowered to edge the way
    `to_edge_transform_and_lower` would), or an edge program (taken as it is).
    """
    notes: list[str] = []
    if program.dialect == "EDGE":
        edge = program
    else:
        edge, partitioner = edge_program(program, compile_spec)
        notes += _decomposed_kept_ops(program, partitioner)
        notes += [
            f"{name}: kept whole, with a contiguous copy after it so the graph re-traces"
            for name in partitioner.layout_fixes
        ]
    spec = as_compile_spec(compile_spec)
    decisions = analyze(edge, spec.soc_version, spec)
    reports = tuple(NodeReport(n.name, op_name(n), reason) for n, reason in decisions.items())
    return Explanation(reports, len(propose_partitions(edge, decisions)), tuple(notes))


def _decomposed_kept_ops(exported: ExportedProgram, partitioner: AscendPartitioner) -> list[str]:
    kept = set(ops_kept_whole())
    return [
        f"{n.name} ({op_name(n)}): decomposed, not kept whole: {reason}"
        for n in exported.graph.nodes
        if n.op == "call_function" and n.target in kept and (reason := _not_kept(n, partitioner))
    ]


def _not_kept(node: Node, partitioner: AscendPartitioner) -> str | None:
    geared = partitioner.kept_at_every_gear
    if geared is not None and has_symbolic_shape(node):
        return None if node.name in geared else "not lowerable whole at every shape gear"
    return why_unsupported(node)


def taken_compute_ops(explanation: Explanation) -> int:
    """Delegated ops other than getitem (the count DelegationSummary.delegated_nodes gives)."""
    return sum(r.supported and r.op != "getitem" for r in explanation)


def format_explanation(explanation: Explanation) -> str:
    taken = sum(r.supported for r in explanation)
    lines = [
        f"Ascend can take {taken} of {len(explanation)} ops, "
        f"in {explanation.partitions} partition(s)"
    ]
    lines += [f"  note: {note}" for note in explanation.notes]
    for r in explanation:
        status = "ascend" if r.supported else f"cpu: {r.reason}"
        lines.append(f"  {r.name:<40} {r.op:<40} {status}")
    return "\n".join(lines)
