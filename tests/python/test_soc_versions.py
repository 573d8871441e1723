# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's SoC names as data: the compile spec takes each one, refuses others with the nearest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import executorch_ascend
from executorch_ascend import AscendCompileSpec
from executorch_ascend.compile_spec import CompileSpecError
from executorch_ascend.soc_dtypes import soc_has_bf16
from executorch_ascend.soc_versions import (
    SOC_VERSIONS,
    SOURCE,
    nearest_soc_versions,
    soc_family,
    soc_version_error,
)

_JSON = Path(executorch_ascend.__file__).parent / "soc_versions.json"


def test_the_list_is_canns_73_names_with_their_source() -> None:
    data = json.loads(_JSON.read_text())
    assert len(SOC_VERSIONS) == 73 == len(data["soc_versions"])
    assert SOURCE.startswith("hicann/runtime@681ef7610df13c8128982901142a2c869ddbb53e")
    assert list(SOC_VERSIONS) == sorted(SOC_VERSIONS)
    for name in ("Ascend310B1", "Ascend310P3", "Ascend910B1", "Ascend031", "KirinDev0003"):
        assert name in SOC_VERSIONS


# The names the compile spec used to refuse (issue 13), and the usual ones.
@pytest.mark.parametrize(
    "name",
    [
        "Ascend910B1",
        "Ascend310P3",
        "Ascend310B1",
        "Ascend910_9391",
        "Ascend910B4-1",
        "Ascend950PR_9579",
        "Ascend950DT_95A2",
        "Ascend350_354f",
        "Kirin9030",
        "KirinX90",
        "Ascend910PremiumA",
    ],
)
def test_every_cann_name_is_a_valid_soc_version(name: str) -> None:
    assert soc_version_error(name) is None
    assert AscendCompileSpec(soc_version=name).soc_version == name


def test_all_73_names_pass_the_compile_spec() -> None:
    for name in SOC_VERSIONS:
        AscendCompileSpec(soc_version=name)


@pytest.mark.parametrize(
    ("name", "nearest"),
    [
        ("Ascend910B9", "Ascend910B"),
        ("ascend310p3", None),
        ("Ascend310P2", "Ascend310P1"),
        ("Ascend910_939", "Ascend910_9391"),
        ("Kirin9000", "Kirin9030"),
    ],
)
def test_an_unknown_name_is_refused_with_the_nearest(name: str, nearest: str | None) -> None:
    with pytest.raises(CompileSpecError, match="is not a SoC name CANN knows") as info:
        AscendCompileSpec(soc_version=name)
    if nearest is not None:
        assert "did you mean" in str(info.value)
        assert nearest in nearest_soc_versions(name)
        assert nearest in str(info.value)


def test_a_name_far_from_all_gets_no_suggestion() -> None:
    message = soc_version_error("x")
    assert message is not None and "did you mean" not in message
    assert soc_version_error(910) is not None


def test_families_and_bf16_follow_the_family_rule() -> None:
    # Only the Ascend310P family is documented without bf16 (soc_dtypes.py): every name of that
    # family refuses bf16, every other name of the list keeps it.
    assert soc_family("Ascend310P7") == "Ascend310P"
    assert soc_family("Ascend910B4-1") == "Ascend910B"
    assert soc_family("Ascend910_9391") == "Ascend910_93"
    for name, family in SOC_VERSIONS.items():
        assert soc_has_bf16(name) == (family != "Ascend310P"), name
