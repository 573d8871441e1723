# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Integer formulas of the gear symbols: the sizes a merged graph computes from its input dims.

`fit_formula` finds an exact formula (a*s + b, a*s*t + b, or linear in every symbol) for values
seen one per gear; `integral_floats` tells a size held as a float. Merging (merge.py) builds the
formulas as ONNX nodes; the partitioner (partitioning.py) leaves on the CPU what no formula gives.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy

from .plan import GearPlan

Fit = tuple[list[tuple[int, tuple[sympy.Symbol, ...]]], int]


def fit_formula(values: Sequence[int], plan: GearPlan) -> Fit | None:
    """An integer formula of the gear symbols that gives `values` (one per gear) exactly:
    a*s + b, a*s*t + b, or a linear combination of all symbols; None when there is none."""
    gears = plan.gears
    if len(set(values)) == 1:
        return [], int(values[0])
    bases: list[tuple[sympy.Symbol, ...]] = [(s,) for s in plan.symbols]
    bases += list(itertools.combinations_with_replacement(plan.symbols, 2))
    index = {s: i for i, s in enumerate(plan.symbols)}

    def term(gear: Sequence[int], syms: tuple[sympy.Symbol, ...]) -> int:
        return int(np.prod([gear[index[s]] for s in syms]))

    for syms in bases:
        xs = [term(g, syms) for g in gears]
        pairs = [(i, j) for i in range(len(xs)) for j in range(i) if xs[i] != xs[j]]
        if not pairs:
            continue
        i, j = pairs[0]
        a = Fraction(values[i] - values[j], xs[i] - xs[j])
        b = values[i] - a * xs[i]
        if a.denominator == 1 and b.denominator == 1:
            if all(a * x + b == v for x, v in zip(xs, values, strict=True)):
                return [(int(a), syms)], int(b)
    matrix = np.array([[*g, 1] for g in gears], dtype=np.float64)
    solution = np.rint(np.linalg.lstsq(matrix, np.array(values, dtype=np.float64), rcond=None)[0])
    coefs = [int(c) for c in solution]
    if all(
        sum(c * x for c, x in zip(coefs, [*g, 1], strict=True)) == v
        for g, v in zip(gears, values, strict=True)
    ):
        terms = [(c, (s,)) for c, s in zip(coefs[:-1], plan.symbols, strict=True) if c != 0]
        return terms, coefs[-1]
    return None


def integral_floats(arrays: Sequence[np.ndarray]) -> bool:
    """Float arrays of one shape, rank <= 1, whole numbers at every gear (sizes held as floats)."""
    first = arrays[0]
    if first.dtype.kind != "f" or first.ndim > 1:
        return False
    return all(
        a.shape == first.shape
        and np.all(np.isfinite(a))
        and np.all(a == np.round(a))
        and np.all(np.abs(a) < 2**53)
        for a in arrays
    )
