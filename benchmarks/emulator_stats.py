# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The emulator's traffic counters (aclEmuGetStats, emulator/acl/include/acl_emu_extras.h), read
through ctypes.

dlopen of the path the backend uses (EXECUTORCH_ASCEND_ACL_LIB) returns the library the backend
already loaded, so these are the counters of the very copy that serves the delegate. The
`executes` counter proves it: it must move by one per delegate call.
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, fields
from pathlib import Path

_FIELDS = (
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
)


class _AclEmuStats(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in _FIELDS]


@dataclass(frozen=True)
class Traffic:
    bytes_host_to_device: int
    bytes_device_to_host: int
    executes: int

    def __sub__(self, other: Traffic) -> Traffic:
        return Traffic(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(Traffic)))


class EmulatorStats:
    def __init__(self, library: Path) -> None:
        self.library = library
        lib = ctypes.CDLL(str(library))
        if not hasattr(lib, "aclEmuGetStats"):
            raise RuntimeError(f"{library} is not the CANN emulator (no aclEmuGetStats)")
        self._get = lib.aclEmuGetStats
        self._get.argtypes = [ctypes.POINTER(_AclEmuStats)]
        self._get.restype = ctypes.c_int

    @classmethod
    def of_this_process(cls) -> EmulatorStats:
        """The emulator named by EXECUTORCH_ASCEND_ACL_LIB (as use_emulator() sets it)."""
        path = os.environ.get("EXECUTORCH_ASCEND_ACL_LIB")
        if not path:
            raise RuntimeError(
                "EXECUTORCH_ASCEND_ACL_LIB is not set; call executorch_ascend.use_emulator() first"
            )
        return cls(Path(path))

    def traffic(self) -> Traffic:
        raw = _AclEmuStats()
        rc = self._get(ctypes.byref(raw))
        if rc != 0:
            raise RuntimeError(f"aclEmuGetStats failed with {rc}")
        return Traffic(raw.bytes_host_to_device, raw.bytes_device_to_host, raw.executes)

    def live_device_bytes(self) -> int:
        """Bytes of device memory the process holds through aclrtMalloc (weights, I/O buffers)."""
        raw = _AclEmuStats()
        rc = self._get(ctypes.byref(raw))
        if rc != 0:
            raise RuntimeError(f"aclEmuGetStats failed with {rc}")
        return raw.live_device_bytes
