# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A `copy_` from float32 into a float16 or bfloat16 buffer (transformers' longrope does one),
which torch 2.13's functionalisation turns into a read of the unconverted float32 value
(lowering/copy_casts.py): AscendPartitioner's pre-decomposition step makes the cast explicit, so
the program lowers (one partition, nothing on the CPU) and computes eager's rounded value."""

from __future__ import annotations

import pytest
import torch
from ascend_helpers import assert_close, eager

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.lowering.copy_casts import cast_copy_sources
from executorch_ascend.run import run_with_runtime

SPEC = AscendCompileSpec(toolchain="emulator")
SCALE = 1024.0


class RoundedBuffer(torch.nn.Module):
    """Stores a float32 value in a lower-precision buffer and returns, scaled, what storing it
    lost: eager's output is the rounding residual, which a graph without the cast reads as 0."""

    def __init__(self, dtype: torch.dtype) -> None:
        super().__init__()
        self.register_buffer("stored", torch.zeros(6, dtype=dtype), persistent=False)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self.stored.copy_(x * 3.0)
        return (self.stored.float() - x * 3.0) * SCALE, self.stored * 2


def _inputs() -> tuple[torch.Tensor]:
    return (torch.rand(6, generator=torch.Generator().manual_seed(0)) + 1.0,)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["fp16", "bf16"])
def test_functionalisation_alone_loses_the_cast(dtype: torch.dtype) -> None:
    """The upstream behaviour the pass works around (torch 2.13, pinned): if this stops failing,
    the pass is no longer needed."""
    exported = torch.export.export(RoundedBuffer(dtype), _inputs())
    with pytest.raises(AssertionError, match="Tensor dtype mismatch"):
        exported.run_decompositions({}).run_decompositions({})

    exported = torch.export.export(RoundedBuffer(dtype), _inputs())
    assert cast_copy_sources(exported) == ["copy_"]
    assert cast_copy_sources(exported) == []  # a second run changes nothing
    twice = exported.run_decompositions({}).run_decompositions({})
    mutated = {v: k for k, v in twice.graph_signature.buffers_to_mutate.items()}
    (value,) = [n for n in twice.graph.nodes if n.name == mutated["stored"]]
    assert value.meta["val"].dtype == dtype


@pytest.mark.emulator
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["fp16", "bf16"])
def test_copy_into_a_lower_precision_buffer_lowers_exactly(native, dtype: torch.dtype) -> None:
    inputs = _inputs()
    expected = eager(RoundedBuffer(dtype), inputs)
    # The residual is what a missing cast would lose: far above the fp32 tolerance.
    assert expected[0].abs().max() > 0.1 * SCALE * torch.finfo(dtype).eps

    lowering = lower(RoundedBuffer(dtype), inputs, SPEC)
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    for _ in range(2):  # the buffer is written on every call
        outputs = run_with_runtime(lowering.program.buffer, inputs)
        assert [o.dtype for o in outputs] == [torch.float32, dtype]
        assert_close(outputs, expected, f"copy_ into a {dtype} buffer")
