# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ExecuTorch backend delegate for Huawei Ascend NPUs (CANN), with a CANN emulator.

    from executorch_ascend import AscendPartitioner, AscendCompileSpec
    to_edge_transform_and_lower(ep, partitioner=[AscendPartitioner(AscendCompileSpec())])

Importing the package also registers the C++ AscendBackend with the Python ExecuTorch runtime
(executorch.runtime) when its library is installed. It runs on CANN (found as cann.py says)
unless the CANN emulator is chosen: `executorch_ascend.use_emulator()`, or
EXECUTORCH_ASCEND_USE_EMULATOR=1.
"""

from ._version import __version__
from .backend import AscendBackend
from .cann import use_emulator, use_emulator_if_requested
from .compile_spec import AscendCompileSpec, CompileSpecError
from .explain import explain
from .native import load_backend_library
from .partitioner import AscendPartitioner

use_emulator_if_requested()
load_backend_library()

__all__ = [
    "AscendBackend",
    "AscendCompileSpec",
    "AscendPartitioner",
    "CompileSpecError",
    "__version__",
    "explain",
    "use_emulator",
]
