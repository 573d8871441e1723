# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A partition's ONNX source, kept as named data (AscendCompileSpec(keep_onnx=True)).

With it, `executorch-ascend compile` (recompile.py) runs atc again on exactly what the lowering
gave atc, for another SoC or with CANN's own atc, from the saved program alone: no PyTorch model
code and no re-export. Three kinds of named data make it up:

- the manifest, `ascend/source/<sha256>`, a small JSON document whose key the blob carries: the
  atc inputs the compile specs cannot give (input names and dims, the gear options the lowering
  derived) and where the two parts below are;
- the ONNX model, `ascend/onnx/<sha256>`: the ModelProto as atc got it, its large initializers
  references into part.weights (lowering/external_data.py);
- part.weights in pieces, one per external initializer, each under `ascend/weight/<sha256 of its
  bytes>`: the key atc's weight file of the same bytes has, so a weight kept as source and
  compiled into a weight file is stored once (NamedDataStore keeps one buffer per content).

The atc options themselves (precision mode, external weight mode, gears, further options) are the
delegate's compile specs, stored in the .pte beside the blob.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from executorch.exir._serialize._cord import FileBackedData
from executorch.exir._serialize._named_data_store import NamedDataStore

from ..aipp import aipp_config_text
from ..lowering import GraphConstant, LoweredGraph
from ..lowering.external_data import MODEL_FILE, WEIGHTS_FILE
from .weights import WEIGHT_ALIGNMENT, weight_key

SOURCE_KEY_PREFIX = "ascend/source/"
ONNX_KEY_PREFIX = "ascend/onnx/"
MANIFEST_FORMAT = "executorch-ascend partition source"
MANIFEST_VERSION = 1
# Written only for a partition with AIPP (its `insert_op_conf`), so that a reader without AIPP
# refuses the manifest instead of compiling an .om whose input is not the program's frame.
AIPP_MANIFEST_VERSION = 2


class SourceError(ValueError):
    """A kept source that cannot be read back (missing named data, a malformed manifest)."""


@dataclass(frozen=True)
class SourcePiece:
    """One external initializer: its bytes are named data `key`, at `offset` in part.weights."""

    offset: int
    size: int
    key: str


@dataclass(frozen=True)
class PartitionSource:
    """The manifest: everything atc got besides the compile specs."""

    onnx_key: str
    onnx_size: int
    input_names: tuple[str, ...]
    input_dims: tuple[tuple[int, ...], ...]
    gear_options: tuple[str, ...]
    pieces: tuple[SourcePiece, ...] = ()
    # CANN's AIPP config atc got (--insert_op_conf, executorch_ascend.aipp), if any.
    insert_op_conf: str | None = None

    def to_json(self) -> bytes:
        document: dict[str, object] = {
            "format": MANIFEST_FORMAT,
            "version": MANIFEST_VERSION if self.insert_op_conf is None else AIPP_MANIFEST_VERSION,
            "onnx": {"key": self.onnx_key, "size": self.onnx_size, "file": MODEL_FILE},
            "inputs": [
                {"name": n, "dims": list(d)}
                for n, d in zip(self.input_names, self.input_dims, strict=True)
            ],
            "gear_options": list(self.gear_options),
            "external_data": {
                "file": WEIGHTS_FILE,
                "pieces": [{"offset": p.offset, "size": p.size, "key": p.key} for p in self.pieces],
            },
        }
        if self.insert_op_conf is not None:
            document["insert_op_conf"] = self.insert_op_conf
        return json.dumps(document, indent=1, sort_keys=True).encode("utf-8")

    @classmethod
    def from_json(cls, data: bytes | memoryview) -> PartitionSource:
        try:
            doc = json.loads(bytes(data).decode("utf-8"))
            if doc.get("format") != MANIFEST_FORMAT:
                raise SourceError("not an executorch-ascend partition source manifest")
            version = doc.get("version")
            if version not in (MANIFEST_VERSION, AIPP_MANIFEST_VERSION):
                raise SourceError(
                    f"partition source version {version!r}; this executorch-ascend "
                    f"reads versions {MANIFEST_VERSION} and {AIPP_MANIFEST_VERSION}"
                )
            aipp = doc.get("insert_op_conf")
            if (version == AIPP_MANIFEST_VERSION) != (aipp is not None):
                raise SourceError(
                    f"partition source version {version} must "
                    + ("" if version == AIPP_MANIFEST_VERSION else "not ")
                    + "carry insert_op_conf"
                )
            inputs = doc["inputs"]
            pieces = tuple(
                SourcePiece(_uint(p["offset"]), _uint(p["size"]), _text(p["key"]))
                for p in doc["external_data"]["pieces"]
            )
            source = cls(
                onnx_key=_text(doc["onnx"]["key"]),
                onnx_size=_uint(doc["onnx"]["size"]),
                input_names=tuple(_text(i["name"]) for i in inputs),
                input_dims=tuple(tuple(_int(d) for d in i["dims"]) for i in inputs),
                gear_options=tuple(_text(o) for o in doc["gear_options"]),
                pieces=pieces,
                insert_op_conf=None if aipp is None else _text(aipp),
            )
        except SourceError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise SourceError(f"malformed partition source manifest: {e!r}") from e
        _check_pieces(source.pieces)
        return source


def _text(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"expected a non-empty string, got {value!r}")
    return value


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _uint(value: object) -> int:
    n = _int(value)
    if n < 0:
        raise TypeError(f"expected an integer >= 0, got {value!r}")
    return n


def _check_pieces(pieces: Sequence[SourcePiece]) -> None:
    end = 0
    for p in sorted(pieces, key=lambda p: p.offset):
        if p.offset < end or p.size == 0:
            raise SourceError("partition source: external data pieces overlap or are empty")
        end = p.offset + p.size


def store_source(
    store: NamedDataStore,
    lowered: LoweredGraph,
    gear_options: Sequence[str],
    default_tag: str | None,
    model_file: FileBackedData,
) -> str:
    """Adds the partition's ONNX source to `store`; returns the manifest's key (for the blob).

    `model_file` is part.onnx as atc read it (toolchain.compile_onnx(keep_model=True)): the model
    is serialized once, for atc, and that file is what is kept. The model and manifest follow the
    compile spec's tag, as the .om does; each piece of the external data follows its constant's
    tag, as its weight file does (serialization/weights.py).
    """
    onnx_key = ONNX_KEY_PREFIX + model_file.sha256().hex()
    store.add_named_data(onnx_key, model_file, alignment=1, external_tag=default_tag)
    pieces = []
    for c in lowered.constants:
        if not c.external or c.nbytes == 0:
            continue
        assert c.offset is not None
        digest = c.sha256()
        key = weight_key(digest)
        tag = c.tag if c.tag is not None else default_tag
        data = _piece_data(store, key, c, bytes.fromhex(digest))
        store.add_named_data(key, data, alignment=WEIGHT_ALIGNMENT, external_tag=tag)
        pieces.append(SourcePiece(c.offset, c.nbytes, key))
    source = PartitionSource(
        onnx_key=onnx_key,
        onnx_size=len(model_file),
        input_names=tuple(v.name for v in lowered.inputs),
        input_dims=tuple(tuple(v.dims) for v in lowered.inputs),
        gear_options=tuple(gear_options),
        pieces=tuple(sorted(pieces, key=lambda p: p.offset)),
        insert_op_conf=aipp_config_text(lowered.aipp),
    )
    manifest = source.to_json()
    key = SOURCE_KEY_PREFIX + hashlib.sha256(manifest).hexdigest()
    store.add_named_data(key, manifest, alignment=1, external_tag=default_tag)
    return key


def _piece_data(
    store: NamedDataStore, key: str, constant: GraphConstant, sha256: bytes
) -> FileBackedData | bytes:
    """The named data for one piece of part.weights, without a copy of its bytes in memory.

    Usually atc wrote the same bytes as a weight file, already in the store under the same key
    (serialization/weights.py): the store's own buffer is given again (NamedDataStore keeps one
    per content).
    Otherwise (external_weight=0, or an atc that transforms weights) the bytes are written from
    the constant's memory to a file of their own.
    """
    index = store.key_to_buffer_idx.get(key)  # NamedDataStore's key index (executorch 1.5.1)
    if index is not None:
        return store.buffers[index]
    fd, path = tempfile.mkstemp(prefix="executorch_ascend_", suffix=".data")
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in constant.chunks():
                f.write(chunk)
    except BaseException:
        Path(path).unlink(missing_ok=True)
        raise
    return FileBackedData(path, cleanup=True, sha256=sha256)


# Reads one named-data entry (bytes, or a memoryview of the file); KeyError when absent.
NamedDataReader = Callable[[str], bytes | memoryview]


@dataclass(frozen=True)
class SourceFiles:
    """A kept source as the files atc reads (toolchain.OnnxFiles): part.onnx, part.weights."""

    source: PartitionSource
    read: NamedDataReader

    def keys(self) -> list[str]:
        """Every named-data key this source reads."""
        return [self.source.onnx_key, *(p.key for p in self.source.pieces)]

    def save(self, directory: Path) -> Path:
        model = _get(self.read, self.source.onnx_key, "its ONNX model")
        if len(model) != self.source.onnx_size:
            raise SourceError(
                f"named data {self.source.onnx_key} has {len(model)} bytes; the manifest says "
                f"{self.source.onnx_size}"
            )
        path = directory / MODEL_FILE
        path.write_bytes(model)
        if self.source.pieces:
            with open(directory / WEIGHTS_FILE, "wb") as f:
                position = 0
                for p in self.source.pieces:
                    data = _get(self.read, p.key, f"external data at offset {p.offset}")
                    if len(data) != p.size:
                        raise SourceError(
                            f"named data {p.key} has {len(data)} bytes; the manifest says {p.size}"
                        )
                    f.write(bytes(p.offset - position))
                    f.write(data)
                    position = p.offset + p.size
        return path


def _get(read: NamedDataReader, key: str, what: str) -> bytes | memoryview:
    try:
        return read(key)
    except KeyError:
        raise SourceError(
            f"named data {key} ({what}) is missing: pass every .ptd file of the program"
        ) from None
