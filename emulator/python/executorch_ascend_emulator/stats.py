# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The emulator's counters, aclEmuGetStats (emulator/acl/include/acl_emu_extras.h), via ctypes.

dlopen of the path the backend loaded (EXECUTORCH_ASCEND_ACL_LIB, which use_emulator() sets)
returns that very library, so these are the counters of the copy serving the process's delegates.
The one Python mirror of the C struct: tests and benchmarks read the counters through it.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

# aclEmuStats's fields, in order.
FIELDS: tuple[str, ...] = (
    "live_device_allocs",
    "live_device_bytes",
    "live_host_allocs",
    "live_models",
    "live_descs",
    "live_datasets",
    "live_data_buffers",
    "live_streams",
    "live_contexts",
    "bytes_host_to_device",
    "bytes_device_to_host",
    "executes",
    "weight_bytes_loaded",
    "weight_file_bytes_read",
)


class _AclEmuStats(ctypes.Structure):
    # Spare room after the known fields: a library newer than this mirror (a field appended
    # to aclEmuStats) then writes into the spare words instead of past the buffer.
    _fields_ = [(name, ctypes.c_uint64) for name in FIELDS] + [("_spare", ctypes.c_uint64 * 32)]


def read_stats(library: str | Path) -> dict[str, int]:
    """Every counter of the emulator `library` (a libascendcl.so path), by field name."""
    lib = ctypes.CDLL(str(library))
    if not hasattr(lib, "aclEmuGetStats"):
        raise RuntimeError(f"{library} is not the CANN emulator (no aclEmuGetStats)")
    get = lib.aclEmuGetStats
    get.argtypes, get.restype = [ctypes.POINTER(_AclEmuStats)], ctypes.c_int
    raw = _AclEmuStats()
    rc = get(ctypes.byref(raw))
    if rc != 0:
        raise RuntimeError(f"aclEmuGetStats failed with {rc}")
    return {name: int(getattr(raw, name)) for name in FIELDS}
