# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A saved program (.pte and its .ptd files) read back, changed and written anew.

`executorch-ascend compile` (recompile.py) rewrites the Ascend delegates of a program without the
model that made it: it replaces delegate blobs and adds or drops named data. ExecuTorch's own
serializers do the work (deserialize_pte_binary / serialize_pte_binary for the .pte,
FlatTensorSerializer for each .ptd), so the files written are what `to_executorch()` and
`write_tensor_data_to_file()` write. A .ptd's tag is its file name without `.ptd` (ExecuTorch
names it so); an entry keeps its file, and a new entry goes where the caller says.

Reading keeps each file's bytes in memory once and hands out views into them; deserialization
does not record alignment, so every entry is written back 64-byte aligned (what the backend asks
for its .om and weights, and a multiple of every power-of-two alignment below it).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from executorch.exir import schema
from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir._serialize._program import (
    PTEFile,
    deserialize_pte_binary,
    serialize_pte_binary,
)
from executorch.exir._serialize.data_serializer import DataEntry, DataPayload
from executorch.exir.tensor_layout import TensorLayout
from executorch.extension.flat_tensor.serialize.serialize import FlatTensorSerializer

# ExecutorchBackendConfig's defaults, which to_executorch() serialized the program with.
_SEGMENT_ALIGNMENT = 128
_ENTRY_ALIGNMENT = 64


class SavedProgramError(ValueError):
    """A file that is not a readable .pte or .ptd, or named data that is not where it should be."""


@dataclass
class _Entry:
    data: bytes | memoryview
    tag: str | None  # None: inside the .pte; else "<tag>.ptd"
    layout: TensorLayout | None = None


@dataclass
class SavedProgram:
    pte: PTEFile
    entries: dict[str, _Entry] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)  # the .ptd files read, in order

    @classmethod
    def load(cls, pte_path: str | Path, ptd_paths: Sequence[str | Path] = ()) -> SavedProgram:
        data = _read(Path(pte_path), ".pte")
        try:
            pte = deserialize_pte_binary(data)
        except Exception as e:  # the flatbuffer reader raises many types on bad input
            raise SavedProgramError(f"{pte_path} is not a readable .pte file: {e}") from e
        program = cls(pte)
        if pte.named_data is not None:
            for key, entry in pte.named_data.pte_data.items():
                program.entries[key] = _Entry(pte.named_data.buffers[entry.buffer_index], None)
            pte.named_data = None
        for path in ptd_paths:
            program._load_ptd(Path(path))
        return program

    def _load_ptd(self, path: Path) -> None:
        tag = path.name[: -len(".ptd")] if path.name.endswith(".ptd") else path.stem
        if tag in self.tags:
            raise SavedProgramError(f"{path}: a data file of tag {tag!r} was given twice")
        data = memoryview(_read(path, ".ptd"))
        try:
            payload = FlatTensorSerializer().deserialize(data)
        except Exception as e:
            raise SavedProgramError(f"{path} is not a readable .ptd file: {e}") from e
        for key, entry in payload.named_data.items():
            if key in self.entries:
                raise SavedProgramError(f"{path}: named data {key!r} is also in another file")
            buffer = payload.buffers[entry.buffer_index]
            self.entries[key] = _Entry(buffer, tag, entry.tensor_layout)
        self.tags.append(tag)

    # -- reading ------------------------------------------------------------------------------

    @property
    def program(self) -> schema.Program:
        return self.pte.program

    def read(self, key: str) -> bytes | memoryview:
        """The bytes of named data `key`; KeyError when no file read holds it."""
        return self.entries[key].data

    def tag_of(self, key: str) -> str | None:
        return self.entries[key].tag

    def delegates(self, backend_id: str) -> list[tuple[str, int, schema.BackendDelegate]]:
        """(method name, delegate index, delegate) of every delegate of `backend_id`."""
        found = []
        for plan in self.program.execution_plan:
            for i, delegate in enumerate(plan.delegates):
                if delegate.id == backend_id:
                    found.append((plan.name, i, delegate))
        return found

    def processed(self, delegate: schema.BackendDelegate) -> bytes:
        """A delegate's blob (deserialize_pte_binary moved every blob inline)."""
        ref = delegate.processed
        if ref.location != schema.DataLocation.INLINE:
            raise SavedProgramError("a delegate blob is not inline after deserialization")
        return bytes(self.program.backend_delegate_data[ref.index].data)

    # -- changing -----------------------------------------------------------------------------

    def set_processed(self, delegate: schema.BackendDelegate, blob: bytes) -> None:
        self.program.backend_delegate_data[delegate.processed.index].data = blob

    def add(self, key: str, data: bytes, tag: str | None) -> None:
        """Adds named data; a key already present must hold the same bytes (content keys)."""
        old = self.entries.get(key)
        if old is not None:
            if bytes(old.data) != bytes(data):
                raise SavedProgramError(f"named data {key!r} already holds other bytes")
            return
        self.entries[key] = _Entry(data, tag)
        if tag is not None and tag not in self.tags:
            self.tags.append(tag)

    def drop(self, key: str) -> None:
        self.entries.pop(key, None)

    # -- writing ------------------------------------------------------------------------------

    def save(self, pte_path: str | Path) -> list[Path]:
        """Writes the .pte, and each tag's .ptd beside it; returns the paths written.

        Each file is written to a temporary name and renamed, so a file read from the same
        place is replaced whole or not at all.
        """
        pte_path = Path(pte_path)
        store = NamedDataStore()
        external: dict[str, DataPayload] = {tag: DataPayload([], {}) for tag in self.tags}
        for key, entry in self.entries.items():
            if entry.tag is None:
                store.add_named_data(key, bytes(entry.data), alignment=_ENTRY_ALIGNMENT)
            else:
                payload = external[entry.tag]
                payload.named_data[key] = DataEntry(
                    len(payload.buffers), _ENTRY_ALIGNMENT, entry.layout
                )
                payload.buffers.append(bytes(entry.data))
        self.pte.named_data = store.get_named_data_store_output()
        pte = serialize_pte_binary(
            self.pte, extract_delegate_segments=True, segment_alignment=_SEGMENT_ALIGNMENT
        )
        self.pte.named_data = None
        written = [pte_path]
        _write_atomically(pte_path, bytes(pte))
        for tag, payload in external.items():
            if not payload.named_data:
                continue
            path = pte_path.parent / f"{tag}.ptd"
            _write_atomically(path, bytes(FlatTensorSerializer().serialize(payload)))
            written.append(path)
        return written


def _read(path: Path, kind: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise SavedProgramError(f"cannot read the {kind} file {path}: {e.strerror}") from e


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
