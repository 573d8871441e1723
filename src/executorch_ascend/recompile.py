# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Compiling a saved program's Ascend partitions again: for other SoCs, or with CANN's atc.

Every Ascend delegate of a program exported with AscendCompileSpec(keep_onnx=True) carries its
ONNX source (serialization/source.py). `recompile` runs atc on it once per SoC asked for, with
the delegate's own compile specs (precision mode, external weights, gears, further atc options;
a program that had its chip's default precision mode takes each new chip's default), and adds each
.om, with its weight files, to the delegate's blob as one more target; the runtime loads the
target whose soc_version matches the device's aclrtGetSocName() (runtime/om_target.cpp). A
target for a SoC the blob already has is replaced; `replace=True` drops every other target too.
Named data no blob refers to any more (the .om files of dropped targets) is dropped with it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from executorch.exir import schema

from .backend import AscendBackend, om_key
from .cann_op_facts import default_precision_mode
from .compile_spec import AscendCompileSpec
from .saved_program import SavedProgram, SavedProgramError
from .serialization import blob
from .serialization.source import PartitionSource, SourceError, SourceFiles
from .serialization.weights import weight_key
from .toolchain.atc import Atc, compile_onnx

logger = logging.getLogger(__name__)

BACKEND_ID = AscendBackend.__name__
# Named data under these prefixes belongs to Ascend delegates; nothing else is ever dropped.
_ASCEND_PREFIXES = (
    "ascend/om/",
    "ascend/weight/",
    "ascend/state/",
    "ascend/onnx/",
    "ascend/source/",
)
SOC_COMPILE_SPEC = "soc_version"
PRECISION_COMPILE_SPEC = "precision_mode"


class RecompileError(ValueError):
    """A program that cannot be recompiled (no Ascend delegate, no kept ONNX, missing data)."""


@dataclass(frozen=True)
class CompiledTarget:
    soc_version: str
    om_bytes: int
    weight_files: int


@dataclass(frozen=True)
class DelegateReport:
    method: str
    index: int
    before: tuple[str, ...]  # soc_versions the blob had
    after: tuple[str, ...]
    compiled: tuple[CompiledTarget, ...]


def recompile(
    program: SavedProgram,
    soc_versions: Sequence[str],
    atc: Atc,
    *,
    replace: bool = False,
    dump_dir: str | None = None,
) -> list[DelegateReport]:
    """Compiles every Ascend delegate of `program` for each of `soc_versions` (in place)."""
    if not soc_versions:
        raise RecompileError("no --soc_version given")
    if len(set(soc_versions)) != len(soc_versions):
        raise RecompileError(f"a SoC is named twice: {', '.join(soc_versions)}")
    delegates = program.delegates(BACKEND_ID)
    if not delegates:
        raise RecompileError(f"the program has no {BACKEND_ID} delegate: nothing to compile")
    reports = [
        _recompile_delegate(program, method, index, delegate, soc_versions, atc, replace, dump_dir)
        for method, index, delegate in delegates
    ]
    dropped = drop_unreferenced(program)
    if dropped:
        logger.info("dropped %d named data entries no delegate refers to any more", dropped)
    return reports


def _recompile_delegate(
    program: SavedProgram,
    method: str,
    index: int,
    delegate: schema.BackendDelegate,
    soc_versions: Sequence[str],
    atc: Atc,
    replace: bool,
    dump_dir: str | None,
) -> DelegateReport:
    where = f"method {method!r}, delegate {index}"
    try:
        old = blob.decode(program.processed(delegate))
    except blob.BlobError as e:
        raise RecompileError(f"{where}: {e}") from e
    if old.source_key is None:
        raise RecompileError(
            f"{where} holds no ONNX source: the program was exported without "
            "AscendCompileSpec(keep_onnx=True) (executorch-ascend export --keep-onnx), so its "
            "partitions cannot be compiled again; re-export it with keep_onnx"
        )
    spec = AscendCompileSpec.from_compile_specs(delegate.compile_specs)
    try:
        source = PartitionSource.from_json(program.read(old.source_key))
    except KeyError:
        raise RecompileError(
            f"{where}: its ONNX source {old.source_key} is missing: pass every .ptd file of the "
            "program (--data)"
        ) from None
    except SourceError as e:
        raise RecompileError(f"{where}: {e}") from e
    files = SourceFiles(source, program.read)
    om_tag = program.tag_of(old.om_key) if old.om_key in program.entries else spec.external_tag
    compiled, targets = [], []
    # A program exported with its chip's default precision mode gets each new chip's default (an
    # fp32 program for Ascend910B1 compiled again for Ascend310P3 takes allow_fp32_to_fp16 there,
    # the only way CANN compiles its Conv/MatMul); a mode chosen otherwise is kept.
    chip_default = spec.precision_mode == default_precision_mode(spec.soc_version)
    for soc in soc_versions:
        soc_spec = dataclasses.replace(
            spec,
            soc_version=soc,
            dump_dir=dump_dir,
            precision_mode=None if chip_default else spec.precision_mode,
        )
        try:
            om = compile_onnx(
                files,
                soc_spec,
                source.input_names,
                source.input_dims,
                atc=atc,
                gear_options=source.gear_options,
                insert_op_conf=source.insert_op_conf,
            )
        except SourceError as e:
            raise RecompileError(f"{where}: {e}") from e
        om_data = om.om
        key = om_key(om_data)
        program.add(key, om_data, om_tag)
        weights = []
        for w in om.weights:
            w_key = weight_key(w.digest)
            program.add(w_key, w.read_bytes(), om_tag)
            weights.append(blob.BlobWeight(w.name, w_key, w.size))
        targets.append(blob.BlobTarget(soc, key, tuple(weights)))
        compiled.append(CompiledTarget(soc, len(om_data), len(weights)))
    kept = () if replace else tuple(t for t in old.targets if t.soc_version not in soc_versions)
    new = dataclasses.replace(old, targets=kept + tuple(targets))
    try:
        program.set_processed(delegate, blob.encode(new))
    except blob.BlobError as e:
        raise RecompileError(f"{where}: {e}") from e
    _set_soc_compile_spec(delegate, new.targets[0].soc_version, chip_default)
    return DelegateReport(method, index, old.soc_versions, new.soc_versions, tuple(compiled))


def _set_soc_compile_spec(delegate: schema.BackendDelegate, soc: str, chip_default: bool) -> None:
    """The compile spec soc_version names the blob's first target (ahead-of-time information:
    the runtime reads the SoC of each target from the blob); a precision mode that was the chip's
    default becomes that SoC's default, so that a later recompile still sees it as the default."""
    for cs in delegate.compile_specs:
        if cs.key == SOC_COMPILE_SPEC:
            cs.value = soc.encode("utf-8")
        elif cs.key == PRECISION_COMPILE_SPEC and chip_default:
            cs.value = default_precision_mode(soc).encode("utf-8")


def referenced_keys(program: SavedProgram) -> set[str]:
    """Every named-data key an Ascend delegate of `program` reads, its kept sources included."""
    keys: set[str] = set()
    for _, _, delegate in program.delegates(BACKEND_ID):
        decoded = blob.decode(program.processed(delegate))
        for t in decoded.targets:
            keys.add(t.om_key)
            keys.update(w.key for w in t.weights)
        keys.update(s.key for s in decoded.states if s.key is not None)
        if decoded.source_key is not None:
            keys.add(decoded.source_key)
            try:
                source = PartitionSource.from_json(program.read(decoded.source_key))
            except (KeyError, SourceError):
                continue
            keys.update(SourceFiles(source, program.read).keys())
    return keys


def drop_unreferenced(program: SavedProgram) -> int:
    """Drops Ascend named data no delegate refers to; returns how many entries went."""
    keep = referenced_keys(program)
    unused = [k for k in program.entries if k.startswith(_ASCEND_PREFIXES) and k not in keep]
    for key in unused:
        program.drop(key)
    return len(unused)


__all__ = [
    "DelegateReport",
    "RecompileError",
    "SavedProgramError",
    "recompile",
    "referenced_keys",
]
