# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The "ascend" flow for ExecuTorch's backend test suite (executorch.backends.test.suite).

Lowering goes through AscendPartitioner with the emulator toolchain (no CANN here); the .pte
runs in the Python runtime (pybindings), where importing executorch_ascend registers the C++
AscendBackend, so every delegated test exercises the whole path down to the emulator ACL.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import torch
from executorch.backends.test.harness import Tester
from executorch.backends.test.harness.stages import (
    Partition,
    Serialize,
    StageType,
    ToEdgeTransformAndLower,
)
from executorch.backends.test.suite import flow as suite_flow
from executorch.backends.test.suite.flow import TestFlow

from executorch_ascend import AscendBackend, AscendCompileSpec, AscendPartitioner
from executorch_ascend.native import load_backend_library

FLOW_NAME = "ascend"
BACKEND_NAME = AscendBackend.__name__


def _partitioner(spec: AscendCompileSpec) -> AscendPartitioner:
    return AscendPartitioner(spec)


class AscendSerialize(Serialize):
    """Serialize whose run step refuses to fall back silently when the backend is absent.

    Without the C++ library the pybindings would fail with a generic "backend not found";
    saying which library is missing makes a PTE_RUN_FAIL actionable.
    """

    def run_artifact(self, inputs: Any) -> Any:
        if load_backend_library() is None:
            raise RuntimeError(
                "AscendBackend runtime library is not installed; cannot run delegated .pte"
            )
        return super().run_artifact(inputs)


class AscendTester(Tester):
    """Tester whose lowering stages use AscendPartitioner(spec); spec defaults to the emulator."""

    def __init__(
        self,
        module: torch.nn.Module,
        example_inputs: tuple[torch.Tensor, ...],
        dynamic_shapes: tuple[Any, ...] | None = None,
        spec: AscendCompileSpec | None = None,
    ) -> None:
        compile_spec = spec or AscendCompileSpec(toolchain="emulator")
        make_partitioner = functools.partial(_partitioner, compile_spec)
        stage_classes = Tester.default_stage_classes() | {
            StageType.PARTITION: lambda partitioner=None: Partition(
                partitioner or make_partitioner()
            ),
            StageType.TO_EDGE_TRANSFORM_AND_LOWER: functools.partial(
                ToEdgeTransformAndLower, default_partitioner_cls=make_partitioner
            ),
            StageType.SERIALIZE: AscendSerialize,
        }
        super().__init__(
            module=module,
            example_inputs=example_inputs,  # type: ignore[arg-type]
            stage_classes=stage_classes,
            dynamic_shapes=dynamic_shapes,
        )


def create_ascend_flow(spec: AscendCompileSpec | None = None) -> TestFlow:
    """The fp32 emulator flow; pass a spec to target e.g. toolchain="cann" on real hardware."""
    return TestFlow(
        FLOW_NAME,
        backend=BACKEND_NAME,
        tester_factory=functools.partial(AscendTester, spec=spec),
    )


ASCEND_TEST_FLOW = create_ascend_flow()


def register_ascend_flow(flow: TestFlow = ASCEND_TEST_FLOW) -> None:
    """Adds `flow` to the suite's all_flows(); idempotent.

    The suite's conftest does `from ...flow import all_flows` when pytest imports it, so this
    must run before pytest collects the suite.
    """
    original: Callable[[], dict[str, TestFlow]] = getattr(
        suite_flow.all_flows, "__wrapped__", suite_flow.all_flows
    )

    @functools.wraps(original)
    def all_flows_with_ascend() -> dict[str, TestFlow]:
        return {**original(), flow.name: flow}

    suite_flow.all_flows = all_flows_with_ascend  # type: ignore[assignment]
