"""ExecuTorch backend delegate for Huawei Ascend NPUs (CANN), with a CANN emulator.

    from executorch_ascend import AscendPartitioner, AscendCompileSpec
    to_edge_transform_and_lower(ep, partitioner=[AscendPartitioner(AscendCompileSpec())])

Importing the package also registers the C++ AscendBackend with the Python ExecuTorch runtime
(executorch.runtime) when its library is installed, and, if neither EXECUTORCH_ASCEND_ACL_LIB nor
ASCEND_HOME_PATH is set, points EXECUTORCH_ASCEND_ACL_LIB at the bundled emulator's libascendcl.so.
"""

from ._version import __version__
from .backend import AscendBackend
from .compile_spec import AscendCompileSpec, CompileSpecError
from .explain import explain
from .native import load_backend_library, point_acl_at_bundled_emulator
from .partitioner import AscendPartitioner

point_acl_at_bundled_emulator()
load_backend_library()

__all__ = [
    "AscendBackend",
    "AscendCompileSpec",
    "AscendPartitioner",
    "CompileSpecError",
    "__version__",
    "explain",
]
