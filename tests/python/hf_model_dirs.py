# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Hugging Face model directories as a user has them (config.json, weights, tokenizer.json), made
offline: a small config of each family in its default configuration, random weights rescaled so
the logits are O(1) (model_zoo.rescale_weights), and a byte-level BPE tokenizer trained on a
made-up corpus (what pytorch-tokenizers' HFTokenizer, behind ExecuTorch's TextLLMRunner, reads).
The tokenizer knows printable ASCII and the corpus' merges, no other byte, and the model's
vocabulary is exactly the tokenizer's: any token a random model picks decodes to whole UTF-8 text.
"""

from __future__ import annotations

import random
from pathlib import Path

import torch
from model_zoo import rescale_weights

transformers = __import__("transformers")

BOS, EOS = 0, 1  # the tokenizer's special tokens, trained first
_WORDS = (
    "the a cat dog sat on mat ran fast slow red blue green tree house river npu ascend model "
    "token text cube vector core chip board edge cloud"
).split()

_SMALL = dict(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=128,
    bos_token_id=BOS,
    eos_token_id=EOS,
    pad_token_id=EOS,
    tie_word_embeddings=False,
)

# Decoder families, by what the recipe's tests name them: (config class, overrides).
DECODERS: dict[str, tuple[str, dict[str, object]]] = {
    "llama": ("LlamaConfig", {}),
    # 17 layers: 34 rank-4 KV caches would give a geared .om 136 input dims, past ACL's 128; the
    # lowering flattens them to one dim each (lowered_graph.py, flat_states).
    "llama_deep": ("LlamaConfig", {"num_hidden_layers": 17}),
    "qwen3": ("Qwen3Config", {"head_dim": 16}),
    "qwen3_moe": (
        "Qwen3MoeConfig",
        {"head_dim": 16, "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32},
    ),
    "gemma3": (
        "Gemma3TextConfig",
        {
            "head_dim": 16,
            "sliding_window": 16,
            "layer_types": ["sliding_attention", "full_attention"],
        },
    ),
    # MLA (its cache holds the latents: transforms/latent_cache.py) and grouped routing.
    "deepseek_v3": (
        "DeepseekV3Config",
        {
            "num_key_value_heads": 4,
            "n_routed_experts": 8,
            "num_experts_per_tok": 2,
            "n_group": 4,
            "topk_group": 2,
            "moe_intermediate_size": 32,
            "first_k_dense_replace": 1,
            "kv_lora_rank": 16,
            "q_lora_rank": 24,
            "qk_rope_head_dim": 4,
            "qk_nope_head_dim": 8,
            "v_head_dim": 8,
        },
    ),
}


def write_tokenizer(directory: Path) -> Path:
    """A byte-level BPE tokenizer.json (up to 300 entries, <|bos|> = 0, <|eos|> = 1)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    rng = random.Random(0)
    corpus = [" ".join(rng.choice(_WORDS) for _ in range(12)) for _ in range(400)]
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<|bos|>", "<|eos|>"],
        # Printable ASCII as ByteLevel spells it (space is "Ġ"): any ASCII prompt is known text.
        initial_alphabet=[chr(c) for c in range(0x21, 0x7F)] + ["Ġ"],
        show_progress=False,
    )
    tok.train_from_iterator(corpus, trainer)
    path = directory / "tokenizer.json"
    tok.save(str(path))
    return path


def write_decoder(directory: Path, family: str, dtype: torch.dtype = torch.float32) -> Path:
    """A CausalLM directory of `family` (DECODERS) with tokenizer.json; returns the directory."""
    from tokenizers import Tokenizer

    directory.mkdir(parents=True, exist_ok=True)
    vocab = Tokenizer.from_file(str(write_tokenizer(directory))).get_vocab_size()
    config_cls, overrides = DECODERS[family]
    config = getattr(transformers, config_cls)(**{**_SMALL, "vocab_size": vocab, **overrides})
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(config)
    rescale_weights(model)
    model.to(dtype).save_pretrained(directory)
    return directory


def eager_greedy_tokens(
    directory: Path,
    prompt: str,
    new_tokens: int,
    dtype: torch.dtype = torch.float32,
    qlinear: str | None = None,
) -> list[int]:
    """Eager greedy decoding of the saved model: `new_tokens` argmax steps (no EOS stop) from the
    prompt as the tokenizer encodes it, no BOS added (TextLLMRunner with num_bos=0). `qlinear`
    ("8w", "4w") quantizes the model first as optimum's `--qlinear` does (torchao weight-only,
    through optimum-executorch's own quantize_model_)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(directory / "tokenizer.json"))
    ids = tok.encode(prompt).ids
    model = transformers.AutoModelForCausalLM.from_pretrained(directory, dtype=dtype).eval()
    if qlinear is not None:
        from optimum.exporters.executorch.quantization import quantize_model_

        quantize_model_(model, qlinear_config=qlinear)
    new: list[int] = []
    with torch.no_grad():
        for _ in range(new_tokens):
            logits = model(torch.tensor([ids + new])).logits
            new.append(int(logits[0, -1].float().argmax()))
    return new


def write_model(directory: Path, kind: str) -> Path:
    """A fill-mask BERT ("bert": 64 positions) or an image-classification ViT ("vit": 32x32
    images, 10 labels) directory, default configuration shrunk in size only."""
    if kind == "bert":
        config = transformers.BertConfig(
            vocab_size=96,
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=64,
            max_position_embeddings=64,
        )
        model = transformers.BertForMaskedLM(config)
    elif kind == "vit":
        config = transformers.ViTConfig(
            image_size=32,
            patch_size=8,
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=64,
            num_labels=10,
        )
        model = transformers.ViTForImageClassification(config)
    else:
        raise ValueError(kind)
    torch.manual_seed(0)
    rescale_weights(model)
    model.save_pretrained(directory)
    return directory


def write_seq2seq(directory: Path, kind: str, tie_word_embeddings: bool = False) -> Path:
    """A text2text-generation T5 ("t5") or automatic-speech-recognition Whisper ("whisper")
    directory with tokenizer.json (Whisper: and WhisperFeatureExtractor()'s
    preprocessor_config.json, 80 mel bins, 3000 frames: optimum reads the encoder's input shape
    from it). Token 0 starts the decoder, 1 ends it. Untied heads unless asked: a random tied
    head scores the input token's own embedding highest and greedy repeats it. Weights rescaled
    with seed 1, which gives varied greedy tokens for the tests' inputs."""
    from tokenizers import Tokenizer

    directory.mkdir(parents=True, exist_ok=True)
    vocab = Tokenizer.from_file(str(write_tokenizer(directory))).get_vocab_size()
    common = dict(
        vocab_size=vocab,
        pad_token_id=BOS if kind == "t5" else EOS,
        eos_token_id=EOS,
        decoder_start_token_id=BOS,
        tie_word_embeddings=tie_word_embeddings,
    )
    if kind == "t5":
        config = transformers.T5Config(
            d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4, **common
        )
        model = transformers.T5ForConditionalGeneration(config)
    elif kind == "whisper":
        config = transformers.WhisperConfig(
            d_model=64,
            encoder_layers=2,
            decoder_layers=2,
            encoder_attention_heads=4,
            decoder_attention_heads=4,
            encoder_ffn_dim=128,
            decoder_ffn_dim=128,
            max_target_positions=64,
            bos_token_id=BOS,
            suppress_tokens=[],
            begin_suppress_tokens=[],
            **common,
        )
        model = transformers.WhisperForConditionalGeneration(config)
        transformers.WhisperFeatureExtractor().save_pretrained(directory)
    else:
        raise ValueError(kind)
    rescale_weights(model, seed=1)
    model.save_pretrained(directory)
    return directory


def eager_seq2seq_greedy(model: torch.nn.Module, encoder_input: torch.Tensor, steps: int) -> list:
    """Eager greedy decoding without a cache: the decoder start token, then `steps` argmax tokens
    (no EOS stop), each from the whole prefix (T5: input_ids; Whisper: input_features)."""
    key = "input_ids" if encoder_input.dtype == torch.long else "input_features"
    tokens = [int(model.config.decoder_start_token_id)]
    with torch.no_grad():
        for _ in range(steps):
            logits = model(**{key: encoder_input}, decoder_input_ids=torch.tensor([tokens])).logits
            tokens.append(int(logits[0, -1].float().argmax()))
    return tokens
