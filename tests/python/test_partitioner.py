# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AscendPartitioner tags exactly what the registry can lower, and says why the rest stays."""

from __future__ import annotations

import logging

import torch
from ascend_helpers import seeded_inputs
from executorch.exir.dialects._ops import ops as exir_ops

from executorch_ascend import AscendBackend, AscendCompileSpec, AscendPartitioner, explain
from executorch_ascend.explain import format_explanation
from executorch_ascend.export import edge_for_analysis
from executorch_ascend.lowering import why_unsupported
from executorch_ascend.lowering.constants import ConstantResolver


class Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(8, 16), torch.nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


class FlipInTheMiddle(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(8, 16), torch.nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.atan(torch.relu(self.fc1(x))) + 1)


class Fn(torch.nn.Module):
    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *xs: torch.Tensor) -> torch.Tensor:
        return self.fn(*xs)


def _partition(module: torch.nn.Module, *inputs: torch.Tensor):
    edge = edge_for_analysis(module.eval(), inputs)
    partitioner = AscendPartitioner(AscendCompileSpec(toolchain="emulator"))
    result = partitioner.partition(edge)
    return edge, partitioner, result


def _tags(edge) -> dict[str, str | None]:
    return {n.name: n.meta.get("delegation_tag") for n in edge.graph.nodes}


def _compute(edge) -> list:
    return [n for n in edge.graph.nodes if n.op == "call_function"]


def test_mlp_is_one_partition_with_its_weights() -> None:
    edge, partitioner, result = _partition(Mlp(), *seeded_inputs((2, 8)))
    assert len(result.partition_tags) == 1
    (tag,) = result.partition_tags
    spec = result.partition_tags[tag]
    assert spec.backend_id == AscendBackend.__name__ == "AscendBackend"
    assert AscendCompileSpec.from_compile_specs(spec.compile_specs).toolchain == "emulator"
    assert all(n.meta.get("delegation_tag") == tag for n in _compute(edge))
    params = [n for n in edge.graph.nodes if n.op == "placeholder" and n.name.startswith("p_")]
    assert params and all(n.meta.get("delegation_tag") == tag for n in params)
    assert partitioner.reasons == {}
    # linear was kept whole (ops_to_not_decompose), so it is lowered as one Gemm.
    assert any("linear" in str(n.target) for n in _compute(edge))


def test_unsupported_op_in_the_middle_gives_two_partitions_and_a_reason() -> None:
    edge, partitioner, result = _partition(FlipInTheMiddle(), *seeded_inputs((2, 8)))
    assert len(result.partition_tags) == 2
    (sin,) = [n for n in _compute(edge) if "atan" in str(n.target)]
    assert "delegation_tag" not in sin.meta
    assert partitioner.reasons == {sin.name: "no Ascend converter for aten.atan.default"}
    tags = {n.meta["delegation_tag"] for n in _compute(edge) if n is not sin}
    assert len(tags) == 2


def test_python_scalar_is_folded_into_the_partition() -> None:
    edge, partitioner, result = _partition(Fn(lambda x: x + 1), *seeded_inputs((3,)))
    assert partitioner.reasons == {}
    (tag,) = result.partition_tags
    # The int64 lifted constant and its cast are constants folded into an initializer.
    copy = [n for n in _compute(edge) if "_to_dim_order_copy" in str(n.target)]
    assert copy and copy[0].meta["delegation_tag"] == tag
    assert ConstantResolver(edge).is_constant(copy[0])  # folded, never run as a Cast


def test_int64_tensors_stay_on_the_cpu_where_an_op_is_float_only() -> None:
    x = torch.arange(6).reshape(2, 3)
    _edge, partitioner, result = _partition(Fn(lambda a, b: a**b), x, x)
    assert result.partition_tags == {}
    (reason,) = partitioner.reasons.values()
    assert "dtype int64" in reason


def test_used_maxpool_indices_stay_on_the_cpu() -> None:
    pool = Fn(lambda x: torch.nn.functional.max_pool2d(x, 2, return_indices=True)[1].float())
    _edge, partitioner, _ = _partition(pool, *seeded_inputs((1, 2, 4, 4)))
    assert any("indices" in r for r in partitioner.reasons.values())


def test_cann_limits_keep_ops_on_the_cpu() -> None:
    avg = Fn(lambda x: torch.nn.functional.avg_pool2d(x, 3, 1, padding=1))
    _, partitioner, result = _partition(avg, *seeded_inputs((1, 2, 5, 5)))
    assert result.partition_tags == {}
    assert any("count_include_pad" in r for r in partitioner.reasons.values())

    wide_stride = torch.nn.Conv2d(1, 1, 1, stride=64)
    _, partitioner, _ = _partition(wide_stride, *seeded_inputs((1, 1, 130, 130)))
    assert any("stride" in r and "[1, 63]" in r for r in partitioner.reasons.values())


def test_dynamic_shapes_stay_on_the_cpu() -> None:
    batch = torch.export.Dim("batch", min=2, max=8)
    exported = torch.export.export(
        torch.nn.ReLU(), seeded_inputs((4, 3)), dynamic_shapes=({0: batch},)
    )
    from executorch.exir import EdgeCompileConfig, to_edge

    edge = to_edge(exported, compile_config=EdgeCompileConfig(_check_ir_validity=False))
    partitioner = AscendPartitioner()
    result = partitioner.partition(edge.exported_program())
    assert result.partition_tags == {}
    assert any("dynamic" in r for r in partitioner.reasons.values())


def _placement_warnings(caplog, module: torch.nn.Module, *inputs: torch.Tensor) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="executorch_ascend.partitioner"):
        _partition(module, *inputs)
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_lowering_warns_when_compute_ops_stay_on_the_cpu(caplog) -> None:
    (message,) = _placement_warnings(caplog, FlipInTheMiddle(), *seeded_inputs((2, 8)))
    assert "2 Ascend partition(s), but 1 compute op(s) stay on the CPU" in message
    assert "no Ascend converter for aten.atan.default (1 op)" in message
    assert "executorch_ascend.explain" in message


def test_lowering_warns_when_nothing_is_delegated_with_the_top_reasons(caplog) -> None:
    x = torch.arange(6).reshape(2, 3)
    (message,) = _placement_warnings(caplog, Fn(lambda a, b: a**b), x, x)
    assert "no Ascend partition: the whole program runs on the CPU" in message
    assert "dtype int64" in message


def test_a_fully_delegated_program_lowers_without_a_warning(caplog) -> None:
    assert _placement_warnings(caplog, Mlp(), *seeded_inputs((2, 8))) == []


class DropoutMlp(Mlp):
    def __init__(self) -> None:
        super().__init__()
        self.drop = torch.nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.drop(torch.relu(self.fc1(x))))


def test_dropout_left_in_training_mode_is_named_with_the_fix(caplog) -> None:
    edge = edge_for_analysis(DropoutMlp().train(), seeded_inputs((2, 8)))
    with caplog.at_level(logging.WARNING, logger="executorch_ascend.partitioner"):
        AscendPartitioner(AscendCompileSpec(toolchain="emulator")).partition(edge)
    (message,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert "dropout in training mode: call model.eval() before torch.export" in message


def test_dynamic_batch_without_gears_warns_and_names_the_fix(caplog) -> None:
    batch = torch.export.Dim("batch", min=2, max=8)
    exported = torch.export.export(
        torch.nn.ReLU(), seeded_inputs((4, 3)), dynamic_shapes=({0: batch},)
    )
    from executorch.exir import EdgeCompileConfig, to_edge

    edge = to_edge(exported, compile_config=EdgeCompileConfig(_check_ir_validity=False))
    with caplog.at_level(logging.WARNING, logger="executorch_ascend.partitioner"):
        AscendPartitioner().partition(edge.exported_program())
    (message,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert "no Ascend partition" in message and "dynamic" in message


def test_ops_to_not_decompose_keeps_only_what_it_can_lower() -> None:
    partitioner = AscendPartitioner()
    ok = torch.export.export(torch.nn.Linear(4, 2), seeded_inputs((3, 4)))
    too_deep = torch.export.export(torch.nn.Linear(4, 2), seeded_inputs((1,) * 6 + (4,)))
    ops, keep = partitioner.ops_to_not_decompose(ok)
    assert torch.ops.aten.linear.default in ops and keep is not None
    (lin_ok,) = [n for n in ok.graph.nodes if n.target == torch.ops.aten.linear.default]
    (lin_deep,) = [n for n in too_deep.graph.nodes if n.target == torch.ops.aten.linear.default]
    assert keep(lin_ok) and not keep(lin_deep)


def test_explain_reports_every_op() -> None:
    edge = edge_for_analysis(FlipInTheMiddle().eval(), seeded_inputs((2, 8)))
    reports = explain(edge)
    assert len(reports) == len(_compute(edge))
    (cpu,) = [r for r in reports if not r.supported]
    assert cpu.op == "aten.atan.default"
    text = format_explanation(reports)
    assert f"Ascend can take {len(reports) - 1} of {len(reports)} ops, in 2 partition(s)" in text
    assert "cpu: no Ascend converter for aten.atan.default" in text


def test_partitioner_accepts_compile_spec_lists() -> None:
    spec = AscendCompileSpec(soc_version="Ascend310P3", device_id=1)
    partitioner = AscendPartitioner(spec.to_compile_specs())
    assert partitioner.compile_spec == spec


def test_registry_sees_edge_and_aten_targets_alike() -> None:
    exported = torch.export.export(Fn(torch.relu), seeded_inputs((2,)))
    (aten_relu,) = [n for n in exported.graph.nodes if n.op == "call_function"]
    assert why_unsupported(aten_relu) is None
    edge = edge_for_analysis(Fn(torch.relu), seeded_inputs((2,)))
    (edge_relu,) = _compute(edge)
    assert edge_relu.target == exir_ops.edge.aten.relu.default
    assert why_unsupported(edge_relu) is None


def test_empty_tensors_stay_on_the_cpu() -> None:
    _, partitioner, result = _partition(Fn(lambda x: torch.relu(x)), torch.zeros(0, 3))
    assert result.partition_tags == {}
    assert any("empty" in r for r in partitioner.reasons.values())
