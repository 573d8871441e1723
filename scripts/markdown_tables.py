# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The pipe tables of a Markdown page, with the headings and prose around them: what
scripts/make_pictures.py draws the benchmark pictures from (docs/benchmarks.md,
docs/backend-test-suite.md). A few lines of our own: the figures live in prose-annotated tables that
a Markdown library would hand back without the section text and dates the pictures need.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Table:
    """A pipe table of a Markdown page, with the headings above it and the prose before it."""

    headings: list[str]  # the enclosing headings, outermost first
    header: list[str]
    rows: list[list[str]]
    before: str  # the paragraph just before the table
    section_text: str  # the text of the enclosing level-2 section up to the table

    def column(self, name: str) -> int:
        return self.header.index(name)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def read_tables(page: Path) -> list[Table]:
    """Every pipe table of `page`, outside fenced code blocks."""
    lines = page.read_text(encoding="utf-8").splitlines()
    tables: list[Table] = []
    headings: list[tuple[int, str]] = []
    section: list[str] = []
    paragraph: list[str] = []
    last_paragraph: list[str] = []
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and (m := re.match(r"^(#{1,6})\s+(.*)$", line)):
            level = len(m.group(1))
            headings = [h for h in headings if h[0] < level] + [(level, m.group(2).strip())]
            if level <= 2:
                section = []
            paragraph, last_paragraph = [], []
        is_table = (
            not fenced
            and line.startswith("|")
            and i + 1 < len(lines)
            and re.match(r"^\|\s*:?-{3,}", lines[i + 1])
        )
        if is_table:
            header = _cells(line)
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            tables.append(
                Table(
                    headings=[h for _, h in headings],
                    header=header,
                    rows=rows,
                    before=" ".join(paragraph or last_paragraph),
                    section_text="\n".join(section),
                )
            )
            paragraph, last_paragraph = [], []
            continue
        section.append(line)
        if line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            last_paragraph, paragraph = paragraph, []
        i += 1
    return tables


def find_tables(
    tables: Sequence[Table], first_columns: Sequence[str], heading: str | None = None
) -> list[Table]:
    """The tables whose header starts with `first_columns`, under a heading containing `heading`."""
    found = [
        t
        for t in tables
        if t.header[: len(first_columns)] == list(first_columns)
        and (heading is None or any(heading in h for h in t.headings))
    ]
    if not found:
        where = f" under a heading with {heading!r}" if heading else ""
        raise LookupError(f"no table starting with columns {list(first_columns)}{where}")
    return found


def first_number(cell: str) -> float:
    """The first figure of a cell: '0.346 / 0.474' -> 0.346, '1523.4' -> 1523.4."""
    m = re.search(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", cell.replace(",", ""))
    if not m:
        raise ValueError(f"no number in table cell {cell!r}")
    return float(m.group(0))


def measured_on(table: Table) -> str:
    """The date the section says its numbers were measured (the last one before the table)."""
    dates = re.findall(
        r"(?:[Mm]easured|re-run\s+on|[Rr]un\s+on)\s+(\d{4}-\d{2}-\d{2})", table.section_text
    )
    return dates[-1] if dates else "date not stated"
