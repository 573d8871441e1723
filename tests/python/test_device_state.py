# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Mutable buffers a partition owns stay on the device as state (lowering/lowered_graph.py, runtime
IoBinding): the update runs inside the partition, each call moves only the user inputs and
outputs between host and device (the emulator's traffic counters, read in this process), the
state carries over between calls, starts over when a method is loaded again, and two loaded
instances never see each other's state."""

from __future__ import annotations

import os

import pytest
import torch
from ascend_helpers import ascend_lowered_modules, assert_close, named_data
from executorch_ascend_emulator.stats import read_stats

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.lowering import to_onnx
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator

SPEC = AscendCompileSpec(toolchain="emulator")


class Accumulator(torch.nn.Module):
    """A running sum (starts as zeros) and a step counter (starts at 3): one state stored as
    nothing, one with its initial value in named data."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("total", torch.zeros(2, 8))
        self.register_buffer("steps", torch.full((1,), 3.0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.total.add_(x)
        self.steps.add_(1.0)
        return torch.tanh(self.total) * self.steps


def _traffic() -> tuple[int, int]:
    stats = read_stats(os.environ["EXECUTORCH_ASCEND_ACL_LIB"])
    return stats["bytes_host_to_device"], stats["bytes_device_to_host"]


def _inputs(n: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return [torch.randn(2, 8, generator=g) for _ in range(n)]


def _eager_sequence(xs: list[torch.Tensor]) -> list[torch.Tensor]:
    model = Accumulator()
    with torch.no_grad():
        return [model(x) for x in xs]


@pytest.fixture(scope="module")
def accumulator():
    return lower(Accumulator(), (torch.zeros(2, 8),), SPEC)


def _load(lowering):
    from executorch.runtime import Runtime

    return Runtime.get().load_program(lowering.program.buffer).load_method("forward")


def test_the_partition_owns_both_buffers(native, accumulator) -> None:
    summary = accumulator.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    (module,) = ascend_lowered_modules(accumulator.edge)
    states = blob.decode(module.processed_bytes).states
    assert [(s.name, s.size) for s in states] == [("steps", 4), ("total", 64)]
    zeros, counter = states[1], states[0]
    assert zeros.key is None  # zeros are stored as nothing
    assert counter.key is not None
    assert named_data(module, counter.key) == torch.full((1,), 3.0).numpy().tobytes()
    # The top-level program has no buffer left: the delegate takes x and gives the output.
    program = accumulator.edge.exported_program()
    assert not program.graph_signature.buffers_to_mutate
    assert not program.graph_signature.inputs_to_buffers


def test_state_carries_over_and_only_user_io_crosses(native, accumulator) -> None:
    xs = _inputs(5)
    expected = _eager_sequence(xs)
    method = _load(accumulator)
    for step, (x, want) in enumerate(zip(xs, expected, strict=True)):
        before = _traffic()
        (got,) = method.execute([x])
        after = _traffic()
        assert_close([got], [want], f"step {step}")
        # 64 bytes of x in, 64 bytes of output out: the 68 bytes of state stay on the device.
        assert (after[0] - before[0], after[1] - before[1]) == (64, 64), step


def test_reload_starts_over_and_instances_are_separate(native, accumulator) -> None:
    xs = _inputs(4)
    expected = _eager_sequence(xs)
    first = _load(accumulator)
    for x, want in zip(xs[:2], expected[:2], strict=True):
        assert_close(list(first.execute([x])), [want], "first instance")
    # A second instance of the same program starts from the initial state ...
    second = _load(accumulator)
    assert_close(list(second.execute([xs[0]])), [expected[0]], "second instance, step 0")
    # ... and the first one carries on from where it was, untouched by the second.
    assert_close(list(first.execute([xs[2]])), [expected[2]], "first instance, step 2")
    assert_close(list(second.execute([xs[1]])), [expected[1]], "second instance, step 1")
    del first, second
    third = _load(accumulator)
    assert_close(list(third.execute([xs[0]])), [expected[0]], "a reloaded method")


def test_state_is_a_graph_input_and_output_of_the_onnx(accumulator) -> None:
    (module,) = ascend_lowered_modules(accumulator.edge)
    graph = to_onnx(module.original_module)
    assert [v.name for v in graph.inputs] == ["input_0", "state_in_0", "state_in_1"]
    assert [v.name for v in graph.outputs] == ["output_0", "state_out_0", "state_out_1"]
    assert [(s.target, s.input_index, s.output_index) for s in graph.states] == [
        ("steps", 1, 1),
        ("total", 2, 2),
    ]


class UpdatedOnTheCpu(torch.nn.Module):
    """The buffer is read by a delegated op but updated by an op Ascend does not take (a
    `atan`): it stays with ExecuTorch, and the program still runs right."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("seen", torch.zeros(8))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(x + self.seen)
        self.seen.copy_(torch.atan(y))
        return y * 2


def test_a_buffer_updated_on_the_cpu_stays_with_executorch(native) -> None:
    lowering = lower(UpdatedOnTheCpu(), (torch.zeros(8),), SPEC)
    for module in ascend_lowered_modules(lowering.edge):
        assert blob.decode(module.processed_bytes).states == ()
    xs = [torch.randn(8, generator=torch.Generator().manual_seed(i)) for i in range(3)]
    eager_model = UpdatedOnTheCpu()
    method = _load(lowering)
    for step, x in enumerate(xs):
        with torch.no_grad():
            want = eager_model(x)
        assert_close(list(method.execute([x])), [want], f"step {step}")


def test_take_over_mutable_buffer_false_leaves_the_state_with_executorch(native) -> None:
    """As CoreMLPartitioner's option: the same accumulator, its buffers left to ExecuTorch (what
    a cache shared by two methods needs). The delegate takes them as inputs and returns their
    new values: no state in the blob, the results unchanged, the state crossing every call."""
    from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower
    from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass

    from executorch_ascend import AscendPartitioner

    partitioner = AscendPartitioner(SPEC, take_over_mutable_buffer=False)
    exported = torch.export.export(Accumulator(), (torch.zeros(2, 8),))
    edge = to_edge_transform_and_lower(exported, partitioner=[partitioner])
    assert partitioner.owned_buffers == []
    (module,) = ascend_lowered_modules(edge)
    assert blob.decode(module.processed_bytes).states == ()
    assert set(edge.exported_program().graph_signature.buffers_to_mutate.values()) == {
        "steps",
        "total",
    }
    from executorch.runtime import Runtime

    # ExecuTorch keeps a mutated buffer's initial value only when told to (the counter's 3).
    config = ExecutorchBackendConfig(passes=[InitializedMutableBufferPass(["steps"])])
    program = edge.to_executorch(config)
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    xs = _inputs(3)
    for step, (x, want) in enumerate(zip(xs, _eager_sequence(xs), strict=True)):
        before = _traffic()
        assert_close(list(method.execute([x])), [want], f"step {step}")
        after = _traffic()
        # x and both states in; the output and both new states out.
        assert (after[0] - before[0], after[1] - before[1]) == (64 + 68, 64 + 68), step
