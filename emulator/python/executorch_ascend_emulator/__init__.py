# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The CANN emulator's installed files, laid out like a CANN toolkit's $ASCEND_HOME_PATH.

    import executorch_ascend_emulator as emu
    emu.acl_library()   # .../executorch_ascend_emulator/lib64/libascendcl.so
    emu.atc()           # .../executorch_ascend_emulator/bin/atc

Nothing happens on import: executorch_ascend.use_emulator() is what points the backend at it.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

HOME = Path(__file__).resolve().parent


def acl_library() -> Path:
    """The emulator's libascendcl.so."""
    return HOME / "lib64" / "libascendcl.so"


def atc() -> Path:
    """The emulator's atc, which takes CANN's command line."""
    return HOME / "bin" / "atc"
