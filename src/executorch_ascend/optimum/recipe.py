# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The `ascend` recipe of optimum-executorch's recipe registry.

optimum-executorch calls a recipe with its task's exportable module (CausalLMExportableModule,
MaskedLMExportableModule, Seq2SeqLMExportableModule, ...) and the `recipe_kwargs`; the recipe
exports it (`model.export()`: one ExportedProgram per method), lowers and returns
{file stem: ExecutorchProgramManager}, which optimum writes as `<stem>.pte` (and the `.ptd`
files). This one lowers as optimum's own XNNPACK recipe does (EdgeCompileConfig with
`_skip_dim_order`, its padding-index pass, constant methods from the model's metadata), with
AscendPartitioner and the shape gears of shape_gears.py.

recipe_kwargs: AscendCompileSpec fields (soc_version, toolchain, external_tag, ...), and
  prefill_chunk  a decoder's largest prompt chunk P (default 8): gears S = 1..P; 1 exports the
                 decode shape only and the runner feeds the prompt one token per call;
  encoder_lengths  a seq2seq (T5) encoder's longest input N (default 16): gears s = 1..N;
  gears          AscendCompileSpec.dynamic_dims for every method that has symbolic dims,
                 instead of the chosen ones.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import Any

import torch
from executorch.exir import (
    EdgeCompileConfig,
    ExecutorchBackendConfig,
    ExecutorchProgramManager,
    to_edge_transform_and_lower,
)
from executorch.exir.passes import MemoryPlanningPass
from torch.export import ExportedProgram

from ..compile_spec import AscendCompileSpec
from ..export import delegation_summary
from ..lowering.gears.plan import exported_symbols
from ..lowering.lower import TooManyGearedDims
from ..partitioner import AscendPartitioner
from ..transforms import rewrite_moe
from ..transforms.latent_cache import latent_static_cache
from .fake_parameters import export_with_fake_parameters
from .seq2seq import fixed_seq2seq_export, is_seq2seq
from .shape_gears import DEFAULT_ENCODER_LENGTHS, DEFAULT_PREFILL_CHUNK, choose_gears

RECIPE_NAME = "ascend"
log = logging.getLogger(__name__)

_SPEC_FIELDS = {f.name for f in dataclasses.fields(AscendCompileSpec)}
_RECIPE_OPTIONS = {"prefill_chunk", "gears", "encoder_lengths"}


def register() -> None:
    """Adds the `ascend` recipe to optimum-executorch's registry (idempotent)."""
    from optimum.exporters.executorch.recipe_registry import register_recipe

    register_recipe(RECIPE_NAME)(export_with_ascend)


def _is_decoder(model: torch.nn.Module) -> bool:
    """A causal LM as optimum exports it: `forward(input_ids [1, S], cache_position [S])`."""
    metadata = getattr(model, "metadata", None) or {}
    return type(model).__name__ == "CausalLMExportableModule" or bool(metadata.get("use_kv_cache"))


def export_with_ascend(model: Any, **kwargs: Any) -> dict[str, ExecutorchProgramManager]:
    """optimum-executorch's recipe entry: `model` is the task's exportable module."""
    unknown = set(kwargs) - _SPEC_FIELDS - _RECIPE_OPTIONS
    if unknown:
        raise TypeError(
            f"unknown ascend recipe option(s) {sorted(unknown)}: AscendCompileSpec fields or "
            f"{sorted(_RECIPE_OPTIONS)}"
        )
    prefill_chunk = int(kwargs.pop("prefill_chunk", DEFAULT_PREFILL_CHUNK))
    explicit_gears = kwargs.pop("gears", None)
    encoder_lengths = int(kwargs.pop("encoder_lengths", DEFAULT_ENCODER_LENGTHS))
    if prefill_chunk < 1:
        raise ValueError(f"prefill_chunk must be at least 1, got {prefill_chunk}")
    if encoder_lengths < 2:
        raise ValueError(f"encoder_lengths must be at least 2, got {encoder_lengths}")
    gear_choice = {"gears": explicit_gears, "encoder_lengths": encoder_lengths}
    original = dict(getattr(model, "metadata", None) or {})
    try:
        return _export(model, dict(original), kwargs, prefill_chunk, gear_choice)
    except Exception as e:
        if not (_is_decoder(model) and prefill_chunk > 1 and _caused_by_geared_dims(e)):
            raise
        # A deep decoder's device-state inputs (its KV cache) leave ACL no room for the gears.
        log.warning("%s; exporting the decode shape only (prefill_chunk=1)", e)
        model.metadata = original
        return _export(model, dict(original), kwargs, 1, {**gear_choice, "gears": None})


def _caused_by_geared_dims(error: BaseException | None) -> bool:
    while error is not None:
        if isinstance(error, TooManyGearedDims):
            return True
        error = error.__cause__ or error.__context__
    return False


def _export(
    model: Any,
    metadata: dict[str, Any],
    spec_fields: dict[str, Any],
    prefill_chunk: int,
    gear_choice: dict[str, Any],
) -> dict[str, ExecutorchProgramManager]:
    decoder = _is_decoder(model)
    seq2seq = is_seq2seq(model)
    if decoder:
        _fit_decoder(model, metadata, prefill_chunk)
    # transformers' expert routing (histc, nonzero) does not export: the same rewrite as every
    # export path of this project (transforms/moe.py); a model without MoE blocks is untouched.
    # A dynamic sequence length takes the dense form, which holds at every gear (strict export
    # would otherwise specialise the auto form's choice to the example's length).
    static = decoder and getattr(model, "disable_dynamic_shapes", False)
    rewrite_moe(model, "auto" if static else "dense")
    if decoder:
        # No clone of the weights (fake_parameters.py); an MLA model's cache sized for its
        # latents (transforms/latent_cache.py).
        with latent_static_cache():
            programs = export_with_fake_parameters(model)
    else:
        # optimum 1.1.0's seq2seq decoder module does not export on transformers 5.24 (seq2seq.py).
        with fixed_seq2seq_export() if seq2seq else contextlib.nullcontext():
            programs = model.export()
    if decoder and not any(exported_symbols(p) for p in programs.values()):
        _static_decoder(metadata)  # optimum exported the decode shape (e.g. a sliding window)
    if len(programs) == 1:
        # One program: ExecuTorch's runners call its method "forward".
        programs = {"forward": next(iter(programs.values()))}
    base = AscendCompileSpec(**spec_fields)
    partitioners = {
        method: [
            AscendPartitioner(
                _spec_for(
                    program,
                    base,
                    decoder,
                    prefill_chunk,
                    gear_choice["gears"],
                    gear_choice["encoder_lengths"] if seq2seq else None,
                )
            )
        ]
        for method, program in programs.items()
    }
    edge = to_edge_transform_and_lower(
        programs,
        partitioner=partitioners,
        compile_config=EdgeCompileConfig(_check_ir_validity=False, _skip_dim_order=True),
        constant_methods=metadata or None,
        transform_passes=_optimum_passes(),
    )
    for method in edge.methods:
        log.info("%s: %s", method, delegation_summary(edge.exported_program(method)))
    program = edge.to_executorch(
        ExecutorchBackendConfig(
            extract_delegate_segments=True,
            memory_planning_pass=MemoryPlanningPass(alloc_graph_input=False),
        )
    )
    return {"model": program}


# The length of optimum-executorch's example input for a dynamic decoder export
# (integrations.py, CausalLMExportableModule._prepare_export_inputs: seq_length = 3).
_EXAMPLE_TOKENS = 3


def _fit_decoder(model: Any, metadata: dict[str, Any], prefill_chunk: int) -> None:
    """The decoder's runner facts for the gears, in `metadata` (the constant methods):
    ExecuTorch's runner prefills chunks of at most `get_max_seq_len` tokens, and reads the
    context from `get_max_context_len` (else from `get_max_seq_len`, which optimum sets to the
    cache length)."""
    eos = _eos_ids(model)
    if eos and "get_eos_ids" not in metadata:
        # ExecuTorch's runner stops on these (else only on the tokenizer's own EOS).
        metadata["get_eos_ids"] = eos
    cache_len = int(metadata.get("get_max_context_len", metadata.get("get_max_seq_len", 0)))
    if cache_len:
        metadata["get_max_context_len"] = cache_len
    if prefill_chunk == 1 or not metadata.get("enable_dynamic_shape", True):
        model.disable_dynamic_shapes = True
        _static_decoder(metadata)
    else:
        chunk = min(prefill_chunk, cache_len or prefill_chunk)
        metadata["get_max_seq_len"] = chunk
        # optimum bounds the exported S at its metadata's get_max_seq_len - 1: bounded at the
        # largest gear, ExecuTorch plans the inputs and the [1, S, vocab] logits for S <= P
        # instead of the whole cache length. Its example input has 3 tokens, so the bound is at
        # least 3; the gears stay 1..P and the runner feeds at most P (get_max_seq_len).
        model.metadata = {**model.metadata, "get_max_seq_len": max(chunk, _EXAMPLE_TOKENS) + 1}


def _eos_ids(model: Any) -> list[int]:
    """The model's end-of-sequence tokens: its generation config's, else its config's."""
    ids: list[int] = []
    for source in (getattr(model.model, "generation_config", None), model.config):
        value = getattr(source, "eos_token_id", None)
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if v is not None and int(v) not in ids:
                ids.append(int(v))
        if ids:
            break
    return ids


def _static_decoder(metadata: dict[str, Any]) -> None:
    """The decode shape only: the runner then feeds the prompt one token per call."""
    metadata["enable_dynamic_shape"] = False
    metadata["get_max_seq_len"] = 1


def _spec_for(
    program: ExportedProgram,
    base: AscendCompileSpec,
    decoder: bool,
    prefill_chunk: int,
    explicit_gears: Any,
    encoder_lengths: int | None,
) -> AscendCompileSpec:
    if explicit_gears is not None and exported_symbols(program):
        gears = tuple(tuple(int(v) for v in g) for g in explicit_gears)
    else:
        gears = choose_gears(
            program,
            base.soc_version,
            decoder=decoder,
            prefill_chunk=prefill_chunk,
            encoder_lengths=encoder_lengths,
        )
    return dataclasses.replace(base, dynamic_dims=gears) if gears else base


def _optimum_passes() -> list[Any]:
    """The edge passes optimum's own recipes run (an embedding's padding_idx removed)."""
    from optimum.executorch.passes.remove_padding_idx_embedding_pass import (
        RemovePaddingIdxEmbeddingPass,
    )

    return [RemovePaddingIdxEmbeddingPass()]
