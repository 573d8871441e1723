# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The CANN emulator's installed files, laid out like a CANN toolkit's $ASCEND_HOME_PATH.

    import executorch_ascend_emulator as emu
    emu.acl_library()   # .../executorch_ascend_emulator/lib64/libascendcl.so
    emu.acl_split_libraries()  # lib64/libacl_rt.so, lib64/libacl_mdl.so (CANN's split layout)
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


def acl_split_libraries() -> tuple[Path, Path]:
    """The emulator's libacl_rt.so and libacl_mdl.so: CANN's split layout, two empty libraries
    that need libascendcl.so, so both give every function of the one emulator."""
    return (HOME / "lib64" / "libacl_rt.so", HOME / "lib64" / "libacl_mdl.so")


def atc() -> Path:
    """The emulator's atc, which takes CANN's command line."""
    return HOME / "bin" / "atc"
