# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Per-op tests generated from the samples each converter declares (lowering/converters/*.py).

Three results per sample must agree: eager PyTorch, ONNX Runtime on the emitted ONNX, and the whole
backend on the emulator (export, AscendPartitioner, preprocess + atc, executorch.runtime).

Each sample is lowered once, the way `export.lower` does it, and both legs share the result: the
ONNX Runtime leg checks the edge program the partitioner was handed (the lowering's own graph, not
a stand-in), the emulator leg runs the program that lowering produced.
"""

from __future__ import annotations

import copy
import functools
import operator
from dataclasses import dataclass
from unittest import mock

import onnx
import pytest
import torch
from ascend_helpers import (
    ALLOWED_ONNX_OPS,
    assert_close,
    eager,
    onnx_op_types,
    run_onnxruntime,
)
from executorch.exir import EdgeProgramManager, to_edge_transform_and_lower
from torch.export import ExportedProgram

from executorch_ascend import AscendCompileSpec, AscendPartitioner
from executorch_ascend.cann_op_facts import check_onnx, default_precision_mode
from executorch_ascend.explain import explain
from executorch_ascend.export import DelegationSummary, delegation_summary, lower
from executorch_ascend.lowering import IR_VERSION, OPSET, Sample, all_converters, to_onnx
from executorch_ascend.lowering.cann_schemas import full_check
from executorch_ascend.lowering.registry import lookup
from executorch_ascend.lowering.targets import aten_target
from executorch_ascend.run import run_with_runtime

CASES = [(conv, sample) for conv in all_converters() for sample in conv.samples]
IDS = [sample.id for _, sample in CASES]


@dataclass(frozen=True)
class _Lowered:
    module: torch.nn.Module
    edge: ExportedProgram  # the edge program AscendPartitioner partitioned
    summary: DelegationSummary
    program: bytes  # the .pte


@functools.cache
def _lowered(sample: Sample) -> _Lowered:
    # Lowering is the slow step (three decomposition passes and atc): each sample's module, with
    # its random weights, is lowered once, as export.lower does, and shared by the tests below.
    module = sample.make_module().eval()
    exported = torch.export.export(module, tuple(sample.inputs()))
    kept: list[ExportedProgram] = []
    to_backend = EdgeProgramManager.to_backend

    def keeping(manager: EdgeProgramManager, partitioner: object) -> EdgeProgramManager:
        # The edge program as AscendPartitioner gets it (lowering goes on to rewrite it).
        kept.append(copy.deepcopy(manager.exported_program()))
        return to_backend(manager, partitioner)

    spec = AscendCompileSpec(toolchain="emulator")
    with mock.patch.object(EdgeProgramManager, "to_backend", keeping):
        edge = to_edge_transform_and_lower(exported, partitioner=[AscendPartitioner(spec)])
    (seen,) = kept
    return _Lowered(module, seen, delegation_summary(edge), edge.to_executorch().buffer)


def _edge(sample: Sample) -> ExportedProgram:
    return _lowered(sample).edge


def test_sample_ids_are_unique() -> None:
    assert len(IDS) == len(set(IDS))


def test_converters_emit_only_ops_with_emulator_kernels() -> None:
    # A converter is registered only once every ONNX op it may emit has an emulator kernel.
    missing = {
        conv.name: sorted(set(conv.onnx_ops) - ALLOWED_ONNX_OPS)
        for conv in all_converters()
        if not set(conv.onnx_ops) <= ALLOWED_ONNX_OPS
    }
    assert not missing, f"converters emitting ops without emulator kernels: {missing}"


# Ops only `EdgeCompileConfig(_skip_dim_order=True)` leaves in an edge program (optimum-executorch
# lowers so); the samples' edge programs have their dim-order twins instead. Covered by
# test_copies_left_by_skip_dim_order_lower below.
SKIP_DIM_ORDER_ONLY = {torch.ops.aten.clone.default, torch.ops.aten._to_copy.default}


class _Copies(torch.nn.Module):
    """What optimum's decoders and encoders hold: a contiguous clone, a dtype conversion, a
    channels-last round trip between two convs."""

    def __init__(self) -> None:
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 4, 3)
        self.c2 = torch.nn.Conv2d(4, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.c1(x).clone(memory_format=torch.channels_last)
        y = self.c2(y).contiguous().clone()
        return y.to(torch.float16).to(torch.float32) * 2


def test_copies_left_by_skip_dim_order_lower(native) -> None:
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower
    from executorch.runtime import Runtime

    from executorch_ascend import AscendPartitioner
    from executorch_ascend.export import delegation_summary

    module = _Copies().eval()
    x = torch.randn(1, 3, 6, 5, generator=torch.Generator().manual_seed(0))
    exported = torch.export.export(module, (x,))
    edge = to_edge_transform_and_lower(
        exported,
        partitioner=[AscendPartitioner(AscendCompileSpec(toolchain="emulator"))],
        compile_config=EdgeCompileConfig(_check_ir_validity=False, _skip_dim_order=True),
    )
    summary = delegation_summary(edge)
    assert summary.partitions == 1 and not summary.cpu_ops, summary
    method = Runtime.get().load_program(edge.to_executorch().buffer).load_method("forward")
    (got,) = method.execute([x])
    with torch.no_grad():
        want = module(x)
    torch.testing.assert_close(got, want, atol=1e-3 * float(want.abs().max()), rtol=0)


@pytest.mark.emulator
def test_every_registered_op_is_exercised_by_a_sample(native) -> None:
    seen: set[object] = set(SKIP_DIM_ORDER_ONLY)
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


@pytest.mark.emulator
@pytest.mark.parametrize(("conv", "sample"), CASES, ids=IDS)
def test_onnxruntime_matches_eager(native, conv, sample) -> None:
    lowered, inputs = _lowered(sample), sample.inputs()
    module, edge = lowered.module, lowered.edge
    targets = {aten_target(n.target) for n in edge.graph.nodes if n.op == "call_function"}
    assert targets & set(conv.targets), f"sample {sample.id} does not produce {conv.name}"
    unsupported = [r for r in explain(edge) if not r.supported]
    assert not unsupported, f"sample {sample.id} is not fully supported: {unsupported}"

    graph = to_onnx(edge)
    assert graph.model.ir_version == IR_VERSION == 8
    assert [(o.domain, o.version) for o in graph.model.opset_import] == [("", OPSET)] == [("", 17)]
    assert onnx_op_types(graph.model) <= ALLOWED_ONNX_OPS
    declared = {op for n in edge.graph.nodes if (c := lookup(n)) for op in c.onnx_ops}
    undeclared = onnx_op_types(graph.model) - declared - {"Identity"}
    assert not undeclared, f"{sample.id} emits ONNX ops no converter declares: {undeclared}"
    assert [v.name for v in graph.inputs] == [f"input_{i}" for i in range(len(inputs))]
    # The full check infers types, which ONNX defines as float for Conv/Gemm: not for int8 ones.
    onnx.checker.check_model(graph.model, full_check=full_check(graph.model))
    # What CANN's atc takes on each target chip, under that chip's default precision mode
    # (cann_op_facts.json: parser registrations, per-chip dtypes).
    for soc in ("Ascend910B1", "Ascend310P3", "Ascend310B1"):
        refused = check_onnx(graph.model, soc, default_precision_mode(soc))
        assert not refused, f"{sample.id} on {soc}: {refused}"

    assert_close(
        run_onnxruntime(graph, inputs),
        eager(module, inputs),
        f"onnxruntime {sample.id}",
        sample.rel,
    )


@pytest.mark.emulator
@pytest.mark.parametrize(("conv", "sample"), CASES, ids=IDS)
def test_emulator_matches_eager(native, conv, sample) -> None:
    lowered, inputs = _lowered(sample), sample.inputs()
    summary = lowered.summary
    assert summary.partitions == 1, f"{sample.id}: {summary}"
    assert summary.delegated_nodes == summary.total_nodes, f"{sample.id}: {summary}"

    outputs = run_with_runtime(lowered.program, inputs)
    assert_close(outputs, eager(lowered.module, inputs), f"emulator {sample.id}", sample.rel)


# The first sample of each fp16-capable converter, and any sample that asks (Sample.half): the
# fp16 leg checks storage and kernels; the fp32 leg already covers the shapes and attributes.
HALF_CASES = [
    (c, sample)
    for c in all_converters()
    if torch.float16 in c.dtypes
    for i, sample in enumerate(c.samples)
    if i == 0 or sample.half
]


def _half(t: torch.Tensor) -> torch.Tensor:
    return t.half() if t.dtype == torch.float32 else t


@pytest.mark.emulator
@pytest.mark.parametrize(("conv", "sample"), HALF_CASES, ids=[s.id for _, s in HALF_CASES])
def test_emulator_matches_eager_in_float16(native, conv, sample) -> None:
    # model.half(): fp16 storage end to end. The reference is the fp32 module on the same
    # fp16-rounded inputs (the emulator accumulates in fp32); tolerance 1e-2 of the output scale.
    module, inputs = sample.make_module().eval(), sample.inputs()
    half_inputs = tuple(_half(t) for t in inputs)
    expected = [
        _half(e)
        for e in eager(
            module, tuple(t.float() if t.is_floating_point() else t for t in half_inputs)
        )
    ]
    half_module = sample.make_module().eval()
    half_module.load_state_dict(module.state_dict())
    half_module = half_module.half()
    lowering = lower(half_module, half_inputs, AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1, f"{sample.id} fp16: {summary}"
    assert summary.delegated_nodes == summary.total_nodes, f"{sample.id} fp16: {summary}"

    outputs = run_with_runtime(lowering.program.buffer, half_inputs)
    assert_close(outputs, expected, f"emulator fp16 {sample.id}", rel=1e-2)


@pytest.mark.emulator
@pytest.mark.parametrize("seed", [1, 2])
def test_onnxruntime_matches_eager_on_other_inputs(native, seed: int) -> None:
    # The lowered graph must not depend on the example inputs' values, only their shapes.
    for _, sample in CASES[::7]:
        lowered = _lowered(sample)
        graph = to_onnx(lowered.edge)
        other = sample.inputs(seed=seed)
        with torch.no_grad():
            got = run_onnxruntime(graph, other)
            assert_close(got, eager(lowered.module, other), sample.id, sample.rel)
