# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""cia_scan_memo (installed by conftest) gives what torch.export's own scan gives, and sees
an op registered after its first answer."""

from __future__ import annotations

import collections.abc

import torch
import torch._export.utils as utils
import torch._ops


def test_the_memo_is_installed_and_gives_torchs_answer() -> None:
    collect = utils._collect_all_valid_cia_ops
    assert hasattr(collect, "__wrapped__")
    assert collect() == collect.__wrapped__()
    assert torch.ops.aten.linear.default in collect()


def test_an_op_registered_later_is_seen_and_its_removal_too() -> None:
    before = utils._collect_all_valid_cia_ops()
    lib = torch.library.Library("ascend_cia_memo_test", "DEF")
    try:
        lib.define("twice(Tensor x) -> Tensor")
        lib.impl("twice", lambda x: x * 2, "CompositeImplicitAutograd")
        op = torch.ops.ascend_cia_memo_test.twice.default
        assert op not in before
        assert op in utils._collect_all_valid_cia_ops()
    finally:
        lib._destroy()
    assert op not in utils._collect_all_valid_cia_ops()


def test_callers_may_change_their_set() -> None:
    mine = utils._collect_all_valid_cia_ops()
    mine.clear()
    assert utils._collect_all_valid_cia_ops()


def test_torch_ops_callable_subscripts_once_and_checks_as_the_abc() -> None:
    stand_in = torch._ops.Callable
    assert stand_in[..., int] is stand_in[..., int]
    assert stand_in[..., int] == collections.abc.Callable[..., int]
    assert stand_in[[int], int] == collections.abc.Callable[[int], int]
    assert isinstance(len, stand_in) and not isinstance(3, stand_in)
