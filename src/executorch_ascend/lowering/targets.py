# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Edge-dialect op targets wrap ATen overloads; the registry is keyed by the ATen overload."""

from __future__ import annotations

from executorch.exir.dialects.edge._ops import EdgeOpOverload


def aten_target(target: object) -> object:
    """The ATen OpOverload behind an edge op; any other target unchanged.

    (ATen OpOverloads have an `_op` attribute too, the C++ builtin, so `getattr(t, "_op", t)`
    would be wrong for ATen nodes such as those ops_to_not_decompose's filter sees.)
    """
    return target._op if isinstance(target, EdgeOpOverload) else target
