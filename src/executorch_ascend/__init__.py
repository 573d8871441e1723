# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ExecuTorch backend delegate for Huawei Ascend NPUs (CANN), with a CANN emulator.

    from executorch_ascend import AscendPartitioner, AscendCompileSpec
    to_edge_transform_and_lower(ep, partitioner=[AscendPartitioner(AscendCompileSpec())])

Importing the package also registers the C++ AscendBackend with the Python ExecuTorch runtime
(executorch.runtime) when its library is installed (native.py: a dlopen, no torch import). It runs
on CANN (found as toolchain/cann.py says) unless the CANN emulator is chosen:
`executorch_ascend.use_emulator()`, or EXECUTORCH_ASCEND_USE_EMULATOR=1.

The ahead-of-time names (AscendPartitioner, AscendBackend, AscendCompileSpec, explain, ...) are
imported on first use (PEP 562), so `import executorch_ascend` and the light commands of the
`executorch-ascend` CLI stay free of torch and executorch.exir.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .native import load_backend_library
from .toolchain.cann import use_emulator, use_emulator_if_requested

if TYPE_CHECKING:
    from .aipp import AippConfig, DynamicAipp, DynamicAippParams, with_aipp
    from .backend import AscendBackend
    from .compile_spec import AscendCompileSpec, CompileSpecError
    from .explain import explain
    from .partitioner import AscendPartitioner

# Public name -> the submodule that defines it, imported on first access.
_LAZY = {
    "AippConfig": "aipp",
    "DynamicAipp": "aipp",
    "DynamicAippParams": "aipp",
    "with_aipp": "aipp",
    "AscendBackend": "backend",
    "AscendCompileSpec": "compile_spec",
    "CompileSpecError": "compile_spec",
    "AscendPartitioner": "partitioner",
    "explain": "explain",
}


class _Package(types.ModuleType):
    """The package module. Importing the submodule `executorch_ascend.explain` makes Python set
    the package's `explain` to that submodule; the public `explain` is the function, so that one
    assignment is refused (the submodule stays reachable in sys.modules)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "explain" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

use_emulator_if_requested()
load_backend_library()


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "AippConfig",
    "AscendBackend",
    "AscendCompileSpec",
    "AscendPartitioner",
    "CompileSpecError",
    "DynamicAipp",
    "DynamicAippParams",
    "__version__",
    "explain",
    "use_emulator",
    "with_aipp",
]
