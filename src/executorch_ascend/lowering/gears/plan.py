# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Gear planning: which shapes ("gears") a program with symbolic input dims is compiled for.

`plan_gears` checks the compile spec's gears against the program's input symbols and their
ranges and returns a GearPlan (the value of each symbol at each gear), or why the gears cannot
serve the program; `atc_gear_options` writes the plan as atc's --dynamic_batch_size or
--dynamic_dims. The partitioner and the lowering plan alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy
import torch
from torch.export import ExportedProgram

from ...compile_spec import AscendCompileSpec, gears_text
from ..partition import input_dims, input_symbols, symbols_of, user_input_nodes

# How a reason for symbolic shapes without usable gears ends, so users know what to change.
GEAR_HINT = (
    "atc needs static shapes or shape gears: bound the torch.export.Dim (min/max) and list the "
    "shapes in AscendCompileSpec(dynamic_batch_size=... or dynamic_dims=...)"
)


def _shape_env(program: ExportedProgram) -> object | None:
    for node in user_input_nodes(program):
        for d in getattr(node.meta.get("val"), "shape", ()):
            if isinstance(d, torch.SymInt) and d.node.shape_env is not None:
                return d.node.shape_env
    return None


def exported_symbols(program: ExportedProgram) -> list[sympy.Symbol]:
    """The symbols of the exported program's inputs, in order of first appearance, read from
    the shape environment torch.export made (which a partition shares): so a partition whose
    inputs have fewer symbols, or have them in another order, maps gear values as the whole
    program does. Falls back to the program's own inputs."""
    local = input_symbols(program)
    env = _shape_env(program)
    created = getattr(env, "backed_var_to_val", None) or getattr(env, "var_to_val", {})
    replacements = getattr(env, "replacements", {})
    order: list[sympy.Symbol] = []
    for symbol in created:
        canonical = replacements.get(symbol, symbol)
        if isinstance(canonical, sympy.Symbol) and canonical not in order:
            order.append(canonical)
    return order if local and set(local) <= set(order) else local


def symbol_ranges(program: ExportedProgram) -> dict[sympy.Symbol, tuple[int, float]]:
    """(lower, upper) of each symbol, from the shape environment (or the range constraints)."""
    ranges: dict[sympy.Symbol, tuple[int, float]] = {}
    for key, vr in program.range_constraints.items():
        ranges[key] = (int(vr.lower), float(vr.upper))
    for node in user_input_nodes(program):
        val = node.meta.get("val")
        for d in getattr(val, "shape", ()):
            if isinstance(d, torch.SymInt) and d.node.shape_env is not None:
                for s, vr in d.node.shape_env.var_to_range.items():
                    ranges.setdefault(s, (int(vr.lower), float(vr.upper)))
    return ranges


@dataclass(frozen=True)
class GearPlan:
    """The gears of one program: the value of each symbol at each gear."""

    symbols: tuple[sympy.Symbol, ...]
    gears: tuple[tuple[int, ...], ...]
    batch: bool  # dynamic_batch_size (else dynamic_dims)
    # The dims of each user input (ints, or the symbols), as planned from.
    input_dims: tuple[tuple[sympy.Expr | int, ...], ...] = ()

    def bindings(self) -> list[dict[sympy.Symbol, int]]:
        return [dict(zip(self.symbols, g, strict=True)) for g in self.gears]

    def label(self, gear: Sequence[int]) -> str:
        return ", ".join(f"{s}={v}" for s, v in zip(self.symbols, gear, strict=True))


def plan_gears(program: ExportedProgram, spec: AscendCompileSpec) -> GearPlan | str | None:
    """None when the program's inputs are static; else the gear plan, or why the gears in
    `spec` cannot serve the program (a reason for the partitioner, an error for lowering)."""
    dims = input_dims(program)
    symbols = symbols_of(dims)
    if not symbols:
        return None
    names = ", ".join(str(s) for s in symbols)
    ranges = symbol_ranges(program)
    unbounded = [s for s in symbols if ranges.get(s, (0, float("inf")))[1] == float("inf")]
    if not spec.gears:
        extra = f"; {', '.join(map(str, unbounded))} also need(s) a max" if unbounded else ""
        return f"the inputs have symbolic dims ({names}); {GEAR_HINT}{extra}"
    for dim in (d for ds in dims for d in ds):
        if isinstance(dim, sympy.Expr) and not isinstance(dim, sympy.Symbol):
            return f"an input dim is {dim}, not a plain symbol: atc's gears set input dims directly"
    if unbounded:
        return (
            f"{', '.join(map(str, unbounded))} has no upper bound (a torch.export.Dim without "
            "max): ExecuTorch plans memory for the largest shape and atc compiles only listed "
            f"shapes; {GEAR_HINT}"
        )
    if spec.dynamic_batch_size:
        at_zero = all(
            not isinstance(d, sympy.Expr) or i == 0 for ds in dims for i, d in enumerate(ds)
        )
        if len(symbols) != 1 or not at_zero:
            return (
                f"dynamic_batch_size gears the batch (dim 0) only, but the inputs' symbolic dims "
                f"are {names} ({_describe(dims)}); use dynamic_dims"
            )
    gears = spec.gears
    if spec.dynamic_dims and len(gears[0]) != len(symbols):
        exported = exported_symbols(program)
        if len(gears[0]) != len(exported):
            return (
                f"dynamic_dims gears give {len(gears[0])} value(s) each, but the inputs "
                f"have {len(symbols)} symbolic dim(s): {names} ({_describe(dims)})"
            )
        # A partition with some of the program's symbols: its gears are the distinct values
        # those symbols take.
        index = [exported.index(s) for s in symbols]
        gears = tuple(dict.fromkeys(tuple(g[i] for i in index) for g in gears))
    elif spec.dynamic_dims and symbols != exported_symbols(program)[: len(symbols)]:
        exported = exported_symbols(program)
        if set(exported) == set(symbols):
            # The partition reads the symbols in another order than the program's inputs.
            index = [exported.index(s) for s in symbols]
            gears = tuple(tuple(g[i] for i in index) for g in gears)
    for gear in gears:
        for s, v in zip(symbols, gear, strict=True):
            lower, upper = ranges.get(s, (1, float("inf")))
            # torch.export reports Dim(min=1) as [2, max] (its 0/1 specialization) and traces
            # a graph that is the same at 1; the per-gear lowering and tests check 1 too.
            lower = 1 if lower == 2 else lower
            if not lower <= v <= upper:
                return (
                    f"gear {gears_text(gear)} sets {s}={v}, outside its range "
                    f"[{lower}, {int(upper)}]; gears: {gears_text(spec.dynamic_batch_size or spec.dynamic_dims)}"  # noqa: E501
                )
    return GearPlan(
        tuple(symbols), gears, bool(spec.dynamic_batch_size), tuple(tuple(d) for d in dims)
    )


def _describe(dims: list[list[sympy.Expr | int]]) -> str:
    return "; ".join(f"input {i}: ({', '.join(map(str, d))})" for i, d in enumerate(dims))


def atc_gear_options(plan: GearPlan, dims: list[list[sympy.Expr | int]]) -> list[str]:
    """--dynamic_batch_size=1,2,4, or --dynamic_dims with one value per -1 of --input_shape (in
    the order of the inputs that have dims, left to right)."""
    if plan.batch:
        return [f"--dynamic_batch_size={','.join(str(g[0]) for g in plan.gears)}"]
    index = {s: i for i, s in enumerate(plan.symbols)}
    occurrences = [index[d] for ds in dims for d in ds if isinstance(d, sympy.Symbol)]
    gears = ";".join(",".join(str(g[i]) for i in occurrences) for g in plan.gears)
    return [f"--dynamic_dims={gears}"]
