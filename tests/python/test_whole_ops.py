# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Ops kept whole must re-trace in the graph they sit in (lowering/whole_ops.py).

Attention built exactly as transformers' default ("sdpa") attention builds it: q/k/v projected,
viewed as (B, S, H, D) and transposed to (B, H, S, D); scaled_dot_product_attention; the output
transposed back and reshaped to (B, S, H * D). Before the fix, lowering crashed in
run_decompositions ("Cannot view a tensor with shape ... as a tensor with shape ...").
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from ascend_helpers import ascend_lowered_modules, assert_close, eager, seeded_inputs

from executorch_ascend import AscendCompileSpec, explain
from executorch_ascend.explain import format_explanation
from executorch_ascend.export import lower_program
from executorch_ascend.run import run_with_runtime

SPEC = AscendCompileSpec(toolchain="emulator")
HIDDEN, HEADS = 32, 4


class ModelAttention(torch.nn.Module):
    def __init__(self, kv_heads: int = HEADS, mask: str | None = None, causal: bool = False):
        super().__init__()
        self.kv_heads, self.mask, self.causal = kv_heads, mask, causal
        self.head = HIDDEN // HEADS
        self.q = torch.nn.Linear(HIDDEN, HIDDEN)
        self.k = torch.nn.Linear(HIDDEN, kv_heads * self.head)
        self.v = torch.nn.Linear(HIDDEN, kv_heads * self.head)
        self.o = torch.nn.Linear(HIDDEN, HIDDEN)

    def _heads(self, x: torch.Tensor, heads: int) -> torch.Tensor:
        b, s, _ = x.shape
        return x.view(b, s, heads, self.head).transpose(1, 2)

    def forward(self, x: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
        b, s, _ = x.shape
        q = self._heads(self.q(x), HEADS)
        k, v = self._heads(self.k(x), self.kv_heads), self._heads(self.v(x), self.kv_heads)
        mask = None
        if self.mask == "bool":
            mask = (m > -0.5)[:, None, None, :]
        elif self.mask == "float":
            mask = torch.where(m > -0.5, 0.0, float("-inf"))[:, None, None, :]
        out = F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, is_causal=self.causal, enable_gqa=self.kv_heads != HEADS
        )
        return self.o(out.transpose(1, 2).reshape(b, s, -1))


CASES = {
    "plain": dict(),
    "bool_mask": dict(mask="bool"),
    "float_mask": dict(mask="float"),
    "causal": dict(causal=True),
    "gqa": dict(kv_heads=2),
    "gqa_causal": dict(kv_heads=2, causal=True),
    "gqa_mask": dict(kv_heads=1, mask="bool"),
}


@pytest.mark.emulator
@pytest.mark.parametrize("case", list(CASES))
def test_attention_as_models_build_it_lowers_whole(native, case: str) -> None:
    torch.manual_seed(0)
    module = ModelAttention(**CASES[case]).eval()
    x, m = seeded_inputs((2, 6, HIDDEN), (2, 6))
    m[:, 0] = 1.0  # every row keeps one key
    exported = torch.export.export(module, (x, m))
    explanation = explain(exported, SPEC)
    lowering = lower_program(exported, SPEC)

    assert lowering.summary.partitions == 1, f"{case}: {lowering.summary}"
    assert lowering.summary.delegated_nodes == lowering.summary.total_nodes, case
    (lowered,) = ascend_lowered_modules(lowering.edge)
    targets = {str(n.target) for n in lowered.original_module.graph.nodes}
    # The attention stayed one op (lowered as one fused region), not its decomposition.
    assert any("scaled_dot_product_attention" in t for t in targets), sorted(targets)
    assert explanation.partitions == 1 and not explanation.cpu, format_explanation(explanation)
    assert any("contiguous copy" in note for note in explanation.notes), explanation.notes

    outputs = run_with_runtime(lowering.program.buffer, (x, m))
    assert_close(outputs, eager(module, (x, m)), f"attention {case}")


def test_a_kept_op_that_cannot_be_lowered_is_decomposed_and_explained() -> None:
    # linear on a 7-D input is beyond CANN's MatMul ranks: not kept whole, and explain says so.
    exported = torch.export.export(torch.nn.Linear(4, 2), seeded_inputs((1,) * 6 + (4,)))
    explanation = explain(exported, SPEC)
    (note,) = [n for n in explanation.notes if "linear" in n]
    assert "decomposed, not kept whole" in note
    assert "aten.linear.default" not in {r.op for r in explanation}


def test_explain_command_reports_what_lowering_does(capsys) -> None:
    from executorch_ascend.cli import main

    argv = ["explain", "test_whole_ops:ModelAttention", "--input-shape", "2,6,32"]
    assert main([*argv, "--input-shape", "2,6"]) == 0
    text = capsys.readouterr().out
    first = text.splitlines()[0]
    taken, total = first.split()[3], first.split()[5].rstrip(",")
    assert taken == total and first.endswith("in 1 partition(s)"), first
    assert "contiguous copy after it" in text
    assert "aten.scaled_dot_product_attention.default" in text


def test_the_layout_fix_is_made_once_and_reported_every_time() -> None:
    x, m = seeded_inputs((2, 6, HIDDEN), (2, 6))
    exported = torch.export.export(ModelAttention().eval(), (x, m))
    first, second = explain(exported, SPEC), explain(exported, SPEC)
    assert first.notes == second.notes and len(first.notes) == 1, (first.notes, second.notes)
    clones = [n for n in exported.graph.nodes if n.target is torch.ops.aten.clone.default]
    assert len(clones) == 1, [c.name for c in clones]


class AttentionBesideARetracedOp(ModelAttention):
    """The attention above with an op that lowering rewrites before to_edge by re-tracing the
    program (median.py, pre_decompositions.py): that re-trace met the attention's varying layout
    before its contiguous copy went in, and crashed as to_edge's did."""

    def __init__(self, op: str):
        super().__init__()
        self.op = op

    def forward(self, x: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
        if self.op == "median":
            side = torch.median(x, dim=-1).values.unsqueeze(-1)
        else:
            side = F.adaptive_max_pool1d(x, 8).amax(dim=-1, keepdim=True)
        return super().forward(x, m) + side


@pytest.mark.emulator
@pytest.mark.parametrize("op", ["median", "adaptive_max_pool"])
def test_attention_beside_an_op_rewritten_by_a_retrace_lowers(native, op: str) -> None:
    torch.manual_seed(0)
    module = AttentionBesideARetracedOp(op).eval()
    x, m = seeded_inputs((2, 6, HIDDEN), (2, 6))
    lowering = lower_program(torch.export.export(module, (x, m)), SPEC)
    assert lowering.summary.partitions == 1, f"{op}: {lowering.summary}"
    assert lowering.summary.delegated_nodes == lowering.summary.total_nodes, op
    outputs = run_with_runtime(lowering.program.buffer, (x, m))
    assert_close(outputs, eager(module, (x, m)), f"attention beside {op}")
