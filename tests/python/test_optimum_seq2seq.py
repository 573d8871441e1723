# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""text2text-generation (T5) and automatic-speech-recognition (Whisper) through
optimum-executorch's task export with the `ascend` recipe, run by optimum-executorch's own
runners (ExecuTorchModelForSeq2SeqLM / ExecuTorchModelForSpeechSeq2Seq `generate`, over the
program loaded with ExecuTorch's pybindings).

optimum-executorch 1.1.0's own seq2seq decoder module does not export on transformers 5.24
(test_optimum_own_seq2seq_decoder_does_not_export pins why); the recipe exports through
executorch_ascend.optimum.seq2seq instead. Each program method (encoder, text_decoder, sampler)
is one Ascend delegate with no CPU kernel (Whisper in bfloat16 too: its encoder's two Conv1d
compute in float32 between Casts, ONNX opset 17's Conv having no bfloat16); the greedy tokens
equal eager transformers' greedy decoding, and each decode step's logits equal eager's for the
same prefix.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from hf_model_dirs import EOS, eager_seq2seq_greedy, write_seq2seq

import executorch_ascend.optimum  # noqa: F401  (registers the recipe)
from executorch_ascend.pte_report import report_pte

transformers = __import__("transformers")

pytestmark = pytest.mark.emulator

STEPS = 8  # decoder tokens after the start token
CACHE = 16  # max_seq_len: the decoder's self-attention cache
ENCODER_LENGTHS = 8  # T5's encoder gears: input lengths 1..8
T5_PROMPTS = ([5, 66, 7, 80, 9, 100, 11], [12, 40, 3])  # the second after the first: a new text


def _one_delegate_per_method(pte: Path) -> None:
    methods = {r.name: r for r in report_pte(pte)}
    for name in ("encoder", "text_decoder", "sampler"):
        assert dict(methods[name].delegate_calls) == {"AscendBackend": 1}, name
        assert not methods[name].cpu_ops, (name, methods[name].cpu_ops)


def _until_eos(tokens: list[int]) -> list[int]:
    """optimum's generate stops after the first EOS it makes."""
    return tokens[: tokens.index(EOS, 1) + 1] if EOS in tokens[1:] else tokens


def _step_logits_match(pte: Path, model, encoder_input: torch.Tensor, tokens: list[int]) -> None:
    """text_decoder fed eager's tokens one per call: each step's logits equal eager's."""
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)
    states = program.load_method("encoder").execute([encoder_input])[0]
    decoder = program.load_method("text_decoder")
    key = "input_ids" if encoder_input.dtype == torch.long else "input_features"
    with torch.no_grad():
        want = model(**{key: encoder_input}, decoder_input_ids=torch.tensor([tokens])).logits[0]
    for i, token in enumerate(tokens):
        got = decoder.execute([torch.tensor([[token]]), states, torch.tensor([i])])[0][0, -1]
        tol = 1e-4 * float(want[i].abs().max())
        torch.testing.assert_close(got, want[i], atol=tol, rtol=0)


def _wave() -> np.ndarray:
    """One second of a tone in noise, 16 kHz (WhisperFeatureExtractor pads it to 30 s)."""
    t = np.arange(16000) / 16000
    noise = np.random.default_rng(0).standard_normal(16000)
    return (0.5 * np.sin(2 * np.pi * 440 * t) + 0.1 * noise).astype(np.float32)


@pytest.fixture(scope="module")
def t5(tmp_path_factory, native) -> tuple[Path, Path]:
    """A T5 directory exported with `executorch-ascend export-hf`, encoder gears 1..8 (the
    default 16 doubles the lowering time; the prompts have 7 and 3 tokens)."""
    root = tmp_path_factory.mktemp("t5")
    model_dir = write_seq2seq(root / "model", "t5")
    out = root / "out"
    done = subprocess.run(
        [sys.executable, "-m", "executorch_ascend.cli", "export-hf", str(model_dir), "--task",
         "text2text-generation", "-o", str(out), "--max-seq-len", str(CACHE),
         "--encoder-lengths", str(ENCODER_LENGTHS), "--emulator"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return model_dir, out / "model.pte"


def test_t5_methods_are_one_ascend_delegate_each(t5) -> None:
    _one_delegate_per_method(t5[1])


def test_t5_generate_equals_eager_greedy(t5) -> None:
    """optimum's ExecuTorchModelForSeq2SeqLM.generate on the program: eager's greedy tokens, for
    a prompt and then a shorter one (the decoder restarts at cache position 0)."""
    from executorch.extension.pybindings.portable_lib import _load_for_executorch
    from optimum.executorch.modeling import ExecuTorchModelForSeq2SeqLM

    model_dir, pte = t5
    model = transformers.T5ForConditionalGeneration.from_pretrained(model_dir).eval()
    runner = ExecuTorchModelForSeq2SeqLM({"model": _load_for_executorch(str(pte))}, model.config)
    wants = []
    for prompt in T5_PROMPTS:
        ids = torch.tensor([prompt])
        wants.append(_until_eos(eager_seq2seq_greedy(model, ids, STEPS)))
        assert runner.generate(ids, max_seq_len=STEPS + 1) == wants[-1], prompt
    assert len(set(wants[0][1:])) >= 4, wants  # varied tokens: a cache or position bug shows
    _step_logits_match(pte, model, torch.tensor([T5_PROMPTS[0]]), wants[0][:-1])


def test_t5_prompt_length_outside_the_gears_is_refused(t5) -> None:
    """The encoder is compiled for input lengths 1..8 (--encoder-lengths): a 9-token prompt is
    refused, not run at another shape."""
    from executorch.runtime import Runtime

    encoder = Runtime.get().load_program(t5[1]).load_method("encoder")
    n = ENCODER_LENGTHS
    assert encoder.execute([torch.ones(1, n, dtype=torch.long)])[0].shape == (1, n, 64)
    with pytest.raises(RuntimeError):
        encoder.execute([torch.ones(1, n + 1, dtype=torch.long)])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
def test_whisper_transcribes_like_eager(tmp_path, native, dtype: torch.dtype) -> None:
    """Whisper through main_export: one delegate per method; on the log-mel features of
    WhisperFeatureExtractor, optimum's ExecuTorchModelForSpeechSeq2Seq.generate makes eager's
    greedy tokens (float16, bfloat16: eager's in that dtype)."""
    from executorch.extension.pybindings.portable_lib import _load_for_executorch
    from optimum.executorch.modeling import ExecuTorchModelForSpeechSeq2Seq
    from optimum.exporters.executorch import main_export

    model_dir = write_seq2seq(tmp_path / "model", "whisper")
    name = str(dtype).removeprefix("torch.")
    main_export(
        str(model_dir),
        "automatic-speech-recognition",
        "ascend",
        str(tmp_path / "out"),
        max_seq_len=CACHE,
        dtype=name,
        recipe_kwargs={"toolchain": "emulator"},
    )
    pte = tmp_path / "out" / "model.pte"
    _one_delegate_per_method(pte)
    extractor = transformers.WhisperFeatureExtractor.from_pretrained(model_dir)
    features = extractor(_wave(), sampling_rate=16000, return_tensors="pt").input_features
    features = features.to(dtype)
    model = transformers.WhisperForConditionalGeneration.from_pretrained(model_dir, dtype=dtype)
    want = _until_eos(eager_seq2seq_greedy(model.eval(), features, STEPS))
    runner = ExecuTorchModelForSpeechSeq2Seq(
        {"model": _load_for_executorch(str(pte))}, model.config
    )
    assert [want[0], *runner.generate(features, max_seq_len=STEPS + 1)] == want
    assert len(set(want[1:])) >= 4, want
    if dtype == torch.float32:
        _step_logits_match(pte, model, features, want[:-1])


def test_seq2seq_decoder_module_equals_eager_for_tied_t5(tmp_path) -> None:
    """The decoder module the recipe exports, run eagerly on T5's default (tied) configuration:
    each step's logits equal the model's own (its output scale d_model**-0.5 included, and the
    relative position bias read from the table); the model gets its compute_bias back."""
    from executorch_ascend.optimum.seq2seq import Seq2SeqDecoderWithStaticCache

    model_dir = write_seq2seq(tmp_path / "model", "t5", tie_word_embeddings=True)
    model = transformers.T5ForConditionalGeneration.from_pretrained(model_dir).eval()
    ids = torch.tensor([T5_PROMPTS[0]])
    tokens = [0, 7, 19, 23, 5, 60]
    with torch.no_grad():  # before the module replaces the model's compute_bias
        want = model(input_ids=ids, decoder_input_ids=torch.tensor([tokens])).logits[0]
        states = model.get_encoder()(input_ids=ids).last_hidden_state
    decoder = Seq2SeqDecoderWithStaticCache(model, CACHE, 1)
    attention = model.get_decoder().block[0].layer[0].SelfAttention
    assert "compute_bias" in vars(attention)
    with torch.no_grad():
        for i, token in enumerate(tokens):
            got = decoder(torch.tensor([[token]]), states, torch.tensor([i]))[0, -1]
            torch.testing.assert_close(got, want[i], atol=1e-5 * float(want.abs().max()), rtol=0)
    decoder.restore()
    assert "compute_bias" not in vars(attention)


def test_optimum_own_seq2seq_decoder_does_not_export(tmp_path) -> None:
    """Why the recipe swaps the decoder module (seq2seq.py): optimum-executorch 1.1.0's own
    Seq2SeqLMExportableModule, on transformers 5.24, fails in torch.export on its static
    cross-attention cache of max_seq_len positions against a mask of the encoder's length.
    When this passes, the installed optimum works as it is and the swap can go."""
    from optimum.exporters.executorch.tasks.seq2seq_lm import load_seq2seq_lm_model

    model_dir = write_seq2seq(tmp_path / "model", "t5")
    module = load_seq2seq_lm_model(str(model_dir), max_seq_len=CACHE)
    with pytest.raises(Exception, match=r"broadcast.*\[1, 4, 1, 16\]"):
        module.export()


def test_encoder_lengths_gear_every_length() -> None:
    """A seq2seq encoder's dim gets every length 1..N (no padding: T5 has no encoder mask),
    capped at the dim's bound; other programs keep powers of two."""
    from executorch_ascend.optimum import choose_gears

    class Encoder(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x * 2

    def export(bound: int):
        dim = torch.export.Dim("s", max=bound)
        return torch.export.export(Encoder(), (torch.ones(1, 2),), dynamic_shapes=({1: dim},))

    lengths = [g[0] for g in choose_gears(export(64), "Ascend910B1", encoder_lengths=5)]
    assert lengths == [1, 2, 3, 4, 5]
    assert [g[0] for g in choose_gears(export(3), "Ascend910B1", encoder_lengths=5)] == [1, 2, 3]
    assert [g[0] for g in choose_gears(export(64), "Ascend910B1")] == [1, 16, 32, 64]
