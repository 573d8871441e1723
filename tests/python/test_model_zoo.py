# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The model zoo (model_zoo.py): transformers families in their default configuration, lowered to
Ascend and run by the Python runtime on the emulator.

Each model must be exactly one Ascend partition with no compute op on the CPU (or name the ops it
leaves there, and why), match eager PyTorch within 1e-4 of its output scale in float32 and 1e-2 in
float16, and `explain` must say what lowering then did. Decoder LLMs run with a padded
attention_mask at two sequence lengths.
"""

from __future__ import annotations

import collections
import copy

import pytest
import torch
from ascend_helpers import assert_close, eager

from executorch_ascend import AscendCompileSpec, explain
from executorch_ascend.explain import taken_compute_ops
from executorch_ascend.export import AscendLowering, lower_program
from executorch_ascend.run import run_with_runtime

pytest.importorskip("transformers")

from model_zoo import ZOO, ZooModel

SPEC = AscendCompileSpec(toolchain="emulator")

FP32_CASES = [
    pytest.param(m, seq, id=f"{m.name}-seq{seq}" if len(m.seqs) > 1 else m.name)
    for m in ZOO
    for seq in m.seqs
]
FP16_CASES = [pytest.param(m, id=m.name) for m in ZOO if m.fp16]


def _cpu_ops(lowering: AscendLowering) -> collections.Counter[str]:
    """Compute ops left outside every delegate, by op name (as explain names them)."""
    return collections.Counter(lowering.summary.cpu_ops)


def _check_delegation(model: ZooModel, lowering: AscendLowering, what: str) -> None:
    summary, cpu = lowering.summary, _cpu_ops(lowering)
    if model.cpu_ops:
        assert set(cpu) == set(model.cpu_ops), f"{what}: {summary}; on the CPU: {dict(cpu)}"
    else:
        assert summary.partitions == 1, f"{what}: {summary}; on the CPU: {dict(cpu)}"
        assert summary.delegated_nodes == summary.total_nodes, f"{what}: {summary}; {dict(cpu)}"


def _far_from_zero(outputs: list[torch.Tensor], what: str) -> None:
    # Re-initialised weights keep outputs O(1), so the tolerance tells right from wrong.
    for out in outputs:
        assert float(out.float().std()) > 0.05, f"{what}: output too close to zero for the test"


@pytest.mark.emulator
@pytest.mark.parametrize(("model", "seq"), FP32_CASES)
def test_zoo_model_in_float32(native, model: ZooModel, seq: int) -> None:
    module, inputs = model.build(), model.inputs(seq)
    expected = eager(module, inputs)
    _far_from_zero(expected, model.name)
    exported = torch.export.export(module, inputs)
    explanation = explain(exported, SPEC) if seq == model.seqs[0] else None
    lowering = lower_program(exported, SPEC)
    what = f"{model.name} (seq {seq})"
    _check_delegation(model, lowering, what)

    if explanation is not None:
        # explain runs the decisions lowering makes: same partitions, same ops on the CPU.
        summary = lowering.summary
        assert explanation.partitions == summary.partitions, f"{what}: {explanation.partitions}"
        assert taken_compute_ops(explanation) == summary.delegated_nodes, what
        explained_cpu = collections.Counter(r.op for r in explanation.cpu if r.op != "getitem")
        assert explained_cpu == _cpu_ops(lowering), f"{what}: explain says {dict(explained_cpu)}"

    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert_close(outputs, expected, f"{what} on the emulator")


def _half(t: torch.Tensor) -> torch.Tensor:
    return t.half() if t.is_floating_point() else t  # token ids and masks stay integers


# A long run (45 models, about 9 minutes on one core): scripts/test_long.sh, not CI.
@pytest.mark.long
@pytest.mark.emulator
@pytest.mark.parametrize("model", FP16_CASES)
def test_zoo_model_in_float16(native, model: ZooModel) -> None:
    module = model.build()
    inputs = tuple(_half(t) for t in model.inputs(model.seqs[0]))
    half = copy.deepcopy(module).half()
    lowering = lower_program(torch.export.export(half, inputs), SPEC)
    _check_delegation(model, lowering, f"{model.name} fp16")

    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert [o.dtype for o in outputs] == [torch.float16], f"{model.name}: fp16 end to end"
    assert_close(outputs, eager(half, inputs), f"{model.name} fp16 vs eager fp16", rel=1e-2)
    # Reference: the fp32 model on the same fp16-rounded weights and inputs, rounded to fp16 at
    # the end (the emulator, like the NPU, stores fp16 and accumulates in fp32; see test_models).
    reference = half.float()
    full = tuple(t.float() if t.is_floating_point() else t for t in inputs)
    expected = [e.half() for e in eager(reference, full)]
    _far_from_zero(expected, f"{model.name} fp16")
    assert_close(outputs, expected, f"{model.name} fp16 vs the fp32 reference", rel=1e-2)


@pytest.mark.emulator
@pytest.mark.parametrize("name", ["llama", "gemma"])
def test_static_cache_decode_loop(native, name: str) -> None:
    """A greedy generation loop over transformers' static-cache export: one token and its
    cache_position per call, the KV cache updated in place (index_copy into mutable buffers).
    Every step's logits match eager's, so the cache carries over between calls."""
    from executorch.runtime import Runtime
    from model_zoo import STATIC_CACHE_DECODERS
    from transformers.integrations.executorch import (
        TorchExportableModuleWithStaticCache,
        convert_and_export_with_cache,
    )

    model = STATIC_CACHE_DECODERS[name]()
    lowering = lower_program(convert_and_export_with_cache(model), SPEC)
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    method = Runtime.get().load_program(lowering.program.buffer).load_method("forward")
    reference = TorchExportableModuleWithStaticCache(model, batch_size=1, max_cache_len=16)
    token = torch.tensor([[5]])
    for step in range(6):
        position = torch.tensor([step])
        with torch.no_grad():
            expected = [reference(input_ids=token, cache_position=position)]
        outputs = [o for o in method.execute([token, position]) if isinstance(o, torch.Tensor)]
        assert_close(outputs, expected, f"{name} decode step {step}")
        token = expected[0][:, -1:].argmax(-1)
