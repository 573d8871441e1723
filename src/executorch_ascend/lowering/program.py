# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ExportedProgram (edge dialect, all ops lowerable) -> one ONNX model.

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
state never crosses host and device.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import onnx
import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind
from torch.fx import Node

from ..dtypes import onnx_elem_type
from . import external_data
from .cann_schemas import full_check
from .constants import ConstantResolver
from .context import LoweringContext, LoweringError
from .external_data import GraphConstant
from .onnx_graph import OnnxGraphBuilder
from .registry import lookup, op_name, why_unsupported


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
    # ONNX node name -> the name of the FX node it was converted from (debug_map.py).
    sources: dict[str, str] = field(default_factory=dict)

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


def _tensor_meta(node: Node) -> torch.Tensor:
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor):
        raise LoweringError(f"{node.name} has no tensor metadata")
    if not all(isinstance(d, int) for d in val.shape):
        raise LoweringError(f"{node.name} has a dynamic shape {tuple(val.shape)}")
    return val


def _user_input_nodes(program: ExportedProgram) -> list[Node]:
    kinds = {s.arg.name: s.kind for s in program.graph_signature.input_specs}
    return [
        n
        for n in program.graph.nodes
        if n.op == "placeholder" and kinds.get(n.name) == InputKind.USER_INPUT
    ]


def _state_input_nodes(program: ExportedProgram) -> dict[str, Node]:
    """Buffer target -> placeholder, for the mutated buffers the program owns."""
    sig = program.graph_signature
    mutated = set(sig.buffers_to_mutate.values())
    by_name = {n.name: n for n in program.graph.nodes if n.op == "placeholder"}
    return {
        target: by_name[name]
        for name, target in sig.inputs_to_buffers.items()
        if target in mutated and name in by_name
    }


def _output_nodes(program: ExportedProgram) -> tuple[list[Node], dict[str, Node]]:
    """The user output values in order, and buffer target -> its new value."""
    output = program.graph.output_node()
    specs = program.graph_signature.output_specs
    values = list(output.args[0])
    if len(values) != len(specs):
        raise LoweringError("output node and graph signature disagree")
    users: list[Node] = []
    mutations: dict[str, Node] = {}
    for spec, value in zip(specs, values, strict=True):
        if not isinstance(value, Node):
            raise LoweringError(f"output {spec.arg} is not a tensor value")
        if spec.kind == OutputKind.USER_OUTPUT:
            users.append(value)
        elif spec.kind == OutputKind.BUFFER_MUTATION and spec.target is not None:
            mutations[spec.target] = value
        else:
            raise LoweringError(
                f"output {spec.arg} is a {spec.kind.name}; only user outputs and buffer "
                "mutations lower"
            )
    return users, mutations


def _initial_value(program: ExportedProgram, target: str) -> torch.Tensor:
    value = program.state_dict.get(target)
    if value is None:
        value = program.constants.get(target)  # a non-persistent buffer
    if not isinstance(value, torch.Tensor):
        raise LoweringError(f"mutable buffer {target} has no initial value in the program")
    return value.detach()


def to_onnx(
    program: ExportedProgram, external_threshold: int | None = None, check: bool = True
) -> LoweredGraph:
    """Lowers a whole program (a delegated partition, or a fully supported edge program).

    `external_threshold`: initializers of at least this many bytes become ONNX external data,
    written by `save` (what atc gets; no protobuf size limit then applies); None (the default)
    keeps every initializer in `model`, which is then a self-contained, checked model.
    `check`: False skips the in-memory onnx.checker run (which serializes the whole model) for a
    caller that saves the graph anyway: `save` checks the files it writes.
    """
    builder = OnnxGraphBuilder(external_threshold=external_threshold)
    constants = ConstantResolver(program)
    ctx = LoweringContext(builder, constants)

    inputs: list[OnnxValue] = []
    for i, node in enumerate(_user_input_nodes(program)):
        val = _tensor_meta(node)
        name = builder.reserve(f"input_{i}")
        builder.add_input(name, onnx_elem_type(val.dtype), list(val.shape))
        ctx.bind(node, name)
        inputs.append(OnnxValue(name, val.dtype, tuple(val.shape)))

    user_outputs, mutations = _output_nodes(program)
    state_inputs = _state_input_nodes(program)
    if set(mutations) != set(state_inputs):
        raise LoweringError(
            "the mutated buffers read and written disagree: read "
            f"{sorted(state_inputs)}, written {sorted(mutations)}"
        )
    targets = sorted(state_inputs)
    for k, target in enumerate(targets):
        node = state_inputs[target]
        val = _tensor_meta(node)
        name = builder.reserve(f"state_in_{k}")
        builder.add_input(name, onnx_elem_type(val.dtype), list(val.shape))
        ctx.bind(node, name)
        inputs.append(OnnxValue(name, val.dtype, tuple(val.shape)))

    output_nodes = user_outputs + [mutations[t] for t in targets]
    output_names = [f"output_{i}" for i in range(len(user_outputs))]
    output_names += [f"state_out_{k}" for k in range(len(targets))]
    for i, (name, node) in enumerate(zip(output_names, output_nodes, strict=True)):
        # The first producer of an output writes it under its final name; an output that is an
        # input, a constant, or repeated gets an Identity below.
        if node.op == "call_function" and node not in output_nodes[:i]:
            ctx.plan_output_name(node, name)

    for node in program.graph.nodes:
        if node.op != "call_function":
            continue
        if constants.is_constant(node):
            continue  # folded into an initializer when something reads it
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
        val = _tensor_meta(node)
        produced = ctx.value(node)
        if produced != name:
            builder.reserve(name)
            # Named after the value's producer when it is an op (else after the output).
            builder.source = node.name if node.op == "call_function" else name
            builder.add_node("Identity", [produced], [name])
            builder.source = None
        builder.add_output(name, onnx_elem_type(val.dtype), list(val.shape))
        outputs.append(OnnxValue(name, val.dtype, tuple(val.shape)))

    user_inputs = len(inputs) - len(targets)
    states = tuple(
        StateValue(t, user_inputs + k, len(user_outputs) + k, _initial_value(program, t))
        for k, t in enumerate(targets)
    )
    for state in states:
        if state.initial.dtype != inputs[state.input_index].dtype:
            raise LoweringError(
                f"mutable buffer {state.target} holds {state.initial.dtype} but is read as "
                f"{inputs[state.input_index].dtype}"
            )
        if tuple(state.initial.shape) != inputs[state.input_index].dims:
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
        model, inputs, outputs, builder.constants, states, sources=dict(builder.sources)
    )
    if check and not graph.has_external_data:
        try:
            onnx.checker.check_model(model, full_check=full_check(model))
        except onnx.checker.ValidationError as e:
            raise LoweringError(f"emitted ONNX failed onnx.checker: {e}") from e
    return graph
