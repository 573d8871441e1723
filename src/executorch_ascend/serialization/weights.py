# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The weight files of a compiled partition as ExecuTorch named data.

Each file atc wrote goes into the NamedDataStore under the SHA-256 of its bytes. NamedDataStore
keeps one buffer per distinct content, so the same weight compiled into two partitions or two
methods is stored once, and the runtime's weights cache, keyed the same way, holds it once on the
device.

Which file (.pte or <tag>.ptd) a weight goes to:
1. the tag of the graph constant whose bytes the file holds (atc wrote the initializer as it
   was; the tag comes from delegate_external_constants_pass_unlifted, through constant folding);
2. for a file that matches no constant (a combined file, or atc transformed the bytes), the one
   tag the partition's tagged constants share, if they share exactly one;
3. else, and for untagged constants, the compile spec's external_tag (None: the .pte).
"""

from __future__ import annotations

from collections.abc import Sequence

from executorch.exir._serialize._named_data_store import NamedDataStore

from ..lowering import GraphConstant
from ..lowering.constants import common_tag
from ..toolchain.atc import WeightFile
from .blob import BlobWeight

WEIGHT_KEY_PREFIX = "ascend/weight/"
# The runtime hands each weight to ACL from the mapped .pte/.ptd; keep it cache-line aligned so
# the emulator reads it in place, as it does the .om.
WEIGHT_ALIGNMENT = 64


def weight_key(digest: str) -> str:
    return WEIGHT_KEY_PREFIX + digest


class _ConstantDigests:
    """SHA-256 of the graph constants' bytes, computed only for constants of a size some weight
    file has (hashing every constant of a large model would cost as much as hashing it twice)."""

    def __init__(self, constants: Sequence[GraphConstant]) -> None:
        self._by_size: dict[int, list[GraphConstant]] = {}
        for c in constants:
            self._by_size.setdefault(c.nbytes, []).append(c)
        self._digests: dict[str, str] = {}

    def matching(self, size: int, digest: str) -> list[GraphConstant]:
        found = []
        for c in self._by_size.get(size, []):
            d = self._digests.get(c.name)
            if d is None:
                d = self._digests[c.name] = c.sha256()
            if d == digest:
                found.append(c)
        return found


def weight_tags(
    weights: Sequence[WeightFile],
    digests: Sequence[str],
    constants: Sequence[GraphConstant],
    default_tag: str | None,
) -> list[str | None]:
    """The external tag of each weight file (the module docstring's rule)."""
    tags = [c.tag for c in constants]
    if not any(t is not None for t in tags):
        return [default_tag] * len(weights)  # nothing to match: no bytes need hashing
    shared = common_tag(tags)
    fallback = shared if shared is not None else default_tag
    index = _ConstantDigests(constants)
    result: list[str | None] = []
    for w, digest in zip(weights, digests, strict=True):
        matches = index.matching(w.size, digest)
        if matches:
            tag = common_tag(c.tag for c in matches)
            result.append(tag if tag is not None else default_tag)
        else:
            result.append(fallback)
    return result


def store_weights(
    store: NamedDataStore,
    weights: Sequence[WeightFile],
    constants: Sequence[GraphConstant],
    default_tag: str | None,
) -> tuple[BlobWeight, ...]:
    """Adds each weight file to `store`; returns the blob's weight table (in file-name order).

    The store gets the file itself (WeightFile.data, a FileBackedData), never its bytes: the
    serializer copies it into the .pte/.ptd in chunks."""
    digests = [w.digest for w in weights]
    tags = weight_tags(weights, digests, constants, default_tag)
    table = []
    for w, digest, tag in zip(weights, digests, tags, strict=True):
        key = weight_key(digest)
        store.add_named_data(key, w.data, alignment=WEIGHT_ALIGNMENT, external_tag=tag)
        table.append(BlobWeight(w.name, key, w.size))
    return tuple(table)
