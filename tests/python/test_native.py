# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Package import wiring: which ACL the backend is pointed at, and that only an explicit choice
selects the CANN emulator."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from executorch_ascend import paths
from executorch_ascend.toolchain import cann


def _acl_after_import(**env: str) -> str:
    """EXECUTORCH_ASCEND_ACL_LIB as a fresh interpreter sees it after `import executorch_ascend`."""
    clean = {
        k: v for k, v in os.environ.items() if k not in (cann.ENV_ACL_LIB, cann.ENV_USE_EMULATOR)
    }
    clean.update(env)
    code = "import os, executorch_ascend; print(os.environ.get('EXECUTORCH_ASCEND_ACL_LIB'))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=clean, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def test_import_never_chooses_the_emulator() -> None:
    assert _acl_after_import() == "None"


@pytest.mark.emulator
def test_the_environment_variable_chooses_the_emulator(native) -> None:
    emulator = cann.find_emulator()
    assert emulator is not None
    assert _acl_after_import(**{cann.ENV_USE_EMULATOR: "1"}) == str(emulator.acl_library)
    assert _acl_after_import(**{cann.ENV_USE_EMULATOR: "0"}) == "None"


def test_a_bad_switch_value_is_an_error(monkeypatch) -> None:
    monkeypatch.setenv(cann.ENV_USE_EMULATOR, "yes")
    with pytest.raises(ValueError, match="must be 0 or 1"):
        cann.use_emulator_if_requested()


def test_acl_library_rule(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(cann.ENV_ACL_LIB, str(tmp_path / "mine.so"))
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "home"))
    monkeypatch.setenv("ASCEND_TOOLKIT_HOME", str(tmp_path / "toolkit"))
    assert cann.acl_library() == tmp_path / "mine.so"
    monkeypatch.delenv(cann.ENV_ACL_LIB)
    assert cann.acl_library() == tmp_path / "home" / "lib64" / "libascendcl.so"
    monkeypatch.delenv("ASCEND_HOME_PATH")
    assert cann.acl_library() == tmp_path / "toolkit" / "lib64" / "libascendcl.so"
    monkeypatch.delenv("ASCEND_TOOLKIT_HOME")
    assert cann.acl_library() is None
    assert cann.acl_libraries() is None


def test_acl_library_rule_prefers_cann_split_layout(monkeypatch, tmp_path) -> None:
    lib64 = tmp_path / "home" / "lib64"
    lib64.mkdir(parents=True)
    monkeypatch.delenv(cann.ENV_ACL_LIB, raising=False)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "home"))
    (lib64 / "libacl_rt.so").write_bytes(b"")
    # Half of the pair: the compatibility library, as the C++ backend does.
    assert cann.acl_libraries() == (lib64 / "libascendcl.so",)
    (lib64 / "libacl_mdl.so").write_bytes(b"")
    assert cann.acl_libraries() == (lib64 / "libacl_rt.so", lib64 / "libacl_mdl.so")
    assert cann.acl_library() == lib64 / "libacl_rt.so"
    assert "split layout" in cann.describe_acl_libraries(cann.acl_libraries())
    # An explicit libacl_mdl.so (or libacl_rt.so) names the pair in its folder.
    monkeypatch.setenv(cann.ENV_ACL_LIB, str(tmp_path / "x" / "libacl_mdl.so"))
    assert cann.acl_libraries() == (
        tmp_path / "x" / "libacl_rt.so",
        tmp_path / "x" / "libacl_mdl.so",
    )


def test_use_emulator_keeps_an_explicit_library(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(cann.ENV_EMULATOR_ATC, str(tmp_path / "atc"))
    monkeypatch.setenv(cann.ENV_EMULATOR_ACL_LIB, str(tmp_path / "emu.so"))
    monkeypatch.setattr(cann, "_chosen", None)
    monkeypatch.setenv(cann.ENV_ACL_LIB, str(tmp_path / "mine.so"))
    emulator = cann.use_emulator()
    assert os.environ[cann.ENV_ACL_LIB] == str(tmp_path / "mine.so")
    assert cann.chosen_emulator() == emulator
    monkeypatch.delenv(cann.ENV_ACL_LIB)
    cann.use_emulator()
    assert os.environ[cann.ENV_ACL_LIB] == str(tmp_path / "emu.so")


def test_no_emulator_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.delenv(cann.ENV_EMULATOR_ATC, raising=False)
    monkeypatch.delenv(cann.ENV_EMULATOR_ACL_LIB, raising=False)
    monkeypatch.setitem(sys.modules, "executorch_ascend_emulator", None)  # not installed
    assert cann.find_emulator() is None
    with pytest.raises(cann.EmulatorNotFound, match=r"pip install \./emulator"):
        cann.use_emulator()


def test_dev_overrides(monkeypatch, tmp_path: Path) -> None:
    for env, fn in (
        (paths.ENV_BACKEND_LIB, paths.backend_library),
        (paths.ENV_RUNNER, paths.runner),
    ):
        monkeypatch.setenv(env, str(tmp_path / env))
        assert fn() == tmp_path / env
        monkeypatch.delenv(env)
        assert paths.PACKAGE_DIR in fn().parents
