# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The atc driver: finds CANN's atc or the emulator's, and compiles one ONNX model to an .om.

Both atcs take CANN's command line, so the only difference is which binary runs; the .om's
magic tells the runtime which one built it. With --external_weight=1|2 atc also writes weight files
into `weight/` beside the .om; they are collected with it (CompiledOm.weights).

What atc wrote is never read into Python memory: the .om, each weight file and (when asked) the
ONNX model atc read are moved out of atc's temporary folder into files of their own, held as
ExecuTorch's FileBackedData, which NamedDataStore accepts as named data and the .pte/.ptd
serializer copies to its output in 8 MiB chunks. Their SHA-256 (the named-data keys) is computed
from the file in chunks too. The files are deleted when the last reference to them goes.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# ExecuTorch's file-backed named data (exir/_serialize/_cord.py, executorch 1.5.1).
from executorch.exir._serialize._cord import FileBackedData

from .._version import __version__
from ..compile_spec import DEFAULT_ATC_TIMEOUT_S, AscendCompileSpec
from . import atc_options as atc_table
from . import cann, dump

logger = logging.getLogger(__name__)

ATC_TIMEOUT_S = DEFAULT_ATC_TIMEOUT_S  # AscendCompileSpec.atc_timeout_s's default
MODEL_FILE = "part.onnx"
# atc --output=part writes part.om, and with --external_weight=1|2 its weight files into weight/
# in the same folder (CANN ATC guide).
OUTPUT_STEM = "part"
# CANN's AIPP config atc reads (--insert_op_conf), beside the model.
AIPP_FILE = "aipp.cfg"
WEIGHT_DIR = "weight"


class ToolchainError(RuntimeError):
    """No usable atc, or atc failed."""


@dataclass(frozen=True)
class Atc:
    path: Path
    kind: str  # "cann" or "emulator"
    description: str  # "cann <path>" or "emulator <version>", for log lines

    @property
    def is_emulator(self) -> bool:
        return self.kind == "emulator"


@dataclass(frozen=True)
class WeightFile:
    """A file atc wrote into weight/: the .om reads it at run time instead of holding the bytes.

    `data` is the file itself (moved out of atc's folder), not its bytes in memory."""

    name: str  # file name, without the folder: the name the .om refers to it by
    data: FileBackedData

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def digest(self) -> str:
        """SHA-256 of the bytes (hex), read from the file in chunks once, then cached."""
        return self.data.sha256().hex()

    def read_bytes(self) -> bytes:
        return self.data.to_bytes()


@dataclass(frozen=True)
class CompiledOm:
    """What atc gave, as files (module docstring). `model` is the ONNX model file atc read, kept
    only when compile_onnx was asked to (keep_model)."""

    om_file: FileBackedData
    atc: Atc
    log: str
    weights: list[WeightFile] = field(default_factory=list)  # sorted by name
    model: FileBackedData | None = None
    # The .om's op names in order (gear 0's), when atc can list them (om_op_names).
    op_names: tuple[str, ...] | None = None

    @property
    def om(self) -> bytes:
        """The .om's bytes (read from its file on each call)."""
        return self.om_file.to_bytes()


class OnnxFiles(Protocol):
    """An ONNX model that writes itself as files (its graph, and its external data beside it),
    e.g. lowering.LoweredGraph."""

    def save(self, directory: Path) -> Path:
        """Writes the files into `directory`; returns the path of the .onnx file."""
        ...


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


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
    """Chooses the atc for `spec.toolchain`; raises ToolchainError if it is missing.

    "cann" takes CANN's atc (cann.cann_atc); "emulator" the emulator's; "auto" the emulator's when
    use_emulator() chose it (its .om is what the backend will then run) and no atc_path names
    CANN's, else CANN's, else it is an error: never a silent fallback.
    """
    use_cann = spec.toolchain == "cann" or (
        spec.toolchain == "auto" and (spec.atc_path is not None or cann.chosen_emulator() is None)
    )
    if use_cann:
        found = cann.cann_atc(spec.atc_path)
        if found is not None:
            if not _executable(found):
                raise ToolchainError(f"CANN atc at {found} is not an executable file")
            return Atc(found, "cann", f"cann {found}")
        raise ToolchainError(
            f"toolchain={spec.toolchain!r} but no CANN atc was found: pass atc_path, or "
            "source CANN's set_env.sh (sets ASCEND_HOME_PATH), or put atc on PATH; to "
            "compile for the CANN emulator call executorch_ascend.use_emulator() or use "
            "toolchain='emulator'"
        )
    emulator = cann.find_emulator()
    if emulator is None or not _executable(emulator.atc):
        where = emulator.atc if emulator else "nowhere"
        raise ToolchainError(
            f"the emulator's atc is missing ({where}): pip install ./emulator "
            f"(executorch-ascend-emulator), or set {cann.ENV_EMULATOR_ATC} to a built emulator "
            "atc (build/cmake/emulator/atc/atc)"
        )
    return Atc(emulator.atc, "emulator", f"emulator {_emulator_version(emulator.atc)}")


def input_shape_arg(names: Sequence[str], shapes: Sequence[Sequence[int]]) -> str:
    items = zip(names, shapes, strict=True)
    return ";".join(f"{n}:{','.join(str(d) for d in s)}" for n, s in items)


def atc_command(
    atc: Atc,
    spec: AscendCompileSpec,
    input_names: Sequence[str],
    input_shapes: Sequence[Sequence[int]],
    model_file: str = MODEL_FILE,
    gear_options: Sequence[str] = (),
    atc_options: Sequence[tuple[str, str]] | None = None,
) -> list[str]:
    """`gear_options`: --dynamic_batch_size or --dynamic_dims (lowering/gears/plan.py), for shapes
    with -1 at the geared dims; CANN takes --dynamic_dims only with --input_format=ND.
    `atc_options`: the spec's pass-through options (default spec.atc_options; compile_onnx gives
    them with file options staged into atc's folder), last, as --name=value; precision_mode_v2
    takes --precision_mode's place (atc refuses both)."""
    extra = list(spec.atc_options if atc_options is None else atc_options)
    v2 = [value for name, value in extra if name == atc_table.PRECISION_MODE_V2]
    # NCHW when every input is 4-D (what CANN expects for image models), else ND.
    nchw = input_shapes and all(len(s) == 4 for s in input_shapes)
    dims_gears = any(o.startswith("--dynamic_dims=") for o in gear_options)
    input_format = "NCHW" if nchw and not dims_gears else "ND"
    cmd = [
        str(atc.path),
        "--framework=5",
        f"--model={model_file}",
        f"--output={OUTPUT_STEM}",
        f"--soc_version={spec.soc_version}",
        f"--precision_mode_v2={v2[0]}" if v2 else f"--precision_mode={spec.precision_mode}",
        f"--input_format={input_format}",
        "--mode=0",
        # Always given, 0 included: what the .om holds must not depend on atc's default.
        f"--external_weight={spec.external_weight}",
    ]
    # Rank-0 inputs have no dims to give; atc reads every shape from the (static) model anyway.
    # With gears atc needs every input named: a scalar is "name:" (no dims).
    shaped = [
        (n, s) for n, s in zip(input_names, input_shapes, strict=True) if len(s) > 0 or gear_options
    ]
    if shaped:
        names, dims = zip(*shaped, strict=True)
        cmd.insert(4, f"--input_shape={input_shape_arg(names, dims)}")
    passed = [f"--{name}={value}" for name, value in extra if name != atc_table.PRECISION_MODE_V2]
    return cmd + list(gear_options) + passed


def compile_onnx(
    model: bytes | OnnxFiles,
    spec: AscendCompileSpec,
    input_names: Sequence[str],
    input_shapes: Sequence[Sequence[int]],
    atc: Atc | None = None,
    gear_options: Sequence[str] = (),
    keep_model: bool = False,
    insert_op_conf: str | None = None,
) -> CompiledOm:
    """Runs atc on the model in a temporary directory; returns the .om and its weight files.

    `model` is the serialized ModelProto, or files to save (a model with external data). The
    spec's file options are copied into that directory for atc; with a dump folder
    (spec.effective_dump_dir) the directory is dumped after atc ran, also when it failed.
    `keep_model`: also return the ONNX model file atc read (CompiledOm.model), so a caller that
    keeps it (keep_onnx) needs no second serialization of the model.
    `insert_op_conf`: CANN's AIPP config text (executorch_ascend.aipp), written beside the model
    and given as atc's --insert_op_conf.
    """
    atc = atc or resolve_atc(spec)
    dump_dir = spec.effective_dump_dir
    with tempfile.TemporaryDirectory(prefix="executorch_ascend_atc_") as tmp:
        workdir = Path(tmp)
        if isinstance(model, bytes):
            (workdir / MODEL_FILE).write_bytes(model)
            model_file = MODEL_FILE
        else:
            model_file = model.save(workdir).name
        try:
            options = atc_table.stage(spec.atc_options, workdir)
        except ValueError as e:
            raise ToolchainError(str(e)) from e
        extra = list(gear_options)
        if insert_op_conf is not None:
            (workdir / AIPP_FILE).write_text(insert_op_conf)
            extra.append(f"--insert_op_conf={AIPP_FILE}")
        cmd = atc_command(
            atc, spec, input_names, input_shapes, model_file, extra, atc_options=options
        )
        logger.debug("running %s", " ".join(cmd))
        log, error = _run_atc(cmd, workdir, atc, spec.atc_timeout_s)
        if dump_dir:
            _dump(Path(dump_dir), workdir, model_file, cmd, log, error, spec, atc)
        if error is not None:
            raise error
        om_path = workdir / f"{OUTPUT_STEM}.om"
        if not om_path.is_file():
            raise ToolchainError(
                f"atc ({atc.description}) succeeded but wrote no part.om; its output:\n{log}"
            )
        op_names = om_op_names(om_path, atc)  # before the .om leaves atc's folder
        # Moved beside atc's folder (same file system: a rename), which is removed below.
        om = take_file(om_path, workdir.parent)
        weights = collect_weight_files(workdir / WEIGHT_DIR, atc, keep_in=workdir.parent)
        kept_model = take_file(workdir / model_file, workdir.parent) if keep_model else None
    logger.info(
        "compiled a partition with %s (%d-byte .om, %d weight file(s), %d bytes)",
        atc.description,
        len(om),
        len(weights),
        sum(w.size for w in weights),
    )
    return CompiledOm(om, atc, log, weights, kept_model, op_names)


def take_file(path: Path, folder: Path) -> FileBackedData:
    """Moves `path` to a new file in `folder` owned by the returned FileBackedData (deleted
    with it): the bytes stay on disk, none is read."""
    fd, owned = tempfile.mkstemp(prefix="executorch_ascend_", suffix=".data", dir=folder)
    os.close(fd)
    try:
        try:
            os.replace(path, owned)
        except OSError:
            shutil.move(path, owned)  # another file system (a folder given by the caller)
    except BaseException:
        Path(owned).unlink(missing_ok=True)
        raise
    return FileBackedData(owned, cleanup=True)


# One line of `atc --mode=6` per op: "  op 3 'aten_relu_default/Relu' Relu".
_OP_LINE = re.compile(r"^\s*op (\d+) '(.*)' (\S+)$")


def om_op_names(om: Path, atc: Atc) -> tuple[str, ...] | None:
    """The op names of the .om at `om`, in order (gear 0's for a gear model): the names per-op
    profiling reports (serialization/debug_map.py). Only the emulator's atc lists them
    (`--mode=6`); None for CANN's, or when listing fails (logged: profiling then lacks fused ops'
    nodes)."""
    if not atc.is_emulator:
        return None
    try:
        done = subprocess.run(
            [str(atc.path), "--mode=6", f"--om={om}"],
            capture_output=True,
            text=True,
            timeout=DEFAULT_ATC_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        logger.warning("could not list the .om's ops with %s: %s", atc.description, e)
        return None
    if done.returncode != 0:
        logger.warning("could not list the .om's ops: %s", done.stderr.strip())
        return None
    found = (_OP_LINE.match(line) for line in done.stdout.splitlines())
    return tuple(name for _, name in sorted((int(m[1]), m[2]) for m in found if m))


def _dump(
    dump_dir: Path,
    workdir: Path,
    model_file: str,
    cmd: list[str],
    log: str,
    error: ToolchainError | None,
    spec: AscendCompileSpec,
    atc: Atc,
) -> None:
    """A dump that cannot be written fails the lowering, unless atc failed (its error matters)."""
    outcome = f"failed: {error.args[0].splitlines()[0]}" if error else "succeeded"
    try:
        dump.write(
            dump_dir, workdir, model_file, cmd, log, outcome, spec.atc_options, atc.description
        )
    except OSError as e:
        if error is None:
            raise ToolchainError(f"could not dump the partition into {dump_dir}: {e}") from e
        logger.warning("could not dump the failed partition into %s: %s", dump_dir, e)


def _run_atc(
    cmd: list[str], workdir: Path, atc: Atc, timeout_s: float
) -> tuple[str, ToolchainError | None]:
    """Runs atc; returns its output (stdout, then stderr) and the error to raise, if any."""
    try:
        done = subprocess.run(
            cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired as e:
        partial = "".join(_text(out) for out in (e.stdout, e.stderr)).strip()
        return partial, ToolchainError(
            f"atc ({atc.description}) did not finish within {timeout_s:g} s and was stopped: "
            "raise AscendCompileSpec.atc_timeout_s (the option's default is "
            f"{DEFAULT_ATC_TIMEOUT_S} s) for a model atc needs longer for"
        )
    except OSError as e:
        return str(e), ToolchainError(f"could not run {atc.description}: {e}")
    log = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        return log, ToolchainError(
            f"atc ({atc.description}) failed with exit code {done.returncode}:\n"
            f"{done.stderr.strip() or done.stdout.strip()}"
        )
    return log, None


def _text(output: str | bytes | None) -> str:
    if output is None:
        return ""
    return output.decode("utf-8", "replace") if isinstance(output, bytes) else output


def collect_weight_files(folder: Path, atc: Atc, keep_in: Path | None = None) -> list[WeightFile]:
    """The files atc wrote into `folder` (weight/), sorted by name; none when it made no folder.
    Each is moved into `keep_in` (default: the temporary folder), not read (take_file).

    Real CANN's atc and the emulator's name them differently, so nothing is assumed about the
    names beyond "a file in weight/"; whatever is there is what the .om reads. An entry that is
    not a regular file, or an empty file, is an atc this driver does not understand.
    """
    if not folder.exists() and not folder.is_symlink():
        return []
    if folder.is_symlink() or not folder.is_dir():
        raise ToolchainError(f"atc ({atc.description}) wrote {WEIGHT_DIR}, which is not a folder")
    keep_in = keep_in if keep_in is not None else Path(tempfile.gettempdir())
    weights = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        where = f"{WEIGHT_DIR}/{entry.name}"
        if not entry.is_file(follow_symlinks=False):
            raise ToolchainError(
                f"atc ({atc.description}) wrote {where}, which is not a regular file; "
                "weight files must be plain files"
            )
        try:
            entry.name.encode("utf-8")
        except UnicodeEncodeError as e:
            raise ToolchainError(f"atc ({atc.description}) wrote {where!r}: not UTF-8") from e
        if entry.stat(follow_symlinks=False).st_size == 0:
            raise ToolchainError(f"atc ({atc.description}) wrote an empty weight file {where}")
        weights.append(WeightFile(entry.name, take_file(Path(entry.path), keep_in)))
    return weights
