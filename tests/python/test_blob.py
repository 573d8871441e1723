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
from executorch_ascend import AscendCompileSpec
from executorch_ascend.serialization import blob
from executorch_ascend.serialization.blob import (
    AscendBlob,
    BlobError,
    BlobState,
    BlobTarget,
    BlobVersionError,
    BlobWeight,
)

SPEC = json.loads((Path(executorch_ascend.__file__).parent / "delegate_blob.json").read_text())
W1 = BlobWeight("weight_" + "01" * 32, "ascend/weight/" + "cd" * 32, 65536)
W2 = BlobWeight("weight_" + "02" * 32, "ascend/weight/" + "cd" * 32, 65536)  # same bytes as W1
S1 = BlobState("key_cache_0", 2, 1, 4096)  # starts as zeros
S2 = BlobState("counter", 3, 2, 8, "ascend/state/" + "ef" * 32)
T1 = BlobTarget("Ascend910B1", "ascend/om/" + "ab" * 32, (W1, W2))
T2 = BlobTarget("Ascend310P3", "ascend/om/" + "ba" * 32, (W1,))
SAMPLE = AscendBlob((T1, T2), states=(S1, S2), source_key="ascend/source/" + "12" * 32)


def one(
    om_key: str,
    weights: tuple[BlobWeight, ...] = (),
    states: tuple[BlobState, ...] = (),
    soc: str = "S",
) -> AscendBlob:
    """A blob of one target (SoC "S": short, for golden bytes)."""
    return AscendBlob((BlobTarget(soc, om_key, weights),), states)


def u32(n: int) -> bytes:
    return struct.pack("<I", n)


def text(s: bytes) -> bytes:
    return u32(len(s)) + s


RawWeight = tuple[bytes, bytes, int]


def raw(
    om_key: bytes = b"k",
    weights: list[RawWeight] | None = None,
    states: list[tuple[bytes, int, int, int, int, bytes | None]] | None = None,
    targets: list[tuple[bytes, bytes, list[RawWeight]]] | None = None,
    source: tuple[int, bytes | None] = (0, None),
) -> bytes:
    """A blob written by hand from the layout table (no encoder involved): one target of SoC
    "S" with `om_key` and `weights`, unless `targets` lists (soc, om_key, weights). A state is
    (name, input index, output index, size, initial value kind, key or None); the source is
    (kind, key or None)."""
    if targets is None:
        targets = [(b"S", om_key, [] if weights is None else weights)]
    states = [] if states is None else states
    out = b"ASCB" + u32(5) + u32(len(targets))
    for soc, key, target_weights in targets:
        out += text(soc) + text(key) + u32(len(target_weights))
        for name, w_key, size in target_weights:
            out += text(name) + text(w_key) + struct.pack("<Q", size)
    out += u32(len(states))
    for name, i, o, size, kind, key in states:
        out += text(name) + u32(i) + u32(o) + struct.pack("<Q", size) + u32(kind)
        out += b"" if key is None else text(key)
    kind, key = source
    return out + u32(kind) + (b"" if key is None else text(key))


def raw_weight(w: BlobWeight) -> RawWeight:
    return (w.name.encode(), w.key.encode(), w.size)


def raw_state(s: BlobState) -> tuple[bytes, int, int, int, int, bytes | None]:
    key = None if s.key is None else s.key.encode()
    return (s.name.encode(), s.input_index, s.output_index, s.size, int(key is not None), key)


def test_constants_are_the_spec() -> None:
    assert blob.MAGIC == SPEC["magic"].encode() == b"ASCB"
    assert blob.VERSION == SPEC["version"] == 5
    assert blob.MIN_READ_VERSION == SPEC["min_read_version"] == 5
    assert blob.MAX_TARGETS == SPEC["max_targets"] == 64
    assert blob.MAX_SOC_VERSION_BYTES == SPEC["soc_version_max_bytes"] == 64
    assert blob.MAX_KEY_BYTES == SPEC["om_key_max_bytes"] == 4096
    assert blob.MAX_WEIGHT_NAME_BYTES == SPEC["weight_name_max_bytes"] == 4096
    assert blob.MAX_WEIGHTS == SPEC["max_weights"] == 65536
    assert blob.MAX_STATE_NAME_BYTES == SPEC["state_name_max_bytes"] == 4096
    assert blob.MAX_STATES == SPEC["max_states"] == 65536
    assert set(SPEC) == {
        "about",
        "magic",
        "version",
        "min_read_version",
        "max_targets",
        "soc_version_max_bytes",
        "om_key_max_bytes",
        "weight_name_max_bytes",
        "max_weights",
        "state_name_max_bytes",
        "max_states",
        "runtime_compile_specs",
    }
    # The keys the runtime reads are fields AscendCompileSpec writes; nothing else is read (the
    # SoC of each .om is in the blob).
    assert set(blob.RUNTIME_COMPILE_SPECS) == {"device_id"}
    assert set(blob.RUNTIME_COMPILE_SPECS) <= {f.name for f in fields(AscendCompileSpec)}


def test_layout_matches_the_spec_byte_for_byte() -> None:
    assert blob.encode(one("key")) == (
        b"ASCB\x05\0\0\0\x01\0\0\0\x01\0\0\0S\x03\0\0\0key\0\0\0\0\0\0\0\0\0\0\0\0"
    )
    assert blob.encode(one("k", (BlobWeight("w", "ascend/weight/x", 258),))) == (
        b"ASCB\x05\0\0\0"
        b"\x01\0\0\0"
        b"\x01\0\0\0S"
        b"\x01\0\0\0k"
        b"\x01\0\0\0"
        b"\x01\0\0\0w"
        b"\x0f\0\0\0ascend/weight/x"
        b"\x02\x01\0\0\0\0\0\0"
        b"\0\0\0\0"
        b"\0\0\0\0"
    )
    states = (BlobState("c", 1, 2, 16), BlobState("d", 3, 4, 5, "ascend/state/y"))
    assert blob.encode(one("k", (), states)) == (
        b"ASCB\x05\0\0\0"
        b"\x01\0\0\0"
        b"\x01\0\0\0S"
        b"\x01\0\0\0k"
        b"\0\0\0\0"
        b"\x02\0\0\0"
        b"\x01\0\0\0c\x01\0\0\0\x02\0\0\0\x10\0\0\0\0\0\0\0\0\0\0\0"
        b"\x01\0\0\0d\x03\0\0\0\x04\0\0\0\x05\0\0\0\0\0\0\0\x01\0\0\0"
        b"\x0e\0\0\0ascend/state/y"
        b"\0\0\0\0"
    )
    two = AscendBlob((BlobTarget("S", "o"), BlobTarget("T", "p")), (), "src")
    assert blob.encode(two) == (
        b"ASCB\x05\0\0\0"
        b"\x02\0\0\0"
        b"\x01\0\0\0S\x01\0\0\0o\0\0\0\0"
        b"\x01\0\0\0T\x01\0\0\0p\0\0\0\0"
        b"\0\0\0\0"
        b"\x01\0\0\0\x03\0\0\0src"
    )
    targets = [
        (t.soc_version.encode(), t.om_key.encode(), [raw_weight(w) for w in t.weights])
        for t in SAMPLE.targets
    ]
    expected = raw(
        targets=targets,
        states=[raw_state(st) for st in SAMPLE.states],
        source=(1, (SAMPLE.source_key or "").encode()),
    )
    assert blob.encode(SAMPLE) == expected
    assert blob.decode(expected) == SAMPLE


def test_the_first_target_is_the_blobs_om() -> None:
    assert SAMPLE.om_key == T1.om_key and SAMPLE.weights == T1.weights
    assert SAMPLE.soc_versions == ("Ascend910B1", "Ascend310P3")
    assert SAMPLE.target("Ascend310P3") == T2 and SAMPLE.target("Ascend310B1") is None


def test_round_trip() -> None:
    big = BlobWeight("n" * blob.MAX_WEIGHT_NAME_BYTES, "k" * blob.MAX_KEY_BYTES, 2**64 - 1)
    for b in (
        SAMPLE,
        one("ascend/om/ätc"),
        one("k" * blob.MAX_KEY_BYTES, (big,)),
        one("k", tuple(BlobWeight(f"w{i}", "same", 1) for i in range(100))),
        one("k", (), (BlobState("s" * blob.MAX_STATE_NAME_BYTES, 2**32 - 1, 0, 2**64 - 1),)),
        one("k", soc="s" * blob.MAX_SOC_VERSION_BYTES),
        AscendBlob(tuple(BlobTarget(f"S{i}", "k") for i in range(blob.MAX_TARGETS))),
    ):
        assert blob.decode(blob.encode(b)) == b


def test_the_most_weights_a_blob_holds() -> None:
    many = tuple(BlobWeight(f"{i}", "k", 1) for i in range(blob.MAX_WEIGHTS))
    assert len(blob.decode(blob.encode(one("k", many))).weights) == blob.MAX_WEIGHTS
    with pytest.raises(BlobError, match="at most"):
        blob.encode(one("k", (*many, BlobWeight("one more", "k", 1))))
    with pytest.raises(BlobError, match="weight count 65537 is outside"):
        blob.decode(b"ASCB" + u32(5) + u32(1) + text(b"S") + text(b"k") + u32(blob.MAX_WEIGHTS + 1))


def test_the_most_targets_a_blob_holds() -> None:
    many = tuple(BlobTarget(f"S{i}", "k") for i in range(blob.MAX_TARGETS))
    with pytest.raises(BlobError, match=r"1\.\.64"):
        blob.encode(AscendBlob((*many, BlobTarget("one more", "k"))))
    with pytest.raises(BlobError, match=r"1\.\.64"):
        blob.encode(AscendBlob(()))
    for count in (0, blob.MAX_TARGETS + 1):
        with pytest.raises(BlobError, match=f"target count {count} is outside"):
            blob.decode(b"ASCB" + u32(5) + u32(count))


def test_the_most_states_a_blob_holds() -> None:
    many = tuple(BlobState(f"{i}", i, i, 1) for i in range(blob.MAX_STATES))
    assert len(blob.decode(blob.encode(one("k", (), many))).states) == blob.MAX_STATES
    with pytest.raises(BlobError, match="at most"):
        blob.encode(one("k", (), (*many, BlobState("one more", 2**20, 2**20, 1))))
    with pytest.raises(BlobError, match="state count 65537 is outside"):
        blob.decode(raw()[:-8] + u32(blob.MAX_STATES + 1))


def test_every_truncation_is_rejected() -> None:
    data = blob.encode(SAMPLE)
    for n in range(len(data)):
        with pytest.raises(BlobError):
            blob.decode(data[:n])
    with pytest.raises(BlobError, match="truncated inside the source key"):
        blob.decode(data[:-1])
    with pytest.raises(BlobError, match="truncated inside the source kind"):
        blob.decode(raw()[:-1])
    with pytest.raises(BlobError, match="truncated inside the state count"):
        blob.decode(raw()[:-5])
    with pytest.raises(BlobError, match="truncated inside the size of weight"):
        blob.decode(raw(weights=[(b"w", b"k", 1)])[:-9])


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


def _with_version(version: int) -> bytes:
    data = bytearray(blob.encode(SAMPLE))
    data[4:8] = u32(version)
    return bytes(data)


def test_a_reader_for_every_version_from_the_oldest_to_the_current() -> None:
    # The rule (docs/blob-format.md, Compatibility): no version in the range is left unread, and
    # the oldest one, the first released format, is never raised.
    assert blob.READ_VERSIONS == tuple(range(blob.MIN_READ_VERSION, blob.VERSION + 1))
    for version in blob.READ_VERSIONS:
        assert blob.decode(_with_version(version)) == SAMPLE  # version 5 alone so far


def test_a_newer_version_says_to_upgrade() -> None:
    for version in (blob.VERSION + 1, 0xFFFFFFFF):
        with pytest.raises(BlobVersionError) as refused:
            blob.decode(_with_version(version))
        assert str(refused.value) == (
            f"blob version {version} was written by a newer executorch-ascend; this one reads "
            "versions 5 to 5: upgrade executorch-ascend to load it"
        )


def test_a_version_before_the_first_release_says_to_re_export() -> None:
    for version in range(blob.MIN_READ_VERSION):
        with pytest.raises(BlobVersionError) as refused:
            blob.decode(_with_version(version))
        assert str(refused.value) == (
            f"blob version {version} is from a development build before version 5, the first "
            "released format; this executorch-ascend reads versions 5 to 5: re-export the model "
            "with it"
        )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (raw(b""), "om_key of target 'S' length 0 is outside"),
        (raw(b"k" * (4096 + 1)), "om_key of target 'S' length 4097 is outside"),
        (raw(b"a\0b"), "om_key of target 'S' contains a NUL"),
        (raw(b"\xff\xfe"), "om_key of target 'S' is not UTF-8"),
        (b"ASCB" + u32(5) + u32(1) + text(b"S") + u32(4) + b"abc", "truncated inside the om_key"),
        (raw(targets=[(b"", b"k", [])]), "soc_version of target 0 length 0 is outside"),
        (raw(targets=[(b"s" * 65, b"k", [])]), "soc_version of target 0 length 65 is outside"),
        (raw(targets=[(b"S", b"k", []), (b"S", b"j", [])]), "soc_version 'S' has two targets"),
        (raw(source=(2, None)), "source kind 2"),
        (raw(source=(1, b"")), "source key length 0 is outside"),
        (raw(source=(1, b"k\0")), "source key contains a NUL"),
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
        one(""),
        one("a\0b"),
        one("k" * (blob.MAX_KEY_BYTES + 1)),
        one("k", soc=""),
        one("k", soc="s" * (blob.MAX_SOC_VERSION_BYTES + 1)),
        AscendBlob((BlobTarget("S", "k"), BlobTarget("S", "j"))),
        AscendBlob((BlobTarget("S", "k"),), (), ""),
        one("k", (BlobWeight("", "k", 1),)),
        one("k", (BlobWeight("w\0", "k", 1),)),
        one("k", (BlobWeight("n" * (blob.MAX_WEIGHT_NAME_BYTES + 1), "k", 1),)),
        one("k", (BlobWeight("w", "", 1),)),
        one("k", (BlobWeight("w", "k", 0),)),
        one("k", (BlobWeight("w", "k", 2**64),)),
        one("k", (BlobWeight("w", "k", 1), BlobWeight("w", "k", 1))),
        one("k", (), (BlobState("", 0, 0, 1),)),
        one("k", (), (BlobState("s", 0, 0, 0),)),
        one("k", (), (BlobState("s", 2**32, 0, 1),)),
        one("k", (), (BlobState("s", 0, 0, 1, ""),)),
        one("k", (), (BlobState("s", 0, 0, 1), BlobState("t", 0, 1, 1))),
    ],
)
def test_writer_enforces_the_limits(bad: AscendBlob) -> None:
    with pytest.raises(BlobError):
        blob.encode(bad)
