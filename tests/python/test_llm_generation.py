# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Greedy generation through transformers' static-cache export, the way a generation loop runs
it: the prompt fed one token per call with its cache_position, then 32 greedy tokens, in fp32,
fp16 and bf16, for a Llama, a Qwen2 and a Phi-3 with longrope scaling (default configuration
and attention implementation, weights rescaled so the logits are far from zero). Phi-3's fp16
and bf16 programs rely on lowering/copy_casts.py (longrope's float32 copy_ into its buffer).

Each program is one Ascend partition with no compute op on the CPU, the KV cache is device
state (the blob lists it), the tokens equal eager's token for token and every step's logits are
within the dtype's tolerance; per call only input_ids and cache_position go to the device and
only the logits come back (the emulator's counters): the cache never crosses."""

from __future__ import annotations

import os

import pytest
import torch
from ascend_helpers import ascend_lowered_modules
from executorch.exir import to_edge_transform_and_lower
from executorch_ascend_emulator.stats import read_stats
from model_zoo import static_cache_decoder
from parity import bf16_tolerance, fp32_tolerance, max_abs_error

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import delegation_summary, lower_program
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator

PROMPT = (1, 17, 42, 73)
NEW_TOKENS = 32
MAX_CACHE_LEN = 40
_HEAD = 8  # hidden 32 / 4 heads (model_zoo's decoder config)
FAMILIES = {
    "llama": ("LlamaConfig", {}),
    "qwen2": ("Qwen2Config", {}),
    # Phi-3's longrope picks short or long factors by max(position) + 1 > 16 (the original
    # context): the prompt and 32 tokens run past it, so both factor sets are exercised.
    "phi3_longrope": (
        "Phi3Config",
        {
            "max_position_embeddings": 64,
            "original_max_position_embeddings": 16,
            "rope_scaling": {
                "rope_type": "longrope",
                "short_factor": [1.0 + 0.1 * i for i in range(_HEAD // 2)],
                "long_factor": [2.0 + 0.3 * i for i in range(_HEAD // 2)],
            },
        },
    ),
}
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
# Relative to max(1, max |logit|): fp32 as everywhere; fp16 and bf16 as their significands allow
# after a dozen layers of rounding (the emulator accumulates in fp32, eager PyTorch on the CPU
# rounds at other places).
REL = {"fp32": 1e-4, "fp16": 1e-2, "bf16": 3e-2}


def _traffic() -> tuple[int, int]:
    stats = read_stats(os.environ["EXECUTORCH_ASCEND_ACL_LIB"])
    return stats["bytes_host_to_device"], stats["bytes_device_to_host"]


def _within(actual: torch.Tensor, expected: torch.Tensor, dtype: str) -> tuple[float, float]:
    exp = [expected.float()]
    tol = bf16_tolerance(exp) if dtype == "bf16" else fp32_tolerance(exp) * REL[dtype] / 1e-4
    return max_abs_error([actual.float()], exp), tol


@pytest.mark.parametrize(
    ("family", "dtype"),
    [(f, d) for f in FAMILIES for d in DTYPES],
)
def test_greedy_generation_matches_eager(native, family: str, dtype: str) -> None:
    from executorch.runtime import Runtime
    from transformers.integrations.executorch import (
        TorchExportableModuleWithStaticCache,
        convert_and_export_with_cache,
    )

    config_cls, overrides = FAMILIES[family]
    model = static_cache_decoder(config_cls, max_cache_len=MAX_CACHE_LEN, **overrides)
    model = model.to(DTYPES[dtype])
    lowering = lower_program(
        convert_and_export_with_cache(model), AscendCompileSpec(toolchain="emulator")
    )
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    (module,) = ascend_lowered_modules(lowering.edge)
    states = blob.decode(module.processed_bytes).states
    cache_bytes = sum(s.size for s in states if "cache" in s.name)
    layers = model.config.num_hidden_layers
    assert sum("cache" in s.name for s in states) == 2 * layers, [s.name for s in states]

    method = Runtime.get().load_program(lowering.program.buffer).load_method("forward")
    reference = TorchExportableModuleWithStaticCache(
        model, batch_size=1, max_cache_len=MAX_CACHE_LEN
    )
    logits_bytes = model.config.vocab_size * DTYPES[dtype].itemsize
    tokens: list[int] = []
    expected_tokens: list[int] = []
    token = PROMPT[0]
    for position in range(len(PROMPT) + NEW_TOKENS - 1):
        ids, pos = torch.tensor([[token]]), torch.tensor([position])
        with torch.no_grad():
            want = reference(input_ids=ids, cache_position=pos)
        before = _traffic()
        (got,) = [o for o in method.execute([ids, pos]) if isinstance(o, torch.Tensor)]
        after = _traffic()
        assert (after[0] - before[0], after[1] - before[1]) == (16, logits_bytes), (
            f"step {position}: the {cache_bytes}-byte cache must stay on the device"
        )
        assert got.dtype == want.dtype
        err, tol = _within(got, want, dtype)
        assert err <= tol, f"{family} {dtype} step {position}: logits error {err:.3g} > {tol:.3g}"
        if position + 1 < len(PROMPT):
            token = PROMPT[position + 1]
            continue
        tokens.append(int(got[0, -1].float().argmax()))
        expected_tokens.append(int(want[0, -1].float().argmax()))
        token = expected_tokens[-1]  # both continue from eager's choice
    assert len(tokens) == NEW_TOKENS
    assert tokens == expected_tokens, f"{family} {dtype}"
    # The tokens are not all one: a stuck generation would not show a wrong cache.
    assert len(set(expected_tokens)) > 3, expected_tokens


def test_executorch_llama_transformer_keeps_its_cache_on_the_device(native) -> None:
    """ExecuTorch's own Llama (examples/models/llama: llama_transformer with its KVCache
    module, use_kv_cache=True, exported as its export_llama does for a static shape, tokens
    [1, 1] and input_pos [1]): one Ascend partition, every KV cache owned as device state, 16 B
    in and the logits out per call, greedy tokens equal eager's."""
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs
    from executorch.runtime import Runtime

    from executorch_ascend import AscendPartitioner

    args = ModelArgs(
        dim=64, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=256, hidden_dim=128,
        max_seq_len=MAX_CACHE_LEN, max_context_len=MAX_CACHE_LEN, use_kv_cache=True,
    )  # fmt: skip
    torch.manual_seed(0)
    model = construct_transformer(args).eval()
    with torch.no_grad():  # O(1) logits, as static_cache_decoder rescales transformers' models
        for p in model.parameters():
            if p.dim() >= 2:
                p.copy_(torch.randn_like(p) * p.shape[-1] ** -0.5)
        model.tok_embeddings.weight.normal_()
    reference = construct_transformer(args).eval()
    reference.load_state_dict(model.state_dict())

    example = (torch.tensor([[1]]), {"input_pos": torch.tensor([0])})
    partitioner = AscendPartitioner(AscendCompileSpec(toolchain="emulator"))
    edge = to_edge_transform_and_lower(
        torch.export.export(model, example, strict=False), partitioner=[partitioner]
    )
    summary = delegation_summary(edge)
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    assert sorted(partitioner.owned_buffers) == [
        f"layers.{i}.attention.kv_cache.{kv}_cache" for i in range(2) for kv in "kv"
    ]
    method = Runtime.get().load_program(edge.to_executorch().buffer).load_method("forward")
    token, tokens, expected = PROMPT[0], [], []
    for position in range(len(PROMPT) + NEW_TOKENS - 1):
        ids, pos = torch.tensor([[token]]), torch.tensor([position])
        with torch.no_grad():
            want = reference(ids, {"input_pos": pos})
        before = _traffic()
        (got,) = method.execute([ids, pos])
        after = _traffic()
        assert (after[0] - before[0], after[1] - before[1]) == (16, 4 * 256), position
        err, tol = _within(got, want, "fp32")
        assert err <= tol, f"step {position}: logits error {err:.3g} > {tol:.3g}"
        if position + 1 < len(PROMPT):
            token = PROMPT[position + 1]
            continue
        tokens.append(int(got.argmax(-1)))
        expected.append(int(want.argmax(-1)))
        token = expected[-1]
    assert tokens == expected
    assert len(set(expected)) > 3, expected
