# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The Python mirror of aclEmuStats (executorch_ascend_emulator.stats.FIELDS) lists the C struct's
fields in order: a field appended in acl_emu_extras.h without the mirror would shift nothing
(spare room keeps the buffer safe) but would go unread."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _stats_module():
    import importlib.util

    path = REPO / "emulator" / "python" / "executorch_ascend_emulator" / "stats.py"
    spec = importlib.util.spec_from_file_location("_stats_mirror", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fields_match_the_c_struct() -> None:
    header = (REPO / "emulator" / "acl" / "include" / "acl_emu_extras.h").read_text()
    body = re.search(r"typedef struct aclEmuStats \{(.*?)\} aclEmuStats;", header, re.S)
    assert body is not None
    without_comments = re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.S)
    fields = tuple(re.findall(r"uint64_t\s+(\w+)\s*;", without_comments))
    assert fields == _stats_module().FIELDS
