# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The delegate blob (processed_bytes), as docs/blob-format.md specifies.

The blob holds only what the runtime needs and cannot get elsewhere: the named-data key of the
compiled .om. The I/O signature is the .om's own (aclmdlDesc at load), the SoC and device travel in
the compile specs. The format's constants come from delegate_blob.json, the one spec the C++
runtime's codec (runtime/delegate_blob.cpp) is generated from too.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from importlib import resources

_SPEC = json.loads(resources.files(__package__).joinpath("delegate_blob.json").read_text("utf-8"))

MAGIC: bytes = _SPEC["magic"].encode("ascii")
VERSION: int = _SPEC["version"]
MAX_KEY_BYTES: int = _SPEC["om_key_max_bytes"]
# The compile spec keys the runtime reads (AscendCompileSpec field names).
RUNTIME_COMPILE_SPECS: tuple[str, ...] = tuple(_SPEC["runtime_compile_specs"])

_HEADER = struct.Struct("<4sII")  # magic, version, om_key length


class BlobError(ValueError):
    """The bytes are not a valid Ascend delegate blob."""


class BlobVersionError(BlobError):
    """A blob of a version this code does not know (the C++ side: DelegateInvalidCompatibility)."""


@dataclass(frozen=True)
class AscendBlob:
    om_key: str


def _check_key(data: bytes) -> None:
    if not 0 < len(data) <= MAX_KEY_BYTES:
        raise BlobError(f"om_key is {len(data)} bytes; it must be 1..{MAX_KEY_BYTES}")
    if b"\0" in data:
        raise BlobError("om_key contains a NUL byte")


def encode(blob: AscendBlob) -> bytes:
    key = blob.om_key.encode("utf-8")
    _check_key(key)
    return _HEADER.pack(MAGIC, VERSION, len(key)) + key


def decode(data: bytes) -> AscendBlob:
    if data[: len(MAGIC)] != MAGIC:
        raise BlobError(f"no {MAGIC!r} magic; this is not an AscendBackend delegate blob")
    if len(data) < len(MAGIC) + 4:
        raise BlobError(f"{len(data)} bytes: truncated inside the version")
    (version,) = struct.unpack_from("<I", data, len(MAGIC))
    if version != VERSION:
        raise BlobVersionError(f"blob version {version}; this code reads version {VERSION}")
    if len(data) < _HEADER.size:
        raise BlobError(f"{len(data)} bytes: truncated inside the om_key length")
    (length,) = struct.unpack_from("<I", data, len(MAGIC) + 4)
    key = bytes(data[_HEADER.size :])
    if len(key) != length:
        raise BlobError(f"om_key needs {length} bytes, {len(key)} follow the header")
    _check_key(key)
    try:
        return AscendBlob(key.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise BlobError("om_key is not UTF-8") from e
