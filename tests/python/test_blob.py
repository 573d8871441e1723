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
from executorch_ascend.blob import AscendBlob, BlobError, BlobVersionError, BlobWeight

SPEC = json.loads((Path(executorch_ascend.__file__).parent / "delegate_blob.json").read_text())
W1 = BlobWeight("weight_" + "01" * 32, "ascend/weight/" + "cd" * 32, 65536)
W2 = BlobWeight("weight_" + "02" * 32, "ascend/weight/" + "cd" * 32, 65536)  # same bytes as W1
SAMPLE = AscendBlob(om_key="ascend/om/" + "ab" * 32, weights=(W1, W2))


def u32(n: int) -> bytes:
    return struct.pack("<I", n)


def text(s: bytes) -> bytes:
    return u32(len(s)) + s


def raw(om_key: bytes = b"k", weights: list[tuple[bytes, bytes, int]] | None = None) -> bytes:
    """A blob written by hand from the layout table (no encoder involved)."""
    weights = [] if weights is None else weights
    out = b"ASCB" + u32(3) + text(om_key) + u32(len(weights))
    for name, key, size in weights:
        out += text(name) + text(key) + struct.pack("<Q", size)
    return out


def test_constants_are_the_spec() -> None:
    assert blob.MAGIC == SPEC["magic"].encode() == b"ASCB"
    assert blob.VERSION == SPEC["version"] == 3
    assert blob.MAX_KEY_BYTES == SPEC["om_key_max_bytes"] == 4096
    assert blob.MAX_WEIGHT_NAME_BYTES == SPEC["weight_name_max_bytes"] == 4096
    assert blob.MAX_WEIGHTS == SPEC["max_weights"] == 65536
    assert set(SPEC) == {
        "about",
        "magic",
        "version",
        "om_key_max_bytes",
        "weight_name_max_bytes",
        "max_weights",
        "runtime_compile_specs",
    }
    # The keys the runtime reads are fields AscendCompileSpec writes; nothing else is read.
    assert set(blob.RUNTIME_COMPILE_SPECS) == {"soc_version", "device_id"}
    assert set(blob.RUNTIME_COMPILE_SPECS) <= {f.name for f in fields(AscendCompileSpec)}


def test_layout_matches_the_spec_byte_for_byte() -> None:
    assert blob.encode(AscendBlob("key")) == b"ASCB\x03\0\0\0\x03\0\0\0key\0\0\0\0"
    assert blob.encode(AscendBlob("k", (BlobWeight("w", "ascend/weight/x", 258),))) == (
        b"ASCB\x03\0\0\0"
        b"\x01\0\0\0k"
        b"\x01\0\0\0"
        b"\x01\0\0\0w"
        b"\x0f\0\0\0ascend/weight/x"
        b"\x02\x01\0\0\0\0\0\0"
    )
    expected = raw(
        SAMPLE.om_key.encode(),
        [(w.name.encode(), w.key.encode(), w.size) for w in SAMPLE.weights],
    )
    assert blob.encode(SAMPLE) == expected
    assert blob.decode(expected) == SAMPLE


def test_round_trip() -> None:
    big = BlobWeight("n" * blob.MAX_WEIGHT_NAME_BYTES, "k" * blob.MAX_KEY_BYTES, 2**64 - 1)
    for b in (
        SAMPLE,
        AscendBlob("ascend/om/ätc"),
        AscendBlob("k" * blob.MAX_KEY_BYTES, (big,)),
        AscendBlob("k", tuple(BlobWeight(f"w{i}", "same", 1) for i in range(100))),
    ):
        assert blob.decode(blob.encode(b)) == b


def test_the_most_weights_a_blob_holds() -> None:
    many = tuple(BlobWeight(f"{i}", "k", 1) for i in range(blob.MAX_WEIGHTS))
    assert len(blob.decode(blob.encode(AscendBlob("k", many))).weights) == blob.MAX_WEIGHTS
    with pytest.raises(BlobError, match="at most"):
        blob.encode(AscendBlob("k", (*many, BlobWeight("one more", "k", 1))))
    with pytest.raises(BlobError, match="weight count 65537 is outside"):
        blob.decode(b"ASCB" + u32(3) + text(b"k") + u32(blob.MAX_WEIGHTS + 1))


def test_every_truncation_is_rejected() -> None:
    data = blob.encode(SAMPLE)
    for n in range(len(data)):
        with pytest.raises(BlobError):
            blob.decode(data[:n])
    with pytest.raises(BlobError, match="truncated inside the size of weight"):
        blob.decode(data[:-1])
    with pytest.raises(BlobError, match="truncated inside the weight count"):
        blob.decode(raw()[:-1])


def test_trailing_bytes_are_rejected() -> None:
    with pytest.raises(BlobError, match="trailing"):
        blob.decode(blob.encode(SAMPLE) + b"\0")
    with pytest.raises(BlobError, match="trailing"):
        blob.decode(raw() + b"x")


def test_bad_magic() -> None:
    data = bytearray(blob.encode(SAMPLE))
    data[0:4] = b"ASCX"
    with pytest.raises(BlobError, match="magic"):
        blob.decode(bytes(data))


def test_other_versions_are_a_compatibility_error() -> None:
    for version in (0, 1, 2, 4, 0xFFFFFFFF):
        data = bytearray(blob.encode(SAMPLE))
        data[4:8] = u32(version)
        with pytest.raises(BlobVersionError, match="re-export"):
            blob.decode(bytes(data))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (raw(b""), "om_key length 0 is outside"),
        (raw(b"k" * (4096 + 1)), "om_key length 4097 is outside"),
        (raw(b"a\0b"), "om_key contains a NUL"),
        (raw(b"\xff\xfe"), "om_key is not UTF-8"),
        (b"ASCB" + u32(3) + u32(4) + b"abc", "truncated inside the om_key"),
        (raw(weights=[(b"", b"k", 1)]), "name of weight 0 length 0 is outside"),
        (raw(weights=[(b"n" * 4097, b"k", 1)]), "name of weight 0 length 4097 is outside"),
        (raw(weights=[(b"w\0", b"k", 1)]), "name of weight 0 contains a NUL"),
        (raw(weights=[(b"\xff", b"k", 1)]), "name of weight 0 is not UTF-8"),
        (raw(weights=[(b"w", b"", 1)]), "key of weight 'w' length 0 is outside"),
        (raw(weights=[(b"w", b"k" * 4097, 1)]), "key of weight 'w' length 4097 is outside"),
        (raw(weights=[(b"w", b"k\0", 1)]), "key of weight 'w' contains a NUL"),
        (raw(weights=[(b"w", b"k", 0)]), "weight 'w' has size 0"),
        (raw(weights=[(b"w", b"k", 1), (b"w", b"k2", 2)]), "weight name 'w' appears twice"),
    ],
)
def test_malformed_fields_are_rejected(data: bytes, message: str) -> None:
    with pytest.raises(BlobError, match=message):
        blob.decode(data)


def test_two_names_may_share_a_key() -> None:
    data = raw(weights=[(b"a", b"same", 4), (b"b", b"same", 4)])
    assert [w.key for w in blob.decode(data).weights] == ["same", "same"]


@pytest.mark.parametrize(
    "bad",
    [
        AscendBlob(""),
        AscendBlob("a\0b"),
        AscendBlob("k" * (blob.MAX_KEY_BYTES + 1)),
        AscendBlob("k", (BlobWeight("", "k", 1),)),
        AscendBlob("k", (BlobWeight("w\0", "k", 1),)),
        AscendBlob("k", (BlobWeight("n" * (blob.MAX_WEIGHT_NAME_BYTES + 1), "k", 1),)),
        AscendBlob("k", (BlobWeight("w", "", 1),)),
        AscendBlob("k", (BlobWeight("w", "k", 0),)),
        AscendBlob("k", (BlobWeight("w", "k", 2**64),)),
        AscendBlob("k", (BlobWeight("w", "k", 1), BlobWeight("w", "k", 1))),
    ],
)
def test_writer_enforces_the_limits(bad: AscendBlob) -> None:
    with pytest.raises(BlobError):
        blob.encode(bad)
