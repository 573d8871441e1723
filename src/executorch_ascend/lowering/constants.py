# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Which graph values are known ahead of time, and their values.

Parameters, buffers and lifted tensor constants are constants. So is any side-effect-free,
deterministic op whose inputs are all constants: after to_edge, `x + 1` reads a lifted scalar
through `_to_dim_order_copy`, and a Linear's weight may pass through `permute_copy`. Such nodes
are folded at lowering time into ONNX initializers rather than emitted as ops, so no Cast or
ConstantOfShape is needed on the device.

A constant also has an external tag when ExecuTorch's delegate_external_constants_pass_unlifted
gave one to the parameters it comes from (node.meta["custom"]["delegate_constant_tag"]): the
tag names the .ptd its bytes belong in, and folding (a Linear weight's permute_copy) keeps it.
"""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch.export import ExportedProgram
from torch.fx import Node
from torch.fx.node import map_arg

from .targets import aten_target

# Where delegate_external_constants_pass_unlifted puts a constant's tag: node.meta["custom"][...].
TAG_META_KEY = "delegate_constant_tag"


def common_tag(tags: Iterable[str | None]) -> str | None:
    """The one tag the tagged items share; None when none is tagged or their tags differ.

    Data derived from constants of one tag belongs with them; data of several tags has no home of
    its own, and the caller's default (the compile spec's external_tag) applies.
    """
    distinct = {t for t in tags if t is not None}
    return distinct.pop() if len(distinct) == 1 else None


def _is_pure(node: Node) -> bool:
    op = aten_target(node.target)
    if not isinstance(op, torch._ops.OpOverload):
        return False
    if torch.Tag.nondeterministic_seeded in op.tags:
        return False
    schema = op._schema
    if schema.is_mutable:
        return False
    return all(r.alias_info is None for r in schema.returns)


# Ops whose values are unspecified (only the shape and dtype are): folded as zeros, so every
# evaluation (each shape gear's, each export's) holds the same bytes. A program reads such a
# tensor only where it wrote it first (DeepSeek-V3 fills a new_empty key with slice_scatter).
_UNINITIALIZED = {"empty", "empty_like", "new_empty", "empty_strided", "new_empty_strided"}


def _uninitialized(node: Node) -> bool:
    op = aten_target(node.target)
    return (
        isinstance(op, torch._ops.OpOverload) and op._schema.name.split("::")[-1] in _UNINITIALIZED
    )


class ConstantResolver:
    """Answers "is this node a constant?" and "what is its value?" for one ExportedProgram."""

    def __init__(self, program: ExportedProgram) -> None:
        self._program = program
        sig = program.graph_signature
        mutated = set(sig.buffers_to_mutate.values())
        self._placeholder_targets: dict[str, str] = {}
        for name, target in sig.inputs_to_parameters.items():
            self._placeholder_targets[name] = target
        for name, target in sig.inputs_to_buffers.items():
            if target not in mutated:
                self._placeholder_targets[name] = target
        for name, target in sig.inputs_to_lifted_tensor_constants.items():
            self._placeholder_targets[name] = target
        self._is_const: dict[Node, bool] = {}
        self._values: dict[Node, torch.Tensor] = {}
        self._tags: dict[Node, str | None] = {}

    def is_lifted(self, node: Node) -> bool:
        """A parameter, non-mutated buffer or lifted tensor constant placeholder."""
        return node.op == "placeholder" and node.name in self._placeholder_targets

    def is_constant(self, node: Node) -> bool:
        cached = self._is_const.get(node)
        if cached is not None:
            return cached
        if node.op == "placeholder":
            result = self.is_lifted(node)
        elif node.op == "call_function" and _is_pure(node):
            val = node.meta.get("val")
            result = isinstance(val, torch.Tensor) and all(
                self.is_constant(n) for n in node.all_input_nodes
            )
        else:
            result = False
        self._is_const[node] = result
        return result

    def value(self, node: Node) -> torch.Tensor | None:
        """The tensor a constant node holds, or None if it is not a constant."""
        if not self.is_constant(node):
            return None
        cached = self._values.get(node)
        if cached is not None:
            return cached
        if node.op == "placeholder":
            target = self._placeholder_targets[node.name]
            program = self._program
            if target in program.state_dict:
                tensor = program.state_dict[target]
            else:
                tensor = program.constants[target]
        else:
            args = map_arg(node.args, lambda n: self.value(n))
            kwargs = map_arg(node.kwargs, lambda n: self.value(n))
            with torch.no_grad():
                tensor = node.target(*args, **kwargs)  # type: ignore[operator]
            if _uninitialized(node):
                tensor = torch.zeros_like(tensor)
        tensor = tensor.detach()
        self._values[node] = tensor
        return tensor

    def tag(self, node: Node) -> str | None:
        """The external tag of a constant: its own for a lifted placeholder, for a folded node
        the tag its constant inputs share (common_tag); None if untagged or not a constant."""
        if not self.is_constant(node):
            return None
        if node in self._tags:
            return self._tags[node]
        if node.op == "placeholder":
            custom = node.meta.get("custom")
            tag = custom.get(TAG_META_KEY) if isinstance(custom, dict) else None
            result = tag if isinstance(tag, str) and tag else None
        else:
            result = common_tag(self.tag(n) for n in node.all_input_nodes)
        self._tags[node] = result
        return result
