# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""docs/op-support.md is generated from the converter registry; it must match the code."""

from __future__ import annotations

from pathlib import Path

from executorch_ascend.lowering.op_table import render_op_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "op-support.md"
BEGIN = "<!-- begin generated table -->\n"
END = "<!-- end generated table -->"


def test_doc_table_matches_registry() -> None:
    text = DOC.read_text()
    table = text[text.index(BEGIN) + len(BEGIN) : text.index(END)]
    assert table == render_op_table(), (
        "docs/op-support.md is stale: regenerate its table with `executorch-ascend ops`"
    )


def test_every_converter_has_tested_samples() -> None:
    rows = [r for r in render_op_table().splitlines()[2:]]
    untested = [r for r in rows if r.rstrip().endswith("| 0 |") and "getitem" not in r]
    assert not untested, f"converters without samples: {untested}"
