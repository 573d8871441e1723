"""The delegate blob (processed_bytes), version 1, exactly as docs/blob-format.md specifies.

The C++ backend reads it with a bounds-checked reader; `decode` here is the Python twin used by
tests and tools, and rejects the same malformed inputs.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

MAGIC = b"ASCB"
VERSION = 1
FLAG_EMULATOR_BUILT = 1 << 0
KNOWN_FLAGS = FLAG_EMULATOR_BUILT
MAX_STRING_BYTES = 4096
MAX_TENSORS = 1024
MAX_RANK = 16


class BlobError(ValueError):
    """The bytes are not a valid version-1 Ascend delegate blob."""


class BlobVersionError(BlobError):
    """A blob of a version this code does not know (the C++ side: DelegateInvalidCompatibility)."""


@dataclass(frozen=True)
class TensorSignature:
    name: str
    scalar_type: int  # ExecuTorch ScalarType
    dims: tuple[int, ...]


@dataclass(frozen=True)
class AscendBlob:
    om_key: str
    soc_version: str
    atc: str
    precision_mode: str
    inputs: list[TensorSignature] = field(default_factory=list)
    outputs: list[TensorSignature] = field(default_factory=list)
    flags: int = 0
    device_id: int = 0

    @property
    def emulator_built(self) -> bool:
        return bool(self.flags & FLAG_EMULATOR_BUILT)


def _check_string(what: str, text: str) -> bytes:
    data = text.encode("utf-8")
    if len(data) > MAX_STRING_BYTES:
        raise BlobError(f"{what} is {len(data)} bytes; the limit is {MAX_STRING_BYTES}")
    return data


def encode(blob: AscendBlob) -> bytes:
    if blob.flags & ~KNOWN_FLAGS:
        raise BlobError(f"unknown flag bits {blob.flags:#x}")
    if not -(2**31) <= blob.device_id < 2**31:
        raise BlobError(f"device_id {blob.device_id} does not fit an i32")
    out = bytearray(MAGIC)
    out += struct.pack("<IIi", VERSION, blob.flags, blob.device_id)
    for what, text in (
        ("om_key", blob.om_key),
        ("soc_version", blob.soc_version),
        ("atc", blob.atc),
        ("precision_mode", blob.precision_mode),
    ):
        data = _check_string(what, text)
        out += struct.pack("<I", len(data)) + data
    for what, tensors in (("inputs", blob.inputs), ("outputs", blob.outputs)):
        if len(tensors) > MAX_TENSORS:
            raise BlobError(f"{len(tensors)} {what}; the limit is {MAX_TENSORS}")
        out += struct.pack("<I", len(tensors))
        for t in tensors:
            name = _check_string(f"tensor name {t.name!r}", t.name)
            if len(t.dims) > MAX_RANK:
                raise BlobError(f"tensor {t.name!r} has rank {len(t.dims)}; limit {MAX_RANK}")
            if any(d < 0 for d in t.dims):
                raise BlobError(f"tensor {t.name!r} has a negative dim: {t.dims}")
            out += struct.pack("<I", len(name)) + name
            out += struct.pack("<iI", t.scalar_type, len(t.dims))
            out += struct.pack(f"<{len(t.dims)}q", *t.dims)
    return bytes(out)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self._data = memoryview(data)
        self._pos = 0

    def take(self, n: int, what: str) -> bytes:
        if n > len(self._data) - self._pos:
            raise BlobError(f"blob ends inside {what} (offset {self._pos}, need {n} bytes)")
        chunk = bytes(self._data[self._pos : self._pos + n])
        self._pos += n
        return chunk

    def unpack(self, fmt: str, what: str) -> tuple:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))

    def string(self, what: str) -> str:
        (n,) = self.unpack("<I", f"{what} length")
        if n > MAX_STRING_BYTES:
            raise BlobError(f"{what} length {n} exceeds {MAX_STRING_BYTES}")
        try:
            return self.take(n, what).decode("utf-8")
        except UnicodeDecodeError as e:
            raise BlobError(f"{what} is not UTF-8") from e

    def at_end(self) -> bool:
        return self._pos == len(self._data)


def _read_tensors(r: _Reader, what: str) -> list[TensorSignature]:
    (count,) = r.unpack("<I", f"num_{what}")
    if count > MAX_TENSORS:
        raise BlobError(f"num_{what} {count} exceeds {MAX_TENSORS}")
    tensors = []
    for i in range(count):
        name = r.string(f"{what}[{i}].name")
        scalar_type, rank = r.unpack("<iI", f"{what}[{i}] type and rank")
        if rank > MAX_RANK:
            raise BlobError(f"{what}[{i}] rank {rank} exceeds {MAX_RANK}")
        dims = r.unpack(f"<{rank}q", f"{what}[{i}].dims")
        if any(d < 0 for d in dims):
            raise BlobError(f"{what}[{i}] has a negative dim: {dims}")
        tensors.append(TensorSignature(name, scalar_type, tuple(dims)))
    return tensors


def decode(data: bytes) -> AscendBlob:
    r = _Reader(data)
    magic = r.take(len(MAGIC), "magic")
    if magic != MAGIC:
        raise BlobError(f"bad magic {magic!r}, expected {MAGIC!r}")
    (version,) = r.unpack("<I", "version")
    if version != VERSION:
        raise BlobVersionError(f"blob version {version}; this code reads version {VERSION}")
    flags, device_id = r.unpack("<Ii", "flags and device_id")
    if flags & ~KNOWN_FLAGS:
        raise BlobError(f"unknown flag bits {flags:#x}")
    om_key = r.string("om_key")
    soc = r.string("soc_version")
    atc = r.string("atc")
    precision = r.string("precision_mode")
    inputs = _read_tensors(r, "inputs")
    outputs = _read_tensors(r, "outputs")
    if not r.at_end():
        raise BlobError("trailing bytes after the last field")
    return AscendBlob(om_key, soc, atc, precision, inputs, outputs, flags, device_id)
