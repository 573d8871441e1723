# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Mixture-of-experts decoders (transforms/moe.py): transformers' Qwen3-MoE, OLMoE, Mixtral,
GPT-OSS and DeepSeek-V3 (MLA + MoE), each its default configuration shrunk, weights rescaled so
the routing and the logits are far from ties.

- `dense_topk` is `torch.topk` (values and indices), masked -inf entries included.
- The rewritten experts (dense and gathered) equal transformers' own eager loop on random
  routing, in float32 and bfloat16.
- The rewritten decoders give eager's logits (transformers' default grouped_mm experts), and
  export with no data-dependent op.
- Through transformers' static-cache export and the Ascend lowering: one Ascend partition, no
  op on the CPU, and 24 greedy tokens equal eager's (fp32 for every family; fp16 and bf16 for
  Qwen3-MoE; in bf16 a token may differ only at a near-tie of eager's logits, within the
  tolerance), every step's logits within the dtype's tolerance. DeepSeek-V3's cache holds MLA's
  latents (transforms/latent_cache.py), checked against the uncached model; it also runs as one
  prefill step with a padded mask.
"""

from __future__ import annotations

import copy

import pytest
import torch
from model_zoo import MOE_DECODERS, CausalLM, moe_decoder, token_inputs
from parity import bf16_tolerance, fp32_tolerance, max_abs_error

from executorch_ascend.transforms.latent_cache import latent_static_cache
from executorch_ascend.transforms.moe import FORMS, dense_topk, is_experts, rewrite_moe

pytest.importorskip("transformers")

FAMILIES = list(MOE_DECODERS)
PROMPT = (1, 17, 42, 73)
NEW_TOKENS = 24
MAX_CACHE_LEN = 32
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
REL = {"fp32": 1e-4, "fp16": 1e-2, "bf16": 3e-2}  # of max(1, max |logit|), as test_llm_generation


def _experts(model: torch.nn.Module) -> list[torch.nn.Module]:
    return [m for m in model.modules() if is_experts(m)]


def test_dense_topk_is_topk() -> None:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(40, 16, generator=g)
    for k in (1, 2, 5, 16):
        want = torch.topk(x, k, dim=-1)
        values, indices = dense_topk(x, k)
        assert torch.equal(indices, want.indices), k
        assert torch.equal(values, want.values), k
    # A router's masked experts (DeepSeek-V3's groups not kept) are -inf: never chosen while
    # k finite entries remain, and no NaN from them.
    masked = x.masked_fill(torch.rand(40, 16, generator=g) < 0.5, float("-inf"))
    masked[:, :3] = x[:, :3]
    values, indices = dense_topk(masked, 3)
    want = torch.topk(masked, 3, dim=-1)
    assert torch.equal(indices, want.indices) and torch.equal(values, want.values)
    # Over a middle dim too (DeepSeek-V3 ranks within each group).
    grouped = x.view(40, 4, 4)
    assert torch.equal(dense_topk(grouped, 2)[0], torch.topk(grouped, 2, dim=-1).values)
    with pytest.raises(ValueError, match="k must be in"):
        dense_topk(x, 17)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("dtype", ["fp32", "bf16"])
@pytest.mark.parametrize("family", FAMILIES)
def test_experts_match_eager_on_random_routing(family: str, dtype: str, form: str) -> None:
    """Random top-k expert ids (distinct per token) and weights into one experts module: the
    rewritten forward against transformers' eager loop (the class's undecorated forward)."""
    model = moe_decoder(family).to(DTYPES[dtype])
    experts = _experts(model)[0]
    eager_loop = type(experts).forward.__wrapped__  # what use_experts_implementation wraps
    g = torch.Generator().manual_seed(1)
    tokens, k = 24, model.config.num_experts_per_tok
    hidden = torch.randn(tokens, model.config.hidden_size, generator=g).to(DTYPES[dtype])
    index = torch.stack(
        [torch.randperm(experts.num_experts, generator=g)[:k] for _ in range(tokens)]
    )
    weights = torch.rand(tokens, k, generator=g).to(DTYPES[dtype])
    with torch.no_grad():
        want = eager_loop(experts, hidden, index, weights)
        rewrite_moe(experts, form)
        got = experts(hidden, index, weights)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = bf16_tolerance([want.float()]) if dtype == "bf16" else fp32_tolerance([want])
    assert max_abs_error([got.float()], [want.float()]) <= tol


@pytest.mark.parametrize("family", FAMILIES)
def test_rewritten_decoder_matches_eager_and_exports(family: str) -> None:
    from executorch.exir import to_edge

    model = moe_decoder(family)
    rewritten = copy.deepcopy(model)
    done = rewrite_moe(rewritten)
    layers = model.config.num_hidden_layers - getattr(model.config, "first_k_dense_replace", 0)
    assert (done.experts, done.routers) == (layers, layers), done
    assert rewrite_moe(rewritten).experts == 0  # kept: rewritten before
    inputs = token_inputs(12)  # 12 tokens, random routing
    with torch.no_grad():
        want = CausalLM(model)(*inputs)
        got = CausalLM(rewritten)(*inputs)
    assert max_abs_error([got], [want]) <= fp32_tolerance([want])
    # transformers' own experts (grouped_mm) stop to_edge at aten.histc; the rewrite exports.
    exported = torch.export.export(CausalLM(rewritten), inputs, strict=False)
    targets = {str(n.target) for n in to_edge(exported).exported_program().graph.nodes}
    for op in ("histc", "nonzero", "topk", "sort", "_grouped_mm"):
        assert not any(op in t for t in targets), (op, sorted(targets))


# Ops left on the CPU, and why: none (GPT-OSS's attention sinks take logits.max(dim=-1),
# lowered as ReduceMax + ArgMax since 2026-12-06).
CPU_OPS: dict[str, set[str]] = {}
# DeepSeek-V3 caches MLA's compressed latents ([1, 1, S, kv_lora_rank] and the rope keys),
# which transformers 5.24's export wrapper sizes as [1, kv_heads, S, head_dim]: the export runs
# under latent_static_cache (transforms/latent_cache.py), a no-op for the other families.
GENERATING = list(FAMILIES)


def _cases() -> list[tuple[str, str]]:
    return [(f, "fp32") for f in GENERATING] + [("qwen3_moe", "fp16"), ("qwen3_moe", "bf16")]


def _check_delegation(summary, family: str) -> None:
    cpu = set(summary.cpu_ops) - {"getitem"}
    assert cpu == CPU_OPS.get(family, set()), summary.cpu_ops
    if not cpu:
        assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary


@pytest.mark.emulator
@pytest.mark.parametrize(("family", "dtype"), _cases())
def test_moe_decoder_generates_eager_greedy_tokens(native, family: str, dtype: str) -> None:
    from executorch.runtime import Runtime
    from transformers.integrations.executorch import (
        TorchExportableModuleWithStaticCache,
        convert_and_export_with_cache,
    )

    from executorch_ascend import AscendCompileSpec
    from executorch_ascend.export import lower_program

    model = moe_decoder(family, max_cache_len=MAX_CACHE_LEN).to(DTYPES[dtype])
    with latent_static_cache():
        reference = TorchExportableModuleWithStaticCache(
            copy.deepcopy(model), batch_size=1, max_cache_len=MAX_CACHE_LEN
        )
        rewrite_moe(model)
        exported = convert_and_export_with_cache(model)
    lowering = lower_program(exported, AscendCompileSpec(toolchain="emulator"))
    _check_delegation(lowering.summary, family)

    method = Runtime.get().load_program(lowering.program.buffer).load_method("forward")
    tokens: list[int] = []
    expected: list[int] = []
    token = PROMPT[0]
    for position in range(len(PROMPT) + NEW_TOKENS - 1):
        ids, pos = torch.tensor([[token]]), torch.tensor([position])
        with torch.no_grad():
            want = reference(input_ids=ids, cache_position=pos)
        (got,) = [o for o in method.execute([ids, pos]) if isinstance(o, torch.Tensor)]
        exp = [want.float()]
        tol = bf16_tolerance(exp) if dtype == "bf16" else fp32_tolerance(exp) * REL[dtype] / 1e-4
        err = max_abs_error([got.float()], exp)
        assert err <= tol, f"{family} {dtype} step {position}: logits error {err:.3g} > {tol:.3g}"
        if position + 1 < len(PROMPT):
            token = PROMPT[position + 1]
            continue
        tokens.append(int(got[0, -1].float().argmax()))
        expected.append(int(want[0, -1].float().argmax()))
        token = expected[-1]  # both continue from eager's choice
        if dtype == "bf16" and tokens[-1] != expected[-1]:
            # bf16's 8 significant bits: eager and the emulator round at other places, and a
            # near-tie may go the other way (docs/llm.md). Only a tie within the tolerance.
            row = want[0, -1].float()
            gap = float(row[expected[-1]] - row[tokens[-1]])
            assert gap <= tol, f"step {position}: {tokens[-1]} for {expected[-1]}, gap {gap:.3g}"
            tokens[-1] = expected[-1]
    assert tokens == expected, f"{family} {dtype}"
    assert len(set(expected)) > 3, expected


def test_latent_cache_generates_what_eager_computes_without_a_cache() -> None:
    """DeepSeek-V3 in the export wrapper with its cache sized for MLA's latents: each step's
    logits are the uncached model's over the whole prefix, and the cache holds the latents
    ([1, 1, S, kv_lora_rank] and [1, 1, S, qk_rope_head_dim]), not per-head keys and values.
    Without the resize, transformers' own export wrapper cannot run the model at all."""
    from transformers.integrations.executorch import TorchExportableModuleWithStaticCache

    model = moe_decoder("deepseek_v3", max_cache_len=MAX_CACHE_LEN)
    config = model.config
    with pytest.raises(RuntimeError, match="index_copy_"):
        plain = TorchExportableModuleWithStaticCache(model, batch_size=1, max_cache_len=8)
        plain(input_ids=torch.tensor([[1]]), cache_position=torch.tensor([0]))
    with latent_static_cache():
        cached = TorchExportableModuleWithStaticCache(
            copy.deepcopy(model), batch_size=1, max_cache_len=MAX_CACHE_LEN
        )
    assert cached.key_cache_0.shape == (1, 1, MAX_CACHE_LEN, config.kv_lora_rank)
    assert cached.value_cache_0.shape == (1, 1, MAX_CACHE_LEN, config.qk_rope_head_dim)
    ids = torch.tensor([[3, 17, 42, 5, 9, 28]])
    with torch.no_grad():
        for position in range(ids.shape[1]):
            got = cached(
                input_ids=ids[:, position : position + 1], cache_position=torch.tensor([position])
            )
            want = model(input_ids=ids[:, : position + 1], use_cache=False).logits[:, -1:]
            torch.testing.assert_close(got, want, atol=1e-5 * float(want.abs().max()), rtol=0)


@pytest.mark.emulator
def test_deepseek_v3_prefill_matches_eager(native) -> None:
    """DeepSeek-V3 (MLA + grouped routing + a shared expert) as one prefill step of 8 tokens
    with a padded attention mask: one Ascend partition, eager's logits."""
    from executorch_ascend import AscendCompileSpec
    from executorch_ascend.export import lower
    from executorch_ascend.run import run_with_runtime

    model = moe_decoder("deepseek_v3")
    reference = CausalLM(copy.deepcopy(model))
    inputs = token_inputs(8)
    lowering = lower(CausalLM(model), inputs, AscendCompileSpec(toolchain="emulator"))
    _check_delegation(lowering.summary, "deepseek_v3")
    with torch.no_grad():
        want = reference(*inputs)
    (got,) = run_with_runtime(lowering.program.buffer, inputs)
    assert max_abs_error([got], [want]) <= fp32_tolerance([want])
