# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A small builder around onnx.helper that gives every value and node a stable name.

Graph inputs are "input_<i>", graph outputs "output_<i>", nodes "<OpType>_<n>", intermediate values
"<hint>_<n>": the same program always yields the same ONNX bytes, so the .om (keyed by its hash)
is reproducible. Initializers of at least `external_threshold` bytes become ONNX external data
(external_data.py) instead of bytes inside the ModelProto.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from .external_data import GraphConstant, align, external_tensor, little_endian

OPSET = 17
IR_VERSION = 8
PRODUCER = "executorch-ascend"


class OnnxGraphBuilder:
    """`external_threshold`: initializers with at least this many bytes (and at least one) are
    external data; None keeps every initializer inside the ModelProto."""

    def __init__(
        self, graph_name: str = "ascend_partition", external_threshold: int | None = None
    ) -> None:
        self._graph_name = graph_name
        self._external_threshold = external_threshold
        self._constants: list[GraphConstant] = []
        self._external_end = 0
        self._nodes: list[onnx.NodeProto] = []
        self._inputs: list[onnx.ValueInfoProto] = []
        self._outputs: list[onnx.ValueInfoProto] = []
        self._initializers: list[onnx.TensorProto] = []
        self._names: set[str] = set()
        self._counters: dict[str, int] = {}
        self._node_names: set[str] = set()
        # The FX node being converted: nodes are named after it ("<fx name>/<OpType>"), so the
        # .om op (atc keeps ONNX node names) says where it came from, and `sources` maps each
        # node back to it for the debug handle map (profiling, docs/runtime.md).
        self.source: str | None = None
        self.sources: dict[str, str] = {}

    def _next(self, prefix: str) -> str:
        while True:
            n = self._counters.get(prefix, 0)
            self._counters[prefix] = n + 1
            name = f"{prefix}_{n}"
            if name not in self._names:
                return name

    def fresh(self, hint: str = "t") -> str:
        """A new, unused value name."""
        name = self._next(hint)
        self._names.add(name)
        return name

    def reserve(self, name: str) -> str:
        if name in self._names:
            raise ValueError(f"ONNX value name {name!r} used twice")
        self._names.add(name)
        return name

    def add_input(self, name: str, elem_type: int, dims: Sequence[int]) -> None:
        self._inputs.append(helper.make_tensor_value_info(name, elem_type, list(dims)))

    def add_output(self, name: str, elem_type: int, dims: Sequence[int]) -> None:
        self._outputs.append(helper.make_tensor_value_info(name, elem_type, list(dims)))

    def add_initializer(
        self, array: np.ndarray, hint: str = "const", tag: str | None = None
    ) -> str:
        """A new initializer holding `array` (kept by reference when it becomes external data,
        so a weight's bytes are not copied before they are written). `tag` is the external tag
        of the constants it was computed from."""
        name = self.fresh(hint)
        array = little_endian(array)
        threshold = self._external_threshold
        offset = None
        if threshold is not None and array.nbytes > 0 and array.nbytes >= threshold:
            offset = align(self._external_end)
            self._external_end = offset + array.nbytes
            self._initializers.append(external_tensor(name, array, offset))
        else:
            self._initializers.append(numpy_helper.from_array(array, name))
        self._constants.append(GraphConstant(name, array, tag, offset))
        return name

    @property
    def constants(self) -> tuple[GraphConstant, ...]:
        """Every initializer made so far, in order."""
        return tuple(self._constants)

    def add_int64s(self, values: Sequence[int], hint: str = "shape") -> str:
        return self.add_initializer(np.asarray(list(values), dtype=np.int64), hint)

    def add_node(
        self,
        op_type: str,
        inputs: Sequence[str],
        outputs: Sequence[str] | None = None,
        **attributes: Any,
    ) -> list[str]:
        """Appends a node; returns its output names (fresh ones when `outputs` is None)."""
        outs = list(outputs) if outputs is not None else [self.fresh(op_type.lower())]
        attrs = {k: v for k, v in attributes.items() if v is not None}
        node = helper.make_node(op_type, list(inputs), outs, name=self._node_name(op_type), **attrs)
        self._nodes.append(node)
        if self.source is not None:
            self.sources[node.name] = self.source
        return outs

    def _node_name(self, op_type: str) -> str:
        """A unique node name: "<source>/<OpType>", then "_1", "_2"... for more of the same.
        FX node names hold neither '/' nor '+' (the separator of fused .om op names)."""
        base = f"{self.source}/{op_type}" if self.source is not None else op_type
        name, n = base, 0
        while name in self._node_names:
            n += 1
            name = f"{base}_{n}"
        self._node_names.add(name)
        return name

    def build(self) -> onnx.ModelProto:
        graph = helper.make_graph(
            self._nodes,
            self._graph_name,
            self._inputs,
            self._outputs,
            initializer=self._initializers,
        )
        model = helper.make_model(
            graph,
            producer_name=PRODUCER,
            opset_imports=[helper.make_opsetid("", OPSET)],
        )
        model.ir_version = IR_VERSION
        return model


__all__ = ["IR_VERSION", "OPSET", "OnnxGraphBuilder", "TensorProto"]
