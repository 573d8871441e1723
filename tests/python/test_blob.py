"""The delegate blob: byte layout exactly as docs/blob-format.md, round trip, and rejection of
malformed bytes (the C++ reader rejects the same cases)."""

from __future__ import annotations

import struct

import pytest

from executorch_ascend import blob
from executorch_ascend.blob import AscendBlob, BlobError, BlobVersionError, TensorSignature

SAMPLE = AscendBlob(
    om_key="ascend/om/" + "ab" * 32,
    soc_version="Ascend910B1",
    atc="emulator 1",
    precision_mode="must_keep_origin_dtype",
    inputs=[TensorSignature("input_0", 6, (1, 3, 8, 8)), TensorSignature("input_1", 4, ())],
    outputs=[TensorSignature("output_0", 6, (1, 10))],
    flags=blob.FLAG_EMULATOR_BUILT,
    device_id=3,
)


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<I", len(data)) + data


def _tensor(name: str, scalar_type: int, dims: tuple[int, ...]) -> bytes:
    return (
        _string(name)
        + struct.pack("<iI", scalar_type, len(dims))
        + b"".join(struct.pack("<q", d) for d in dims)
    )


def test_layout_matches_the_spec_byte_for_byte() -> None:
    expected = (
        b"ASCB"
        + struct.pack("<I", 1)
        + struct.pack("<I", 1)
        + struct.pack("<i", 3)
        + _string(SAMPLE.om_key)
        + _string("Ascend910B1")
        + _string("emulator 1")
        + _string("must_keep_origin_dtype")
        + struct.pack("<I", 2)
        + _tensor("input_0", 6, (1, 3, 8, 8))
        + _tensor("input_1", 4, ())
        + struct.pack("<I", 1)
        + _tensor("output_0", 6, (1, 10))
    )
    assert blob.encode(SAMPLE) == expected


def test_round_trip() -> None:
    decoded = blob.decode(blob.encode(SAMPLE))
    assert decoded == SAMPLE
    assert decoded.emulator_built


def test_round_trip_without_tensors_and_with_unicode() -> None:
    b = AscendBlob("k", "Ascend310P3", "cann /opt/ätc", "force_fp32", [], [], 0, 0)
    assert blob.decode(blob.encode(b)) == b
    assert not blob.decode(blob.encode(b)).emulator_built


def test_every_truncation_is_rejected() -> None:
    data = blob.encode(SAMPLE)
    for n in range(len(data)):
        with pytest.raises(BlobError):
            blob.decode(data[:n])


def test_trailing_bytes_are_rejected() -> None:
    with pytest.raises(BlobError, match="trailing"):
        blob.decode(blob.encode(SAMPLE) + b"\0")


def test_bad_magic() -> None:
    data = bytearray(blob.encode(SAMPLE))
    data[0:4] = b"ASCX"
    with pytest.raises(BlobError, match="magic"):
        blob.decode(bytes(data))


def test_unknown_version_is_a_compatibility_error() -> None:
    data = bytearray(blob.encode(SAMPLE))
    data[4:8] = struct.pack("<I", 2)
    with pytest.raises(BlobVersionError):
        blob.decode(bytes(data))


def test_unknown_flags_are_rejected() -> None:
    data = bytearray(blob.encode(SAMPLE))
    data[8:12] = struct.pack("<I", 0x3)
    with pytest.raises(BlobError, match="flag"):
        blob.decode(bytes(data))
    with pytest.raises(BlobError, match="flag"):
        blob.encode(AscendBlob("k", "s", "a", "p", flags=4))


def _header(num_inputs: bytes) -> bytes:
    return (
        b"ASCB"
        + struct.pack("<IIi", 1, 0, 0)
        + _string("k")
        + _string("s")
        + _string("a")
        + _string("p")
        + num_inputs
    )


def test_counts_over_the_limits_are_rejected_before_reading_on() -> None:
    with pytest.raises(BlobError, match="num_inputs"):
        blob.decode(_header(struct.pack("<I", blob.MAX_TENSORS + 1)))
    rank_too_big = struct.pack("<I", 1) + _string("x") + struct.pack("<iI", 6, blob.MAX_RANK + 1)
    with pytest.raises(BlobError, match="rank"):
        blob.decode(_header(rank_too_big))
    huge_string = b"ASCB" + struct.pack("<IIi", 1, 0, 0) + struct.pack("<I", 0xFFFFFFFF)
    with pytest.raises(BlobError, match="length"):
        blob.decode(huge_string)


def test_negative_dims_and_bad_utf8_are_rejected() -> None:
    negative = struct.pack("<I", 1) + _tensor("x", 6, (2,))[:-8] + struct.pack("<q", -1)
    with pytest.raises(BlobError, match="negative"):
        blob.decode(_header(negative) + struct.pack("<I", 0))
    bad_name = struct.pack("<I", 1) + struct.pack("<I", 2) + b"\xff\xfe" + struct.pack("<iI", 6, 0)
    with pytest.raises(BlobError, match="UTF-8"):
        blob.decode(_header(bad_name) + struct.pack("<I", 0))


def test_writer_enforces_the_limits() -> None:
    with pytest.raises(BlobError):
        blob.encode(AscendBlob("k" * (blob.MAX_STRING_BYTES + 1), "s", "a", "p"))
    with pytest.raises(BlobError):
        blob.encode(AscendBlob("k", "s", "a", "p", inputs=[TensorSignature("x", 6, (1,) * 17)]))
    with pytest.raises(BlobError):
        blob.encode(AscendBlob("k", "s", "a", "p", inputs=[TensorSignature("x", 6, (-1,))]))
    with pytest.raises(BlobError):
        blob.encode(AscendBlob("k", "s", "a", "p", device_id=2**31))
