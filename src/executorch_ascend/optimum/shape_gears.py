# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The shape gears the `ascend` recipe compiles an optimum-exported program for.

optimum-executorch exports with bounded dynamic dims by default (a decoder's sequence length up to
the cache length, an encoder's sequence length, ...), and atc compiles a fixed list of shapes
(docs/shape-gears.md). The gears must cover what the caller will feed:

- a decoder (`input_ids [1, S]`, `cache_position [S]`): ExecuTorch's TextLLMRunner prefills a
  prompt in chunks of at most `get_max_seq_len` tokens, the last chunk shorter, then decodes one
  token per call. So every S in [1, P] is a gear, and the recipe stores P as `get_max_seq_len`
  (and the cache length as `get_max_context_len`, which the runner reads for the context);
- a seq2seq encoder's input length (T5's `input_ids [1, s]`, and the encoder states `[1, s, d]`
  its decoder reads): T5's encoder takes no attention mask, so a padded prompt is another text
  and every length 1..N up to the recipe's `encoder_lengths` N (default 16) is a gear;
- any other symbolic dim (an encoder's sequence length, the encoder states a seq2seq decoder
  reads): its least value, the powers of two from 16 up to the dim's bound, and the bound; the
  caller pads its input up to the next gear. The recipe's `gears` option replaces the choice
  (AscendCompileSpec.dynamic_dims as it is).
"""

from __future__ import annotations

import itertools

from torch.export import ExportedProgram

from ..lowering.gears.plan import exported_symbols, symbol_ranges
from ..soc_versions import max_gears

# A decoder's largest prefill chunk unless the caller says: every length up to it is a gear.
DEFAULT_PREFILL_CHUNK = 8
# A seq2seq encoder's longest input unless the caller says: every length up to it is a gear.
DEFAULT_ENCODER_LENGTHS = 16
# The smallest power-of-two gear of a non-decoder dim: below it, padding costs little.
_SMALLEST_POWER = 16


def _powers_up_to(lower: int, upper: int) -> list[int]:
    """lower, the powers of two from 16 between, and upper."""
    values = {lower, upper}
    v = _SMALLEST_POWER
    while v < upper:
        if v > lower:
            values.add(v)
        v *= 2
    return sorted(values)


def choose_gears(
    program: ExportedProgram,
    soc_version: str,
    *,
    decoder: bool = False,
    prefill_chunk: int = DEFAULT_PREFILL_CHUNK,
    encoder_lengths: int | None = None,
) -> tuple[tuple[int, ...], ...]:
    """AscendCompileSpec.dynamic_dims for `program` (() when it has no symbolic input dim).

    A `decoder`'s symbol (its sequence length) gets the gears 1..prefill_chunk; other symbols
    powers of two up to their bound, or, given `encoder_lengths` N (a seq2seq program), every
    length 1..N. Raises ValueError when a dim has no upper bound or the
    gears exceed the chip's limit.
    """
    symbols = exported_symbols(program)
    if not symbols:
        return ()
    ranges = symbol_ranges(program)
    per_symbol: list[list[int]] = []
    for symbol in symbols:
        lower, upper = ranges.get(symbol, (1, float("inf")))
        name = str(symbol)
        if upper == float("inf"):
            raise ValueError(f"the exported dim {name} has no upper bound: atc needs one")
        # torch.export reports Dim(min=1) as [2, max] (its 0/1 specialisation); 1 is valid.
        lo, hi = max(1, lower if lower > 2 else 1), int(upper)
        if decoder:
            chosen = list(range(1, min(prefill_chunk, hi) + 1))
        elif encoder_lengths is not None:
            chosen = list(range(lo, min(encoder_lengths, hi) + 1))
        else:
            chosen = _powers_up_to(lo, hi)
        per_symbol.append(chosen)
    gears = tuple(itertools.product(*per_symbol))
    if len(gears) == 1:
        # atc takes 2 to 100 gears: one shape is a static export.
        raise ValueError(
            f"one gear {gears[0]} for {[str(s) for s in symbols]}: export with static shapes"
        )
    limit = max_gears(soc_version)
    if len(gears) > limit:
        raise ValueError(
            f"{len(gears)} gears for {[str(s) for s in symbols]} exceed {soc_version}'s limit of "
            f"{limit}: pass fewer (recipe_kwargs 'gears' or 'prefill_chunk')"
        )
    return gears
