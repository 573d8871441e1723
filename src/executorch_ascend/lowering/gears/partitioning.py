# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The partitioner's view of shape gears: what Ascend takes from a program with symbolic dims.

A node is taken when the static analysis takes it at every gear (`analyze_at_gears`, on the
program specialised to each gear); an op is kept whole when it lowers at every gear
(`kept_whole_at_gears`); a constant computed from sizes that no one graph can hold stays on the
CPU. Without usable gears, `explain_refusal` says what to add.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch._subclasses.fake_tensor import FakeTensor, unset_fake_temporarily
from torch.export import ExportedProgram
from torch.fx import Node

from ...compile_spec import AscendCompileSpec, gears_text
from ..constants import ConstantResolver
from .formula import fit_formula, integral_floats
from .plan import GearPlan, plan_gears
from .specialize import specialize


def analyze_at_gears(
    program: ExportedProgram,
    plan: GearPlan,
    static_analyze: Callable[[ExportedProgram], dict[Node, str | None]],
) -> dict[Node, str | None]:
    """The partitioner's decisions for a program with gears: a node is taken when the static
    analysis takes it at every gear; a size node when every user of it is taken (so no size
    crosses a partition boundary)."""
    per_gear = []
    specials = [specialize(program, binding) for binding in plan.bindings()]
    for special in specials:
        decisions = static_analyze(special)
        per_gear.append({n.name: r for n, r in decisions.items()})
    nodes = [n for n in program.graph.nodes if n.op == "call_function"]
    result: dict[Node, str | None] = {}
    sizes = [n for n in nodes if n.name not in per_gear[0]]
    for name, reason in _gear_varying_constants(program, specials, set(sizes), plan).items():
        for d in per_gear:
            d[name] = reason
    for node in nodes:
        if node in sizes:
            continue
        reasons = [d.get(node.name, "not analyzed") for d in per_gear]
        refused = [(g, r) for g, r in zip(plan.gears, reasons, strict=True) if r is not None]
        if not refused:
            result[node] = None
        elif len(refused) == len(plan.gears) and len({r for _, r in refused}) == 1:
            result[node] = refused[0][1]
        else:
            gear, reason = refused[0]
            result[node] = f"at gear ({plan.label(gear)}): {reason}"
    changed = True
    while changed:
        changed = False
        for node in reversed(sizes):
            taken = bool(node.users) and all(result.get(u, "x") is None for u in node.users)
            result[node] = None if taken else "a size used outside Ascend partitions"
        for node in nodes:
            if node in sizes or result[node] is not None:
                continue
            cpu = [n.name for n in node.all_input_nodes if n in sizes and result[n] is not None]
            if cpu:
                result[node] = f"reads a size computed on the CPU ({', '.join(cpu)})"
                changed = True
    return {n: result[n] for n in nodes}


def _gear_varying_constants(
    program: ExportedProgram, specials: list[ExportedProgram], sizes: set[Node], plan: GearPlan
) -> dict[str, str]:
    # ExecuTorch may partition under a fake mode; the constants themselves are real.
    with unset_fake_temporarily():
        return _varying_constants(program, specials, sizes, plan)


def _varying_constants(
    program: ExportedProgram, specials: list[ExportedProgram], sizes: set[Node], plan: GearPlan
) -> dict[str, str]:
    """Constants computed from sizes (scalar_tensor(s), arange(s)) that one graph cannot hold:
    a float whose value changes with the gear, or a tensor that grows but is not the leading
    part of the largest gear's. They stay on the CPU, so the partition reads them as inputs."""
    derived: set[Node] = set()
    for node in program.graph.nodes:
        if node.op == "call_function" and node not in sizes:
            if any(n in sizes or n in derived for n in node.all_input_nodes):
                derived.add(node)
    if not derived:
        return {}
    resolvers = [ConstantResolver(s) for s in specials]
    by_name = [{n.name: n for n in s.graph.nodes} for s in specials]
    refused: dict[str, str] = {}
    for node in derived:
        found = [names.get(node.name) for names in by_name]
        nodes = [n for n in found if n is not None]
        if len(nodes) != len(found) or not all(
            r.is_constant(n) for n, r in zip(nodes, resolvers, strict=True)
        ):
            continue
        try:
            held = [r.value(n) for n, r in zip(nodes, resolvers, strict=True)]
        except Exception:  # not computable here: the lowering checks it
            continue
        values = [v for v in held if v is not None]  # constants: all of them
        if len(values) != len(held) or any(isinstance(v, FakeTensor) for v in values):
            continue
        if all(v.shape == values[0].shape and torch.equal(v, values[0]) for v in values):
            continue
        if all(v.shape == values[0].shape for v in values):
            sizes_like = values[0].dtype == torch.int64 or integral_floats(
                [v.detach().float().numpy() for v in values]
            )
            if sizes_like and values[0].dim() <= 1:
                # Sizes (int64, or held as floats): fitted to the gear symbols at lowering, when
                # every entry is an integer formula of them.
                columns = zip(*(v.reshape(-1).long().tolist() for v in values), strict=True)
                if all(fit_formula(list(c), plan) is not None or len(set(c)) == 1 for c in columns):
                    continue
                refused[node.name] = (
                    f"its value is computed from the shape and changes with the gear "
                    f"({gears_text(plan.gears)}) as no integer formula of the gear symbols, so it "
                    "is computed on the CPU"
                )
                continue
            if values[0].dtype == torch.int64:
                continue  # rank > 1: the lowering says why it cannot hold it
            refused[node.name] = (
                f"its value is computed from the shape and changes with the gear "
                f"({gears_text(plan.gears)}), so it is computed on the CPU"
            )
            continue
        largest = max(values, key=lambda v: v.numel())
        for v in values:
            corner = tuple(slice(0, n) for n in v.shape)
            if v.dim() != largest.dim() or not torch.equal(largest[corner], v):
                refused[node.name] = (
                    "its shape changes with the gear and it is not the leading part of the "
                    "largest gear's value, so it is computed on the CPU"
                )
                break
    return refused


def kept_whole_at_gears(
    program: ExportedProgram, spec: AscendCompileSpec, kept: Callable[[Node], bool]
) -> set[str] | None:
    """Names of the nodes `kept` accepts at every gear; None when the program has no usable
    gears (then `kept` decides on the symbolic node itself, and refuses it)."""
    plan = plan_gears(program, spec)
    if not isinstance(plan, GearPlan):
        return None
    names: set[str] | None = None
    for binding in plan.bindings():
        special = specialize(program, binding)
        ok = {n.name for n in special.graph.nodes if n.op == "call_function" and kept(n)}
        names = ok if names is None else names & ok
    return names


def has_symbolic_shape(node: Node) -> bool:
    vals = node.meta.get("val")
    vals = vals if isinstance(vals, (list, tuple)) else [vals]
    vals = [*vals, *(n.meta.get("val") for n in node.all_input_nodes)]
    return any(
        isinstance(v, torch.Tensor) and any(isinstance(d, torch.SymInt) for d in v.shape)
        for v in vals
    )


def explain_refusal(decisions: dict[Node, str | None], reason: str) -> dict[Node, str | None]:
    """Adds why gears cannot help to the reasons of nodes refused for dynamic shapes."""
    return {
        n: (
            f"{r.removesuffix(' (atc needs static shapes)')}: {reason}"
            if r is not None and r.startswith("dynamic ")
            else r
        )
        for n, r in decisions.items()
    }
