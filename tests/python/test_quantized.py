# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What happens to a PT2E-quantized model today (docs/atc.md#quantized-models): the activations'
quantize/dequantize ops stay on the CPU, the float ops between them are delegated with the int8
weights dequantized to float32 constants at lowering, and the program computes what the quantized
eager model computes (fp32 tolerance). Nothing runs in int8 on Ascend."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import onnx
import pytest
import torch
from ascend_helpers import ascend_lowered_modules, assert_close, seeded_inputs

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower_program, save
from executorch_ascend.run import RunnerError, run_with_runner, run_with_runtime

pytestmark = pytest.mark.emulator

Q = "quantized_decomposed.quantize_per_tensor.default"
DQ = "quantized_decomposed.dequantize_per_tensor.default"


class TwoLayers(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(16, 32), torch.nn.Linear(32, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def _quantized(x: torch.Tensor) -> torch.nn.Module:
    """PT2E with ExecuTorch's XNNPACKQuantizer (symmetric int8, per tensor), calibrated on x."""
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    torch.manual_seed(0)
    graph = torch.export.export(TwoLayers().eval(), (x,)).module()
    quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
    prepared = prepare_pt2e(graph, quantizer)  # type: ignore[arg-type]
    prepared(x)
    return convert_pt2e(prepared)


def test_q_dq_stay_on_the_cpu_and_the_float_ops_run_in_fp32(native, tmp_path: Path) -> None:
    import executorch.kernels.quantized  # noqa: F401  (the CPU kernels of q/dq, for to_executorch)

    (x,) = seeded_inputs((4, 16))
    quantized = _quantized(x)
    with torch.no_grad():
        expected = [quantized(x)]
    spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(tmp_path / "dumps"))
    lowering = lower_program(torch.export.export(quantized, (x,)), spec)

    # One partition per run of float ops between activation q/dq pairs.
    assert lowering.summary.partitions == 2
    assert Counter(lowering.summary.cpu_ops) == {Q: 3, DQ: 3}
    for module in ascend_lowered_modules(lowering.edge):
        targets = [str(n.target) for n in module.original_module.graph.nodes]
        assert any("dequantize_per_tensor" in t for t in targets)  # of an int8 weight
    # ... which the lowering folds: the .om gets float32 weights and no quantize op.
    for folder in sorted((tmp_path / "dumps").iterdir()):
        model = onnx.load(str(folder / "part.onnx"))
        assert {i.data_type for i in model.graph.initializer} == {onnx.TensorProto.FLOAT}
        assert not {n.op_type for n in model.graph.node} & {"QuantizeLinear", "DequantizeLinear"}

    pte, _ = save(lowering.program, tmp_path / "q.pte")
    assert_close(run_with_runtime(pte, [x]), expected, "PT2E-quantized model")
    # ascend_runner has no quantized kernels: such a program does not load there.
    with pytest.raises(RunnerError, match=r"kernel 'quantized_decomposed::quantize_per_tensor"):
        run_with_runner(pte, [x], expected, tmp_path / "runner")


def test_without_the_quantized_kernels_to_executorch_fails(native) -> None:
    """In a fresh process (the kernels, once imported, stay registered)."""
    script = textwrap.dedent(
        """
        import torch
        from test_quantized import _quantized
        from executorch_ascend import AscendCompileSpec, cann
        from executorch_ascend.export import lower_program
        cann.use_emulator()
        x = torch.randn(4, 16)
        try:
            lower_program(torch.export.export(_quantized(x), (x,)),
                          AscendCompileSpec(toolchain="emulator"))
        except RuntimeError as e:
            print("REFUSED", e)
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600, env=env
    )
    assert "REFUSED Missing out variants" in done.stdout, done.stdout + done.stderr
    assert "quantized_decomposed::quantize_per_tensor" in done.stdout
