# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A compatibility fix for optimum-executorch 1.1.0's seq2seq export (T5, Whisper) on the
transformers this project pins (5.24).

optimum's `Seq2SeqLMExportableModule` exports the decoder through its
`Seq2SeqLMDecoderExportableModuleWithStaticCache`, written for transformers 5.0.0rc1. On 5.24 it
fails, for every recipe (its own xnnpack one too), before any lowering:

- its cross-attention cache is a `StaticCache` of `max_source_positions` positions (Whisper) or
  `max_seq_len` (T5), and transformers 5.24's cross-attention attends to the whole cache while
  its mask (`create_bidirectional_mask`) follows the encoder states' length: for T5 a
  `torch.where` of a `[1, 1, 1, s]` mask against `[1, heads, 1, max_seq_len]` scores, which
  torch.export refuses;
- 5.24's `StaticLayer.update` writes at the layer's own fill counter (`cumulative_length`), not
  at `cache_position`: the cross-attention cache would be appended to on every call (past its
  end from the second step on), and the self-attention counter, not registered as a buffer by
  optimum's module, is no program state.

`Seq2SeqDecoderWithStaticCache` below is the decoder module transformers 5.24 itself exports
for seq2seq (`transformers.integrations.executorch.Seq2SeqLMDecoderExportableModuleWithStaticCache`)
with what optimum's module adds: a static self-attention cache whose counters are buffers set
from `cache_position` (so a new generation restarts at position 0), the cross-attention keys and
values computed from `encoder_hidden_states` on each call (a fresh cache whose layers return
them as computed: exactly the encoder's length), Whisper's `proj_out` as the LM head, the
model's dtype, T5's decoder output scale, and T5's decoder position bias read from a table
(`_t5_bias_table`: its bucketing's int64 ops would stay on the CPU). It keeps optimum's
constructor and forward signature, so optimum's runners keep working: `text_decoder(
decoder_input_ids [1, 1], encoder_hidden_states, cache_position [1])`.
`fixed_seq2seq_export()` puts it in place of optimum's class for the export call only.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from typing import Any, cast

import torch
from transformers.cache_utils import (
    DynamicCache,
    DynamicLayer,
    EncoderDecoderCache,
    StaticCache,
    StaticLayer,
)

# The class optimum-executorch 1.1.0 names, in the module that constructs it.
_OPTIMUM_MODULE = "optimum.exporters.executorch.integrations"
_OPTIMUM_CLASS = "Seq2SeqLMDecoderExportableModuleWithStaticCache"


def _head_shape(config: Any) -> tuple[int, int]:
    """(heads, head_dim) of the decoder's self-attention: T5 names them num_heads / d_kv,
    Whisper decoder_attention_heads / d_model."""
    heads = int(
        getattr(config, "decoder_attention_heads", None) or getattr(config, "num_heads", None) or 0
    )
    if not heads:
        heads = int(config.num_attention_heads)
    head_dim = getattr(config, "d_kv", None) or getattr(config, "head_dim", None)
    if head_dim is None:
        hidden = getattr(config, "d_model", None) or config.hidden_size
        head_dim = int(hidden) // heads
    return heads, int(head_dim)


class _EncoderStatesLayer(DynamicLayer):
    """One call's cross-attention keys and values, returned as computed and not kept.
    DynamicLayer would concatenate them to an empty tensor: a zero-size constant in the program,
    which ExecuTorch's loader refuses (no data in the constant segment)."""

    def update(
        self, key_states: torch.Tensor, value_states: torch.Tensor, *args: Any, **kwargs: Any
    ) -> tuple[torch.Tensor, torch.Tensor]:
        return key_states, value_states


class Seq2SeqDecoderWithStaticCache(torch.nn.Module):
    """`forward(decoder_input_ids [1, S], encoder_hidden_states [1, s, d], cache_position [S])`
    -> logits [1, S, vocab]; the self-attention keys and values are buffers (program state)."""

    def __init__(self, model: Any, max_static_cache_length: int, batch_size: int) -> None:
        super().__init__()
        self.decoder = model.get_decoder()
        # Whisper's LM head is proj_out; T5's lm_head (scaled input when its embeddings are tied).
        self.lm_head = getattr(model, "proj_out", None) or model.lm_head
        self.config = model.config
        self.output_scale = (
            float(model.model_dim) ** -0.5
            if getattr(self.config, "scale_decoder_outputs", False)
            else None
        )
        layers = len(self.decoder.layers) if hasattr(self.decoder, "layers") else None
        if layers is None:  # T5Stack
            layers = len(self.decoder.block)
        # StaticCache counts the layers from the config's text config; Whisper's maps
        # num_hidden_layers to the encoder's, so the decoder's own count is set here.
        cache = StaticCache(config=self.config, max_cache_len=max_static_cache_length)
        self.self_attention_layers = [StaticLayer(max_static_cache_length) for _ in range(layers)]
        cache.layers = list(self.self_attention_layers)
        heads, head_dim = _head_shape(self.config)
        device = next(model.parameters()).device
        cache.early_initialization(batch_size, heads, head_dim, model.dtype, device)
        self.static_cache = cache
        for i, layer in enumerate(self.self_attention_layers):
            self.register_buffer(f"key_cache_{i}", layer.keys, persistent=False)
            self.register_buffer(f"value_cache_{i}", layer.values, persistent=False)
            counter = cast(torch.Tensor, layer.cumulative_length)  # a tensor once initialised
            self.register_buffer(f"cumulative_length_{i}", counter, persistent=False)
        self._cross_config = copy.deepcopy(self.config)
        self._cross_config.num_hidden_layers = layers
        self._restore: list[Any] = []
        attention = _t5_decoder_bias_attention(self.decoder)
        if attention is not None:
            table = _t5_bias_table(attention, max_static_cache_length)
            self.register_buffer("relative_bias_table", table, persistent=False)
            self._restore.append(_use_bias_table(attention, table))

    def restore(self) -> None:
        """Gives the model's attention its own compute_bias back (after the export)."""
        while self._restore:
            self._restore.pop()()

    def forward(
        self,
        decoder_input_ids: torch.Tensor,
        encoder_hidden_states: torch.Tensor,
        cache_position: torch.Tensor,
    ) -> torch.Tensor:
        # The write position is the caller's: a new generation starts again at 0.
        for layer in self.self_attention_layers:
            cast(torch.Tensor, layer.cumulative_length).copy_(cache_position[0])
        # Cross-attention over exactly the encoder's positions, recomputed each call.
        cross = DynamicCache(config=self._cross_config)
        cross.layers = [_EncoderStatesLayer() for _ in cross.layers]
        cache = EncoderDecoderCache(self.static_cache, cross)
        outputs = self.decoder(
            input_ids=decoder_input_ids,
            encoder_hidden_states=encoder_hidden_states,
            cache=cache,
            use_cache=True,
        )
        hidden = outputs[0]
        if self.output_scale is not None:
            hidden = hidden * self.output_scale
        return self.lm_head(hidden)


def _t5_decoder_bias_attention(decoder: Any) -> Any:
    """The T5 decoder attention that computes the relative position bias (its first
    self-attention), or None for a model without one (Whisper)."""
    blocks = getattr(decoder, "block", None)
    if not blocks:
        return None
    attention = blocks[0].layer[0].SelfAttention
    return attention if getattr(attention, "has_relative_attention_bias", False) else None


def _t5_bias_table(attention: Any, cache_len: int) -> torch.Tensor:
    """The decoder's relative position bias for every relative position r = key - query a step
    can see, [3 * cache_len, heads]: row r + 2 * cache_len. T5 buckets r with int64 neg / where
    (`_relative_position_bucket`), which CANN's Neg and Select do not take in int64 (the
    partitioner leaves them, and the graph around them, on the CPU); the bucketing depends on r
    only, so it is done here, once, and the step reads the table with a Gather."""
    r = torch.arange(-2 * cache_len, cache_len, dtype=torch.long)
    buckets = attention._relative_position_bucket(
        r,
        bidirectional=not attention.is_decoder,
        num_buckets=attention.relative_attention_num_buckets,
        max_distance=attention.relative_attention_max_distance,
    )
    with torch.no_grad():
        return attention.relative_attention_bias(buckets).detach().clone()


def _use_bias_table(attention: Any, table: torch.Tensor) -> Any:
    """Replaces `attention.compute_bias` (on the instance) by a read of `table`; returns the
    undo."""
    offset = table.shape[0] * 2 // 3

    def compute_bias(
        query_length: int, key_length: int, device: Any = None, past_seen_tokens: Any = 0
    ) -> torch.Tensor:
        query = torch.arange(query_length, dtype=torch.long)[:, None] + past_seen_tokens
        key = torch.arange(key_length, dtype=torch.long)[None, :]
        values = torch.nn.functional.embedding(key - query + offset, table)  # [q, k, heads]
        return values.permute([2, 0, 1]).unsqueeze(0)

    attention.compute_bias = compute_bias

    def undo() -> None:
        del attention.compute_bias

    return undo


def is_seq2seq(model: Any) -> bool:
    """optimum's text2text-generation / automatic-speech-recognition exportable module."""
    return type(model).__name__ == "Seq2SeqLMExportableModule"


@contextlib.contextmanager
def fixed_seq2seq_export() -> Iterator[None]:
    """Within the block, optimum's Seq2SeqLMExportableModule exports its decoder through
    Seq2SeqDecoderWithStaticCache; optimum's own class is put back on leaving."""
    import importlib

    module = importlib.import_module(_OPTIMUM_MODULE)
    original = getattr(module, _OPTIMUM_CLASS)
    made: list[Seq2SeqDecoderWithStaticCache] = []

    def make(*args: Any, **kwargs: Any) -> Seq2SeqDecoderWithStaticCache:
        made.append(Seq2SeqDecoderWithStaticCache(*args, **kwargs))
        return made[-1]

    setattr(module, _OPTIMUM_CLASS, make)
    try:
        yield
    finally:
        setattr(module, _OPTIMUM_CLASS, original)
        for decoder in made:
            decoder.restore()
