# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ExecuTorch backend test suite integration: the "ascend" TestFlow.

`executorch.backends.test.suite` lists its flows in a fixed table (flow.all_flows); an
out-of-tree backend joins it through `register_ascend_flow()`, which must run before the
suite's conftest is imported (run.py, beside this file, does this).
"""

from .flow import ASCEND_TEST_FLOW, AscendTester, create_ascend_flow, register_ascend_flow

__all__ = ["ASCEND_TEST_FLOW", "AscendTester", "create_ascend_flow", "register_ascend_flow"]
