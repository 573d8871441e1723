"""Package import wiring: which ACL the backend is pointed at."""

from __future__ import annotations

from pathlib import Path

import pytest

from executorch_ascend import native, paths


@pytest.fixture
def fake_bundle(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    lib = tmp_path / "emulator" / "lib64" / "libascendcl.so"
    lib.parent.mkdir(parents=True)
    lib.write_bytes(b"")
    monkeypatch.setattr(paths, "emulator_home", lambda: tmp_path / "emulator")
    return lib


def test_bundled_emulator_is_used_when_nothing_is_configured(monkeypatch, fake_bundle) -> None:
    monkeypatch.setenv(paths.ENV_ACL_LIB, "")  # so monkeypatch restores what was there
    monkeypatch.delenv(paths.ENV_ACL_LIB)
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    native.point_acl_at_bundled_emulator()
    assert paths.acl_library() == fake_bundle


def test_cann_environment_is_left_alone(monkeypatch, fake_bundle, tmp_path) -> None:
    monkeypatch.delenv(paths.ENV_ACL_LIB, raising=False)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "cann"))
    native.point_acl_at_bundled_emulator()
    assert paths.acl_library() == tmp_path / "cann" / "lib64" / "libascendcl.so"


def test_explicit_acl_library_wins(monkeypatch, fake_bundle, tmp_path) -> None:
    monkeypatch.setenv(paths.ENV_ACL_LIB, str(tmp_path / "mine.so"))
    native.point_acl_at_bundled_emulator()
    assert paths.acl_library() == tmp_path / "mine.so"


def test_dev_overrides(monkeypatch, tmp_path) -> None:
    for env, fn in (
        (paths.ENV_BACKEND_LIB, paths.backend_library),
        (paths.ENV_EMULATOR_ATC, paths.emulator_atc),
        (paths.ENV_RUNNER, paths.runner),
    ):
        monkeypatch.setenv(env, str(tmp_path / env))
        assert fn() == tmp_path / env
        monkeypatch.delenv(env)
        assert paths.PACKAGE_DIR in fn().parents
