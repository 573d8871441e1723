# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""State shared by the converters while one program is lowered to ONNX."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
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

    def emit_in_float32(
        self, op_type: str, operands: Sequence[object], node: Node, **attrs: object
    ) -> None:
        """`emit` of `op_type` on `operands`, but with bfloat16 tensor operands it computes in
        float32: each tensor as float32 (`float32_value`), the result cast back
        (`emit_from_float32`). For ops ONNX opset 17 or CANN defines without bfloat16 (the
        converter lists them in `bf16_in_float32`); float32 is what eager PyTorch computes them in
        on the CPU and what the chips' units take. An operand that is a string is an ONNX name
        passed as it is (an omitted optional input, an int64 shape); fx operands are tensors."""
        bf16 = any(isinstance(a, Node) and a.meta["val"].dtype == torch.bfloat16 for a in operands)
        if not bf16:
            self.emit(
                op_type,
                [a if isinstance(a, str) else self.value(a) for a in operands],
                node,
                **attrs,
            )
            return
        inputs = [a if isinstance(a, str) else self.float32_value(a) for a in operands]
        self.emit_from_float32(self.tmp(op_type, inputs, **attrs), node)

    def float32_value(self, arg: object) -> str:
        """`arg` as float32: a constant (a weight) as a float32 initializer, since atc reads
        some ops' weights only from an initializer (ConvTranspose's dims), anything else cast."""
        tensor = self.constant(arg)
        if tensor is not None and isinstance(arg, Node):
            return self.derived_initializer(
                to_numpy(tensor.float().contiguous()), _hint(arg.name), [arg]
            )
        return self.tmp("Cast", [self.value(arg)], to=onnx.TensorProto.FLOAT)

    def emit_from_float32(self, result: str, node: Node) -> None:
        """A float32 `result` cast back to bfloat16 as `node`'s value (its name bound before,
        as a multi-output op's first output is)."""
        self.emit("Cast", [result], node, to=onnx.TensorProto.BFLOAT16)

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
