# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The delegate blob: byte layout exactly as docs/blob-format.md and delegate_blob.json, round
trip, and rejection of malformed bytes (the C++ codec, tests/cpp/runtime/delegate_blob_test.cpp,
rejects the same cases)."""

from __future__ import annotations

import json
import struct
from dataclasses import fields
from pathlib import Path

import pytest

import executorch_ascend
from executorch_ascend import AscendCompileSpec, blob
from executorch_ascend.blob import AscendBlob, BlobError, BlobVersionError

SPEC = json.loads((Path(executorch_ascend.__file__).parent / "delegate_blob.json").read_text())
SAMPLE = AscendBlob(om_key="ascend/om/" + "ab" * 32)


def test_constants_are_the_spec() -> None:
    assert blob.MAGIC == SPEC["magic"].encode() == b"ASCB"
    assert blob.VERSION == SPEC["version"] == 2
    assert blob.MAX_KEY_BYTES == SPEC["om_key_max_bytes"]
    # The keys the runtime reads are fields AscendCompileSpec writes.
    assert set(blob.RUNTIME_COMPILE_SPECS) <= {f.name for f in fields(AscendCompileSpec)}


def test_layout_matches_the_spec_byte_for_byte() -> None:
    key = SAMPLE.om_key.encode()
    assert blob.encode(SAMPLE) == b"ASCB" + struct.pack("<II", 2, len(key)) + key
    assert blob.encode(AscendBlob("key")) == b"ASCB\x02\0\0\0\x03\0\0\0key"


def test_round_trip_with_unicode() -> None:
    for b in (SAMPLE, AscendBlob("ascend/om/ätc"), AscendBlob("k" * blob.MAX_KEY_BYTES)):
        assert blob.decode(blob.encode(b)) == b


def test_every_truncation_is_rejected() -> None:
    data = blob.encode(SAMPLE)
    for n in range(len(data)):
        with pytest.raises(BlobError):
            blob.decode(data[:n])


def test_trailing_bytes_are_rejected() -> None:
    with pytest.raises(BlobError, match="follow the header"):
        blob.decode(blob.encode(SAMPLE) + b"\0")


def test_bad_magic() -> None:
    data = bytearray(blob.encode(SAMPLE))
    data[0:4] = b"ASCX"
    with pytest.raises(BlobError, match="magic"):
        blob.decode(bytes(data))


def test_other_versions_are_a_compatibility_error() -> None:
    for version in (0, 1, 3, 0xFFFFFFFF):
        data = bytearray(blob.encode(SAMPLE))
        data[4:8] = struct.pack("<I", version)
        with pytest.raises(BlobVersionError):
            blob.decode(bytes(data))


def test_key_limits_and_bad_utf8_are_rejected() -> None:
    for key in (b"", b"a\0b", b"k" * (blob.MAX_KEY_BYTES + 1)):
        with pytest.raises(BlobError, match="om_key"):
            blob.decode(b"ASCB" + struct.pack("<II", 2, len(key)) + key)
    with pytest.raises(BlobError, match="UTF-8"):
        blob.decode(b"ASCB" + struct.pack("<II", 2, 2) + b"\xff\xfe")
    with pytest.raises(BlobError, match="needs 4 bytes"):
        blob.decode(b"ASCB" + struct.pack("<II", 2, 4) + b"abc")


def test_writer_enforces_the_limits() -> None:
    for key in ("", "a\0b", "k" * (blob.MAX_KEY_BYTES + 1)):
        with pytest.raises(BlobError):
            blob.encode(AscendBlob(key))
