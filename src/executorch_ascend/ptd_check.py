# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The runners' .ptd check for the Python side.

ExecuTorch 1.5 runs no flatbuffer verifier on a .ptd: a corrupted one crashes the process inside
FlatTensorDataMap, in the Python runtime as in C++ (docs/fuzzing.md, fuzz_program). The C++
runners check a .ptd's structure first (tools/ptd_check); `check_ptd` runs the same code, from
libexecutorch_ascend_ptd_check.so, before a .ptd is handed to executorch.runtime.
"""

from __future__ import annotations

import ctypes
import os
from functools import cache

from . import paths


class InvalidPtdError(ValueError):
    """A .ptd file that ExecuTorch could not read safely."""


@cache
def _library() -> ctypes.CDLL:
    path = paths.ptd_check_library()
    if not path.is_file():
        raise FileNotFoundError(
            f"the .ptd check library is not at {path} (set {paths.ENV_PTD_CHECK_LIB} for a "
            "development build)"
        )
    lib = ctypes.CDLL(str(path))
    lib.executorch_ascend_check_ptd_file.argtypes = [
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_size_t,
    ]
    lib.executorch_ascend_check_ptd_file.restype = ctypes.c_int
    return lib


def check_ptd(path: str | os.PathLike) -> None:
    """Raises InvalidPtdError when `path` is not a well-formed .ptd (reads only its header and
    flatbuffer, a few KiB however large the file)."""
    message = ctypes.create_string_buffer(512)
    if _library().executorch_ascend_check_ptd_file(os.fsencode(path), message, len(message)):
        raise InvalidPtdError(f"{os.fspath(path)} is not a valid .ptd: {message.value.decode()}")
