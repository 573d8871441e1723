"""The atc driver: finds CANN's atc or the emulator's, and compiles one ONNX model to an .om.

Both atcs take CANN's command line, so the only difference is which binary runs; the blob
records which.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from . import paths
from ._version import __version__
from .compile_spec import AscendCompileSpec

logger = logging.getLogger(__name__)

ATC_TIMEOUT_S = 600


class ToolchainError(RuntimeError):
    """No usable atc, or atc failed."""


@dataclass(frozen=True)
class Atc:
    path: Path
    kind: str  # "cann" or "emulator"
    description: str  # "cann <path>" or "emulator <version>", recorded in the blob

    @property
    def is_emulator(self) -> bool:
        return self.kind == "emulator"


@dataclass(frozen=True)
class CompiledOm:
    om: bytes
    atc: Atc
    log: str


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _is_ours(path: Path) -> bool:
    try:
        return path.resolve() == paths.emulator_atc().resolve() or (
            paths.emulator_home().resolve() in path.resolve().parents
        )
    except OSError:
        return False


def find_cann_atc(atc_path: str | None = None) -> Path | None:
    """CANN's atc: the explicit path, else the toolkit's from the environment, else PATH."""
    if atc_path:
        return Path(atc_path)
    for env in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
        home = os.environ.get(env)
        if home and _executable(Path(home) / "bin" / "atc"):
            return Path(home) / "bin" / "atc"
    on_path = shutil.which("atc")
    if on_path and not _is_ours(Path(on_path)):
        return Path(on_path)
    return None


@functools.lru_cache(maxsize=8)
def _emulator_version(path: Path) -> str:
    """`atc --version`'s first line, else the version of the package that ships the emulator."""
    try:
        done = subprocess.run(
            [str(path), "--version"], capture_output=True, text=True, timeout=30, check=False
        )
        first = done.stdout.strip().splitlines() if done.returncode == 0 else []
    except (OSError, subprocess.TimeoutExpired):
        first = []
    return first[0].strip() if first else f"executorch-ascend {__version__}"


def resolve_atc(spec: AscendCompileSpec) -> Atc:
    """Chooses the atc for `spec.toolchain`; raises ToolchainError if it is missing."""
    if spec.toolchain in ("cann", "auto"):
        cann = find_cann_atc(spec.atc_path)
        if cann is not None:
            if not _executable(cann):
                raise ToolchainError(f"CANN atc at {cann} is not an executable file")
            return Atc(cann, "cann", f"cann {cann}")
        if spec.toolchain == "cann":
            raise ToolchainError(
                "toolchain='cann' but no CANN atc was found: pass atc_path, or source CANN's "
                "set_env.sh (sets ASCEND_HOME_PATH), or put atc on PATH"
            )
    emulator = paths.emulator_atc()
    if not _executable(emulator):
        raise ToolchainError(
            f"the emulator's atc is missing at {emulator}; reinstall executorch-ascend, or set "
            f"{paths.ENV_EMULATOR_ATC} to a built emulator atc (build/<dir>/emulator/atc/atc)"
        )
    if spec.toolchain == "auto":
        logger.warning(
            "No CANN atc found; compiling with the CANN emulator's atc (%s). The .om runs only "
            "on the emulator; use toolchain='cann' with CANN installed for a device.",
            emulator,
        )
    return Atc(emulator, "emulator", f"emulator {_emulator_version(emulator)}")


def input_shape_arg(names: Sequence[str], shapes: Sequence[Sequence[int]]) -> str:
    items = zip(names, shapes, strict=True)
    return ";".join(f"{n}:{','.join(str(d) for d in s)}" for n, s in items)


def atc_command(
    atc: Atc,
    spec: AscendCompileSpec,
    input_names: Sequence[str],
    input_shapes: Sequence[Sequence[int]],
) -> list[str]:
    # NCHW when every input is 4-D (what CANN expects for image models), else ND.
    input_format = "NCHW" if input_shapes and all(len(s) == 4 for s in input_shapes) else "ND"
    cmd = [
        str(atc.path),
        "--framework=5",
        "--model=part.onnx",
        "--output=part",
        f"--soc_version={spec.soc_version}",
        f"--precision_mode={spec.precision_mode}",
        f"--input_format={input_format}",
        "--mode=0",
    ]
    # Rank-0 inputs have no dims to give; atc reads every shape from the (static) model anyway.
    shaped = [(n, s) for n, s in zip(input_names, input_shapes, strict=True) if len(s) > 0]
    if shaped:
        names, dims = zip(*shaped, strict=True)
        cmd.insert(4, f"--input_shape={input_shape_arg(names, dims)}")
    return cmd


def compile_onnx(
    onnx_bytes: bytes,
    spec: AscendCompileSpec,
    input_names: Sequence[str],
    input_shapes: Sequence[Sequence[int]],
    atc: Atc | None = None,
) -> CompiledOm:
    """Runs atc on the model in a temporary directory and returns the .om bytes."""
    atc = atc or resolve_atc(spec)
    with tempfile.TemporaryDirectory(prefix="executorch_ascend_atc_") as tmp:
        workdir = Path(tmp)
        (workdir / "part.onnx").write_bytes(onnx_bytes)
        cmd = atc_command(atc, spec, input_names, input_shapes)
        logger.debug("running %s", " ".join(cmd))
        try:
            done = subprocess.run(
                cmd, cwd=workdir, capture_output=True, text=True, timeout=ATC_TIMEOUT_S, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ToolchainError(f"could not run {atc.description}: {e}") from e
        log = (done.stdout + done.stderr).strip()
        om_path = workdir / "part.om"
        if done.returncode != 0:
            raise ToolchainError(
                f"atc ({atc.description}) failed with exit code {done.returncode}:\n"
                f"{done.stderr.strip() or done.stdout.strip()}"
            )
        if not om_path.is_file():
            raise ToolchainError(
                f"atc ({atc.description}) succeeded but wrote no part.om; its output:\n{log}"
            )
        om = om_path.read_bytes()
    logger.info("compiled a partition with %s (%d-byte .om)", atc.description, len(om))
    return CompiledOm(om, atc, log)
