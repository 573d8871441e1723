# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Refresh the ai.onnx ops CANN's ONNX parser registers, in cann_op_facts.json.

Reads the "Standard ai.onnx operators with a registration" table of
cann-onnx-ops.md and its appendix of the non-standard names CANN registers in
the ai.onnx domain (AscendQuant, NPUWeightQuantBatchMatmulV2, ...; the
"opset versions registered" column: "8-18",
"8, 12-18", "1, 6, 8-18", "8-16 **(no 17)**", with en dashes) and writes the "registrations"
object of src/executorch_ascend/cann_op_facts.json: per op, the versions as written ("8-18",
"9, 11-16"). The emulator's atc (a header emulator/atc/CMakeLists.txt generates, with the bit
masks) and the Python side read that one object.

Usage: python gen_cann_onnx_ops.py <cann-onnx-ops.md> <cann_op_facts.json>
The JSON is committed; rerun this when the reference changes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

EN_DASH = "\u2013"
SECTION = "## Standard ai.onnx operators with a registration"
APPENDIX = "## Appendix: non-standard names registered in the ai.onnx domain"
MAX_OPSET = 31  # the mask is a uint32_t


def parse_versions(text: str) -> list[int]:
    """Opsets named by a cell such as '8, 12-18 **(no 17)**' (en dashes or hyphens)."""
    cleaned = re.sub(r"\*\*.*?\*\*", "", text).replace(EN_DASH, "-").strip()
    opsets: list[int] = []
    for part in cleaned.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            lo_text, hi_text = part.split("-", 1)
            lo, hi = int(lo_text), int(hi_text)
        else:
            lo = hi = int(part)
        if not 1 <= lo <= hi <= MAX_OPSET:
            raise ValueError(f"bad opset range {part!r} in {text!r}")
        opsets.extend(range(lo, hi + 1))
    if not opsets:
        raise ValueError(f"no opsets in {text!r}")
    return opsets


def parse_table(
    markdown: str, section: str = SECTION, min_rows: int = 100
) -> list[tuple[str, str, int]]:
    """(op type, versions as written, mask) for each row of the section."""
    start = markdown.index(section)
    end = markdown.find("\n## ", start + len(section))
    rows: list[tuple[str, str, int]] = []
    for line in markdown[start : end if end >= 0 else None].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", cells[0]):
            continue
        if cells[0] == "ONNX":
            continue
        opsets = parse_versions(cells[1])
        mask = 0
        for v in opsets:
            mask |= 1 << v
        written = re.sub(r"\s*\*\*.*?\*\*", "", cells[1]).replace(EN_DASH, "-").strip()
        rows.append((cells[0], written, mask))
    if len(rows) < min_rows:
        raise ValueError(f"only {len(rows)} rows parsed; did the format change?")
    return sorted(rows)


def parse_all(markdown: str) -> list[tuple[str, str, int]]:
    """The standard ops and the appendix's non-standard ai.onnx names, sorted."""
    rows = parse_table(markdown) + parse_table(markdown, APPENDIX, min_rows=50)
    names = [op for op, _, _ in rows]
    if len(names) != len(set(names)):
        raise ValueError("an op is listed twice")
    return sorted(rows)


def update(facts: dict, rows: list[tuple[str, str, int]]) -> dict:
    """`facts` with its "registrations" replaced by `rows` (keys in their order)."""
    out = dict(facts)
    out["registrations"] = {op: written for op, written, _ in rows}
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, dst = Path(argv[1]), Path(argv[2])
    rows = parse_all(src.read_text(encoding="utf-8"))
    facts = update(json.loads(dst.read_text(encoding="utf-8")), rows)
    dst.write_text(json.dumps(facts, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(rows)} ops to {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
