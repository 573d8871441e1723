# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Specialising a program to one gear: a copy with that gear's sizes bound.

Every SymInt-valued node (sym_size, symbolic arithmetic) becomes a plain int in its users'
arguments, and every tensor's metadata gets the concrete shape and strides of the gear, so the
converters, which read static shapes, lower it as any static program.
"""

from __future__ import annotations

import copy
from typing import Any, cast

import sympy
import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.export import ExportedProgram
from torch.fx import Graph, GraphModule, Node

_SYM_TYPES = (torch.SymInt, torch.SymFloat, torch.SymBool)


class _Unbound(Exception):
    """An expression has symbols the gear does not bind (data-dependent sizes)."""


def _concrete(value: object, binding: dict[sympy.Symbol, int]) -> object:
    if isinstance(value, _SYM_TYPES):
        expr = sympy.sympify(value.node.expr).xreplace(
            {s: sympy.Integer(v) for s, v in binding.items()}
        )
        if expr.free_symbols:
            raise _Unbound(str(expr))
        if isinstance(value, torch.SymBool):
            return bool(expr)
        if isinstance(value, torch.SymFloat):
            return float(expr)
        return int(expr)
    return value


def _concrete_val(val: object, binding: dict[sympy.Symbol, int], mode: FakeTensorMode) -> object:
    if isinstance(val, torch.Tensor):
        # Sizes and strides: integers (or SymInts) here.
        shape = cast("list[int]", [_concrete(d, binding) for d in val.shape])
        stride = cast("list[int]", [_concrete(d, binding) for d in val.stride()])
        with mode:
            return torch.empty_strided(shape, stride, dtype=val.dtype, device=val.device)
    if isinstance(val, (list, tuple)):
        return type(val)(_concrete_val(v, binding, mode) for v in val)
    return _concrete(val, binding)


# Set on a specialised node whose shape is symbolic in the program: its sizes change with the
# gear, so a converter cannot hand atc a constant of them (full_like in converters/shape.py).
GEAR_VARYING = "ascend_gear_varying_shape"


def _has_symbolic_dims(val: object) -> bool:
    vals = val if isinstance(val, (list, tuple)) else [val]
    return any(
        isinstance(v, torch.Tensor) and any(isinstance(d, torch.SymInt) for d in v.shape)
        for v in vals
    )


def is_sym_node(node: Node) -> bool:
    """A call_function whose value is a size (sym_size, symbolic arithmetic), not a tensor."""
    val = node.meta.get("val")
    return node.op == "call_function" and isinstance(val, (*_SYM_TYPES, int, bool, float))


def specialize(program: ExportedProgram, binding: dict[sympy.Symbol, int]) -> ExportedProgram:
    """A copy of `program` at one gear: sizes are ints, tensor metadata has concrete shapes.

    Node names are kept. Nodes whose sizes depend on other symbols (data-dependent sizes) keep
    their symbolic metadata, so the static analysis refuses them. The copy shares the program's
    parameters and constants.
    """
    graph = Graph()
    env: dict[Node, Any] = {}  # fx Arguments: nodes, concrete sizes
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    for node in program.graph.nodes:
        if is_sym_node(node):
            try:
                env[node] = _concrete(node.meta["val"], binding)
                continue
            except _Unbound:
                pass
        new = graph.node_copy(node, lambda n: env[n])
        new.meta = dict(node.meta)
        if "val" in node.meta:
            if _has_symbolic_dims(node.meta["val"]):
                new.meta[GEAR_VARYING] = True
            try:
                new.meta["val"] = _concrete_val(node.meta["val"], binding, mode)
            except _Unbound:
                pass
        env[node] = new
    special = copy.copy(program)
    special._graph_module = GraphModule(program.graph_module, graph)
    return special
