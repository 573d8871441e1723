# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Merging per-gear ONNX graphs into one graph with symbolic input dims.

CANN compiles one ONNX graph for every gear (`--dynamic_batch_size` / `--dynamic_dims`, -1 in
`--input_shape`), so the graphs of the partition lowered at each gear must have the same nodes,
attributes, inputs and outputs (else LoweringError naming the node). An initializer whose value
differs between gears is rebuilt from the input dims:
  - an int64 vector of one shape (a Reshape target, Slice bounds, ...): each entry must be an
    exact integer formula of the gear symbols (formula.py), fitted and checked on every gear; it
    is then computed with Shape -> Gather -> Mul/Add -> Concat. A Reshape target with one varying
    entry (and no 0) just gets -1 there, and stays a constant;
  - a tensor whose shape changes with the gear (a folded causal mask, rotary tables): it must be
    the leading corner of the largest gear's tensor on every gear; the largest one is stored and
    Sliced to the gear's sizes (themselves formulas of the symbols).
Anything else that differs is refused with a LoweringError naming the initializer and its reader.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import onnx
import sympy
from onnx import helper, numpy_helper

from ...compile_spec import gears_text
from ..cann_schemas import full_check
from ..context import LoweringError
from ..external_data import GraphConstant, align, external_tensor, little_endian
from ..lowered_graph import LoweredGraph, OnnxValue
from ..onnx_graph import IR_VERSION, OPSET, PRODUCER
from .formula import fit_formula, integral_floats
from .plan import GearPlan


def merge_gears(
    graphs: Sequence[LoweredGraph],
    plan: GearPlan,
    dims: list[list[sympy.Expr | int]],
    external_threshold: int | None,
    check: bool = True,
) -> LoweredGraph:
    """The LoweredGraph of every gear at once: `graphs` are the partition lowered at each gear of
    `plan`, `dims` its inputs' dims (symbols where geared). `check`: run onnx.checker on a graph
    without external data here (False when the caller saves the graph and checks the files)."""
    merged = merge([g.model for g in graphs], [list(g.constants) for g in graphs], plan, dims,
                   external_threshold)  # fmt: skip
    first = graphs[0]
    inputs = [
        OnnxValue(v.name, v.dtype, tuple(-1 if isinstance(d, sympy.Expr) else d for d in ds))
        for v, ds in zip(first.inputs, dims, strict=True)
    ]
    outputs = [
        OnnxValue(v.name, v.dtype, tuple(_merged_dims([g.outputs[i].dims for g in graphs])))
        for i, v in enumerate(first.outputs)
    ]
    # Everything else (the device states) is the same at every gear.
    lowered = dataclasses.replace(
        first, model=merged.model, inputs=inputs, outputs=outputs, constants=merged.constants
    )
    if check and not lowered.has_external_data:
        try:
            onnx.checker.check_model(lowered.model, full_check=full_check(lowered.model))
        except onnx.checker.ValidationError as e:
            raise LoweringError(f"merged gear ONNX failed onnx.checker: {e}") from e
    return lowered


def _merged_dims(per_gear: list[tuple[int, ...]]) -> list[int]:
    return [d[0] if len(set(d)) == 1 else -1 for d in zip(*per_gear, strict=True)]


@dataclass(frozen=True)
class MergedGraph:
    model: onnx.ModelProto
    constants: tuple[GraphConstant, ...]


def _attrs(node: onnx.NodeProto) -> list[bytes]:
    return [a.SerializeToString() for a in node.attribute]


def _same_structure(models: Sequence[onnx.ModelProto], plan: GearPlan) -> None:
    first = models[0].graph
    for gear, model in zip(plan.gears[1:], models[1:], strict=True):
        graph = model.graph
        where = f"gear ({plan.label(gear)}) and gear ({plan.label(plan.gears[0])})"
        if len(graph.node) != len(first.node):
            raise LoweringError(
                f"{where} lower to {len(graph.node)} and {len(first.node)} ONNX nodes: the "
                "program's structure depends on the shape, so one .om cannot serve both gears"
            )
        for a, b in zip(graph.node, first.node, strict=True):
            if (a.op_type, list(a.input), list(a.output)) != (
                b.op_type,
                list(b.input),
                list(b.output),
            ):
                raise LoweringError(f"{where} lower to different ONNX nodes ({a.name} vs {b.name})")
            if _attrs(a) != _attrs(b):
                raise LoweringError(
                    f"ONNX node {a.name} ({a.op_type}) has attributes that change with the gear "
                    f"({where}); atc infers every gear from one graph"
                )
        for kind in ("input", "output"):
            mine = [(v.name, v.type.tensor_type.elem_type) for v in getattr(graph, kind)]
            theirs = [(v.name, v.type.tensor_type.elem_type) for v in getattr(first, kind)]
            if mine != theirs:
                raise LoweringError(f"{where} have different graph {kind}s")


class _Emitter:
    """Builds the nodes that compute gear-dependent initializers from the input dims."""

    def __init__(self, taken: set[str], sources: dict[sympy.Symbol, tuple[str, int]]) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.constants: list[tuple[str, np.ndarray]] = []
        self._taken = taken
        self._sources = sources
        self._symbols: dict[sympy.Symbol, str] = {}
        self._shapes: dict[str, str] = {}
        self._n = 0

    def name(self, hint: str) -> str:
        while True:
            name = f"gear_{hint}_{self._n}"
            self._n += 1
            if name not in self._taken:
                self._taken.add(name)
                return name

    def const(self, values: Sequence[int] | np.ndarray) -> str:
        name = self.name("const")
        self.constants.append((name, np.asarray(values, dtype=np.int64)))
        return name

    def node(
        self, op: str, inputs: Sequence[str], output: str | None = None, **attrs: object
    ) -> str:
        out = output or self.name(op.lower())
        # attrs: values of any kind onnx.helper.make_attribute takes (its stub says str).
        node = helper.make_node(op, list(inputs), [out], name=self.name(op), **attrs)  # type: ignore[arg-type]
        self.nodes.append(node)
        return out

    def symbol(self, s: sympy.Symbol) -> str:
        """A [1] int64 tensor holding the symbol's value, read from an input's shape."""
        if s not in self._symbols:
            value, axis = self._sources[s]
            if value not in self._shapes:
                self._shapes[value] = self.node("Shape", [value])
            self._symbols[s] = self.node(
                "Gather", [self._shapes[value], self.const([axis])], axis=0
            )
        return self._symbols[s]

    def affine(self, terms: list[tuple[int, tuple[sympy.Symbol, ...]]], offset: int) -> str:
        """sum(c * prod(symbols)) + offset as a [1] int64 tensor."""
        acc: str | None = None
        for coef, syms in terms:
            value = self.symbol(syms[0])
            for s in syms[1:]:
                value = self.node("Mul", [value, self.symbol(s)])
            if coef != 1:
                value = self.node("Mul", [value, self.const([coef])])
            acc = value if acc is None else self.node("Add", [acc, value])
        if acc is None:
            return self.const([offset])
        return acc if offset == 0 else self.node("Add", [acc, self.const([offset])])


def merge(
    models: Sequence[onnx.ModelProto],
    constants: Sequence[Sequence[GraphConstant]],
    plan: GearPlan,
    dims: list[list[sympy.Expr | int]],
    external_threshold: int | None,
) -> MergedGraph:
    """One graph, correct at every gear, from the per-gear graphs (see the module docstring)."""
    _same_structure(models, plan)
    graph = models[0].graph
    readers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            readers.setdefault(name, []).append(node)
    taken = {v for n in graph.node for v in (*n.input, *n.output)}
    taken |= {v.name for v in (*graph.input, *graph.output)}
    taken |= {c.name for c in constants[0]}
    sources: dict[sympy.Symbol, tuple[str, int]] = {}
    for value, ds in zip(graph.input, dims, strict=True):
        for axis, d in enumerate(ds):
            if isinstance(d, sympy.Symbol):
                sources.setdefault(d, (value.name, axis))
    emit = _Emitter(taken, sources)
    per_name = [{c.name: c for c in cs} for cs in constants]
    if any(set(p) != set(per_name[0]) for p in per_name):
        raise LoweringError("the gears' ONNX graphs have different initializers")
    kept: list[tuple[GraphConstant, str]] = []  # (constant, its final name)
    inferred: list[dict[str, list[int]]] = []

    def shapes() -> list[dict[str, list[int]]]:
        if not inferred:
            inferred.extend(_value_shapes(m) for m in models)
        return inferred

    for c in constants[0]:
        arrays = [p[c.name].array for p in per_name]
        if all(a.shape == arrays[0].shape and np.array_equal(a, arrays[0]) for a in arrays):
            kept.append((c, c.name))
            continue
        reader = readers.get(c.name, [])
        what = f"initializer {c.name} (read by {', '.join(n.name for n in reader) or 'nothing'})"
        if all(a.shape == arrays[0].shape for a in arrays) and arrays[0].dtype == np.int64:
            if arrays[0].ndim > 1:
                raise LoweringError(
                    f"{what} is an int64 tensor of rank > 1 that changes with the gear"
                )
            _int_vector(c.name, [a.reshape(-1).tolist() for a in arrays], arrays[0].ndim,
                        reader, what, plan, emit, kept, shapes)  # fmt: skip
            continue
        if integral_floats(arrays):
            # A size as a float (transformers' StaticCache: scalar_tensor(seq_len)): the fitted
            # int64 formula, cast to the float dtype.
            ints = emit.name("int")
            _int_vector(ints, [a.reshape(-1).astype(np.int64).tolist() for a in arrays],
                        arrays[0].ndim, [], what, plan, emit, kept, shapes)  # fmt: skip
            emit.node("Cast", [ints], c.name, to=helper.np_dtype_to_tensor_dtype(arrays[0].dtype))
            continue
        if len({a.ndim for a in arrays}) != 1 or any(
            a.shape == arrays[0].shape for a in arrays[1:]
        ):
            raise LoweringError(
                f"{what} changes with the gear ({_shapes(arrays, plan)}): its values differ, so "
                "no single graph holds it"
            )
        _corner(c, arrays, what, plan, emit, kept)
    out_dims = [[d.dim_value for d in v.type.tensor_type.shape.dim] for v in models[0].graph.output]
    for model in models[1:]:
        for mine, v in zip(out_dims, model.graph.output, strict=True):
            for i, d in enumerate(v.type.tensor_type.shape.dim):
                if mine[i] != d.dim_value:
                    mine[i] = None
    return _assemble(models[0], emit, kept, dims, out_dims, external_threshold)


def _shapes(arrays: Sequence[np.ndarray], plan: GearPlan) -> str:
    return "; ".join(
        f"{plan.label(g)}: {list(a.shape)}" for g, a in zip(plan.gears, arrays, strict=True)
    )


def _value_shapes(model: onnx.ModelProto) -> dict[str, list[int]]:
    """The static shape of every value of a (one-gear) graph, by ONNX shape inference."""
    inferred = onnx.shape_inference.infer_shapes(model)
    shapes = {i.name: list(i.dims) for i in model.graph.initializer}
    graph = inferred.graph
    for v in (*graph.input, *graph.value_info, *graph.output):
        dims = v.type.tensor_type.shape.dim
        if all(d.HasField("dim_value") for d in dims):
            shapes[v.name] = [d.dim_value for d in dims]
    return shapes


def _constant_target(
    name: str,
    vectors: list[list[int]],
    varying: list[int],
    readers: list[onnx.NodeProto],
    shapes: list[dict[str, list[int]]],
) -> list[int] | None:
    """A Reshape or Expand target that needs no shape computation: where the varying entry is
    the data's own dim at every gear, Reshape copies it (0) and Expand keeps it (1); one entry
    left, Reshape infers it (-1). None when the target must be computed."""
    if not readers or any(list(n.input).index(name) != 1 for n in readers):
        return None
    kinds = {n.op_type for n in readers}
    if kinds not in ({"Reshape"}, {"Expand"}) or any(x in (0, -1) for v in vectors for x in v):
        return None
    if any(a.name == "allowzero" and a.i for n in readers for a in n.attribute):
        return None
    target = list(vectors[0])
    rank = len(target)
    left = []
    for i in varying:
        own = True
        for n in readers:
            for gear_shapes, v in zip(shapes, vectors, strict=True):
                data = gear_shapes.get(n.input[0])
                j = i if "Reshape" in kinds else i - (rank - len(data or []))
                if data is None or not 0 <= j < len(data) or data[j] != v[i]:
                    own = False
        if own:
            target[i] = 0 if "Reshape" in kinds else 1
        else:
            left.append(i)
    if not left:
        return target
    if kinds == {"Reshape"} and len(left) == 1:
        target[left[0]] = -1
        return target
    return None


def _int_vector(
    name: str,
    vectors: list[list[int]],
    ndim: int,
    readers: list[onnx.NodeProto],
    what: str,
    plan: GearPlan,
    emit: _Emitter,
    kept: list[tuple[GraphConstant, str]],
    shapes: Callable[[], list[dict[str, list[int]]]],
) -> None:
    varying = [i for i in range(len(vectors[0])) if len({v[i] for v in vectors}) > 1]
    target = _constant_target(name, vectors, varying, readers, shapes())
    if target is not None:
        kept.append((GraphConstant(name, np.asarray(target, np.int64), None, None), name))
        return
    pieces: list[str] = []
    static: list[int] = []
    for i in range(len(vectors[0])):
        column = [v[i] for v in vectors]
        if i not in varying:
            static.append(column[0])
            continue
        fit = fit_formula(column, plan)
        if fit is None:
            raise LoweringError(
                f"{what}: entry {i} takes {column} at the gears ({gears_text(plan.gears)}), "
                "which is no integer formula of the gear symbols, so it cannot be computed "
                "from the input shapes"
            )
        if static:
            pieces.append(emit.const(static))
            static = []
        pieces.append(emit.affine(*fit))
    if static:
        pieces.append(emit.const(static))
    if ndim == 0:
        emit.node("Reshape", [pieces[0], emit.const(np.zeros((0,), np.int64))], name)
    elif len(pieces) == 1:
        emit.node("Identity", pieces, name)
    else:
        emit.node("Concat", pieces, name, axis=0)


def _corner(
    c: GraphConstant,
    arrays: list[np.ndarray],
    what: str,
    plan: GearPlan,
    emit: _Emitter,
    kept: list[tuple[GraphConstant, str]],
) -> None:
    """A tensor that grows with the gear: the largest gear's, sliced to each gear's sizes."""
    largest = max(range(len(arrays)), key=lambda i: arrays[i].size)
    full = arrays[largest]
    for gear, a in zip(plan.gears, arrays, strict=True):
        corner = tuple(slice(0, n) for n in a.shape)
        if any(n > m for n, m in zip(a.shape, full.shape, strict=True)) or not np.array_equal(
            full[corner], a
        ):
            raise LoweringError(
                f"{what} changes with the gear ({_shapes(arrays, plan)}) and at gear "
                f"({plan.label(gear)}) it is not the leading part of the largest gear's "
                "tensor, so it cannot be sliced from one stored tensor"
            )
    axes = [i for i in range(full.ndim) if len({a.shape[i] for a in arrays}) > 1]
    ends = []
    for axis in axes:
        fit = fit_formula([a.shape[axis] for a in arrays], plan)
        if fit is None:
            raise LoweringError(f"{what}: its dim {axis} is no integer formula of the gear symbols")
        ends.append(emit.affine(*fit))
    stored = emit.name(c.name)
    kept.append((GraphConstant(stored, full, c.tag, None), stored))
    ends_value = ends[0] if len(ends) == 1 else emit.node("Concat", ends, axis=0)
    emit.node("Slice", [stored, emit.const([0] * len(axes)), ends_value, emit.const(axes)], c.name)


def _assemble(
    model: onnx.ModelProto,
    emit: _Emitter,
    kept: list[tuple[GraphConstant, str]],
    dims: list[list[sympy.Expr | int]],
    out_dims: list[list[int | None]],
    external_threshold: int | None,
) -> MergedGraph:
    graph = model.graph
    constants: list[GraphConstant] = []
    initializers: list[onnx.TensorProto] = []
    end = 0
    items = [(c.array, c.tag, name) for c, name in kept]
    items += [(array, None, name) for name, array in emit.constants]
    for array, tag, name in items:
        array = little_endian(array)
        offset = None
        if (
            external_threshold is not None
            and 0 < array.nbytes
            and array.nbytes >= external_threshold
        ):
            offset = align(end)
            end = offset + array.nbytes
            initializers.append(external_tensor(name, array, offset))
        else:
            initializers.append(numpy_helper.from_array(array, name))
        constants.append(GraphConstant(name, array, tag, offset))
    inputs = []
    for value, ds in zip(graph.input, dims, strict=True):
        shape = [str(d) if isinstance(d, sympy.Expr) else d for d in ds]
        inputs.append(
            helper.make_tensor_value_info(value.name, value.type.tensor_type.elem_type, shape)
        )
    outputs = [
        helper.make_tensor_value_info(v.name, v.type.tensor_type.elem_type, d)
        for v, d in zip(graph.output, out_dims, strict=True)
    ]
    merged = helper.make_graph(
        [*emit.nodes, *graph.node], graph.name, inputs, outputs, initializer=initializers
    )
    result = helper.make_model(
        merged, producer_name=PRODUCER, opset_imports=[helper.make_opsetid("", OPSET)]
    )
    result.ir_version = IR_VERSION
    return MergedGraph(result, tuple(constants))
