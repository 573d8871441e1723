# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The example's decoders: a Llama, Qwen2 or Qwen3-MoE CausalLM from transformers, small
config, random weights, set up for transformers' static-cache export
(convert_and_export_with_cache).

Shared by export_llm.py, benchmarks/bench_decode.py and tests/python/test_llm_example.py, so all
three build the very same model (same config, same seed) and eager greedy tokens are a reference.
"""

from __future__ import annotations

import torch
import transformers

MODELS = ("llama", "qwen2", "qwen3_moe")
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}

# Small enough to lower in seconds, big enough that a decode step is more than call overhead.
# GQA (2 KV heads for 4 query heads) as both families ship it.
_CONFIG = dict(
    vocab_size=256,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    bos_token_id=1,
    eos_token_id=2,
    pad_token_id=0,
)
_CONFIG_CLASSES = {"llama": "LlamaConfig", "qwen2": "Qwen2Config", "qwen3_moe": "Qwen3MoeConfig"}
# Qwen3-MoE: 8 experts of MLP 64, 2 per token, in every layer (its default routing: softmax
# over the experts, the top-k probabilities).
_OVERRIDES: dict[str, dict[str, object]] = {
    "qwen3_moe": dict(head_dim=16, num_experts=8, num_experts_per_tok=2, moe_intermediate_size=64),
}


def _rescale(model: torch.nn.Module, seed: int) -> None:
    """O(1) logits: unit-normal embeddings, LeCun-normal linears, norms near 1.

    transformers initialises with std 0.02, which leaves the logits near zero, where every token
    is a near-tie and greedy tokens would flip on rounding noise (as model_zoo.rescale_weights).
    """
    gen = torch.Generator().manual_seed(seed)

    def normal(t: torch.Tensor, std: float, mean: float = 0.0) -> None:
        t.copy_(torch.randn(t.shape, generator=gen) * std + mean)

    with torch.no_grad():
        for m in model.modules():
            _rescale_moe(m, normal)
            if isinstance(m, torch.nn.Embedding):
                normal(m.weight, 1.0)
            elif isinstance(m, torch.nn.Linear):
                normal(m.weight, m.in_features**-0.5)
                if m.bias is not None:  # Qwen2's q/k/v projections
                    normal(m.bias, 0.1)
            elif "norm" in type(m).__name__.lower() and isinstance(
                getattr(m, "weight", None), torch.nn.Parameter
            ):
                normal(m.weight, 0.1, mean=1.0)


def _rescale_moe(m: torch.nn.Module, normal) -> None:
    """Stacked expert weights [experts, out, in] LeCun-normal per expert; a router's weight
    [experts, hidden] likewise, so the routing is far from ties."""
    for name, p in m.named_parameters(recurse=False):
        if p.dim() == 3 and hasattr(m, "has_gate"):  # transformers' experts modules
            normal(p, p.shape[1 if getattr(m, "is_transposed", False) else 2] ** -0.5)
        elif "Router" in type(m).__name__ and name == "weight":
            normal(p, p.shape[1] ** -0.5)


def build_model(
    name: str,
    dtype: str = "fp32",
    max_cache_len: int = 64,
    seed: int = 0,
    overrides: dict[str, object] | None = None,
) -> transformers.PreTrainedModel:
    """The CausalLM, in eval mode and `dtype`, with a static cache of `max_cache_len` positions;
    `overrides` change its config (benchmarks/bench_moe.py: the number of experts)."""
    if name not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, got {name!r}")
    config = getattr(transformers, _CONFIG_CLASSES[name])(
        **{**_CONFIG, **_OVERRIDES.get(name, {}), **(overrides or {})},
        max_position_embeddings=max(max_cache_len, 128),
    )
    torch.manual_seed(seed)
    model = transformers.AutoModelForCausalLM.from_config(config)
    _rescale(model, seed)
    model = model.to(DTYPES[dtype]).eval()
    # What convert_and_export_with_cache reads: the cache is a StaticCache of this size, held as
    # mutable buffers of the exported program.
    model.generation_config.cache_implementation = "static"
    model.generation_config.cache_config = {"batch_size": 1, "max_cache_len": max_cache_len}
    return model


def kv_cache_bytes(model: torch.nn.Module, max_cache_len: int) -> int:
    """Keys and values of every layer: what crosses host<->device per call while the cache is a
    delegate input and output."""
    c = model.config
    head_dim = getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads
    per_layer = 2 * c.num_key_value_heads * max_cache_len * head_dim
    return c.num_hidden_layers * per_layer * model.dtype.itemsize


def eager_greedy(
    model: transformers.PreTrainedModel, prompt: list[int], new_tokens: int, max_cache_len: int
) -> list[int]:
    """Greedy tokens of eager PyTorch through the same static-cache wrapper that is exported,
    fed one token per call (the decode shape); the first new token comes from the prompt's last
    logits, as in llm_runner."""
    from transformers.integrations.executorch import TorchExportableModuleWithStaticCache

    module = TorchExportableModuleWithStaticCache(model, batch_size=1, max_cache_len=max_cache_len)
    tokens: list[int] = []
    with torch.no_grad():
        logits = None
        for pos, tok in enumerate(prompt):
            logits = module(input_ids=torch.tensor([[tok]]), cache_position=torch.tensor([pos]))
        for step in range(new_tokens):
            assert logits is not None
            tokens.append(int(logits[0, -1].float().argmax()))
            if step + 1 < new_tokens:
                pos = len(prompt) + step
                logits = module(
                    input_ids=torch.tensor([[tokens[-1]]]), cache_position=torch.tensor([pos])
                )
    return tokens
