# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The emulator's traffic counters (aclEmuGetStats, through executorch_ascend_emulator.stats).

dlopen of the path the backend uses (EXECUTORCH_ASCEND_ACL_LIB) returns the library the backend
already loaded, so these are the counters of the very copy that serves the delegate. The
`executes` counter proves it: it must move by one per delegate call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path

from executorch_ascend_emulator.stats import read_stats


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
        read_stats(library)  # fails now, not at the first read, if it is not the emulator

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
        raw = read_stats(self.library)
        return Traffic(raw["bytes_host_to_device"], raw["bytes_device_to_host"], raw["executes"])

    def live_device_bytes(self) -> int:
        """Bytes of device memory the process holds through aclrtMalloc (weights, I/O buffers)."""
        return read_stats(self.library)["live_device_bytes"]
