# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""torch.export's scan for preservable CompositeImplicitAutograd ops, remembered while the
dispatcher's registrations stay the same, and torch._ops' `Callable[...]` annotations built once
(test speed only, the same results; install() is called by conftest).

Why: every `run_decompositions` (three per `lower`) calls
`torch._export.utils._collect_all_valid_cia_ops`, which walks every op of every non-aten
namespace, materialising the C++ dispatcher's CIA ops once per namespace. With executorch,
torchao and transformers loaded that is about half a second per call, about 40% of lowering a
one-op sample (cProfile over the converter samples, torch 2.13.0), and it dominated the Python
suite's time. torch does not cache it (its comment: custom ops can still register CIA kernels
with the C++ dispatcher), so the memo is keyed on exactly that: the op namespaces and the
dispatcher's CompositeImplicitAutograd registrations, read again on every call (a few ms). Any
new registration recomputes the scan, so the result is always the one torch would compute.
"""

from __future__ import annotations

import collections.abc as abc
import functools
from collections.abc import Callable

import torch

_Key = tuple[tuple[str, ...], tuple[str, ...]]


def _key() -> _Key:
    return (
        tuple(sorted(torch.ops._dir)),
        tuple(torch._C._dispatch_get_registrations_for_dispatch_key("CompositeImplicitAutograd")),
    )


def memoized(scan: Callable[[], set]) -> Callable[[], set]:
    """`scan` remembered per _key(); each call returns a new set (callers mutate theirs)."""
    last: list[tuple[_Key, frozenset]] = []

    def collect() -> set:
        key = _key()
        if not last or last[0][0] != key:
            last[:] = [(key, frozenset(scan()))]
        return set(last[0][1])

    collect.__wrapped__ = scan  # type: ignore[attr-defined]
    return collect


@functools.cache
def _subscript(params: object) -> object:
    return abc.Callable[params]  # type: ignore[index]


class _CallableMeta(type):
    """`Callable[...]` built once per argument tuple (hashable ones: `Callable[[A], B]`'s list
    is built each time); isinstance as collections.abc.Callable's."""

    def __getitem__(cls, params: object) -> object:
        try:
            return _subscript(params)
        except TypeError:  # unhashable
            return abc.Callable[params]  # type: ignore[index]

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, abc.Callable)


class _Callable(metaclass=_CallableMeta):
    """Stands for collections.abc.Callable in torch._ops (see install)."""


def install() -> None:
    """Replaces the scan where torch.export's modules imported it by name, and torch._ops'
    `Callable` by one whose subscripts are built once: torch._ops evaluates
    `Callable[_P, _T]` annotations at every `py_impl` call (no postponed annotations), and
    `run_decompositions` makes about 6000 of them per call (each CIA op's kernels overridden and
    restored), about 40% of the time left in lowering a one-op sample."""
    import torch._ops as ops

    assert ops.Callable is abc.Callable or ops.Callable is _Callable  # torch 2.13.0's import
    ops.Callable = _Callable  # type: ignore[attr-defined,misc]

    import torch._export.utils as utils
    import torch.export.decomp_utils as decomp_utils
    import torch.export.exported_program as exported_program

    scan = utils._collect_all_valid_cia_ops
    if hasattr(scan, "__wrapped__"):
        return
    collect = memoized(scan)
    for module in (utils, decomp_utils, exported_program):
        assert module._collect_all_valid_cia_ops is scan, module.__name__  # torch 2.13.0's layout
        module._collect_all_valid_cia_ops = collect
