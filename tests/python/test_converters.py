"""Per-op tests generated from the samples each converter declares (lowering/converters/*.py).

Three results per sample must agree: eager PyTorch, ONNX Runtime on the emitted ONNX, and the whole
backend on the emulator (export, AscendPartitioner, preprocess + atc, executorch.runtime).
"""

from __future__ import annotations

import functools
import operator

import onnx
import pytest
import torch
from ascend_helpers import ALLOWED_ONNX_OPS, assert_close, eager, onnx_op_types, run_onnxruntime
from torch.export import ExportedProgram

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import edge_for_analysis, lower
from executorch_ascend.lowering import IR_VERSION, OPSET, Sample, all_converters, to_onnx
from executorch_ascend.lowering.targets import aten_target
from executorch_ascend.partitioner import explain
from executorch_ascend.run import run_with_runtime

CASES = [(conv, sample) for conv in all_converters() for sample in conv.samples]
IDS = [sample.id for _, sample in CASES]


@functools.cache
def _module_and_edge(sample: Sample) -> tuple[torch.nn.Module, ExportedProgram]:
    # to_edge is the slow step: each sample's module (with its random weights) and edge program
    # are built once and shared by the tests below.
    module = sample.make_module().eval()
    return module, edge_for_analysis(module, sample.inputs())


def _edge(sample: Sample) -> ExportedProgram:
    return _module_and_edge(sample)[1]


def test_sample_ids_are_unique() -> None:
    assert len(IDS) == len(set(IDS))


def test_every_registered_op_is_exercised_by_a_sample() -> None:
    seen: set[object] = set()
    for _, sample in CASES:
        edge = _edge(sample)
        seen |= {aten_target(n.target) for n in edge.graph.nodes if n.op == "call_function"}
    missing = [
        str(t)
        for conv in all_converters()
        for t in conv.targets
        if t not in seen and t is not operator.getitem
    ]
    assert not missing, f"registered but never produced by any sample: {missing}"
    assert operator.getitem in seen  # via max_pool2d_with_indices and batch norm


@pytest.mark.parametrize(("conv", "sample"), CASES, ids=IDS)
def test_onnxruntime_matches_eager(conv, sample) -> None:
    (module, edge), inputs = _module_and_edge(sample), sample.inputs()
    targets = {aten_target(n.target) for n in edge.graph.nodes if n.op == "call_function"}
    assert targets & set(conv.targets), f"sample {sample.id} does not produce {conv.name}"
    unsupported = [r for r in explain(edge) if not r.supported]
    assert not unsupported, f"sample {sample.id} is not fully supported: {unsupported}"

    graph = to_onnx(edge)
    assert graph.model.ir_version == IR_VERSION == 8
    assert [(o.domain, o.version) for o in graph.model.opset_import] == [("", OPSET)] == [("", 17)]
    assert onnx_op_types(graph.model) <= ALLOWED_ONNX_OPS
    assert [v.name for v in graph.inputs] == [f"input_{i}" for i in range(len(inputs))]
    onnx.checker.check_model(graph.model, full_check=True)

    assert_close(run_onnxruntime(graph, inputs), eager(module, inputs), f"onnxruntime {sample.id}")


@pytest.mark.emulator
@pytest.mark.parametrize(("conv", "sample"), CASES, ids=IDS)
def test_emulator_matches_eager(native, conv, sample) -> None:
    module, inputs = sample.make_module().eval(), sample.inputs()
    lowering = lower(module, inputs, AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1, f"{sample.id}: {summary}"
    assert summary.delegated_nodes == summary.total_nodes, f"{sample.id}: {summary}"

    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert_close(outputs, eager(module, inputs), f"emulator {sample.id}")


@pytest.mark.parametrize("seed", [1, 2])
def test_onnxruntime_matches_eager_on_other_inputs(seed: int) -> None:
    # The lowered graph must not depend on the example inputs' values, only their shapes.
    for _, sample in CASES[::7]:
        module, edge = _module_and_edge(sample)
        graph = to_onnx(edge)
        other = sample.inputs(seed=seed)
        with torch.no_grad():
            assert_close(run_onnxruntime(graph, other), eager(module, other), sample.id)
