# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A BERT encoder from transformers (small config, random weights, nothing downloaded) taking
input_ids and a padded attention_mask, as users call it; the export and run scripts, the test and
`executorch-ascend export encoder_model:small_bert` share it."""

from __future__ import annotations

import torch

VOCAB = 128


class LastHiddenState(torch.nn.Module):
    """BertModel returns a ModelOutput; export its last_hidden_state tensor."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state


def small_bert(seed: int = 0) -> torch.nn.Module:
    """transformers' BertModel: 2 layers, hidden 32, 4 heads, vocabulary of VOCAB tokens."""
    from transformers import BertConfig, BertModel

    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=VOCAB,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    return LastHiddenState(BertModel(config)).eval()


def example_inputs(batch: int = 2, seq: int = 16, seed: int = 1) -> dict[str, torch.Tensor]:
    """Token ids and an attention mask with the second sequence padded (its last 5 tokens)."""
    gen = torch.Generator().manual_seed(seed)
    input_ids = torch.randint(0, VOCAB, (batch, seq), generator=gen)
    attention_mask = torch.ones(batch, seq, dtype=torch.int64)
    if batch > 1:
        attention_mask[1, -5:] = 0
    return {"input_ids": input_ids, "attention_mask": attention_mask}
