# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Whole models whose selection ops used to stay on the CPU (issue 36): a detector head's
post-processing (sigmoid, amax, topk, a gather of the boxes), a bidirectional GRU and LSTM (flip),
CLIP's text tower (argmax over int32 token ids) and a Mamba-2 decoder (its fp16 program keeps
eager's output dtypes). Default configurations (small sizes), weights rescaled so outputs are
O(1) (model_zoo.rescale_weights), fp32 and fp16: one Ascend partition, nothing on the CPU, every
output of eager's dtype, eager parity (fp32 1e-4 and fp16 1e-2 of the output's scale).

Top-k's tie rule: equal values come in index order (ONNX TopK's rule, which the emulator keeps).
PyTorch's CPU topk leaves the order of equal values unspecified, and fp16 sigmoid scores tie often
(near 1 they sit on a grid of 2^-11), so the detector's fp16 reference is eager fp16 with top-k
taken by a stable sort (the rule stated), and eager's own topk is checked to pick the same values.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
import torch
from ascend_helpers import assert_close, eager
from parity import bf16_tolerance, max_abs_error

from executorch_ascend import AscendCompileSpec
from executorch_ascend.explain import explain
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime

transformers = pytest.importorskip("transformers")

from model_zoo import rescale_weights  # noqa: E402  (needs transformers)

SPEC = AscendCompileSpec(toolchain="emulator")
Built = tuple[torch.nn.Module, tuple[torch.Tensor, ...]]


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


class DetectorHead(torch.nn.Module):
    """A one-stage detector's head and post-processing: per-anchor class scores and boxes, the
    best class score of each anchor (sigmoid, amax), the k best anchors (topk) and their boxes
    (gather). stable_topk=True takes the top k by a stable sort instead: the tie rule, stated."""

    def __init__(self, k: int, classes: int = 6, channels: int = 16) -> None:
        super().__init__()
        self.backbone = torch.nn.Sequential(
            torch.nn.Conv2d(3, channels, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(channels, channels, 3, stride=2, padding=1),
            torch.nn.ReLU(),
        )
        self.classes = torch.nn.Conv2d(channels, classes, 1)
        self.boxes = torch.nn.Conv2d(channels, 4, 1)
        self.k = k
        self.stable_topk = False

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        features = self.backbone(image)
        logits = self.classes(features).flatten(2).transpose(1, 2)  # [B, anchors, classes]
        boxes = self.boxes(features).flatten(2).transpose(1, 2)  # [B, anchors, 4]
        scores = logits.sigmoid().amax(-1)
        if self.stable_topk:
            ordered, order = torch.sort(scores, dim=-1, descending=True, stable=True)
            top, index = ordered[:, : self.k], order[:, : self.k]
        else:
            top, index = scores.topk(self.k, -1)
        picked = boxes.gather(1, index.unsqueeze(-1).expand(-1, -1, 4))
        return top, index, picked


def detector() -> Built:
    # 256 anchors, k=24: in fp16 four pairs of the top scores tie, and eager's topk orders them
    # otherwise than the index rule (the gathered boxes then differ by 0.65 of their scale).
    model = rescale_weights(DetectorHead(k=24)).eval()
    return model, (torch.randn(2, 3, 32, 32, generator=_gen()),)


class Recurrent(torch.nn.Module):
    """A bidirectional 2-layer GRU or LSTM tagger: batch-first sequence in, per-step logits out."""

    def __init__(self, cell: type[torch.nn.Module]) -> None:
        super().__init__()
        self.rnn = cell(8, 16, num_layers=2, batch_first=True, bidirectional=True)
        self.head = torch.nn.Linear(32, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.rnn(x)[0])


def _recurrent(cell: type[torch.nn.Module]) -> Callable[[], Built]:
    def build() -> Built:
        torch.manual_seed(0)
        model = rescale_weights(Recurrent(cell)).eval()  # the head
        # PyTorch's RNN init (uniform +-1/sqrt(hidden)) keeps the gates near 0.5 and the
        # outputs ~0.07: normal weights of std 2/sqrt(fan_in), so the gates saturate as trained
        # ones do.
        gen = _gen(1)
        with torch.no_grad():
            for name, p in model.rnn.named_parameters():
                std = 2 * p.shape[-1] ** -0.5 if name.startswith("weight") else 0.5
                p.copy_(torch.randn(p.shape, generator=gen) * std)
        return model, (torch.randn(2, 7, 8, generator=_gen()),)

    return build


class ClipText(torch.nn.Module):
    """CLIPTextModel -> (last hidden state, pooled output): the pooled one is the hidden state at
    each sequence's end-of-text token, found by an argmax over the int32 token ids."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.model(input_ids=input_ids, return_dict=False)
        return out[0], out[1]


def clip_text() -> Built:
    # Default options (attention implementation, pooling), small sizes; the special tokens moved
    # into the small vocabulary, so the pooling's argmax of (ids == eos).int() finds them.
    config = transformers.CLIPTextConfig(
        vocab_size=96,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        max_position_embeddings=16,
        pad_token_id=1,
        bos_token_id=94,
        eos_token_id=95,
    )
    torch.manual_seed(0)
    model = ClipText(rescale_weights(transformers.CLIPTextModel(config)).eval()).eval()
    ids = torch.randint(3, 90, (2, 8), generator=_gen())
    ids[:, 0] = 94
    ids[0, 5] = 95  # end of text, before padding
    ids[0, 6:] = 1
    ids[1, 7] = 95
    return model, (ids,)


class Mamba2Logits(torch.nn.Module):
    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=input_ids, use_cache=False, return_dict=False)[0]


def mamba2() -> Built:
    config = transformers.Mamba2Config(
        vocab_size=96,
        hidden_size=32,
        state_size=16,
        num_heads=4,
        head_dim=16,
        n_groups=1,
        expand=2,
        num_hidden_layers=2,
        chunk_size=8,
    )
    torch.manual_seed(0)
    model = Mamba2Logits(rescale_weights(transformers.Mamba2ForCausalLM(config)).eval()).eval()
    return model, (torch.randint(3, 96, (2, 8), generator=_gen()),)


MODELS: dict[str, Callable[[], Built]] = {
    "detector_topk": detector,
    "bidirectional_gru": _recurrent(torch.nn.GRU),
    "bidirectional_lstm": _recurrent(torch.nn.LSTM),
    "clip_text": clip_text,
    "mamba2": mamba2,
}


def _lower_and_run(module: torch.nn.Module, inputs: tuple[torch.Tensor, ...], what: str):
    lowering = lower(module, inputs, SPEC)
    summary = lowering.summary
    assert summary.partitions == 1, f"{what}: {summary}"
    assert summary.delegated_nodes == summary.total_nodes, f"{what}: {summary}"
    return run_with_runtime(lowering.program.buffer, inputs)


def _far_from_zero(outputs: list[torch.Tensor], what: str) -> None:
    # O(1) outputs, so the 1e-4-of-scale tolerance tells right from wrong.
    for out in outputs:
        if out.is_floating_point():
            assert float(out.float().abs().mean()) > 0.1, f"{what}: output too close to zero"


@pytest.mark.emulator
@pytest.mark.parametrize("name", list(MODELS))
def test_model_in_float32_is_one_partition_and_matches_eager(native, name: str) -> None:
    module, inputs = MODELS[name]()
    expected = eager(module, inputs)
    _far_from_zero(expected, name)
    outputs = _lower_and_run(module, inputs, name)
    assert [o.dtype for o in outputs] == [e.dtype for e in expected], name
    assert_close(outputs, expected, f"{name} on the emulator")


def _half(t: torch.Tensor) -> torch.Tensor:
    return t.half() if t.is_floating_point() else t  # token ids stay integers


@pytest.mark.emulator
@pytest.mark.parametrize("name", list(MODELS))
def test_model_in_float16_keeps_eager_dtypes_and_matches_eager(native, name: str) -> None:
    module, inputs = MODELS[name]()
    half = copy.deepcopy(module).half()
    half_inputs = tuple(_half(t) for t in inputs)
    expected = eager(half, half_inputs)
    outputs = _lower_and_run(half, half_inputs, f"{name} fp16")
    # The property: every output has eager's dtype (fp16 activations, int64 indices, and a
    # model's own float32 casts, such as Mamba-2's logits, kept).
    assert [o.dtype for o in outputs] == [e.dtype for e in expected], f"{name} fp16 dtypes"
    if name == "detector_topk":
        _check_detector_fp16(half, half_inputs, outputs, expected)
        return
    assert_close(outputs, expected, f"{name} fp16 vs eager fp16", rel=1e-2)


def _check_detector_fp16(
    half: torch.nn.Module,
    inputs: tuple[torch.Tensor, ...],
    outputs: list[torch.Tensor],
    eager_out: list[torch.Tensor],
) -> None:
    top, index, _ = outputs
    # The tie rule: among equal scores, indices ascend (and there are ties to order).
    same = top[:, 1:] == top[:, :-1]
    assert bool(same.any()), "no tied scores: the tie rule is not exercised"
    assert bool((index[:, 1:] > index[:, :-1])[same].all()), "ties out of index order"
    # Eager's own topk picks the same scores (its indices may order ties otherwise).
    assert_close([top], [eager_out[0]], "detector fp16 top-k scores vs eager fp16", rel=1e-2)
    # Against eager fp16 with the stated rule: scores, indices and the gathered boxes.
    stable = copy.deepcopy(half)
    stable.stable_topk = True
    assert_close(
        outputs, eager(stable, inputs), "detector fp16 vs eager fp16 (ties by index)", 1e-2
    )


@pytest.mark.emulator
def test_bidirectional_gru_in_bfloat16_is_one_partition_and_matches_eager(native) -> None:
    # bf16 where the chip has it (Ascend910B, the default): flip's Gather moves bf16 as any dtype.
    module, inputs = _recurrent(torch.nn.GRU)()
    module = module.to(torch.bfloat16)
    inputs = tuple(t.to(torch.bfloat16) for t in inputs)
    outputs = _lower_and_run(module, inputs, "bf16 GRU")
    expected = eager(module, inputs)
    assert [o.dtype for o in outputs] == [torch.bfloat16], "bf16 GRU"
    err, tol = max_abs_error(outputs, expected), bf16_tolerance(expected)
    assert err <= tol, f"bf16 GRU: max abs error {err:.3g} > bf16 tolerance {tol:.3g}"


class _TopK(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.topk(3)[0] * 2


@pytest.mark.emulator
def test_topk_in_bfloat16_stays_on_the_cpu_with_the_reason(native) -> None:
    # CANN's TopK takes float16/float32 only: a bf16 topk stays on the CPU, saying why.
    module, inputs = _TopK().eval(), (torch.randn(4, 6, generator=_gen()).to(torch.bfloat16),)
    reasons = {r.reason for r in explain(torch.export.export(module, inputs), SPEC).cpu}
    assert "input dtype bfloat16 (supported: float32, float16, int64)" in reasons, reasons
    lowering = lower(module, inputs, SPEC)
    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert_close(outputs, eager(module, inputs), "bf16 topk on the CPU")
