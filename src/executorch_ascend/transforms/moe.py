# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Mixture-of-experts decoders from transformers, rewritten so torch.export gives a graph with
no data-dependent op.

transformers (5.x) computes the experts of a MoE block with `grouped_mm_experts_forward`
(integrations/moe.py) by default: `torch.sort` of the chosen expert ids, `torch.histc` to count
tokens per expert (not a core ATen op: `to_edge` refuses it) and `torch._grouped_mm` over the
offsets. Its "eager" form loops over `expert_hit = (...).nonzero()` and gathers
`torch.where(expert_mask[e])`, whose sizes depend on the routing. The routers pick the experts
with `torch.topk`.

`rewrite_moe(model)` replaces, per module instance (no class is patched):

- each experts module (a class decorated with transformers' `use_experts_implementation`: it
  has `down_proj` and `gate_up_proj` or `up_proj` as [experts, ...] parameters) by one of
  - `"auto"` (the default): "gathered" when the call's tokens * top_k < num_experts (a decode
    step), else "dense", decided from the traced shape (dense for a symbolic token count);
  - `"dense"`: every expert on every token as one batched MatMul over the stacked
    expert weights, then the outputs summed with the routing weights scattered to [tokens,
    experts], zero outside each token's top-k. Exact: the experts outside the top-k add an exact
    0. It costs num_experts / top_k times the top-k experts' own multiply-adds and reads every
    expert's weights on every call;
  - `"gathered"`: transformers' own `batched_mm_experts_forward`, which gathers the top-k experts'
    weight matrices per (token, slot) pair (`gate_up_proj[expert_ids]`, a Gather with computed
    indices) and runs a batched MatMul over them: the top-k experts' multiply-adds, plus a copy
    of tokens * top_k weight matrices (cheaper than dense while tokens * top_k < num_experts,
    which a decode step of one token is);
- each router of a known family (`ROUTERS`) by the same arithmetic with `dense_topk` in place
  of `torch.topk`: the k largest by comparisons, no sort, so the routing lowers with comparison,
  reduction and Gather ops. Routers of other families are left as they are (their `torch.topk`
  then needs a TopK converter).

Usable by hand before `torch.export` (`rewrite_moe(model)`); the export paths
(`executorch_ascend.export.lower`, `executorch-ascend export`, `examples/llm/export_llm.py`)
apply it to every model (a no-op without MoE blocks).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

# The forwards below read transformers' module attributes (num_experts, top_k, has_gate, ...),
# which torch.nn.Module's type does not declare: their `self` is typed Any.
FORMS = ("auto", "dense", "gathered")
# Set on each rewritten module: the form it was given.
_MARK = "_executorch_ascend_moe_form"


def topk_ranks(x: torch.Tensor) -> torch.Tensor:
    """For each entry of the last dim, how many entries come before it in descending order
    (greater, or equal at a lower index): a permutation of 0..n-1 per row, as float.

    O(n^2) comparisons per row: for a router's n experts (8 to 256) far below one expert's
    MatMul."""
    n = x.shape[-1]
    greater = (x.unsqueeze(-2) > x.unsqueeze(-1)).to(torch.float32)  # [..., e, j]: x_j > x_e
    equal = (x.unsqueeze(-2) == x.unsqueeze(-1)).to(torch.float32)
    lower = torch.ones(n, n, dtype=torch.float32, device=x.device).tril(-1)  # j < e
    return (greater + equal * lower).sum(-1)


def topk_mask(x: torch.Tensor, k: int) -> torch.Tensor:
    """True at the k largest entries of the last dim (ties: the lower index first)."""
    return topk_ranks(x) < k


def dense_topk(x: torch.Tensor, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """`torch.topk(x, k, dim=-1)` (largest, sorted; ties: the lower index first) without topk or
    sort: the entry of rank i is found by comparing the ranks with i."""
    n = x.shape[-1]
    if not 0 < k <= n:
        raise ValueError(f"dense_topk: k must be in [1, {n}], got {k}")
    ranks = topk_ranks(x)
    slots = torch.arange(k, dtype=torch.float32, device=x.device)
    chosen = ranks.unsqueeze(-2) == slots.unsqueeze(-1)  # [..., k, n]
    # where, not multiply: a chosen -inf (a masked expert) times 0 elsewhere would be NaN.
    zero = torch.zeros((), dtype=x.dtype, device=x.device)
    values = torch.where(chosen, x.unsqueeze(-2), zero).sum(-1)
    ids = torch.arange(n, dtype=torch.float32, device=x.device)
    indices = (chosen.to(torch.float32) * ids).sum(-1).to(torch.int64)
    return values, indices


# ---------------------------------------------------------------------------------------------
# Experts


def routing_matrix(
    top_k_index: torch.Tensor, top_k_weights: torch.Tensor, num_experts: int
) -> torch.Tensor:
    """[tokens, experts]: each token's routing weight at its chosen experts, 0 elsewhere."""
    experts = torch.arange(num_experts, device=top_k_index.device)
    hits = (top_k_index.unsqueeze(-1) == experts).to(top_k_weights.dtype)  # [T, k, E]
    return (hits * top_k_weights.unsqueeze(-1)).sum(-2)


def _project(
    x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, transposed: bool
) -> torch.Tensor:
    """[E, T, out] = x [T, in] through every expert's weight ([E, out, in], or [E, in, out]
    when `transposed`)."""
    w = weight if transposed else weight.transpose(-1, -2)
    y = torch.matmul(x, w)  # [T, in] @ [E, in, out] -> [E, T, out]
    return y if bias is None else y + bias.unsqueeze(-2)


def dense_experts_forward(
    self: Any,
    hidden_states: torch.Tensor,
    top_k_index: torch.Tensor,
    top_k_weights: torch.Tensor,
) -> torch.Tensor:
    """The experts of transformers' `use_experts_implementation` modules, every expert on every
    token, weighted by the routing (the module docstring). Reads the same attributes
    transformers' own forms read (has_gate, has_bias, is_transposed, _apply_gate, ...)."""
    bias = self.has_bias
    if self.has_gate:
        up_w, up_b = self.gate_up_proj, self.gate_up_proj_bias if bias else None
    else:
        up_w, up_b = self.up_proj, self.up_proj_bias if bias else None
    h = _project(hidden_states, up_w, up_b, self.is_transposed)  # [E, T, 2I] or [E, T, I]
    h = self._apply_gate(h) if self.has_gate else self.act_fn(h)
    y = _project(h, self.down_proj, self.down_proj_bias if bias else None, self.is_transposed)
    if self.has_post_expert_norm:
        y = self.post_expert_norm(y)
    weights = routing_matrix(top_k_index, top_k_weights, self.num_experts)  # [T, E]
    # Products in the promoted dtype, as transformers' forms take them (Mixtral's float32
    # routing weights lift fp16/bf16 expert outputs to float32 before the sum).
    out = (y * weights.transpose(0, 1).unsqueeze(-1)).sum(0)  # [T, H]
    return out.to(hidden_states.dtype)


def _gathered_forward() -> Callable[..., torch.Tensor]:
    from transformers.integrations.moe import batched_mm_experts_forward

    return batched_mm_experts_forward


def auto_experts_forward(
    self: Any,
    hidden_states: torch.Tensor,
    top_k_index: torch.Tensor,
    top_k_weights: torch.Tensor,
) -> torch.Tensor:
    """ "gathered" while it copies fewer weight matrices than dense reads (tokens * top_k <
    num_experts: a decode step), else "dense" (a prefill chunk, or a symbolic token count, as
    shape gears trace it: its form must hold for every gear)."""
    tokens = hidden_states.shape[0]
    gathered = isinstance(tokens, int) and tokens * top_k_index.shape[-1] < self.num_experts
    form = _gathered_forward() if gathered else dense_experts_forward
    return form(self, hidden_states, top_k_index, top_k_weights)


def is_experts(module: torch.nn.Module) -> bool:
    """A transformers experts module: `use_experts_implementation` set has_gate/is_transposed,
    and the expert weights are stacked [experts, ...]."""
    down = getattr(module, "down_proj", None)
    return (
        hasattr(module, "has_gate")
        and hasattr(module, "is_transposed")
        and isinstance(down, torch.nn.Parameter)
        and down.dim() == 3
    )


# ---------------------------------------------------------------------------------------------
# Routers: each family's arithmetic with dense_topk for torch.topk


def _softmax_topk_router(
    self: Any, hidden_states: torch.Tensor, *, always_normalize: bool, cast: bool
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Qwen2-MoE, Qwen3-MoE, OLMoE, Mixtral: softmax over the experts (float32), the top-k
    probabilities, renormalised to sum 1 (always, or when norm_topk_prob)."""
    hidden_states = hidden_states.reshape(-1, self.hidden_dim)
    logits = torch.nn.functional.linear(hidden_states, self.weight)
    probs = torch.nn.functional.softmax(logits, dtype=torch.float, dim=-1)
    values, indices = dense_topk(probs, self.top_k)
    if always_normalize or self.norm_topk_prob:
        values = values / values.sum(dim=-1, keepdim=True)
    return logits, values.to(logits.dtype) if cast else values, indices


def _topk_softmax_router(
    self: Any, hidden_states: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """GPT-OSS: the top-k logits (with the router's bias), softmax over them."""
    logits = torch.nn.functional.linear(hidden_states, self.weight, self.bias)
    values, indices = dense_topk(logits, self.top_k)
    return logits, torch.nn.functional.softmax(values, dim=1, dtype=values.dtype), indices


def _grouped_router(
    self: Any, hidden_states: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """DeepSeek-V3: sigmoid scores plus the correction bias; groups ranked by their two best
    scores, experts of the topk_group best groups only; the top-k experts' sigmoid scores,
    renormalised when norm_topk_prob, times routed_scaling_factor."""
    hidden_states = hidden_states.view(-1, self.hidden_dim)
    logits = torch.nn.functional.linear(
        hidden_states.type(torch.float32), self.weight.type(torch.float32)
    )
    scores = logits.sigmoid()
    choice = scores + self.e_score_correction_bias
    per_group = self.num_experts // self.num_group
    grouped = choice.view(-1, self.num_group, per_group)
    group_scores = dense_topk(grouped, 2)[0].sum(dim=-1)  # [T, groups]
    group_mask = topk_mask(group_scores, self.topk_group)
    expert_mask = group_mask.unsqueeze(-1).expand(-1, self.num_group, per_group)
    choice = choice.masked_fill(~expert_mask.reshape(-1, self.num_experts), float("-inf"))
    indices = dense_topk(choice, self.top_k)[1]
    weights = scores.gather(1, indices)
    if self.norm_topk_prob:
        weights = weights / (weights.sum(dim=-1, keepdim=True) + 1e-20)
    return logits, weights * self.routed_scaling_factor, indices


def _softmax_first(always_normalize: bool, cast: bool) -> Callable[..., object]:
    def forward(self: Any, hidden_states: torch.Tensor) -> object:
        return _softmax_topk_router(
            self, hidden_states, always_normalize=always_normalize, cast=cast
        )

    return forward


#: Router classes (transformers 5.x names) and their forward without torch.topk.
ROUTERS: dict[str, Callable[..., object]] = {
    "Qwen2MoeTopKRouter": _softmax_first(always_normalize=False, cast=True),
    "Qwen3MoeTopKRouter": _softmax_first(always_normalize=False, cast=True),
    "OlmoeTopKRouter": _softmax_first(always_normalize=False, cast=True),
    "MixtralTopKRouter": _softmax_first(always_normalize=True, cast=False),
    "GptOssTopKRouter": _topk_softmax_router,
    "DeepseekV3TopkRouter": _grouped_router,
}


@dataclass(frozen=True)
class MoeRewrite:
    """What `rewrite_moe` replaced."""

    experts: int  # experts modules
    routers: int  # routers
    form: str

    def __bool__(self) -> bool:
        return self.experts > 0 or self.routers > 0


def rewrite_moe(model: torch.nn.Module, form: str = "auto") -> MoeRewrite:
    """Replaces the forward of every experts module and known router in `model` (in place; the
    module docstring); returns how many. A module rewritten before keeps its form, so a user's
    own `rewrite_moe(model, "gathered")` survives the export path's `rewrite_moe(model)`. A model
    without MoE blocks is left as it is."""
    if form not in FORMS:
        raise ValueError(f"MoE form must be one of {', '.join(FORMS)}, got {form!r}")
    experts_forward = {
        "auto": auto_experts_forward,
        "dense": dense_experts_forward,
        "gathered": _gathered_forward(),
    }[form]
    experts = routers = 0
    for module in model.modules():
        if getattr(module, _MARK, None) is not None:
            continue  # rewritten before (by hand, perhaps in the other form): kept
        if is_experts(module):
            module.forward = types.MethodType(experts_forward, module)
            experts += 1
        else:
            router = ROUTERS.get(type(module).__name__)
            if router is None:
                continue
            module.forward = types.MethodType(router, module)
            routers += 1
        setattr(module, _MARK, form)
    return MoeRewrite(experts, routers, form)
