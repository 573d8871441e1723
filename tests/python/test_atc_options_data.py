# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's atc options as data (atc_options.json): the compile spec's table is the data's, and
the emulator's atc, built from the same file, takes what the data says (its own C++ test,
emulator/tests/atc/atc_option_table_test.cc, checks it option by option)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import executorch_ascend
from executorch_ascend.compile_spec import EXTERNAL_WEIGHT_MODES, PRECISION_MODES
from executorch_ascend.toolchain import atc_options as table
from executorch_ascend.toolchain import cann

_DATA = json.loads((Path(executorch_ascend.__file__).parent / "atc_options.json").read_text())
_GE = "hicann/ge@ffdcbc9f7496c17a98c1d12762c61ed608ef3503:"


def test_the_data_names_canns_85_options_with_their_source() -> None:
    options = _DATA["options"]
    assert len(options) == 85
    assert table.SOURCE.startswith(_GE) and "api/atc/atc_flags.cc" in table.SOURCE
    assert _DATA["precision_mode_v2"]["source"].startswith(_GE)
    kinds = {"choice", "file", "dir", "outdir", "int", "text", "bool"}
    roles = {"emulated", "no_effect", "not_emulated", "help"}
    errors = {"E10001", "E10006", "E10007", "E10010"}
    for name, entry in options.items():
        assert entry["kind"] in kinds and entry["emulator"] in roles, name
        assert (entry["kind"] == "choice") == bool(entry.get("values")), name
        assert entry.get("range_error", "E10001") in errors, name
        assert entry.get("after_read_error", "E10006") == "E10006", name


def test_the_compile_specs_table_is_the_data() -> None:
    assert set(table.ALL_ATC_OPTIONS) == set(_DATA["options"])
    assert set(table.OWNED) <= table.ALL_ATC_OPTIONS
    assert set(table.REFUSED) <= table.ALL_ATC_OPTIONS
    for name, option in table.CANN_OPTIONS.items():
        entry = _DATA["options"][name]
        assert option.kind == entry["kind"], name
        assert option.values == tuple(entry.get("values", ())), name
        assert option.minimum == entry.get("minimum", 0), name
    assert PRECISION_MODES == tuple(_DATA["options"]["precision_mode"]["values"])
    assert PRECISION_MODES[0] == "force_fp16" and len(PRECISION_MODES) == 9
    assert EXTERNAL_WEIGHT_MODES == (0, 1, 2)
    v2 = _DATA["precision_mode_v2"]["as_precision_mode"]
    assert list(v2) == list(_DATA["options"]["precision_mode_v2"]["values"])
    assert table.PRECISION_MODE_V2_AS_V1 == v2
    assert {m for m in v2.values() if m is not None} <= set(PRECISION_MODES)


def _choices_to_try() -> list[tuple[str, str]]:
    pairs = []
    for name, option in sorted(table.PASS_THROUGH.items()):
        if _DATA["options"][name]["emulator"] == "no_effect" and option.kind == "choice":
            pairs += [(name, value) for value in option.values]
    return pairs


@pytest.mark.emulator
def test_the_emulators_atc_takes_every_value_the_table_passes_through(native) -> None:
    """Each value of a no-effect choice the compile spec passes reaches a later check of the
    emulator's atc (here: --mode=3 without a model), never a refusal of the value."""
    emulator = cann.find_emulator()
    assert emulator is not None
    for name, value in _choices_to_try():
        done = subprocess.run(
            [str(emulator.atc), "--mode=3", "--framework=5", f"--{name}={value}"],
            capture_output=True,
            text=True,
        )
        assert "--model is required" in done.stderr, (name, value, done.stderr)
