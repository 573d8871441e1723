# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""bfloat16 end to end: a bf16 MLP and a tiny Llama (`.to(torch.bfloat16)`) lowered to one Ascend
partition, run on the emulator with bf16 storage and fp32 accumulation, match eager bf16 within
parity.bf16_tolerance; for Ascend310P (no bf16 in CANN) the bf16 nodes stay on the CPU, with the
reason, and the program still runs."""

from __future__ import annotations

import pytest
import torch
from ascend_helpers import eager
from parity import bf16_tolerance, max_abs_error

from executorch_ascend import AscendCompileSpec
from executorch_ascend.explain import explain
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime


class _Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.norm = torch.nn.LayerNorm(32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.nn.functional.gelu(self.norm(self.fc1(x)))
        return torch.softmax(self.fc2(h), dim=-1)


def _mlp() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    x = torch.randn(4, 16, generator=torch.Generator().manual_seed(1))
    return _Mlp().eval().to(torch.bfloat16), (x.to(torch.bfloat16),)


def _check_bf16(module: torch.nn.Module, inputs: tuple[torch.Tensor, ...], what: str) -> None:
    lowering = lower(module, inputs, AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1, f"{what}: {summary}"
    assert summary.delegated_nodes == summary.total_nodes, f"{what}: {summary}"
    outputs = run_with_runtime(lowering.program.buffer, inputs)
    expected = eager(module, inputs)
    assert [o.dtype for o in outputs] == [torch.bfloat16] * len(expected), what
    err, tol = max_abs_error(outputs, expected), bf16_tolerance(expected)
    assert err <= tol, f"{what}: max abs error {err:.3g} > bf16 tolerance {tol:.3g}"


@pytest.mark.emulator
def test_bf16_mlp_is_one_partition_and_matches_eager(native) -> None:
    module, inputs = _mlp()
    _check_bf16(module, inputs, "bf16 MLP")


@pytest.mark.emulator
def test_bf16_tiny_llama_is_one_partition_and_matches_eager(native) -> None:
    transformers = pytest.importorskip("transformers")
    from model_zoo import TensorModel

    config = transformers.LlamaConfig(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=32,
    )
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(config).eval().to(torch.bfloat16)
    ids = torch.randint(0, 64, (1, 8), generator=torch.Generator().manual_seed(0))
    _check_bf16(TensorModel(model).eval(), (ids,), "bf16 Llama")


@pytest.mark.emulator
def test_bf16_on_ascend310p_stays_on_the_cpu_with_the_reason(native) -> None:
    module, inputs = _mlp()
    spec = AscendCompileSpec(toolchain="emulator", soc_version="Ascend310P3")
    lowering = lower(module, inputs, spec)
    assert lowering.summary.partitions == 0, lowering.summary
    reports = explain(torch.export.export(module, inputs), spec).reports
    reasons = {r.reason for r in reports}
    # Every compute node for the bf16 reason; constant folds (weight transposes) follow them.
    assert None not in reasons, reasons
    assert any("bfloat16 on Ascend310P3" in r for r in reasons if r), reasons
    assert reasons <= {
        r for r in reasons if r and ("bfloat16 on Ascend310P3" in r or "constant" in r)
    }, reasons
    outputs = run_with_runtime(lowering.program.buffer, inputs)
    expected = eager(module, inputs)
    assert max_abs_error(outputs, expected) <= bf16_tolerance(expected)
