# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Quantized models on the NPU (docs/quantization.md): static int8 with AscendQuantizer, lowered to
CANN's quant ops and run on the emulator.

A ResNet, a MobileNetV2 and a BERT encoder, calibrated on 16 inputs: one Ascend partition with no
quantize/dequantize or compute op on the CPU, int8 weights in the program (about a quarter of
fp32's bytes). Two comparisons with convert_pt2e's eager model, a step being the output's range /
255 (the kernels themselves are checked op by op: emulator/tests/engine and the converters' int8
samples against cann_quant_reference):

  - the lowered graph with exact arithmetic (cann_quant_reference, exact=True) is within
    EXACT_STEPS of eager: only float rounding differs (float64 against float32), which can flip
    an activation sitting on a rounding tie by one step, and a flip compounds through the layers
    after it (BERT and the ResNet show 1e-5 steps, MobileNetV2 up to 3); a wrong scale, offset,
    bias or layout gives tens to hundreds of steps (a Gemm that lost its activation offset:
    212);
  - the emulator is within DEVICE_STEPS of eager: CANN computes AscendQuant in fp16 and
    AscendDequant writes fp16, so an activation near a rounding tie can land one step from
    eager's, and the flips compound with depth (measured: BERT 1.6, the ResNet 4.1, MobileNetV2's
    17 blocks 6.6 steps); and the cosine with the float model stays above 0.98.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import onnx
import pytest
import torch
from ascend_helpers import ascend_lowered_modules
from cann_quant_reference import run_reference

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower_program, save
from executorch_ascend.quantizer import AscendQuantizer, get_ascend_quantization_config
from executorch_ascend.run import run_with_runtime

pytestmark = pytest.mark.emulator

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "examples" / "quantization"))

from quant_models import MODELS, images, quantize_pt2e, rescaled, resnet  # noqa: E402

CALIBRATION = 16
EXACT_STEPS = 4.0
DEVICE_STEPS = 8.0


def _float_weight_bytes(model: torch.nn.Module) -> int:
    return sum(p.numel() * 4 for n, p in model.named_parameters() if p.dim() >= 2)


def _onnx_models(dump: Path) -> list[onnx.ModelProto]:
    return [onnx.load(str(f / "part.onnx")) for f in sorted(dump.iterdir())]


def _output_step(expected: torch.Tensor) -> float:
    return float(expected.max() - expected.min()) / 255


@pytest.mark.parametrize("name", list(MODELS))
def test_static_int8_runs_whole_on_ascend(native, tmp_path: Path, name: str) -> None:
    build, make_inputs = MODELS[name]
    model = build()
    quantized = quantize_pt2e(model, make_inputs(CALIBRATION, 1))
    (example,) = make_inputs(1, 2)
    dump = tmp_path / "dump"
    spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(dump))
    lowering = lower_program(torch.export.export(quantized, example), spec)

    summary = lowering.summary
    assert summary.partitions == 1, summary
    assert summary.delegated_nodes == summary.total_nodes, (summary, Counter(summary.cpu_ops))
    (module,) = ascend_lowered_modules(lowering.edge)
    assert any("quantize_per_tensor" in str(n.target) for n in module.original_module.graph.nodes)

    (graph,) = _onnx_models(dump)
    ops = Counter(n.op_type for n in graph.graph.node)
    assert ops["AscendQuant"] > 0 and ops["AscendDequant"] > 0, ops
    assert not {"QuantizeLinear", "DequantizeLinear"} & set(ops)
    int8 = onnx.TensorProto.INT8
    initializers = {i.name: i.data_type for i in graph.graph.initializer}
    cube = [
        n
        for n in graph.graph.node
        if n.op_type in ("Conv", "Gemm", "MatMul") and n.input[1] in initializers
    ]
    assert cube and all(initializers[n.input[1]] == int8 for n in cube), (
        "every Conv/Gemm/MatMul with a weight computes on int8 weights"
    )
    # The stored program: int8 weights, about a quarter of the float32 bytes (plus the .om).
    pte, _ = save(lowering.program, tmp_path / f"{name}.pte")
    float_bytes = _float_weight_bytes(model)
    assert pte.stat().st_size < 0.45 * float_bytes + 64 * 1024, (pte.stat().st_size, float_bytes)

    samples = make_inputs(4, 3)
    for inputs in samples:
        with torch.no_grad():
            want, ref = quantized(*inputs), model(*inputs)
        step = _output_step(want)
        feeds = {"input_0": inputs[0].numpy()}
        (exact,) = run_reference(graph, feeds, exact=True)
        assert _steps(torch.from_numpy(exact), want, step) <= EXACT_STEPS, f"{name}: lowering"
        (got,) = run_with_runtime(pte, list(inputs))
        assert got.dtype == want.dtype and got.shape == want.shape
        err = _steps(got, want, step)
        assert err <= DEVICE_STEPS, f"{name}: {err:.2f} steps from convert_pt2e's model"
        cosine = torch.nn.functional.cosine_similarity(got.flatten(), ref.flatten(), dim=0)
        assert cosine > 0.98, f"{name}: cosine with the float model {float(cosine):.4f}"


def _steps(actual: torch.Tensor, expected: torch.Tensor, step: float) -> float:
    return float((actual.float() - expected.float()).abs().max()) / step


def _assert_whole_and_close(quantized: torch.nn.Module, example: tuple) -> None:
    """Lowered for the default chip: one partition, nothing on the CPU, and the emulator's output
    within DEVICE_STEPS of the quantized eager model's."""
    lowering = lower_program(
        torch.export.export(quantized, example), AscendCompileSpec(toolchain="emulator")
    )
    assert lowering.summary.partitions == 1, lowering.summary
    assert lowering.summary.delegated_nodes == lowering.summary.total_nodes, lowering.summary
    (got,) = run_with_runtime(lowering.program.buffer, list(example))
    with torch.no_grad():
        want = quantized(*example)
    assert _steps(got, want, _output_step(want)) <= DEVICE_STEPS


def _sequential(kind: str) -> tuple[torch.nn.Module, tuple[int, ...]]:
    nn = torch.nn
    if kind == "cnn":
        model = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.ReLU6(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(32, 10),
        )
        return model, (1, 3, 32, 32)
    if kind == "mlp":
        model = nn.Sequential(
            nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 64), nn.LayerNorm(64), nn.Linear(64, 8)
        )
        return model, (4, 64)
    model = nn.Sequential(  # a depthwise-separable block
        nn.Conv2d(8, 8, 3, padding=1, groups=8), nn.Hardswish(), nn.Conv2d(8, 16, 1), nn.Sigmoid()
    )
    return model, (1, 8, 16, 16)


@pytest.mark.parametrize("kind", ["cnn", "mlp", "depthwise"])
def test_sequential_models_lower_whole(native, kind: str) -> None:
    """nn.Sequential models as a user writes them (default layers, weights rescaled so outputs are
    far from zero), quantized with AscendQuantizer: one partition, nothing on the CPU, within
    DEVICE_STEPS of convert_pt2e's model."""
    torch.manual_seed(0)
    model, shape = _sequential(kind)
    model = rescaled(model)
    gen = torch.Generator().manual_seed(1)
    quantized = quantize_pt2e(
        model, [(torch.randn(*shape, generator=gen),) for _ in range(CALIBRATION)]
    )
    example = (torch.randn(*shape, generator=gen),)
    _assert_whole_and_close(quantized, example)


def test_qat_model_lowers_whole(native, tmp_path: Path) -> None:
    """prepare_qat_pt2e with the QAT config (fake quantization, conv-bn folded), a few training
    steps, convert_pt2e: the same int8 graph on Ascend."""
    from torchao.quantization.pt2e import move_exported_model_to_eval
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_qat_pt2e

    model = resnet().train()
    gen = torch.Generator().manual_seed(0)
    batches = [torch.randn(4, 3, 32, 32, generator=gen) for _ in range(5)]  # batch norm trains
    example = (batches[0],)
    graph = torch.export.export(model, example).module()
    quantizer = AscendQuantizer(get_ascend_quantization_config(is_qat=True))
    prepared = prepare_qat_pt2e(graph, quantizer)  # type: ignore[arg-type]
    optimizer = torch.optim.SGD(prepared.parameters(), lr=1e-3)
    for x in batches[1:]:
        optimizer.zero_grad()
        prepared(x).square().mean().backward()
        optimizer.step()
    move_exported_model_to_eval(prepared)
    quantized = convert_pt2e(prepared)
    lowering = lower_program(
        torch.export.export(quantized, example), AscendCompileSpec(toolchain="emulator")
    )
    assert lowering.summary.partitions == 1
    assert lowering.summary.delegated_nodes == lowering.summary.total_nodes, lowering.summary
    (got,) = run_with_runtime(lowering.program.buffer, list(example))
    with torch.no_grad():
        want = quantized(*example)
    assert _steps(got, want, _output_step(want)) <= DEVICE_STEPS


def test_modules_left_in_float_stay_float_on_ascend(native, tmp_path: Path) -> None:
    """set_module_name(name, None): that layer keeps float weights (a float Gemm), the rest is
    int8; still one partition."""
    model = resnet()
    quantizer = AscendQuantizer().set_module_name("model.classifier", None)
    quantized = quantize_pt2e(model, images(32)(4, 1), quantizer)
    (example,) = images(32)(1, 2)
    dump = tmp_path / "dump"
    lowering = lower_program(
        torch.export.export(quantized, example),
        AscendCompileSpec(toolchain="emulator", dump_dir=str(dump)),
    )
    assert lowering.summary.partitions == 1
    (graph,) = _onnx_models(dump)
    float_init = {i.name for i in graph.graph.initializer if i.data_type == onnx.TensorProto.FLOAT}
    gemms = [n for n in graph.graph.node if n.op_type == "Gemm"]
    assert len(gemms) == 1 and gemms[0].input[1] in float_init
    assert sum(n.op_type == "Conv" for n in graph.graph.node) > 1


def test_another_quantizers_graph_lowers_with_standalone_dequantize(native) -> None:
    """XNNPACKQuantizer quantizes outputs too: its standalone dequantize nodes become
    AscendAntiQuant, its float biases int32; the graph is still one partition and matches its
    eager model."""
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )

    model = resnet()
    config = get_symmetric_quantization_config(is_per_channel=True)
    quantizer = XNNPACKQuantizer().set_global(config)
    quantized = quantize_pt2e(model, images(32)(4, 1), quantizer)
    (example,) = images(32)(1, 2)
    _assert_whole_and_close(quantized, example)


@pytest.mark.parametrize(
    ("soc", "refused"),
    [
        ("Ascend310P3", None),
        ("Ascend310B1", None),
        ("Ascend910B1", None),
        ("Ascend950DT_9572", "no int8 Conv"),
        ("Ascend910A", "deq_scale is float16"),
    ],
)
def test_int8_cnn_per_chip(native, soc: str, refused: str | None) -> None:
    model = resnet()
    quantized = quantize_pt2e(model, images(32)(4, 1))
    (example,) = images(32)(1, 2)
    program = torch.export.export(quantized, example)
    spec = AscendCompileSpec(toolchain="emulator", soc_version=soc)
    if refused is None:
        lowering = lower_program(program, spec)
        assert lowering.summary.partitions == 1
        return
    with pytest.raises(Exception, match=refused):
        lower_program(program, spec)


class _Int8Input(torch.nn.Module):
    """A conv reading an int8 input (the quantize outside the graph) with zero point 5."""

    def __init__(self, zero_point: int) -> None:
        super().__init__()
        self.zero_point = zero_point
        gen = torch.Generator().manual_seed(0)
        self.register_buffer(
            "w", torch.randint(-127, 128, (4, 3, 3, 3), generator=gen).to(torch.int8)
        )

    def forward(self, q: torch.Tensor) -> torch.Tensor:
        qd = torch.ops.quantized_decomposed
        x = qd.dequantize_per_tensor(q, 0.05, self.zero_point, -128, 127, torch.int8)
        w = qd.dequantize_per_tensor(self.w, 0.01, 0, -127, 127, torch.int8)
        return torch.nn.functional.conv2d(x, w, padding=1)


@pytest.mark.parametrize(("zero_point", "int8_conv"), [(5, False), (0, True)])
def test_an_int8_input_with_an_offset_is_not_an_int8_conv(zero_point: int, int8_conv: bool) -> None:
    """CANN's cube op takes the activation offset from the AscendQuant feeding it: an int8 input
    of the graph has none, so with a nonzero zero point the conv is lowered in float (after an
    AscendAntiQuant), and with zero point 0 as an int8 Conv; both compute what eager does."""
    from executorch_ascend.explain import edge_program
    from executorch_ascend.lowering import to_onnx

    module = _Int8Input(zero_point).eval()
    q = torch.randint(-128, 128, (1, 3, 6, 6), generator=torch.Generator().manual_seed(1))
    q = q.to(torch.int8)
    edge, _ = edge_program(torch.export.export(module, (q,)))  # the lowering's own edge program
    graph = to_onnx(edge)
    ops = [n.op_type for n in graph.model.graph.node]
    assert ("AscendAntiQuant" not in ops) == int8_conv, ops
    (exact,) = run_reference(graph.model, {"input_0": q.numpy()}, exact=True)
    with torch.no_grad():
        want = module(q)
    assert float((torch.from_numpy(exact) - want).abs().max()) <= 1e-4 * float(want.abs().max())
