# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What the `export` and `explain` commands take: a model factory (MODULE:FACTORY, importable from
the current folder) and typed example inputs (NAME:SHAPE:DTYPE[:VALUES]).

Every mistake a user can make on the command line becomes a CliError: one line, no traceback.

    --input pixel_values:1,3,32,32:float32      torch.randn
    --input input_ids:1,8:int64:1000            integers from [0, 1000)
    --input input_ids:1,8:int64:5..100          integers from [5, 100)
    --input attention_mask:1,8:int64:ones       all ones (also: zeros)

Integer inputs default to [0, 2): ids every vocabulary has, and a 0/1 mask. The inputs are passed
to `forward` by keyword, in the order given, which is the order the exported method takes them.
A factory returns an nn.Module, or (module, example_inputs) with example_inputs a tuple
(positional) or a dict (keywords); --input options replace the factory's inputs. It is called
after torch.manual_seed(--seed), so a model with random weights is the same in every run.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch


class CliError(Exception):
    """A user error on the command line: printed as one line, exit status 2."""

    exit_status = 2


# Names accepted on the command line -> torch dtype attribute names.
DTYPES: dict[str, str] = {
    "float32": "float32",
    "fp32": "float32",
    "float16": "float16",
    "fp16": "float16",
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "float64": "float64",
    "int64": "int64",
    "int32": "int32",
    "int16": "int16",
    "int8": "int8",
    "uint8": "uint8",
    "bool": "bool",
}
_INTEGER = ("int64", "int32", "int16", "int8", "uint8")
INPUT_SYNTAX = "NAME:SHAPE:DTYPE[:VALUES], e.g. pixel_values:1,3,32,32:float32"
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)$")


@dataclass(frozen=True)
class InputSpec:
    name: str
    shape: tuple[int, ...]
    dtype: str  # a torch dtype attribute name: "float32", "int64", ...
    values: str | None = None  # integers: "HIGH", "LOW..HIGH", "ones", "zeros"

    def describe(self) -> str:
        values = f":{self.values}" if self.values else ""
        return f"{self.name}:{','.join(map(str, self.shape))}:{self.dtype}{values}"


def parse_shape(text: str, what: str) -> tuple[int, ...]:
    """'1,3,224,224' -> (1, 3, 224, 224); '' is a scalar's shape ()."""
    if text == "":
        return ()
    parts = text.split(",")
    if not all(re.fullmatch(r"\d+", p.strip()) for p in parts):
        raise CliError(
            f"bad {what}: shape {text!r} must be comma-separated sizes such as 1,3,224,224"
        )
    return tuple(int(p) for p in parts)


def parse_input(text: str) -> InputSpec:
    """One --input NAME:SHAPE:DTYPE[:VALUES]."""
    fields = text.split(":")
    if len(fields) not in (3, 4):
        raise CliError(f"bad --input {text!r}: expected {INPUT_SYNTAX}")
    name, shape_text, dtype_text = fields[:3]
    if not _NAME.match(name):
        raise CliError(f"bad --input {text!r}: {name!r} is not a parameter name ({INPUT_SYNTAX})")
    shape = parse_shape(shape_text, f"--input {text!r}")
    dtype = DTYPES.get(dtype_text.lower())
    if dtype is None:
        raise CliError(
            f"bad --input {text!r}: unknown dtype {dtype_text!r} "
            f"(one of {', '.join(sorted(set(DTYPES.values())))})"
        )
    values = fields[3] if len(fields) == 4 else None
    if values is not None:
        _check_values(text, dtype, values)
    return InputSpec(name, shape, dtype, values)


def _check_values(text: str, dtype: str, values: str) -> None:
    if values in ("ones", "zeros"):
        return
    if dtype not in _INTEGER:
        raise CliError(
            f"bad --input {text!r}: VALUES {values!r} is for integer inputs "
            "(floats are randn; ones/zeros work for every dtype)"
        )
    match = _RANGE.match(values)
    low, high = (int(match[1]), int(match[2])) if match else (0, _int_or_none(values))
    if high is None:
        raise CliError(
            f"bad --input {text!r}: VALUES must be HIGH, LOW..HIGH, ones or zeros; got {values!r}"
        )
    if high <= low:
        raise CliError(f"bad --input {text!r}: the range [{low}, {high}) is empty")


def _int_or_none(text: str) -> int | None:
    return int(text) if re.fullmatch(r"-?\d+", text) else None


def make_tensor(spec: InputSpec, generator: torch.Generator) -> torch.Tensor:
    """An example tensor for `spec`: randn for floats, integers in the VALUES range (default
    [0, 2)), random bools."""
    import torch

    dtype = getattr(torch, spec.dtype)
    if spec.values == "ones":
        return torch.ones(spec.shape, dtype=dtype)
    if spec.values == "zeros":
        return torch.zeros(spec.shape, dtype=dtype)
    if spec.dtype == "bool":
        return torch.randint(0, 2, spec.shape, generator=generator).bool()
    if spec.dtype in _INTEGER:
        low, high = 0, 2
        if spec.values is not None:
            match = _RANGE.match(spec.values)
            low, high = (int(match[1]), int(match[2])) if match else (0, int(spec.values))
        return torch.randint(low, high, spec.shape, generator=generator, dtype=dtype)
    return torch.randn(spec.shape, generator=generator).to(dtype)


def import_factory(spec: str) -> Any:
    """MODULE:FACTORY -> the factory; MODULE is looked up in the current folder first."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise CliError(f"expected MODULE:FACTORY (e.g. mypkg.models:make_model), got {spec!r}")
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and (module_name == e.name or module_name.startswith(e.name + ".")):
            raise CliError(
                f"no module named {module_name!r} (looked in the current folder {cwd} and on "
                "sys.path)"
            ) from None
        raise CliError(f"importing {module_name!r} failed: {e}") from None
    except Exception as e:
        raise CliError(f"importing {module_name!r} failed: {type(e).__name__}: {e}") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        names = [n for n in dir(module) if not n.startswith("_")]
        close = difflib.get_close_matches(attr, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise CliError(f"module {module_name!r} has no {attr!r}{hint}") from None


@dataclass
class LoadedModel:
    model: torch.nn.Module
    args: tuple[Any, ...]
    kwargs: dict[str, Any]

    def flat_inputs(self) -> list[torch.Tensor]:
        """The inputs in the order the exported method takes them (args, then kwargs)."""
        return [*self.args, *self.kwargs.values()]


def load_model(
    spec: str,
    inputs: Sequence[InputSpec] = (),
    float_shapes: Sequence[tuple[int, ...]] = (),
    seed: int = 0,
) -> LoadedModel:
    """Calls the factory and builds its example inputs: `inputs` by keyword, or `float_shapes`
    as positional randn tensors (--input-shape), or what the factory returned."""
    import torch

    factory = import_factory(spec)
    if not callable(factory):
        raise CliError(f"{spec} is a {type(factory).__name__}, not a callable")
    torch.manual_seed(seed)  # random weights are the same in every run with the same --seed
    try:
        made = factory()
    except Exception as e:
        raise CliError(f"{spec}() raised {type(e).__name__}: {e}") from None
    model, args, kwargs = _split_factory_result(spec, made)
    generator = torch.Generator().manual_seed(seed)
    if inputs:
        _check_parameters(spec, model, inputs)
        args, kwargs = (), {i.name: make_tensor(i, generator) for i in inputs}
    elif float_shapes:
        args, kwargs = tuple(torch.randn(s, generator=generator) for s in float_shapes), {}
    elif not args and not kwargs:
        raise CliError(
            f"{spec} returned a module without example inputs: pass --input {INPUT_SYNTAX}"
        )
    return LoadedModel(model.eval(), args, kwargs)


def _split_factory_result(
    spec: str, made: object
) -> tuple[torch.nn.Module, tuple[Any, ...], dict[str, Any]]:
    import torch

    if isinstance(made, torch.nn.Module):
        return made, (), {}
    if isinstance(made, tuple) and len(made) == 2 and isinstance(made[0], torch.nn.Module):
        model, example = made
        if isinstance(example, dict):
            return model, (), dict(example)
        if isinstance(example, (tuple, list)):
            return model, tuple(example), {}
        if isinstance(example, torch.Tensor):
            return model, (example,), {}
    raise CliError(
        f"{spec}() returned {type(made).__name__}; expected an nn.Module or "
        "(module, example_inputs) with example_inputs a tuple or a dict"
    )


def _check_parameters(spec: str, model: torch.nn.Module, inputs: Sequence[InputSpec]) -> None:
    try:
        params = inspect.signature(model.forward).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    names = [n for n, p in params.items() if p.kind is not inspect.Parameter.VAR_POSITIONAL]
    for i in inputs:
        if i.name not in names:
            raise CliError(
                f"--input {i.name}: {spec}'s forward has no parameter {i.name!r} "
                f"(it takes {', '.join(names) or 'none'})"
            )
