# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Hugging Face model directory -> optimum-executorch's task export with the `ascend` recipe ->
model.pte -> ExecuTorch's own TextLLMRunner with the model's tokenizer.json -> text.

For small Llama, Qwen3, Qwen3-MoE (the recipe applies transforms/moe.py), Gemma 3 and DeepSeek-V3
(MLA, its cache holding the latents: transforms/latent_cache.py) decoders
(default configurations, random weights rescaled so the logits are O(1), see hf_model_dirs): the
`forward` method is one Ascend delegate with no CPU kernel, and the runner's greedy text equals
eager transformers' greedy decoding, for a prompt, then another prompt after `reset`; the runner
stops on an end-of-sequence token it reads from the program's `get_eos_ids`. Llama runs with shape
gears (prompt chunks of 1..4 tokens in one call each) and is exported with `executorch-ascend
export-hf`; Qwen3 with the decode shape only (the prompt fed one token per call); Gemma 3 as
optimum exports a sliding-window model (the decode shape). BERT (fill-mask) and ViT (image
classification) go through the recipe too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from hf_model_dirs import EOS, eager_greedy_tokens, write_decoder

import executorch_ascend.optimum  # noqa: F401  (registers the recipe)
from executorch_ascend.pte_report import report_pte

pytestmark = pytest.mark.emulator

PROMPTS = ("the cat sat on the", "a red tree by the river")
NEW_TOKENS = 12
STOP_AFTER = 5  # the second prompt's 5th greedy token is made an EOS: the runner stops there
CACHE = 48
FAMILIES = {
    "llama": 4,
    "llama_deep": 2,
    "qwen3": 1,
    "qwen3_moe": 4,
    "gemma3": 4,
    "deepseek_v3": 2,
}  # family -> prefill_chunk asked of the recipe


def _until_eos(tokens: list[int], eos: set[int]) -> list[int]:
    """What TextLLMRunner emits: the prefill's token always (it checks EOS only on the tokens
    its decode loop makes), then up to and including the first EOS."""
    for i, t in enumerate(tokens[1:], 1):
        if t in eos:
            return tokens[: i + 1]
    return tokens


@pytest.fixture(scope="module", params=list(FAMILIES))
def exported(request, tmp_path_factory, native) -> tuple[str, Path, Path, dict]:
    """(family, model directory, model.pte, eager greedy tokens per prompt); the directory's
    EOS list gets the second prompt's STOP_AFTER-th token, as a model's config lists several."""
    from optimum.exporters.executorch import main_export

    family = request.param
    root = tmp_path_factory.mktemp(f"hf-{family}")
    model_dir = write_decoder(root / "model", family)
    eager = {p: eager_greedy_tokens(model_dir, p, NEW_TOKENS) for p in PROMPTS}
    stop = eager[PROMPTS[1]][STOP_AFTER - 1]
    for name in ("config.json", "generation_config.json"):
        path = model_dir / name
        data = json.loads(path.read_text())
        data["eos_token_id"] = [EOS, stop]
        path.write_text(json.dumps(data))
    out = root / "out"
    if family == "llama":  # the command line's way, which calls the same main_export
        _cli(
            "export-hf", str(model_dir), "--task", "text-generation", "-o", str(out),
            "--max-seq-len", str(CACHE), "--prefill-chunk", str(FAMILIES[family]), "--emulator",
        )  # fmt: skip
    else:
        main_export(
            str(model_dir),
            "text-generation",
            "ascend",
            str(out),
            max_seq_len=CACHE,
            recipe_kwargs={"prefill_chunk": FAMILIES[family], "toolchain": "emulator"},
        )
    return family, model_dir, out / "model.pte", {"eager": eager, "eos": {EOS, stop}}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "executorch_ascend.cli", *args], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_export_hf_refuses_a_folder_that_is_no_model(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "executorch_ascend.cli", "export-hf", str(tmp_path), "--task",
         "text-generation", "-o", str(tmp_path / "out")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2
    assert "is not a model directory (no config.json)" in done.stderr


def test_forward_is_one_ascend_delegate(exported) -> None:
    _, _, pte, _ = exported
    forward = {r.name: r for r in report_pte(pte)}["forward"]
    assert dict(forward.delegate_calls) == {"AscendBackend": 1}
    assert not forward.cpu_ops, forward.cpu_ops


def test_runner_metadata_matches_the_gears(exported) -> None:
    from executorch.runtime import Runtime

    family, _, pte, ref = exported
    program = Runtime.get().load_program(pte)
    facts = [m for m in program.method_names if m != "forward"]
    value = {m: program.load_method(m).execute([]) for m in facts}
    chunk = FAMILIES[family] if family != "gemma3" else 1
    assert value["get_max_seq_len"][0] == chunk
    assert value["get_max_context_len"][0] == CACHE
    assert bool(value["enable_dynamic_shape"][0]) == (chunk > 1)
    assert set(value["get_eos_ids"]) == ref["eos"]


def test_text_llm_runner_text_equals_eager_greedy(exported) -> None:
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner
    from tokenizers import Tokenizer

    _, model_dir, pte, ref = exported
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    runner = TextLLMRunner(str(pte), str(model_dir / "tokenizer.json"))
    for i, prompt in enumerate(PROMPTS):
        if i:
            runner.reset()
        pieces: list[str] = []
        config = GenerationConfig(
            echo=False, max_new_tokens=NEW_TOKENS, temperature=0.0, num_bos=0, num_eos=0
        )
        runner.generate(prompt, config, token_callback=pieces.append)
        expected = _until_eos(ref["eager"][prompt], ref["eos"])
        # The runner emits the EOS it stops on as text too, a special token's included.
        want = tok.decode(expected, skip_special_tokens=False)
        assert "".join(pieces).strip() == want.strip(), (prompt, expected)
    # the second prompt stopped on the EOS read from get_eos_ids, STOP_AFTER tokens in
    assert len(expected) <= STOP_AFTER


def _export_task(tmp_path: Path, kind: str, task: str) -> tuple[Path, Path]:
    from hf_model_dirs import write_model
    from optimum.exporters.executorch import main_export

    model_dir = write_model(tmp_path / kind, kind)
    main_export(
        str(model_dir),
        task,
        "ascend",
        str(tmp_path / "out"),
        recipe_kwargs={"toolchain": "emulator"},
    )
    pte = tmp_path / "out" / "model.pte"
    forward = {r.name: r for r in report_pte(pte)}["forward"]
    assert dict(forward.delegate_calls) == {"AscendBackend": 1}
    assert not forward.cpu_ops, forward.cpu_ops
    return model_dir, pte


def test_fill_mask_runs_at_its_gears(tmp_path, native) -> None:
    """optimum exports BERT's sequence length dynamic (torch.export bounds it by the 64 position
    embeddings): the recipe compiles the gears 1, 16, 32 and 64, and a padded batch at a gear
    equals eager's logits; a length between gears is refused, not run wrong."""
    import transformers
    from executorch.runtime import Runtime

    model_dir, pte = _export_task(tmp_path, "bert", "fill-mask")
    eager = transformers.BertForMaskedLM.from_pretrained(model_dir).eval()
    method = Runtime.get().load_program(pte).load_method("forward")
    gen = torch.Generator().manual_seed(1)
    for seq in (16, 32, 64):
        ids = torch.randint(0, 96, (1, seq), generator=gen)
        mask = torch.ones(1, seq, dtype=torch.long)
        mask[0, seq - 5 :] = 0  # padding up to the gear
        with torch.no_grad():
            want = eager(ids, attention_mask=mask).logits
        got = method.execute([ids, mask])[0]
        assert got.shape == want.shape
        torch.testing.assert_close(got, want, atol=1e-4 * float(want.abs().max()), rtol=0)
    with pytest.raises(RuntimeError):
        method.execute([ids[:, :20], mask[:, :20]])  # not a gear: refused, not run wrong


def test_image_classification_through_the_recipe(tmp_path, native) -> None:
    import transformers
    from executorch.runtime import Runtime

    model_dir, pte = _export_task(tmp_path, "vit", "image-classification")
    eager = transformers.ViTForImageClassification.from_pretrained(model_dir).eval()
    pixels = torch.randn(1, 3, 32, 32, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        want = eager(pixels).logits
    got = Runtime.get().load_program(pte).load_method("forward").execute([pixels])[0]
    torch.testing.assert_close(got, want, atol=1e-4 * float(want.abs().max()), rtol=0)


def test_recipe_refuses_unknown_options() -> None:
    from executorch_ascend.optimum import export_with_ascend

    with pytest.raises(TypeError, match="unknown ascend recipe option"):
        export_with_ascend(torch.nn.Identity(), prefill_chunks=4)
    with pytest.raises(ValueError, match="prefill_chunk must be at least 1"):
        export_with_ascend(torch.nn.Identity(), prefill_chunk=0)
    with pytest.raises(ValueError, match="encoder_lengths must be at least 2"):
        export_with_ascend(torch.nn.Identity(), encoder_lengths=1)


@pytest.mark.parametrize("qlinear", ["4w", "8w", "8da4w"])
def test_weight_only_quantized_decoder_through_the_recipe(tmp_path, native, qlinear: str) -> None:
    """optimum's `--qlinear 4w|8w` (torchao weight-only int4 per group of 32, int8 per channel)
    and `8da4w` (int8 per-token activations too, at prompt gears 1..2) in float16: one Ascend
    delegate (NPUWeightQuantBatchMatmulV2), and TextLLMRunner's text equals the quantized eager
    model's greedy text."""
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner
    from tokenizers import Tokenizer

    model_dir = write_decoder(tmp_path / "model", "llama", torch.float16)
    out = tmp_path / "out"
    _cli(
        "export-hf", str(model_dir), "--task", "text-generation", "-o", str(out), "--dtype",
        "float16", "--qlinear", qlinear, "--max-seq-len", str(CACHE), "--prefill-chunk",
        "2" if qlinear.startswith("8da") else "1",
        "--emulator",
    )  # fmt: skip
    forward = {r.name: r for r in report_pte(out / "model.pte")}["forward"]
    assert dict(forward.delegate_calls) == {"AscendBackend": 1}
    assert not forward.cpu_ops, forward.cpu_ops
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    want = eager_greedy_tokens(model_dir, PROMPTS[0], NEW_TOKENS, torch.float16, qlinear)
    pieces: list[str] = []
    runner = TextLLMRunner(str(out / "model.pte"), str(model_dir / "tokenizer.json"))
    config = GenerationConfig(echo=False, max_new_tokens=NEW_TOKENS, temperature=0.0)
    runner.generate(PROMPTS[0], config, token_callback=pieces.append)
    assert "".join(pieces).strip() == tok.decode(_until_eos(want, {EOS})).strip()


def test_decoder_export_allocates_no_copy_of_the_weights(tmp_path) -> None:
    """optimum's strict export clones every parameter it meets, 2x the weights and more: the
    recipe's export (optimum/fake_parameters.py) allocates far less than the weights, reads the
    model's own parameters, and computes what optimum's own export computes. Counted by the CPU
    allocator through torch's profiler: bytes, not RSS or time."""
    import transformers
    from optimum.exporters.executorch.tasks.causal_lm import load_causal_lm_model

    from executorch_ascend.optimum.fake_parameters import export_with_fake_parameters

    config = transformers.Qwen2Config(
        vocab_size=16384, hidden_size=256, intermediate_size=512, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, tie_word_embeddings=True,
    )  # fmt: skip
    torch.manual_seed(0)
    transformers.Qwen2ForCausalLM(config).save_pretrained(tmp_path)
    model = load_causal_lm_model(str(tmp_path), dtype="float32", max_seq_len=CACHE)
    params = list(model.model.parameters())
    weights = sum(p.numel() * p.element_size() for p in params)
    assert weights > 16 << 20  # the 16 MiB embedding, tied: counted once
    activity = [torch.profiler.ProfilerActivity.CPU]
    with torch.profiler.profile(activities=activity, profile_memory=True) as prof:
        (program,) = export_with_fake_parameters(model).values()
    allocated = sum(max(e.self_cpu_memory_usage, 0) for e in prof.events())
    # optimum's own export: 173 MB for these 21 MB of weights.
    assert allocated < 0.25 * weights, f"{allocated} bytes allocated for {weights} of weights"
    own = {p.untyped_storage().data_ptr() for p in params}
    assert {t.untyped_storage().data_ptr() for t in program.state_dict.values()} == own
    assert all(p.device.type == "cpu" and type(p.data) is torch.Tensor for p in params)
    assert "_prepare_export_inputs" not in vars(model)  # the export's stand-in is gone
    (reference,) = model.export().values()
    ids, positions = torch.tensor([[5, 7, 9]]), torch.arange(3)
    with torch.no_grad():
        got = program.module()(input_ids=ids, cache_position=positions)
        want = reference.module()(input_ids=ids, cache_position=positions)
    torch.testing.assert_close(got, want, rtol=0, atol=0)
