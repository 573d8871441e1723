# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Program-level ONNX lowering: naming, ordering, constants, determinism, errors."""

from __future__ import annotations

import onnx
import pytest
import torch
from ascend_helpers import assert_close, eager, run_onnxruntime, seeded_inputs

from executorch_ascend.export import edge_for_analysis
from executorch_ascend.lowering import LoweringError, to_onnx


class TwoInTwoOut(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, ...]:
        s = torch.relu(self.fc(a - b))
        return s, s * 2, b  # an output twice (as s and via s*2), and an input passed through


def _lowered(module: torch.nn.Module, *inputs: torch.Tensor):
    return to_onnx(edge_for_analysis(module.eval(), inputs))


def test_names_order_and_values() -> None:
    module, inputs = TwoInTwoOut().eval(), seeded_inputs((2, 4), (2, 4))
    graph = _lowered(module, *inputs)
    model = graph.model
    assert [i.name for i in model.graph.input] == ["input_0", "input_1"]
    assert [o.name for o in model.graph.output] == ["output_0", "output_1", "output_2"]
    assert [(v.name, v.dims) for v in graph.outputs][2] == ("output_2", (2, 4))
    # Node names are "<FX node>/<OpType>", "_<n>" added for more of the type (the .om op names
    # the profiler reports, docs/runtime.md#profiling); weights are initializers, not inputs.
    for n in model.graph.node:
        source, _, op = n.name.rpartition("/")
        assert source and n.op_type in (op, op.rsplit("_", 1)[0]), n.name
    assert graph.sources == {n.name: n.name.rpartition("/")[0] for n in model.graph.node}
    assert {i.name for i in model.graph.initializer}.isdisjoint({i.name for i in model.graph.input})
    # The passed-through input needs an Identity; computed outputs are written directly.
    identities = [n for n in model.graph.node if n.op_type == "Identity"]
    assert [(n.input[0], n.output[0]) for n in identities] == [("input_1", "output_2")]
    assert_close(run_onnxruntime(graph, inputs), eager(module, inputs), "two in, two out")


def test_lowering_is_deterministic() -> None:
    module, inputs = TwoInTwoOut().eval(), seeded_inputs((2, 4), (2, 4))
    first = _lowered(module, *inputs).model.SerializeToString()
    second = _lowered(module, *inputs).model.SerializeToString()
    assert first == second


def test_constants_become_initializers_of_the_right_dtype() -> None:
    graph = _lowered(torch.nn.Linear(3, 2), *seeded_inputs((1, 3)))
    inits = {i.name: i for i in graph.model.graph.initializer}
    assert len(inits) == 2
    assert all(i.data_type == onnx.TensorProto.FLOAT for i in inits.values())
    graph = _lowered(torch.nn.Flatten(), *seeded_inputs((2, 3, 4)))
    (shape,) = graph.model.graph.initializer
    assert shape.data_type == onnx.TensorProto.INT64
    assert list(onnx.numpy_helper.to_array(shape)) == [2, 12]


class Flip(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.atan(x)


def test_unsupported_op_is_a_clear_error() -> None:
    with pytest.raises(LoweringError, match=r"aten\.atan\.default.*no Ascend converter"):
        _lowered(Flip(), *seeded_inputs((2,)))
