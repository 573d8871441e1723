# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""State shared by the converters while one program is lowered to ONNX."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch.fx import Node

from ..dtypes import numpy_dtype, to_numpy
from .constants import ConstantResolver, common_tag
from .onnx_graph import OnnxGraphBuilder


class LoweringError(RuntimeError):
    """The program contains something the converters cannot express in ONNX."""


class LoweringContext:
    """Maps fx values to ONNX value names.

    Converters read their operands with `value(arg)` (constants become initializers on first use)
    and write their result to `out(node)`, a name fixed before conversion starts: graph outputs
    are named "output_<i>" directly, so no Identity is needed for them.
    """

    def __init__(self, builder: OnnxGraphBuilder, constants: ConstantResolver) -> None:
        self.builder = builder
        self.constants = constants
        self._names: dict[Node, str] = {}
        self._planned: dict[Node, str] = {}

    def bind(self, node: Node, name: str) -> None:
        """Records that `node`'s value is the ONNX value `name` (graph inputs, aliases)."""
        self._names[node] = name

    def plan_output_name(self, node: Node, name: str) -> None:
        self._planned[node] = name

    def has_value(self, node: Node) -> bool:
        return node in self._names

    def value(self, arg: object) -> str:
        if not isinstance(arg, Node):
            raise LoweringError(f"expected a tensor operand, got {arg!r}")
        name = self._names.get(arg)
        if name is not None:
            return name
        tensor = self.constants.value(arg)
        if tensor is None:
            raise LoweringError(f"operand {arg.name} has not been lowered")
        name = self.builder.add_initializer(
            to_numpy(tensor.contiguous()), _hint(arg.name), tag=self.constants.tag(arg)
        )
        self._names[arg] = name
        return name

    def out(self, node: Node) -> str:
        """The name the converter must give `node`'s result."""
        name = self._names.get(node)
        if name is None:
            planned = self._planned.get(node)
            name = (
                self.builder.reserve(planned) if planned else self.builder.fresh(_hint(node.name))
            )
            self._names[node] = name
        return name

    def emit(self, op_type: str, inputs: Sequence[str], node: Node, **attrs: object) -> None:
        """Emits one ONNX node that computes `node`'s result."""
        self.builder.add_node(op_type, inputs, [self.out(node)], **attrs)

    def tmp(self, op_type: str, inputs: Sequence[str], **attrs: object) -> str:
        """Emits an ONNX node for an intermediate value; returns its name."""
        return self.builder.add_node(op_type, inputs, None, **attrs)[0]

    def derived_initializer(self, array: np.ndarray, hint: str, sources: Sequence[object]) -> str:
        """An initializer a converter computed from constant operands (a transposed or folded
        weight): it keeps their external tag, so its bytes go to the same .ptd as theirs."""
        tag = common_tag(self.constants.tag(s) for s in sources if isinstance(s, Node))
        return self.builder.add_initializer(array, hint, tag=tag)

    def scalar(self, value: float, dtype: torch.dtype = torch.float32) -> str:
        return self.builder.add_initializer(np.asarray(value, dtype=numpy_dtype(dtype)), "scalar")

    def int64s(self, values: Sequence[int]) -> str:
        return self.builder.add_int64s(values)

    def constant(self, node: object) -> torch.Tensor | None:
        return self.constants.value(node) if isinstance(node, Node) else None


def _hint(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return cleaned or "v"
