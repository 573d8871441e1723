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
from executorch_ascend.blob import AscendBlob, BlobError, BlobState, BlobVersionError, BlobWeight

SPEC = json.loads((Path(executorch_ascend.__file__).parent / "delegate_blob.json").read_text())
W1 = BlobWeight("weight_" + "01" * 32, "ascend/weight/" + "cd" * 32, 65536)
W2 = BlobWeight("weight_" + "02" * 32, "ascend/weight/" + "cd" * 32, 65536)  # same bytes as W1
S1 = BlobState("key_cache_0", 2, 1, 4096)  # starts as zeros
S2 = BlobState("counter", 3, 2, 8, "ascend/state/" + "ef" * 32)
SAMPLE = AscendBlob(om_key="ascend/om/" + "ab" * 32, weights=(W1, W2), states=(S1, S2))


def u32(n: int) -> bytes:
    return struct.pack("<I", n)


def text(s: bytes) -> bytes:
    return u32(len(s)) + s


def raw(
    om_key: bytes = b"k",
    weights: list[tuple[bytes, bytes, int]] | None = None,
    states: list[tuple[bytes, int, int, int, int, bytes | None]] | None = None,
) -> bytes:
    """A blob written by hand from the layout table (no encoder involved). A state is (name,
    input index, output index, size, initial value kind, key or None)."""
    weights = [] if weights is None else weights
    states = [] if states is None else states
    out = b"ASCB" + u32(4) + text(om_key) + u32(len(weights))
    for name, key, size in weights:
        out += text(name) + text(key) + struct.pack("<Q", size)
    out += u32(len(states))
    for name, i, o, size, kind, key in states:
        out += text(name) + u32(i) + u32(o) + struct.pack("<Q", size) + u32(kind)
        out += b"" if key is None else text(key)
    return out


def raw_state(s: BlobState) -> tuple[bytes, int, int, int, int, bytes | None]:
    key = None if s.key is None else s.key.encode()
    return (s.name.encode(), s.input_index, s.output_index, s.size, int(key is not None), key)


def test_constants_are_the_spec() -> None:
    assert blob.MAGIC == SPEC["magic"].encode() == b"ASCB"
    assert blob.VERSION == SPEC["version"] == 4
    assert blob.MAX_KEY_BYTES == SPEC["om_key_max_bytes"] == 4096
    assert blob.MAX_WEIGHT_NAME_BYTES == SPEC["weight_name_max_bytes"] == 4096
    assert blob.MAX_WEIGHTS == SPEC["max_weights"] == 65536
    assert blob.MAX_STATE_NAME_BYTES == SPEC["state_name_max_bytes"] == 4096
    assert blob.MAX_STATES == SPEC["max_states"] == 65536
    assert set(SPEC) == {
        "about",
        "magic",
        "version",
        "om_key_max_bytes",
        "weight_name_max_bytes",
        "max_weights",
        "state_name_max_bytes",
        "max_states",
        "runtime_compile_specs",
    }
    # The keys the runtime reads are fields AscendCompileSpec writes; nothing else is read.
    assert set(blob.RUNTIME_COMPILE_SPECS) == {"soc_version", "device_id"}
    assert set(blob.RUNTIME_COMPILE_SPECS) <= {f.name for f in fields(AscendCompileSpec)}


def test_layout_matches_the_spec_byte_for_byte() -> None:
    assert blob.encode(AscendBlob("key")) == b"ASCB\x04\0\0\0\x03\0\0\0key\0\0\0\0\0\0\0\0"
    assert blob.encode(AscendBlob("k", (BlobWeight("w", "ascend/weight/x", 258),))) == (
        b"ASCB\x04\0\0\0"
        b"\x01\0\0\0k"
        b"\x01\0\0\0"
        b"\x01\0\0\0w"
        b"\x0f\0\0\0ascend/weight/x"
        b"\x02\x01\0\0\0\0\0\0"
        b"\0\0\0\0"
    )
    states = (BlobState("c", 1, 2, 16), BlobState("d", 3, 4, 5, "ascend/state/y"))
    assert blob.encode(AscendBlob("k", (), states)) == (
        b"ASCB\x04\0\0\0"
        b"\x01\0\0\0k"
        b"\0\0\0\0"
        b"\x02\0\0\0"
        b"\x01\0\0\0c\x01\0\0\0\x02\0\0\0\x10\0\0\0\0\0\0\0\0\0\0\0"
        b"\x01\0\0\0d\x03\0\0\0\x04\0\0\0\x05\0\0\0\0\0\0\0\x01\0\0\0"
        b"\x0e\0\0\0ascend/state/y"
    )
    expected = raw(
        SAMPLE.om_key.encode(),
        [(w.name.encode(), w.key.encode(), w.size) for w in SAMPLE.weights],
        [raw_state(st) for st in SAMPLE.states],
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
        AscendBlob("k", (), (BlobState("s" * blob.MAX_STATE_NAME_BYTES, 2**32 - 1, 0, 2**64 - 1),)),
    ):
        assert blob.decode(blob.encode(b)) == b


def test_the_most_weights_a_blob_holds() -> None:
    many = tuple(BlobWeight(f"{i}", "k", 1) for i in range(blob.MAX_WEIGHTS))
    assert len(blob.decode(blob.encode(AscendBlob("k", many))).weights) == blob.MAX_WEIGHTS
    with pytest.raises(BlobError, match="at most"):
        blob.encode(AscendBlob("k", (*many, BlobWeight("one more", "k", 1))))
    with pytest.raises(BlobError, match="weight count 65537 is outside"):
        blob.decode(b"ASCB" + u32(4) + text(b"k") + u32(blob.MAX_WEIGHTS + 1))


def test_the_most_states_a_blob_holds() -> None:
    many = tuple(BlobState(f"{i}", i, i, 1) for i in range(blob.MAX_STATES))
    assert len(blob.decode(blob.encode(AscendBlob("k", (), many))).states) == blob.MAX_STATES
    with pytest.raises(BlobError, match="at most"):
        blob.encode(AscendBlob("k", (), (*many, BlobState("one more", 2**20, 2**20, 1))))
    with pytest.raises(BlobError, match="state count 65537 is outside"):
        blob.decode(b"ASCB" + u32(4) + text(b"k") + u32(0) + u32(blob.MAX_STATES + 1))


def test_every_truncation_is_rejected() -> None:
    data = blob.encode(SAMPLE)
    for n in range(len(data)):
        with pytest.raises(BlobError):
            blob.decode(data[:n])
    with pytest.raises(BlobError, match="truncated inside the key of state 'counter'"):
        blob.decode(data[:-1])
    with pytest.raises(BlobError, match="truncated inside the state count"):
        blob.decode(raw()[:-1])
    with pytest.raises(BlobError, match="truncated inside the size of weight"):
        blob.decode(raw(weights=[(b"w", b"k", 1)])[:-5])


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
    for version in (0, 1, 2, 3, 5, 0xFFFFFFFF):
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
        (b"ASCB" + u32(4) + u32(4) + b"abc", "truncated inside the om_key"),
        (raw(weights=[(b"", b"k", 1)]), "name of weight 0 length 0 is outside"),
        (raw(weights=[(b"n" * 4097, b"k", 1)]), "name of weight 0 length 4097 is outside"),
        (raw(weights=[(b"w\0", b"k", 1)]), "name of weight 0 contains a NUL"),
        (raw(weights=[(b"\xff", b"k", 1)]), "name of weight 0 is not UTF-8"),
        (raw(weights=[(b"w", b"", 1)]), "key of weight 'w' length 0 is outside"),
        (raw(weights=[(b"w", b"k" * 4097, 1)]), "key of weight 'w' length 4097 is outside"),
        (raw(weights=[(b"w", b"k\0", 1)]), "key of weight 'w' contains a NUL"),
        (raw(weights=[(b"w", b"k", 0)]), "weight 'w' has size 0"),
        (raw(weights=[(b"w", b"k", 1), (b"w", b"k2", 2)]), "weight name 'w' appears twice"),
        (raw(states=[(b"", 0, 0, 1, 0, None)]), "name of state 0 length 0 is outside"),
        (raw(states=[(b"s\0", 0, 0, 1, 0, None)]), "name of state 0 contains a NUL"),
        (raw(states=[(b"s", 0, 0, 0, 0, None)]), "state 's' has size 0"),
        (raw(states=[(b"s", 0, 0, 1, 2, None)]), "initial value kind 2"),
        (raw(states=[(b"s", 0, 0, 1, 1, b"")]), "key of state 's' length 0 is outside"),
        (raw(states=[(b"s", 0, 0, 1, 1, b"k\0")]), "key of state 's' contains a NUL"),
        (raw(states=[(b"s", 0, 0, 1, 0, None), (b"s", 1, 1, 1, 0, None)]), "same name"),
        (raw(states=[(b"s", 0, 0, 1, 0, None), (b"t", 0, 1, 1, 0, None)]), "same input_index"),
        (raw(states=[(b"s", 0, 0, 1, 0, None), (b"t", 1, 0, 1, 0, None)]), "same output_index"),
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
        AscendBlob("k", (), (BlobState("", 0, 0, 1),)),
        AscendBlob("k", (), (BlobState("s", 0, 0, 0),)),
        AscendBlob("k", (), (BlobState("s", 2**32, 0, 1),)),
        AscendBlob("k", (), (BlobState("s", 0, 0, 1, ""),)),
        AscendBlob("k", (), (BlobState("s", 0, 0, 1), BlobState("t", 0, 1, 1))),
    ],
)
def test_writer_enforces_the_limits(bad: AscendBlob) -> None:
    with pytest.raises(BlobError):
        blob.encode(bad)
