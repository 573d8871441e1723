# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Tied weights stored and uploaded once: a decoder whose LM head is its embedding table
(Qwen2 with tie_word_embeddings, as Qwen2.5-0.5B ships; the table is most of its bytes here as
there) exports to a program within 10% of its parameter bytes, in float32 and float16.

torch.export gives the tied table one placeholder, read by the embedding (Gather) and the LM head
(linear). The lowering reads it as stored in both (the LM head as Gemm with transB=1, never a
transposed copy), so it is one ONNX initializer, one atc weight file and one named-data key.
Before, the LM head's transposed copy made a second weight file: 1.9 times the parameter bytes.
The program still computes eager's logits (a few decode steps through ExecuTorch's runtime)."""

from __future__ import annotations

import pytest
import torch
from ascend_helpers import ascend_lowered_modules
from model_zoo import static_cache_decoder
from parity import fp32_tolerance, max_abs_error

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower_program
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator
pytest.importorskip("transformers")

VOCAB, HIDDEN = 4096, 128
CACHE = 8
DTYPES = {"fp32": torch.float32, "fp16": torch.float16}
REL = {"fp32": 1e-4, "fp16": 1e-2}


def _parameter_bytes(model: torch.nn.Module) -> int:
    """Each distinct parameter once (model.parameters() yields a tied one once)."""
    return sum(p.numel() * p.element_size() for p in model.parameters())


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_tied_embedding_is_stored_once(native, dtype: str) -> None:
    from executorch.runtime import Runtime
    from transformers.integrations.executorch import (
        TorchExportableModuleWithStaticCache,
        convert_and_export_with_cache,
    )

    model = static_cache_decoder(
        "Qwen2Config", max_cache_len=CACHE, tie_word_embeddings=True, vocab_size=VOCAB,
        hidden_size=HIDDEN, intermediate_size=256,
    ).to(DTYPES[dtype])  # fmt: skip
    table = model.get_input_embeddings().weight
    assert model.get_output_embeddings().weight is table
    lowering = lower_program(
        convert_and_export_with_cache(model), AscendCompileSpec(toolchain="emulator")
    )
    assert lowering.summary.partitions == 1, lowering.summary
    params = _parameter_bytes(model)
    program = len(lowering.program.buffer)
    assert params <= program <= 1.10 * params, (program, params, program / params)
    # The table is one weight file of the partition, under one key.
    (module,) = ascend_lowered_modules(lowering.edge)
    sizes = [w.size for w in blob.decode(module.processed_bytes).weights]
    assert sizes.count(table.numel() * table.element_size()) == 1, sizes

    method = Runtime.get().load_program(lowering.program.buffer).load_method("forward")
    reference = TorchExportableModuleWithStaticCache(model, batch_size=1, max_cache_len=CACHE)
    for position, token in enumerate((1, 300, 7, 1999)):
        ids, pos = torch.tensor([[token]]), torch.tensor([position])
        with torch.no_grad():
            want = reference(input_ids=ids, cache_position=pos)
        (got,) = [o for o in method.execute([ids, pos]) if isinstance(o, torch.Tensor)]
        tol = fp32_tolerance([want.float()]) * REL[dtype] / 1e-4
        assert max_abs_error([got.float()], [want.float()]) <= tol, position
