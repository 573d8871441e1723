# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A decoder exported by optimum with its parameters as fake tensors, then given back its own.

optimum exports a causal LM with torch.export's strict mode (TorchDynamo), which keeps a real
clone of every tensor it meets while it traces (torch/_dynamo/variables/builder.py,
`cache_real_value_when_export`, through `clone_input`): on a Qwen2.5-0.5B shape (bf16, 0.92 GiB),
its two exports peaked at 4.7 GiB, 5.2x the weights, with nothing else alive. Non-strict export
copies nothing but does not fit transformers' static cache (it lifts the cache's tensors as
constants aliasing the cache buffers, and to_edge cannot decompose the program).

So the export stays strict, and sees fake tensors (shapes and dtypes, no storage) in place of
the parameters: the example inputs are made fakes of the same FakeTensorMode, so that Dynamo
traces in that mode and has no real parameter to clone. The buffers (the KV cache, rotary
frequencies: small) stay real. After the export, each program's state dict gets the module's own
parameters back (a fake maps to the real parameter it stands for; tied weights are one
parameter, hence one fake): the program is the one the real export makes, sharing the
parameters' storage. A model whose parameters are tensor subclasses (torchao's quantized
weights) is exported as optimum does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode
from torch.export import ExportedProgram


def export_with_fake_parameters(model: Any) -> dict[str, ExportedProgram]:
    """`model.export()` for optimum's CausalLMExportableModule, with fake parameters."""
    prepare = getattr(model, "_prepare_export_inputs", None)
    params = list(model.model.parameters())
    if prepare is None or any(type(p.data) is not torch.Tensor for p in params):
        return model.export()
    fake_mode = FakeTensorMode(allow_non_fake_inputs=True)

    def fake_inputs() -> tuple[Any, ...]:
        input_ids, cache_position, *rest = prepare()
        return (fake_mode.from_tensor(input_ids), fake_mode.from_tensor(cache_position), *rest)

    with _fake_parameters(model.model, fake_mode) as real_of:
        model._prepare_export_inputs = fake_inputs
        try:
            programs: dict[str, ExportedProgram] = model.export()
        finally:
            del model._prepare_export_inputs
    for program in programs.values():
        _give_back(program, real_of)
    return programs


@contextmanager
def _fake_parameters(
    module: torch.nn.Module, fake_mode: FakeTensorMode
) -> Iterator[dict[int, torch.nn.Parameter]]:
    """Every parameter of `module` a fake one while the block runs; yields id(fake) -> real."""
    fakes: dict[int, torch.nn.Parameter] = {}  # id(real) -> its fake: a tied weight has one
    real_of: dict[int, torch.nn.Parameter] = {}
    swapped: list[tuple[torch.nn.Module, str, torch.nn.Parameter]] = []
    try:
        for owner in module.modules():
            for name, real in list(owner._parameters.items()):
                if real is None:
                    continue
                fake = fakes.get(id(real))
                if fake is None:
                    fake = torch.nn.Parameter(
                        fake_mode.from_tensor(real), requires_grad=real.requires_grad
                    )
                    fakes[id(real)] = fake
                    real_of[id(fake)] = real
                swapped.append((owner, name, real))
                owner._parameters[name] = fake
        yield real_of
    finally:
        for owner, name, real in swapped:
            owner._parameters[name] = real


def _give_back(program: ExportedProgram, real_of: dict[int, torch.nn.Parameter]) -> None:
    """The program's fake parameters replaced by the real ones they stand for."""
    for table in (program.state_dict, program.constants):
        for name, value in table.items():
            if isinstance(value, FakeTensor):
                real = real_of.get(id(value))
                if real is None:
                    raise RuntimeError(
                        f"the exported program holds a fake tensor {name!r} that is no "
                        "parameter of the model"
                    )
                table[name] = real
