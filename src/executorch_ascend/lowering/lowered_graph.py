# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ExportedProgram (edge dialect, all ops lowerable, static shapes) -> one ONNX model.

`to_onnx` reads the program's inputs, state and outputs (partition.py), then converts every
node through its converter (registry.py). lower.py calls it once per partition, or once per shape
gear on the partition specialised to that gear.

User inputs become graph inputs "input_<i>" in call order; parameters, buffers and lifted constants
become initializers when an op reads them; user outputs become "output_<i>" in order. The result is
checked with onnx.checker before it goes to atc, as the saved files (LoweredGraph.save: the model
is serialized once, for atc, and the checker reads that file; the only check that sees external
data), and by to_onnx in memory too when every initializer is inline, unless the caller says it
will save the graph (check=False, as AscendBackend does).

A mutable buffer the partition owns (a KV cache: its placeholder and its mutation are both in the
partition, see partitioner.tag_owned_buffers) is state: the graph reads it as input "state_in_<k>"
after the user inputs and writes its new value as output "state_out_<k>" after the user outputs.
The runtime keeps both in device memory and swaps them between calls (docs/runtime.md), so the
state never crosses host and device. With `flat_states`, both are declared rank 1 ([numel]) and
reshaped inside the graph: a geared .om must list the dims of all its inputs in one aclmdlIODims
of at most 128 (lower.py), and a decoder's rank-4 KV caches would otherwise fill it from about
15 layers on. The runtime sees only their bytes, so either form runs alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import onnx
import torch
from torch.export import ExportedProgram

from ..dtypes import onnx_elem_type
from . import external_data
from .cann_schemas import full_check
from .constants import ConstantResolver
from .context import LoweringContext, LoweringError
from .external_data import GraphConstant
from .onnx_graph import OnnxGraphBuilder
from .partition import initial_value, read_io, tensor_meta
from .registry import is_aipp, is_dynamic_aipp, lookup, op_name, why_unsupported


def _state_dims(shape: torch.Size | tuple[int, ...], flat: bool) -> list[int]:
    return [math.prod(shape)] if flat else list(shape)


@dataclass(frozen=True)
class OnnxValue:
    name: str
    dtype: torch.dtype
    dims: tuple[int, ...]


@dataclass(frozen=True)
class StateValue:
    """A mutable buffer the partition owns: graph input `input_index` holds its value before the
    call, graph output `output_index` its value after; `initial` is its value at load."""

    target: str  # the buffer's fully qualified name in the exported module
    input_index: int
    output_index: int
    initial: torch.Tensor


@dataclass(frozen=True)
class LoweredGraph:
    """The ONNX model of one program. `model` holds the graph; initializers that are external
    data (see `constants`) are only references in it until `save` writes their bytes."""

    model: onnx.ModelProto
    inputs: list[OnnxValue]
    outputs: list[OnnxValue]
    constants: tuple[GraphConstant, ...] = ()
    states: tuple[StateValue, ...] = ()
    # ONNX node name -> the name of the FX node it was converted from (serialization/debug_map.py).
    sources: dict[str, str] = field(default_factory=dict)
    # Inputs atc's AIPP computes from the uint8 frame (executorch_ascend.aipp): (ONNX input
    # index, resolved AippConfig or DynamicAipp as JSON), for atc's --insert_op_conf.
    aipp: tuple[tuple[int, str], ...] = ()

    @property
    def has_external_data(self) -> bool:
        return any(c.external for c in self.constants)

    def save(self, directory: str | Path) -> Path:
        """Writes part.onnx (and part.weights, the external data) into `directory`, checks the
        files with onnx.checker, and returns the path of part.onnx."""
        try:
            return external_data.save(self.model, self.constants, Path(directory))
        except onnx.checker.ValidationError as e:
            raise LoweringError(f"emitted ONNX failed onnx.checker: {e}") from e


def to_onnx(
    program: ExportedProgram,
    external_threshold: int | None = None,
    check: bool = True,
    flat_states: bool = False,
) -> LoweredGraph:
    """Lowers a whole program (a delegated partition, or a fully supported edge program).

    `external_threshold`: initializers of at least this many bytes become ONNX external data,
    written by `save` (what atc gets; no protobuf size limit then applies); None (the default)
    keeps every initializer in `model`, which is then a self-contained, checked model.
    `check`: False skips the in-memory onnx.checker run (which serializes the whole model) for a
    caller that saves the graph anyway: `save` checks the files it writes. `flat_states`: the
    state inputs and outputs are rank 1 (see the module's docstring).
    """
    builder = OnnxGraphBuilder(external_threshold=external_threshold)
    constants = ConstantResolver(program)
    ctx = LoweringContext(builder, constants)

    io = read_io(program)
    inputs: list[OnnxValue] = []
    aipp: list[tuple[int, str]] = []
    aipp_nodes: set[torch.fx.Node] = set()
    for i, node in enumerate(io.user_inputs):
        # A frame that only ascend.aipp reads: the ONNX input is the AIPP output (float NCHW,
        # what CANN's atc expects), and atc's --insert_op_conf makes the .om's input the frame.
        users = list(node.users)
        pre = users[0] if len(users) == 1 and is_aipp(users[0]) else None
        if pre is not None and pre.args[0] is not node:
            # A dynamic AIPP's parameter tensor: no ONNX input; atc adds CANN's own
            # (ascend_dynamic_aipp_data), which the backend fills per call.
            continue
        val = tensor_meta(pre if pre is not None else node)
        name = builder.reserve(f"input_{i}")
        builder.add_input(name, onnx_elem_type(val.dtype), list(val.shape))
        ctx.bind(pre if pre is not None else node, name)
        if pre is not None:
            # related_input_rank: the ONNX input's index.
            config = str(pre.args[2] if is_dynamic_aipp(pre) else pre.args[1])
            aipp.append((len(inputs), config))
            aipp_nodes.add(pre)
        inputs.append(OnnxValue(name, val.dtype, tuple(val.shape)))
    for k, owned in enumerate(io.states):
        val = tensor_meta(owned.placeholder)
        name = builder.reserve(f"state_in_{k}")
        dims = _state_dims(val.shape, flat_states)
        builder.add_input(name, onnx_elem_type(val.dtype), dims)
        if flat_states:
            ctx.bind(owned.placeholder, ctx.tmp("Reshape", [name, ctx.int64s(list(val.shape))]))
        else:
            ctx.bind(owned.placeholder, name)
        inputs.append(OnnxValue(name, val.dtype, tuple(dims)))

    user_outputs = io.user_outputs
    targets = [owned.target for owned in io.states]
    output_nodes = user_outputs + [owned.value for owned in io.states]
    output_names = [f"output_{i}" for i in range(len(user_outputs))]
    output_names += [f"state_out_{k}" for k in range(len(targets))]
    reshaped = set(output_names[len(user_outputs) :]) if flat_states else set()
    for i, (name, node) in enumerate(zip(output_names, output_nodes, strict=True)):
        # The first producer of an output writes it under its final name; an output that is an
        # input, a constant, or repeated gets an Identity below (a flat state: a Reshape).
        if node.op == "call_function" and node not in output_nodes[:i] and name not in reshaped:
            ctx.plan_output_name(node, name)

    for node in program.graph.nodes:
        if node.op != "call_function":
            continue
        if constants.is_constant(node):
            continue  # folded into an initializer when something reads it
        if node in aipp_nodes:
            continue  # atc's AIPP (above)
        if is_aipp(node):
            raise LoweringError(
                f"cannot lower {node.name}: ascend.aipp must read a user input (the frame) "
                "that nothing else reads"
            )
        reason = why_unsupported(node)
        if reason is not None:
            raise LoweringError(f"cannot lower {node.name} ({op_name(node)}): {reason}")
        conv = lookup(node)
        assert conv is not None
        builder.source = node.name
        conv.convert(ctx, node)
        builder.source = None

    outputs: list[OnnxValue] = []
    for name, node in zip(output_names, output_nodes, strict=True):
        val = tensor_meta(node)
        produced = ctx.value(node)
        dims = _state_dims(val.shape, name in reshaped)
        if produced != name:
            builder.reserve(name)
            # Named after the value's producer when it is an op (else after the output).
            builder.source = node.name if node.op == "call_function" else name
            if name in reshaped:
                builder.add_node("Reshape", [produced, ctx.int64s(dims)], [name])
            else:
                builder.add_node("Identity", [produced], [name])
            builder.source = None
        builder.add_output(name, onnx_elem_type(val.dtype), dims)
        outputs.append(OnnxValue(name, val.dtype, tuple(dims)))

    user_inputs = len(inputs) - len(targets)
    states = tuple(
        StateValue(t, user_inputs + k, len(user_outputs) + k, initial_value(program, t))
        for k, t in enumerate(targets)
    )
    for state in states:
        if state.initial.dtype != inputs[state.input_index].dtype:
            raise LoweringError(
                f"mutable buffer {state.target} holds {state.initial.dtype} but is read as "
                f"{inputs[state.input_index].dtype}"
            )
        if _state_dims(state.initial.shape, flat_states) != list(inputs[state.input_index].dims):
            raise LoweringError(
                f"mutable buffer {state.target} has shape {tuple(state.initial.shape)} but is "
                f"read as {inputs[state.input_index].dims}"
            )
        if outputs[state.output_index].dims != inputs[state.input_index].dims:
            raise LoweringError(
                f"mutable buffer {state.target} is written with shape "
                f"{outputs[state.output_index].dims}, read as {inputs[state.input_index].dims}"
            )
    model = builder.build()
    graph = LoweredGraph(
        model,
        inputs,
        outputs,
        builder.constants,
        states,
        sources=dict(builder.sources),
        aipp=tuple(aipp),
    )
    if check and not graph.has_external_data:
        try:
            onnx.checker.check_model(model, full_check=full_check(model))
        except onnx.checker.ValidationError as e:
            raise LoweringError(f"emitted ONNX failed onnx.checker: {e}") from e
    return graph
