# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ONNX external data: large initializers kept out of the ModelProto, written to one file.

A ModelProto is a protobuf message, and protobuf cannot serialize one past 2 GB; a model whose
weights are bigger can only be handed to atc with its large initializers as external data
(TensorProto.data_location = EXTERNAL, with location, offset and length). Here they all go to one
file beside the model, `part.weights`, each at a 64-byte-aligned offset, written straight from
the numpy view of the tensor the lowering folded or read (no second copy of the weights in
memory). The layout depends only on the order the initializers were made, so the same program
always gives the same files, and the same .om (which is keyed by its hash).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from .cann_schemas import full_check

MODEL_FILE = "part.onnx"
WEIGHTS_FILE = "part.weights"
# Cache-line aligned, as ONNX Runtime's own external-data writer does, so a reader can map the
# file and use every tensor in place.
ALIGNMENT = 64
# The most bytes of a strided constant copied out at once (GraphConstant.chunks).
CHUNK_BYTES = 16 << 20


def little_endian(array: np.ndarray) -> np.ndarray:
    """`array` with little-endian elements, as ONNX stores raw data (a copy only when they are
    not). A strided view (a weight read transposed) stays one: its bytes are produced in C order
    when written (GraphConstant.chunks), never all at once."""
    array = np.asarray(array)
    if array.dtype.byteorder == ">" or (array.dtype.byteorder == "=" and sys.byteorder == "big"):
        array = array.astype(array.dtype.newbyteorder("<"))
    return array


@dataclass(frozen=True)
class GraphConstant:
    """One initializer of the lowered graph: its value, its tag, and where its bytes go.

    `array` is what the initializer holds (for parameters a view of the tensor's own memory).
    `tag` is the external tag delegate_external_constants_pass_unlifted gave the constants it was
    computed from, or None. `offset` is its place in WEIGHTS_FILE when it is external data, None
    when its bytes are inline in the ModelProto.
    """

    name: str
    array: np.ndarray
    tag: str | None
    offset: int | None

    @property
    def nbytes(self) -> int:
        return int(self.array.nbytes)

    @property
    def external(self) -> bool:
        return self.offset is not None

    def chunks(self) -> Iterator[memoryview]:
        """The initializer's bytes as ONNX stores them (C order), in pieces: the array's own
        memory when it is C-contiguous (one piece, no copy), else copied out a block of rows of
        at most CHUNK_BYTES at a time (a transposed weight is never copied whole)."""
        a = self.array
        if a.flags.c_contiguous:
            yield a.reshape(-1).view(np.uint8).data
            return
        step = max(1, CHUNK_BYTES // max(1, a.nbytes // a.shape[0]))
        for start in range(0, a.shape[0], step):
            block = np.ascontiguousarray(a[start : start + step])
            yield block.reshape(-1).view(np.uint8).data

    def sha256(self) -> str:
        """SHA-256 of the bytes (hex)."""
        digest = hashlib.sha256()
        for chunk in self.chunks():
            digest.update(chunk)
        return digest.hexdigest()


def align(offset: int) -> int:
    return -(-offset // ALIGNMENT) * ALIGNMENT


def external_tensor(name: str, array: np.ndarray, offset: int) -> TensorProto:
    """The TensorProto of an initializer whose bytes are at `offset` in WEIGHTS_FILE."""
    tensor = TensorProto()
    tensor.name = name
    tensor.data_type = helper.np_dtype_to_tensor_dtype(array.dtype)
    tensor.dims.extend(array.shape)
    tensor.data_location = TensorProto.EXTERNAL
    for key, value in (
        ("location", WEIGHTS_FILE),
        ("offset", str(offset)),
        ("length", str(array.nbytes)),
    ):
        entry = tensor.external_data.add()
        entry.key, entry.value = key, value
    return tensor


def write_weights(path: Path, constants: Sequence[GraphConstant]) -> int:
    """Writes the external constants at their offsets (zero padding between); returns the size."""
    external = sorted((c for c in constants if c.external), key=lambda c: c.offset or 0)
    position = 0
    with open(path, "wb") as f:
        for c in external:
            assert c.offset is not None and c.offset >= position, "overlapping external data"
            f.write(bytes(c.offset - position))
            for chunk in c.chunks():
                f.write(chunk)
            position = c.offset + c.nbytes
    return position


def serialize_model(model: onnx.ModelProto) -> bytes:
    """The ModelProto's bytes. The one place the lowering serializes a model for atc (a test
    counts the calls): SerializeToString, not onnx.save, which would try to manage the external
    data itself."""
    return model.SerializeToString()


def save(model: onnx.ModelProto, constants: Sequence[GraphConstant], directory: Path) -> Path:
    """Writes MODEL_FILE (and WEIGHTS_FILE when a constant is external) into `directory`, checks
    the files with onnx.checker, and returns the model's path.

    The check reads the saved files: only a check of the files sees the external data, and an
    in-memory check needs the whole model as one protobuf, serialized once more. The model is
    serialized once (serialize_model) and its bytes dropped as soon as they are written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    model_path = directory / MODEL_FILE
    model_path.write_bytes(serialize_model(model))
    if any(c.external for c in constants):
        size = write_weights(directory / WEIGHTS_FILE, constants)
        # onnx.checker does not compare lengths with the file; onnx.load would.
        if (directory / WEIGHTS_FILE).stat().st_size != size:
            raise onnx.checker.ValidationError(f"{WEIGHTS_FILE} was not written completely")
    onnx.checker.check_model(model_path, full_check=full_check(model))
    return model_path
