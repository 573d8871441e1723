# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Facts about the source tree itself: every source file carries the licence header."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SPDX = "SPDX-License-Identifier: BSD-3-Clause"
SOURCE_SUFFIXES = (".py", ".sh", ".cmake", ".toml", ".cc", ".cpp", ".h", ".inc", ".def")


def _tracked() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return [REPO / f for f in out.split()]


def test_every_source_file_has_the_licence_header() -> None:
    assert (REPO / "LICENSE").read_text().startswith("BSD 3-Clause License")
    sources = [
        p
        for p in _tracked()
        if p.is_file()
        and (p.name == "CMakeLists.txt" or p.suffix in SOURCE_SUFFIXES)
        and "regressions" not in p.parts
    ]
    assert len(sources) > 300
    missing = [str(p.relative_to(REPO)) for p in sources if SPDX not in p.read_text()[:400]]
    assert missing == []
