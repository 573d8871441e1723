# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Per-chip precision (docs/using-real-cann.md, "First run on a real host"): the inference chips
(Ascend310P, Ascend310B) have no float32 cube units, so their default precision mode is
allow_fp32_to_fp16 and an fp32 model runs there with Conv/MatMul/Gemm (and AveragePool, ArgMax)
in float16, emulated as CANN computes it; an explicit must_keep_origin_dtype is a clear error
naming the ops. Ops CANN defines without bfloat16 stay on the CPU with the reason instead of
breaking the lowering. Facts: src/executorch_ascend/cann_op_facts.json."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
import torch
from ascend_helpers import assert_close, eager
from executorch.exir import to_edge_transform_and_lower
from parity import max_abs_error

from executorch_ascend import AscendCompileSpec, AscendPartitioner, cann_op_facts
from executorch_ascend.export import delegation_summary, lower, save
from executorch_ascend.run import run_with_runner, run_with_runtime


class _ConvPoolLinear(torch.nn.Module):
    """The issue's model: an fp32 Conv, an AvgPool and a Linear."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.pool = torch.nn.AvgPool2d(2)
        self.fc = torch.nn.Linear(8 * 4 * 4, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


def _model_and_inputs() -> tuple[torch.nn.Module, tuple[torch.Tensor]]:
    torch.manual_seed(0)
    model = _ConvPoolLinear().eval()
    with torch.no_grad():  # default init rescaled so the logits are O(1), far from zero
        for p in model.parameters():
            p.mul_(3)
    return model, (torch.randn(1, 3, 8, 8, generator=torch.Generator().manual_seed(1)),)


@pytest.mark.parametrize(
    ("soc", "mode"),
    [
        ("Ascend310P3", "allow_fp32_to_fp16"),
        ("Ascend310P1", "allow_fp32_to_fp16"),
        ("Ascend310B1", "allow_fp32_to_fp16"),
        ("Ascend910B1", "must_keep_origin_dtype"),
        ("Ascend910_9391", "must_keep_origin_dtype"),
    ],
)
def test_each_chip_gets_a_mode_its_atc_accepts(soc: str, mode: str) -> None:
    spec = AscendCompileSpec(soc_version=soc)
    assert spec.precision_mode == mode
    assert cann_op_facts.default_precision_mode(soc) == mode
    # The resolved mode travels with the program and comes back the same.
    again = AscendCompileSpec.from_compile_specs(spec.to_compile_specs())
    assert again.precision_mode == mode
    # precision_mode_v2 still replaces the default (atc takes one of the two).
    v2 = AscendCompileSpec(soc_version=soc, atc_options={"precision_mode_v2": "fp16"})
    assert AscendCompileSpec.from_compile_specs(v2.to_compile_specs()) == v2


@pytest.mark.emulator
def test_inference_chip_default_runs_in_fp16_within_its_tolerance(
    native, tmp_path: Path, monkeypatch
) -> None:
    model, inputs = _model_and_inputs()
    spec = AscendCompileSpec(
        soc_version="Ascend310P3", toolchain="emulator", dump_dir=str(tmp_path / "dumps")
    )
    lowering = lower(model, inputs, spec)
    assert lowering.summary.partitions == 1 and not lowering.summary.cpu_ops, lowering.summary
    (folder,) = sorted((tmp_path / "dumps").iterdir())
    command = (folder / "atc_command.txt").read_text()
    assert "--soc_version=Ascend310P3" in command
    assert "--precision_mode=allow_fp32_to_fp16" in command
    assert "must_keep_origin_dtype" not in command
    pte, _ = save(lowering.program, tmp_path / "model.pte")
    expected = eager(model, inputs)
    with monkeypatch.context() as m:
        # The emulator as the chip: it loads only an .om compiled for it.
        m.setenv("EXECUTORCH_ASCEND_EMU_SOC_NAME", "Ascend310P3")
        outputs = run_with_runner(pte, inputs, expected, tmp_path / "run")
    # float16 cube ops: within 1e-2 of the output's scale, and not float32's numbers.
    assert_close(outputs, expected, "Ascend310P3 default (allow_fp32_to_fp16)", rel=1e-2)
    assert max_abs_error(outputs, expected) > 1e-6


@pytest.mark.emulator
def test_must_keep_origin_dtype_on_an_inference_chip_names_the_ops(native) -> None:
    model, inputs = _model_and_inputs()
    spec = AscendCompileSpec(
        soc_version="Ascend310P3", toolchain="emulator", precision_mode="must_keep_origin_dtype"
    )
    with pytest.raises(Exception) as info:
        lower(model, inputs, spec)
    text = str(info.value)
    for part in ("Ascend310P3", "Conv", "AveragePool", "Gemm", "allow_fp32_to_fp16", "force_fp16"):
        assert part in text, text
    # The same model on a chip with float32 cube units keeps float32.
    keep = AscendCompileSpec(soc_version="Ascend910B1", toolchain="emulator")
    assert lower(model, inputs, keep).summary.partitions == 1


class _PooledHead(torch.nn.Module):
    """A bf16 Conv, MaxPool, a pooled head (GlobalAveragePool) and a Linear."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 6, 3, padding=1)
        self.fc = torch.nn.Linear(6, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = torch.nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
        pooled = torch.nn.functional.adaptive_avg_pool2d(features, 1)
        return self.fc(pooled.flatten(1))


@pytest.mark.emulator
def test_bfloat16_ops_onnx_or_cann_lack_compute_in_float32(native, tmp_path: Path) -> None:
    # ONNX opset 17 defines Conv and MaxPool without bfloat16 and CANN's GlobalAveragePool has
    # none: the Conv and the pool compute in float32 between casts (eager's own arithmetic for
    # them), the spatial mean is a ReduceMean; the whole head is one partition.
    torch.manual_seed(0)
    model = _PooledHead().eval().to(torch.bfloat16)
    inputs = (torch.randn(1, 4, 6, 6).to(torch.bfloat16) * 2.0,)
    dump = tmp_path / "dump"
    spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(dump))
    lowering = lower(model, inputs, spec)
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    (onnx_file,) = dump.glob("partition_*/part.onnx")
    model_proto = onnx.load(str(onnx_file), load_external_data=False)
    graph = onnx.shape_inference.infer_shapes(model_proto).graph
    ops = [n.op_type for n in graph.node]
    assert "GlobalAveragePool" not in ops and "ReduceMean" in ops, ops
    typed = {v.name: v.type.tensor_type.elem_type for v in graph.value_info}
    typed.update({i.name: i.data_type for i in graph.initializer})
    for node in graph.node:
        if node.op_type in ("Conv", "MaxPool"):
            dtypes = {typed.get(name) for name in node.input if name}
            assert dtypes == {onnx.TensorProto.FLOAT}, (node.op_type, dtypes)
    pte, _ = save(lowering.program, tmp_path / "model.pte")
    assert_close(run_with_runtime(pte, inputs), eager(model, inputs), "bf16 head", rel=3e-2)


BF16_SEQUENTIALS = {
    # ConvTranspose's float32 weight must be an initializer (atc reads its dims from one).
    "conv_transpose_avg_pool": lambda: torch.nn.Sequential(
        torch.nn.ConvTranspose2d(4, 6, 2, stride=2), torch.nn.AvgPool2d(2), torch.nn.GELU()
    ),
    "conv3d_max_pool3d": lambda: torch.nn.Sequential(
        torch.nn.Conv3d(4, 6, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool3d(2)
    ),
}


@pytest.mark.emulator
@pytest.mark.parametrize("case", list(BF16_SEQUENTIALS))
def test_bfloat16_sequentials_lower_whole(native, tmp_path: Path, case: str) -> None:
    torch.manual_seed(0)
    model = BF16_SEQUENTIALS[case]().eval()
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(3.0)  # default initialisation, outputs far from zero
    model = model.to(torch.bfloat16)
    shape = (1, 4, 4, 6, 6) if case.startswith("conv3d") else (2, 4, 5, 6)
    inputs = (torch.randn(shape).to(torch.bfloat16),)
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    pte, _ = save(lowering.program, tmp_path / "model.pte")
    assert_close(run_with_runtime(pte, inputs), eager(model, inputs), case, rel=3e-2)


class _Upsampled(torch.nn.Module):
    """A bf16 bilinear upsampling (CANN's Resize has no bfloat16: float32 between Casts) and a
    bf16 grid sample (CANN's GridSample has none either, and no float32 form is lowered)."""

    def forward(self, x: torch.Tensor, grid: torch.Tensor) -> torch.Tensor:
        up = torch.nn.functional.interpolate(x * 2.0, scale_factor=2.0, mode="bilinear")
        sampled = torch.nn.functional.grid_sample(up, grid, align_corners=False)
        return torch.relu(sampled) + 1.0


@pytest.mark.emulator
def test_bfloat16_ops_cann_lacks_stay_on_the_cpu_with_a_reason(native, tmp_path: Path) -> None:
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(1, 3, 4, 5, generator=gen).to(torch.bfloat16)
    grid = (torch.rand(1, 6, 7, 2, generator=gen) * 2.0 - 1.0).to(torch.bfloat16)
    inputs = (x, grid)
    model = _Upsampled().eval()
    partitioner = AscendPartitioner(AscendCompileSpec(toolchain="emulator"))
    edge = to_edge_transform_and_lower(
        torch.export.export(model, inputs), partitioner=[partitioner]
    )
    reasons = set(partitioner.reasons.values())
    assert any("bfloat16 GridSample: CANN defines it without" in r for r in reasons), reasons
    assert not any("Resize" in r for r in reasons), reasons  # the upsampling is delegated
    assert delegation_summary(edge).partitions >= 1
    pte, _ = save(edge.to_executorch(), tmp_path / "model.pte")
    assert_close(run_with_runtime(pte, inputs), eager(model, inputs), "bf16 sampling", rel=3e-2)


def _one_node_model(op: str, dtype: int, attrs: dict | None = None) -> onnx.ModelProto:
    x = onnx.helper.make_tensor_value_info("x", dtype, [2, 4])
    w = onnx.helper.make_tensor("w", dtype, [4, 4], [0] * 16)
    inputs = ["x", "w"] if op == "MatMul" else ["x"]
    y = onnx.helper.make_tensor_value_info("y", dtype, None)
    node = onnx.helper.make_node(op, inputs, ["y"], name="n", **(attrs or {}))
    graph = onnx.helper.make_graph([node], "g", [x], [y], initializer=[w] if op == "MatMul" else [])
    return onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17)])


def test_the_graph_check_finds_what_cann_refuses() -> None:
    fp32, bf16 = onnx.TensorProto.FLOAT, onnx.TensorProto.BFLOAT16
    matmul = _one_node_model("MatMul", fp32)
    refused = cann_op_facts.check_onnx(matmul, "Ascend310P3", "must_keep_origin_dtype")
    assert refused == ["MatMul (n): float32 under must_keep_origin_dtype on Ascend310P3"]
    assert not cann_op_facts.check_onnx(matmul, "Ascend310P3", "allow_fp32_to_fp16")
    assert not cann_op_facts.check_onnx(matmul, "Ascend910B1", "must_keep_origin_dtype")
    relu16 = _one_node_model("Relu", bf16)
    assert cann_op_facts.check_onnx(relu16, "Ascend310P3", "allow_fp32_to_fp16") == [
        "Relu (n): bfloat16 on Ascend310P3"
    ]
    assert not cann_op_facts.check_onnx(relu16, "Ascend910B1", "must_keep_origin_dtype")
    gelu = _one_node_model("Softsign", fp32)  # registered by CANN at 8-18
    assert not cann_op_facts.check_onnx(gelu, "Ascend910B1", "must_keep_origin_dtype")
    assert cann_op_facts.registered("AffineGrid", 16) and not cann_op_facts.registered(
        "AffineGrid", 17
    )
    assert not cann_op_facts.registered("Gelu", 20) and cann_op_facts.registered("Constant", 17)


def test_the_graph_check_wants_constant_shape_operands() -> None:
    fp32 = onnx.TensorProto.FLOAT
    x = onnx.helper.make_tensor_value_info("x", fp32, [2, 1])
    y = onnx.helper.make_tensor_value_info("y", fp32, None)
    target = onnx.helper.make_tensor("target", onnx.TensorProto.INT64, [2], [2, 3])

    def model(nodes: list, inits: list) -> onnx.ModelProto:
        graph = onnx.helper.make_graph(nodes, "g", [x], [y], initializer=inits)
        return onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17)])

    constant = model([onnx.helper.make_node("Expand", ["x", "target"], ["y"], name="e")], [target])
    assert not cann_op_facts.check_onnx(constant, "Ascend910B1", "must_keep_origin_dtype")
    computed = model(
        [
            onnx.helper.make_node("Shape", ["x"], ["s"], name="s"),
            onnx.helper.make_node("Expand", ["x", "s"], ["y"], name="e"),
        ],
        [],
    )
    assert cann_op_facts.check_onnx(computed, "Ascend910B1", "must_keep_origin_dtype") == [
        "Expand (e): input 1 is computed, where CANN needs a constant"
    ]


def test_the_graph_check_knows_the_attributes_cann_plugins_handle() -> None:
    fp32 = onnx.TensorProto.FLOAT
    argmax = _one_node_model("ArgMax", fp32, {"axis": 1, "select_last_index": 1})
    assert cann_op_facts.check_onnx(argmax, "Ascend910B1", "must_keep_origin_dtype") == [
        "ArgMax (n): select_last_index=1, where CANN handles [0]"
    ]
    first = _one_node_model("ArgMax", fp32, {"axis": 1, "select_last_index": 0})
    assert not cann_op_facts.check_onnx(first, "Ascend910B1", "must_keep_origin_dtype")
    # ScatterND's reduction is read by one of its two plugins only.
    assert cann_op_facts.attribute_values("ScatterND") == {"reduction": ["none"]}
    assert cann_op_facts.WINDOW_LIMITS["max_pool_2d_window_elements"] == 255
