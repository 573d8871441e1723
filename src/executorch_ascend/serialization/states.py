# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The mutable buffers a partition keeps on the device (a KV cache), as blob entries.

A buffer that starts as zeros, as a KV cache does, is stored as nothing: the runtime zero-fills
its device copy (aclrtMemset). Any other initial value goes into named data under the SHA-256 of
its bytes, where the compile spec's external_tag puts the weights too.
"""

from __future__ import annotations

import hashlib

import torch
from executorch.exir._serialize._named_data_store import NamedDataStore

from ..lowering.lowered_graph import StateValue
from .blob import BlobState

STATE_KEY_PREFIX = "ascend/state/"
STATE_ALIGNMENT = 64


def _raw_bytes(tensor: torch.Tensor) -> bytes:
    flat = tensor.detach().contiguous().reshape(-1)
    return flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""


def store_states(
    store: NamedDataStore, states: tuple[StateValue, ...], external_tag: str | None
) -> tuple[BlobState, ...]:
    entries = []
    for state in states:
        data = _raw_bytes(state.initial)
        key = None
        if any(data):
            key = STATE_KEY_PREFIX + hashlib.sha256(data).hexdigest()
            store.add_named_data(key, data, alignment=STATE_ALIGNMENT, external_tag=external_tag)
        entries.append(
            BlobState(state.target, state.input_index, state.output_index, len(data), key)
        )
    return tuple(entries)
