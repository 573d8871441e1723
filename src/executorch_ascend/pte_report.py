# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What a .pte runs where: its delegate calls and the CPU kernel calls of each execution plan.

A .pte no longer holds the graph the partitioner saw, so it cannot say *why* an op stayed on the
CPU (use `explain` on the model for that); it can say what was delegated and what was not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from executorch.exir import schema
from executorch.exir._serialize._program import deserialize_pte_binary


@dataclass
class PlanReport:
    name: str
    delegate_calls: Counter[str] = field(default_factory=Counter)  # backend id -> calls
    cpu_ops: Counter[str] = field(default_factory=Counter)  # operator -> calls


def report_pte(path: str | Path) -> list[PlanReport]:
    """One report per execution plan (method) of the .pte at `path`."""
    data = Path(path).read_bytes()
    try:
        program = deserialize_pte_binary(data).program
    except Exception as e:  # the flatbuffer reader raises many types on bad input
        raise ValueError(f"{path} is not a readable .pte file: {e}") from e
    reports = []
    for plan in program.execution_plan:
        report = PlanReport(plan.name)
        for chain in plan.chains:
            for instruction in chain.instructions:
                call = instruction.instr_args
                if isinstance(call, schema.DelegateCall):
                    report.delegate_calls[plan.delegates[call.delegate_index].id] += 1
                elif isinstance(call, schema.KernelCall):
                    op = plan.operators[call.op_index]
                    name = f"{op.name}.{op.overload}" if op.overload else op.name
                    report.cpu_ops[name] += 1
        reports.append(report)
    return reports


def format_pte_report(reports: list[PlanReport]) -> str:
    lines = []
    for r in reports:
        lines.append(f"method {r.name}:")
        for backend, n in sorted(r.delegate_calls.items()):
            lines.append(f"  delegate {backend}: {n} call(s)")
        if not r.delegate_calls:
            lines.append("  no delegate calls")
        for op, n in sorted(r.cpu_ops.items()):
            lines.append(f"  cpu {op}: {n} call(s)")
        if not r.cpu_ops:
            lines.append("  no CPU kernel calls")
    return "\n".join(lines)
