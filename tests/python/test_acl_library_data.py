# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Where the backend finds ACL, as data (acl_library.json): toolchain/cann.py's rule reads its
names from the file the C++ backend and llm_runner are generated from (tests/cpp/runtime/
acl_library_data_test.cpp checks the C++ side)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import executorch_ascend
from executorch_ascend.toolchain import cann

_DATA = json.loads((Path(executorch_ascend.__file__).parent / "acl_library.json").read_text())


def test_cann_py_reads_the_data_with_its_source() -> None:
    assert cann.ENV_ACL_LIB == _DATA["explicit_variable"]
    assert cann.HOME_VARIABLES == tuple(_DATA["home_variables"])
    assert cann.LIBRARY_FOLDER == _DATA["library_folder"]
    assert cann.SINGLE_ACL_LIBRARY == _DATA["single_library"]
    assert cann.RUNTIME_ACL_LIBRARY == _DATA["runtime_library"]
    assert cann.MODEL_ACL_LIBRARY == _DATA["model_library"]
    assert cann.ACL_LIBRARY_SOURCE == _DATA["source"]
    assert "hicann/runtime@681ef7610df13c8128982901142a2c869ddbb53e:" in cann.ACL_LIBRARY_SOURCE
    assert "hicann/ge@ffdcbc9f7496c17a98c1d12762c61ed608ef3503:" in cann.ACL_LIBRARY_SOURCE


def test_the_rule_follows_the_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(_DATA["explicit_variable"], raising=False)
    for name in _DATA["home_variables"]:
        monkeypatch.delenv(name, raising=False)
    assert cann.acl_libraries() is None  # the loader's path
    # The last home variable, with the single library only, then with the pair.
    monkeypatch.setenv(_DATA["home_variables"][-1], str(tmp_path))
    folder = tmp_path / _DATA["library_folder"]
    assert cann.acl_libraries() == (folder / _DATA["single_library"],)
    folder.mkdir()
    for key in ("runtime_library", "model_library"):
        (folder / _DATA[key]).write_bytes(b"x")
    assert cann.acl_libraries() == (
        folder / _DATA["runtime_library"],
        folder / _DATA["model_library"],
    )
    # The explicit variable first.
    monkeypatch.setenv(_DATA["explicit_variable"], str(tmp_path / "mine.so"))
    assert cann.acl_libraries() == (tmp_path / "mine.so",)
