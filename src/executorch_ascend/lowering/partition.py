# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Reading a partition: which of its placeholders and outputs are what, with their dtypes and
dims (ints, or sympy expressions of the shape symbols).

The one place that reads an ExportedProgram's graph signature for the lowering: gear planning
(gears/plan.py) reads the user inputs' symbolic dims here, and `to_onnx` (lowered_graph.py) the user
inputs, the device state and the outputs it turns into graph inputs and outputs. A shape
specialized to one gear (gears/specialize.py) keeps node names and the signature, so it reads the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind
from torch.fx import Node

from .context import LoweringError


@dataclass(frozen=True)
class PartitionState:
    """A mutable buffer the partition owns: read through `placeholder`, written as `value`."""

    target: str  # the buffer's fully qualified name in the exported module
    placeholder: Node
    value: Node


@dataclass(frozen=True)
class PartitionIO:
    """What a partition's graph reads and writes: its user inputs in call order, its user outputs
    in order, and the mutable buffers it owns (its device state), sorted by target."""

    user_inputs: list[Node]
    user_outputs: list[Node]
    states: list[PartitionState]


def read_io(program: ExportedProgram) -> PartitionIO:
    """The partition's inputs, outputs and owned state (LoweringError when the signature holds
    something else than user outputs and buffer mutations, or reads and writes disagree)."""
    user_outputs, mutations = _output_nodes(program)
    state_inputs = _state_input_nodes(program)
    if set(mutations) != set(state_inputs):
        raise LoweringError(
            "the mutated buffers read and written disagree: read "
            f"{sorted(state_inputs)}, written {sorted(mutations)}"
        )
    states = [PartitionState(t, state_inputs[t], mutations[t]) for t in sorted(state_inputs)]
    return PartitionIO(user_input_nodes(program), user_outputs, states)


def tensor_meta(node: Node) -> torch.Tensor:
    """The node's fake tensor, with a static shape (else LoweringError)."""
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor):
        raise LoweringError(f"{node.name} has no tensor metadata")
    if not all(isinstance(d, int) for d in val.shape):
        raise LoweringError(f"{node.name} has a dynamic shape {tuple(val.shape)}")
    return val


def user_input_nodes(program: ExportedProgram) -> list[Node]:
    """The placeholders of the user inputs, in call order."""
    kinds = {s.arg.name: s.kind for s in program.graph_signature.input_specs}
    return [
        n
        for n in program.graph.nodes
        if n.op == "placeholder" and kinds.get(n.name) == InputKind.USER_INPUT
    ]


def _expr(d: object) -> sympy.Expr | int:
    if isinstance(d, torch.SymInt):
        return d.node.expr
    return int(d)  # type: ignore[call-overload]


def input_dims(program: ExportedProgram) -> list[list[sympy.Expr | int]]:
    """The dims of each user input tensor (ints, or sympy expressions of the symbols)."""
    result = []
    for node in user_input_nodes(program):
        val = node.meta.get("val")
        result.append([_expr(d) for d in val.shape] if isinstance(val, torch.Tensor) else [])
    return result


def input_symbols(program: ExportedProgram) -> list[sympy.Symbol]:
    """The distinct symbols of the user inputs' dims, in order of first appearance."""
    return symbols_of(input_dims(program))


def symbols_of(input_dims: list[list[sympy.Expr | int]]) -> list[sympy.Symbol]:
    """The distinct symbols of these dims, in order of first appearance."""
    seen: list[sympy.Symbol] = []
    for dims in input_dims:
        for d in dims:
            if isinstance(d, sympy.Expr):
                for s in sorted(d.free_symbols, key=str):
                    if s not in seen:
                        seen.append(s)
    return seen


def initial_value(program: ExportedProgram, target: str) -> torch.Tensor:
    """A mutable buffer's value at load."""
    value = program.state_dict.get(target)
    if value is None:
        value = program.constants.get(target)  # a non-persistent buffer
    if not isinstance(value, torch.Tensor):
        raise LoweringError(f"mutable buffer {target} has no initial value in the program")
    return value.detach()


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
