# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The delegate blob (processed_bytes), as docs/blob-format.md specifies.

The blob holds only what the runtime needs and cannot get elsewhere: the compiled .om files of the
partition, one per SoC it was compiled for (its soc_version, the .om's named-data key, and for
each external weight file the .om reads, the name the .om knows it by, its named-data key and its
size); for each mutable buffer the partition keeps on the device as state, the .om input and
output that carry it and where its initial value is; and, when the lowering kept it, the key of
the partition's ONNX source (serialization/source.py), from which `executorch-ascend compile`
builds .om files for further SoCs. The I/O signature is the .om's own (aclmdlDesc at load), the
device travels in the compile specs. The format's constants come from delegate_blob.json, the one
spec the C++ runtime's codec (runtime/delegate_blob.cpp) is generated from too.
"""

from __future__ import annotations

import json
import struct
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

_SPEC = json.loads(
    resources.files("executorch_ascend").joinpath("delegate_blob.json").read_text("utf-8")
)

MAGIC: bytes = _SPEC["magic"].encode("ascii")
# The version encode writes.
VERSION: int = _SPEC["version"]
# decode reads every version from this one to VERSION. It is the first released format and is
# never raised: a program saved by any release keeps loading (docs/blob-format.md, Compatibility).
MIN_READ_VERSION: int = _SPEC["min_read_version"]
MAX_TARGETS: int = _SPEC["max_targets"]
MAX_SOC_VERSION_BYTES: int = _SPEC["soc_version_max_bytes"]
MAX_KEY_BYTES: int = _SPEC["om_key_max_bytes"]
MAX_WEIGHT_NAME_BYTES: int = _SPEC["weight_name_max_bytes"]
MAX_WEIGHTS: int = _SPEC["max_weights"]
MAX_STATE_NAME_BYTES: int = _SPEC["state_name_max_bytes"]
MAX_STATES: int = _SPEC["max_states"]
# The compile spec keys the runtime reads (AscendCompileSpec field names).
RUNTIME_COMPILE_SPECS: tuple[str, ...] = tuple(_SPEC["runtime_compile_specs"])

_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")


class BlobError(ValueError):
    """The bytes are not a valid Ascend delegate blob."""


class BlobVersionError(BlobError):
    """A blob of a version this code does not read: newer than VERSION or older than
    MIN_READ_VERSION (the C++ side: DelegateInvalidCompatibility)."""


@dataclass(frozen=True)
class BlobWeight:
    """One external weight file of the .om."""

    name: str  # the file name the .om refers to (aclmdlSetExternalWeightAddress's name)
    key: str  # named-data key of the file's bytes, "ascend/weight/<sha256>"
    size: int  # bytes; the named data must have exactly this size


@dataclass(frozen=True)
class BlobState:
    """One mutable buffer the delegate keeps on the device across calls (a KV cache)."""

    name: str  # the buffer's fully qualified name, for messages
    input_index: int  # the .om input that reads it
    output_index: int  # the .om output that writes its new value
    size: int  # bytes of one copy
    key: str | None = None  # named data with the initial value; None: it starts as zeros


@dataclass(frozen=True)
class BlobTarget:
    """The partition compiled for one SoC: its .om and the weight files that .om reads."""

    soc_version: str  # atc --soc_version the .om was compiled with
    om_key: str  # named-data key of the .om, "ascend/om/<sha256>"
    weights: tuple[BlobWeight, ...] = ()


@dataclass(frozen=True)
class AscendBlob:
    """`targets`: one per SoC (each soc_version once), the one the lowering compiled first.
    `source_key`: named data of the partition's ONNX source (serialization/source.py), or None."""

    targets: tuple[BlobTarget, ...]
    states: tuple[BlobState, ...] = ()
    source_key: str | None = None

    @property
    def om_key(self) -> str:
        """The first target's .om (the SoC the program was exported for)."""
        return self.targets[0].om_key

    @property
    def weights(self) -> tuple[BlobWeight, ...]:
        return self.targets[0].weights

    @property
    def soc_versions(self) -> tuple[str, ...]:
        return tuple(t.soc_version for t in self.targets)

    def target(self, soc_version: str) -> BlobTarget | None:
        return next((t for t in self.targets if t.soc_version == soc_version), None)


def _check_text(what: str, data: bytes, limit: int) -> None:
    if not 0 < len(data) <= limit:
        raise BlobError(f"{what} is {len(data)} bytes; it must be 1..{limit}")
    if b"\0" in data:
        raise BlobError(f"{what} contains a NUL byte")


def _first_repeated(values: list[str]) -> str | None:
    """The smallest value that appears more than once, or None."""
    repeated = [v for v, n in Counter(values).items() if n > 1]
    return min(repeated) if repeated else None


def _check_weights(weights: tuple[BlobWeight, ...]) -> None:
    if len(weights) > MAX_WEIGHTS:
        raise BlobError(f"{len(weights)} weights; at most {MAX_WEIGHTS} fit a blob")
    repeated = _first_repeated([w.name for w in weights])
    if repeated is not None:
        raise BlobError(f"weight name {repeated!r} appears twice")
    for w in weights:
        if not 0 < w.size < 2**64:
            raise BlobError(f"weight {w.name!r} has size {w.size}; it must be > 0")


def _check_targets(targets: tuple[BlobTarget, ...]) -> None:
    if not 0 < len(targets) <= MAX_TARGETS:
        raise BlobError(f"{len(targets)} targets; a blob holds 1..{MAX_TARGETS}")
    repeated = _first_repeated([t.soc_version for t in targets])
    if repeated is not None:
        raise BlobError(f"soc_version {repeated!r} has two targets")
    for t in targets:
        _check_weights(tuple(t.weights))


def _check_states(states: tuple[BlobState, ...]) -> None:
    if len(states) > MAX_STATES:
        raise BlobError(f"{len(states)} states; at most {MAX_STATES} fit a blob")
    for field in ("name", "input_index", "output_index"):
        values = [getattr(s, field) for s in states]
        if len(set(values)) != len(values):
            raise BlobError(f"two states have the same {field}")
    for s in states:
        if not 0 < s.size < 2**64:
            raise BlobError(f"state {s.name!r} has size {s.size}; it must be > 0")
        if not (0 <= s.input_index < 2**32 and 0 <= s.output_index < 2**32):
            raise BlobError(f"state {s.name!r} has an index outside 0..2**32-1")


def _text(what: str, value: str, limit: int) -> bytes:
    data = value.encode("utf-8")
    _check_text(what, data, limit)
    return _U32.pack(len(data)) + data


def encode(blob: AscendBlob) -> bytes:
    targets = tuple(blob.targets)
    _check_targets(targets)
    parts = [MAGIC, _U32.pack(VERSION), _U32.pack(len(targets))]
    for t in targets:
        parts.append(_text("soc_version", t.soc_version, MAX_SOC_VERSION_BYTES))
        parts.append(_text("om_key", t.om_key, MAX_KEY_BYTES))
        parts.append(_U32.pack(len(t.weights)))
        for w in t.weights:
            parts.append(_text(f"weight name {w.name!r}", w.name, MAX_WEIGHT_NAME_BYTES))
            parts.append(_text(f"key of weight {w.name!r}", w.key, MAX_KEY_BYTES))
            parts.append(_U64.pack(w.size))
    states = tuple(blob.states)
    _check_states(states)
    parts.append(_U32.pack(len(states)))
    for st in states:
        parts.append(_text(f"state name {st.name!r}", st.name, MAX_STATE_NAME_BYTES))
        parts.append(_U32.pack(st.input_index) + _U32.pack(st.output_index))
        parts.append(_U64.pack(st.size))
        if st.key is None:
            parts.append(_U32.pack(0))
        else:
            parts.append(_U32.pack(1) + _text(f"key of state {st.name!r}", st.key, MAX_KEY_BYTES))
    if blob.source_key is None:
        parts.append(_U32.pack(0))
    else:
        parts.append(_U32.pack(1) + _text("source key", blob.source_key, MAX_KEY_BYTES))
    return b"".join(parts)


class _Reader:
    """Reads the blob front to back; every read names what was truncated."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def take(self, n: int, what: str) -> bytes:
        if len(self._data) - self._pos < n:
            raise BlobError(f"{len(self._data)} bytes: truncated inside the {what}")
        chunk = self._data[self._pos : self._pos + n]
        self._pos += n
        return chunk

    def u32(self, what: str) -> int:
        return _U32.unpack(self.take(4, what))[0]

    def u64(self, what: str) -> int:
        return _U64.unpack(self.take(8, what))[0]

    def text(self, what: str, limit: int) -> str:
        length = self.u32(f"{what} length")
        if not 0 < length <= limit:
            raise BlobError(f"{what} length {length} is outside 1..{limit}")
        data = self.take(length, what)
        _check_text(what, data, limit)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BlobError(f"{what} is not UTF-8") from e

    def remaining(self) -> int:
        return len(self._data) - self._pos


def decode(data: bytes) -> AscendBlob:
    data = bytes(data)
    if data[: len(MAGIC)] != MAGIC:
        raise BlobError(f"no {MAGIC!r} magic; this is not an AscendBackend delegate blob")
    reader = _Reader(data)
    reader.take(len(MAGIC), "magic")
    read_body = _body_reader(reader.u32("version"))
    decoded = read_body(reader)
    if reader.remaining():
        raise BlobError(f"{reader.remaining()} trailing bytes after the source")
    return decoded


def _body_reader(version: int) -> Callable[[_Reader], AscendBlob]:
    """The reader of `version`'s fields after the version, or the error that says what to do."""
    if version > VERSION:
        raise BlobVersionError(
            f"blob version {version} was written by a newer executorch-ascend; this one reads "
            f"versions {MIN_READ_VERSION} to {VERSION}: upgrade executorch-ascend to load it"
        )
    if version < MIN_READ_VERSION:
        raise BlobVersionError(
            f"blob version {version} is from a development build before version "
            f"{MIN_READ_VERSION}, the first released format; this executorch-ascend reads "
            f"versions {MIN_READ_VERSION} to {VERSION}: re-export the model with it"
        )
    return _BODY_READERS[version]


def _read_v5(reader: _Reader) -> AscendBlob:
    """Version 5: the targets, the states, the source."""
    count = reader.u32("target count")
    if not 0 < count <= MAX_TARGETS:
        raise BlobError(f"target count {count} is outside 1..{MAX_TARGETS}")
    targets = tuple(_read_target(reader, i) for i in range(count))
    _check_targets(targets)
    states = _read_states(reader)
    kind = reader.u32("source kind")
    if kind not in (0, 1):
        raise BlobError(f"source kind {kind}; it must be 0 (none) or 1 (a key follows)")
    source_key = reader.text("source key", MAX_KEY_BYTES) if kind else None
    return AscendBlob(targets, states, source_key)


def _read_target(reader: _Reader, index: int) -> BlobTarget:
    soc = reader.text(f"soc_version of target {index}", MAX_SOC_VERSION_BYTES)
    om_key = reader.text(f"om_key of target {soc!r}", MAX_KEY_BYTES)
    count = reader.u32(f"weight count of target {soc!r}")
    if count > MAX_WEIGHTS:
        raise BlobError(f"weight count {count} is outside 0..{MAX_WEIGHTS}")
    weights: list[BlobWeight] = []
    names: set[str] = set()
    for i in range(count):
        name = reader.text(f"name of weight {i}", MAX_WEIGHT_NAME_BYTES)
        if name in names:
            raise BlobError(f"weight name {name!r} appears twice")
        names.add(name)
        key = reader.text(f"key of weight {name!r}", MAX_KEY_BYTES)
        size = reader.u64(f"size of weight {name!r}")
        if size == 0:
            raise BlobError(f"weight {name!r} has size 0")
        weights.append(BlobWeight(name, key, size))
    return BlobTarget(soc, om_key, tuple(weights))


def _read_states(reader: _Reader) -> tuple[BlobState, ...]:
    count = reader.u32("state count")
    if count > MAX_STATES:
        raise BlobError(f"state count {count} is outside 0..{MAX_STATES}")
    states: list[BlobState] = []
    for i in range(count):
        name = reader.text(f"name of state {i}", MAX_STATE_NAME_BYTES)
        input_index = reader.u32(f"input index of state {name!r}")
        output_index = reader.u32(f"output index of state {name!r}")
        size = reader.u64(f"size of state {name!r}")
        if size == 0:
            raise BlobError(f"state {name!r} has size 0")
        initial = reader.u32(f"initial value kind of state {name!r}")
        if initial not in (0, 1):
            raise BlobError(f"state {name!r} has initial value kind {initial}; it must be 0 or 1")
        key = reader.text(f"key of state {name!r}", MAX_KEY_BYTES) if initial else None
        states.append(BlobState(name, input_index, output_index, size, key))
    _check_states(tuple(states))
    return tuple(states)


# One reader per version decode reads, MIN_READ_VERSION to VERSION. A new version adds its own
# (the fields it appends read with defaults for the older ones) and leaves every older reader as
# it is, so an old version's bytes keep their meaning (docs/blob-format.md, Compatibility).
_BODY_READERS: dict[int, Callable[[_Reader], AscendBlob]] = {5: _read_v5}
READ_VERSIONS: tuple[int, ...] = tuple(sorted(_BODY_READERS))
