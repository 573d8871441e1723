# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend --version` and `executorch-ascend info`: versions from package metadata (no
torch or executorch import), and the atc and ACL library this installation would use, each
tried for real in a child process (atc --help; a dlopen of the ACL library)."""

from __future__ import annotations

import platform
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from .. import paths
from .._version import __version__
from ..toolchain import cann

PROBE_TIMEOUT_S = 30
_DISTRIBUTIONS = ("executorch-ascend-emulator", "executorch", "torch")


def distribution_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def version_text() -> str:
    """One line: this package's version and the torch/executorch it runs with."""
    others = ", ".join(
        f"{name} {distribution_version(name) or 'not installed'}"
        for name in ("executorch", "torch")
    )
    return f"executorch-ascend {__version__} ({others}; python {platform.python_version()})"


@dataclass(frozen=True)
class Probe:
    ok: bool
    detail: str  # why not, or what ran


def _run(cmd: list[str], what: str) -> subprocess.CompletedProcess[str] | Probe:
    """Runs a probe's command; a Probe saying why when it cannot run or does not finish."""
    try:
        return subprocess.run(
            cmd, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        return Probe(False, f"{what} did not finish in {PROBE_TIMEOUT_S} s")
    except OSError as e:
        return Probe(False, f"cannot run it: {e}")


def probe_atc(atc: Path) -> Probe:
    """Runs `atc --help`: a missing shared library (exit 127) or a crash shows here, not at the
    first lowering."""
    if not atc.is_file():
        return Probe(False, "file missing")
    done = _run([str(atc), "--help"], "`atc --help`")
    if isinstance(done, Probe):
        return done
    if done.returncode == 0:
        return Probe(True, "`atc --help` runs")
    first = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()[0]
    why = "missing shared libraries? " if done.returncode == 127 else ""
    return Probe(False, f"`atc --help` exited with {done.returncode} ({why}{first})")


def probe_acl(library: Path | None) -> Probe:
    """dlopen()s the ACL library in a child process (so this process loads nothing)."""
    target = str(library) if library is not None else "libascendcl.so"
    code = "import ctypes, sys; ctypes.CDLL(sys.argv[1])"
    done = _run([sys.executable, "-c", code, target], "dlopen")
    if isinstance(done, Probe):
        return done
    if done.returncode == 0:
        return Probe(True, "dlopen works")
    lines = done.stderr.strip().splitlines()
    return Probe(False, f"dlopen fails: {lines[-1] if lines else done.returncode}")


def _state(probe: Probe) -> str:
    return f"OK, {probe.detail}" if probe.ok else f"NOT USABLE: {probe.detail}"


def info_lines() -> list[str]:
    lines = [f"executorch-ascend {__version__}"]
    lines += [f"{name}: {distribution_version(name) or 'not installed'}" for name in _DISTRIBUTIONS]
    lines.append(f"python: {platform.python_version()} ({sys.executable})")
    chosen = cann.chosen_emulator()
    lines.append(f"target: {'the CANN emulator (use_emulator)' if chosen else 'CANN'}")
    cann_atc = cann.cann_atc()
    if cann_atc is None:
        lines.append("atc (cann): not found (source CANN's set_env.sh, or put atc on PATH)")
    else:
        lines.append(f"atc (cann): {cann_atc}: {_state(probe_atc(cann_atc))}")
    emulator = cann.find_emulator()
    if emulator is None:
        lines.append("atc (emulator): not installed (pip install executorch-ascend-emulator)")
    else:
        lines.append(f"atc (emulator): {emulator.atc}: {_state(probe_atc(emulator.atc))}")
        lines.append(
            f"libascendcl (emulator): {emulator.acl_library}: "
            f"{_state(probe_acl(emulator.acl_library))}"
        )
    for what, path in (
        ("backend library", paths.backend_library()),
        ("ascend_runner", paths.runner()),
    ):
        lines.append(f"{what}: {path} ({'present' if path.is_file() else 'missing'})")
    libraries = cann.acl_libraries()
    where = cann.describe_acl_libraries(libraries)
    lines.append(f"ACL the backend loads: {where}: {_state(_probe_acl_libraries(libraries))}")
    return lines


def _probe_acl_libraries(libraries: tuple[Path, ...] | None) -> Probe:
    """The pair (both must load) or the single library; None: the loader path, as the backend
    tries it."""
    if libraries is None:
        pair = [Path(cann.RUNTIME_ACL_LIBRARY), Path(cann.MODEL_ACL_LIBRARY)]
        probes = [probe_acl(p) for p in pair]
        if all(p.ok for p in probes):
            return Probe(True, f"dlopen works ({' + '.join(map(str, pair))})")
        single = probe_acl(None)
        return Probe(single.ok, f"{single.detail} ({cann.SINGLE_ACL_LIBRARY})")
    for library in libraries:
        probe = probe_acl(library)
        if not probe.ok:
            return Probe(False, f"{library.name}: {probe.detail}")
    return Probe(True, "dlopen works")
