# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's SoC names: what `atc --soc_version` takes and `aclrtGetSocName()` returns.

The list is data, `soc_versions.json` beside this file: one entry per `platform_config` file of
CANN's runtime (hicann/runtime, the commit named in the file), with the chip's family
(`Short_SoC_version`). The emulator's atc and libascendcl.so read the same file (a header
generated from it at build time), so the compile spec, atc and the emulated SoC agree on what a
SoC name is.
"""

from __future__ import annotations

import difflib
import json
from importlib import resources

_DATA = json.loads(resources.files(__package__).joinpath("soc_versions.json").read_text("utf-8"))

#: Every SoC name CANN knows, mapped to its family (CANN's Short_SoC_version).
SOC_VERSIONS: dict[str, str] = dict(_DATA["soc_versions"])

#: Where the list comes from (repository@commit:folder).
SOURCE: str = _DATA["source"]

_GEARS = _DATA["gear_limits"]
#: The fewest gears (--dynamic_batch_size / --dynamic_dims profiles) atc takes.
MIN_GEARS: int = int(_GEARS["min"])
#: Where the gear limits come from (repository@commit:file).
GEAR_LIMITS_SOURCE: str = _GEARS["source"]
# ACL's aclmdlIODims holds at most this many dims: with --dynamic_dims, the dims of all of a
# model's inputs together (device-state inputs too) must fit, or ACL cannot report the gears.
MAX_GEARED_INPUT_DIMS: int = int(_GEARS["max_input_dims"])


def max_gears(soc_version: str) -> int:
    """The most gears atc takes for `soc_version`: its family's own limit (256 on Ascend950),
    else CANN's common one (100)."""
    family = SOC_VERSIONS.get(soc_version, "")
    return int(_GEARS["max_by_family"].get(family, _GEARS["max"]))


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def nearest_soc_versions(name: str, n: int = 3) -> list[str]:
    """The known SoC names closest to `name`, best first.

    difflib's ratio (at least 0.5) ranks them; among equally close names the one sharing the
    longer prefix comes first ('Ascend310P2': the 310P chips before 'Ascend310B2'), then the
    list's order. The emulator's C++ side ranks by edit distance with the same tie-break.
    """
    scored = []
    for index, known in enumerate(SOC_VERSIONS):
        ratio = difflib.SequenceMatcher(None, name, known).ratio()
        if ratio >= 0.5:
            scored.append((-ratio, -_common_prefix(name, known), index, known))
    return [known for *_, known in sorted(scored)[:n]]


def soc_version_error(name: object) -> str | None:
    """Why `name` is not a CANN SoC name, with the nearest known names; None when it is one."""
    if isinstance(name, str) and name in SOC_VERSIONS:
        return None
    shown = repr(name)
    near = nearest_soc_versions(name) if isinstance(name, str) else []
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    return (
        f"soc_version {shown} is not a SoC name CANN knows ({len(SOC_VERSIONS)} names, "
        f"e.g. 'Ascend910B1', 'Ascend310P3'; executorch_ascend.soc_versions.SOC_VERSIONS lists "
        f"them){hint}"
    )


def soc_family(name: str) -> str:
    """The chip family of a known SoC name (CANN's Short_SoC_version), e.g. Ascend310P."""
    return SOC_VERSIONS[name]
