# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Shape gears: one ONNX graph (and one .om) for a program with bounded symbolic dims.

CANN compiles a model with `--dynamic_batch_size` / `--dynamic_dims` and -1 in `--input_shape`
for a fixed list of shapes ("gears"), inferring every gear from the one ONNX graph. The converters
read static shapes, so a program with symbolic dims is lowered once per gear:

1. `specialize` copies the program with the gear's values bound: every SymInt-valued node (sym_size,
   symbolic arithmetic) becomes a plain int in its users' arguments, and every tensor's metadata
   gets the concrete shape and strides of that gear.
2. `to_onnx` lowers each copy; the per-gear graphs must have the same nodes, attributes, inputs and
   outputs (else LoweringError naming the node).
3. `merge` makes one graph with symbolic input dims. An initializer whose value differs between
   gears is rebuilt from the input dims:
     - an int64 vector of one shape (a Reshape target, Slice bounds, ...): each entry must be an
       exact integer-affine function of the gear symbols (or a product of two), fitted and checked
       on every gear; it is then computed with Shape -> Gather -> Mul/Add -> Concat. A Reshape
       target with one varying entry (and no 0) just gets -1 there, and stays a constant;
     - a tensor whose shape changes with the gear (a folded causal mask, rotary tables): it must be
       the leading corner of the largest gear's tensor on every gear; the largest one is stored
       and Sliced to the gear's sizes (themselves affine in the symbols).
   Anything else that differs is refused with a LoweringError naming the initializer and its
   reader.

The partitioner uses the same specialization: a node is taken when the static analysis takes it
at every gear (`analyze_at_gears`).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

import numpy as np
import onnx
import sympy
import torch
from onnx import helper, numpy_helper
from torch._subclasses.fake_tensor import FakeTensor, FakeTensorMode, unset_fake_temporarily
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind
from torch.fx import Graph, GraphModule, Node

from ..compile_spec import AscendCompileSpec, gears_text
from .cann_schemas import full_check
from .context import LoweringError
from .external_data import GraphConstant, align, external_tensor, little_endian
from .onnx_graph import IR_VERSION, OPSET, PRODUCER

_SYM_TYPES = (torch.SymInt, torch.SymFloat, torch.SymBool)
# How a reason for symbolic shapes without usable gears ends, so users know what to change.
GEAR_HINT = (
    "atc needs static shapes or shape gears: bound the torch.export.Dim (min/max) and list the "
    "shapes in AscendCompileSpec(dynamic_batch_size=... or dynamic_dims=...)"
)


class _Unbound(Exception):
    """An expression has symbols the gear does not bind (data-dependent sizes)."""


# --- symbols and plans -------------------------------------------------------------------------


def _expr(d: object) -> sympy.Expr | int:
    if isinstance(d, torch.SymInt):
        return d.node.expr
    return int(d)  # type: ignore[call-overload]


def _user_inputs(program: ExportedProgram) -> list[Node]:
    kinds = {s.arg.name: s.kind for s in program.graph_signature.input_specs}
    return [
        n
        for n in program.graph.nodes
        if n.op == "placeholder" and kinds.get(n.name) == InputKind.USER_INPUT
    ]


def input_dims(program: ExportedProgram) -> list[list[sympy.Expr | int]]:
    """The dims of each user input tensor (ints, or sympy expressions of the symbols)."""
    result = []
    for node in _user_inputs(program):
        val = node.meta.get("val")
        result.append([_expr(d) for d in val.shape] if isinstance(val, torch.Tensor) else [])
    return result


def input_symbols(program: ExportedProgram) -> list[sympy.Symbol]:
    """The distinct symbols of the user inputs' dims, in order of first appearance."""
    seen: list[sympy.Symbol] = []
    for dims in input_dims(program):
        for d in dims:
            if isinstance(d, sympy.Expr):
                for s in sorted(d.free_symbols, key=str):
                    if s not in seen:
                        seen.append(s)
    return seen


def _shape_env(program: ExportedProgram) -> object | None:
    for node in _user_inputs(program):
        for d in getattr(node.meta.get("val"), "shape", ()):
            if isinstance(d, torch.SymInt) and d.node.shape_env is not None:
                return d.node.shape_env
    return None


def exported_symbols(program: ExportedProgram) -> list[sympy.Symbol]:
    """The symbols of the exported program's inputs, in order of first appearance, read from
    the shape environment torch.export made (which a partition shares): so a partition whose
    inputs have fewer symbols, or have them in another order, maps gear values as the whole
    program does. Falls back to the program's own inputs."""
    local = input_symbols(program)
    env = _shape_env(program)
    created = getattr(env, "backed_var_to_val", None) or getattr(env, "var_to_val", {})
    replacements = getattr(env, "replacements", {})
    order: list[sympy.Symbol] = []
    for symbol in created:
        canonical = replacements.get(symbol, symbol)
        if isinstance(canonical, sympy.Symbol) and canonical not in order:
            order.append(canonical)
    return order if local and set(local) <= set(order) else local


def _ranges(program: ExportedProgram) -> dict[sympy.Symbol, tuple[int, float]]:
    """(lower, upper) of each symbol, from the shape environment (or the range constraints)."""
    ranges: dict[sympy.Symbol, tuple[int, float]] = {}
    for key, vr in program.range_constraints.items():
        ranges[key] = (int(vr.lower), float(vr.upper))
    for node in _user_inputs(program):
        val = node.meta.get("val")
        for d in getattr(val, "shape", ()):
            if isinstance(d, torch.SymInt) and d.node.shape_env is not None:
                for s, vr in d.node.shape_env.var_to_range.items():
                    ranges.setdefault(s, (int(vr.lower), float(vr.upper)))
    return ranges


@dataclass(frozen=True)
class GearPlan:
    """The gears of one program: the value of each symbol at each gear."""

    symbols: tuple[sympy.Symbol, ...]
    gears: tuple[tuple[int, ...], ...]
    batch: bool  # dynamic_batch_size (else dynamic_dims)

    def bindings(self) -> list[dict[sympy.Symbol, int]]:
        return [dict(zip(self.symbols, g, strict=True)) for g in self.gears]

    def label(self, gear: Sequence[int]) -> str:
        return ", ".join(f"{s}={v}" for s, v in zip(self.symbols, gear, strict=True))


def plan_gears(program: ExportedProgram, spec: AscendCompileSpec) -> GearPlan | str | None:
    """None when the program's inputs are static; else the gear plan, or why the gears in
    `spec` cannot serve the program (a reason for the partitioner, an error for lowering)."""
    dims = input_dims(program)
    symbols = input_symbols(program)
    if not symbols:
        return None
    names = ", ".join(str(s) for s in symbols)
    ranges = _ranges(program)
    unbounded = [s for s in symbols if ranges.get(s, (0, float("inf")))[1] == float("inf")]
    if not spec.gears:
        extra = f"; {', '.join(map(str, unbounded))} also need(s) a max" if unbounded else ""
        return f"the inputs have symbolic dims ({names}); {GEAR_HINT}{extra}"
    for dim in (d for ds in dims for d in ds):
        if isinstance(dim, sympy.Expr) and not isinstance(dim, sympy.Symbol):
            return f"an input dim is {dim}, not a plain symbol: atc's gears set input dims directly"
    if unbounded:
        return (
            f"{', '.join(map(str, unbounded))} has no upper bound (a torch.export.Dim without "
            "max): ExecuTorch plans memory for the largest shape and atc compiles only listed "
            f"shapes; {GEAR_HINT}"
        )
    if spec.dynamic_batch_size:
        at_zero = all(
            not isinstance(d, sympy.Expr) or i == 0 for ds in dims for i, d in enumerate(ds)
        )
        if len(symbols) != 1 or not at_zero:
            return (
                f"dynamic_batch_size gears the batch (dim 0) only, but the inputs' symbolic dims "
                f"are {names} ({_describe(dims)}); use dynamic_dims"
            )
    gears = spec.gears
    if spec.dynamic_dims and len(gears[0]) != len(symbols):
        exported = exported_symbols(program)
        if len(gears[0]) != len(exported):
            return (
                f"dynamic_dims gears give {len(gears[0])} value(s) each, but the inputs "
                f"have {len(symbols)} symbolic dim(s): {names} ({_describe(dims)})"
            )
        # A partition with some of the program's symbols: its gears are the distinct values
        # those symbols take.
        index = [exported.index(s) for s in symbols]
        gears = tuple(dict.fromkeys(tuple(g[i] for i in index) for g in gears))
    elif spec.dynamic_dims and symbols != exported_symbols(program)[: len(symbols)]:
        exported = exported_symbols(program)
        if set(exported) == set(symbols):
            # The partition reads the symbols in another order than the program's inputs.
            index = [exported.index(s) for s in symbols]
            gears = tuple(tuple(g[i] for i in index) for g in gears)
    for gear in gears:
        for s, v in zip(symbols, gear, strict=True):
            lower, upper = ranges.get(s, (1, float("inf")))
            # torch.export reports Dim(min=1) as [2, max] (its 0/1 specialization) and traces
            # a graph that is the same at 1; the per-gear lowering and tests check 1 too.
            lower = 1 if lower == 2 else lower
            if not lower <= v <= upper:
                return (
                    f"gear {gears_text(gear)} sets {s}={v}, outside its range "
                    f"[{lower}, {int(upper)}]; gears: {gears_text(spec.dynamic_batch_size or spec.dynamic_dims)}"  # noqa: E501
                )
    return GearPlan(tuple(symbols), gears, bool(spec.dynamic_batch_size))


def _describe(dims: list[list[sympy.Expr | int]]) -> str:
    return "; ".join(f"input {i}: ({', '.join(map(str, d))})" for i, d in enumerate(dims))


# --- specialization ----------------------------------------------------------------------------


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
            try:
                new.meta["val"] = _concrete_val(node.meta["val"], binding, mode)
            except _Unbound:
                pass
        env[node] = new
    special = copy.copy(program)
    special._graph_module = GraphModule(program.graph_module, graph)
    return special


# --- partitioning ------------------------------------------------------------------------------


def analyze_at_gears(
    program: ExportedProgram,
    plan: GearPlan,
    static_analyze: Callable[[ExportedProgram], dict[Node, str | None]],
) -> dict[Node, str | None]:
    """The partitioner's decisions for a program with gears: a node is taken when the static
    analysis takes it at every gear; a size node when every user of it is taken (so no size
    crosses a partition boundary)."""
    per_gear = []
    specials = [specialize(program, binding) for binding in plan.bindings()]
    for special in specials:
        decisions = static_analyze(special)
        per_gear.append({n.name: r for n, r in decisions.items()})
    nodes = [n for n in program.graph.nodes if n.op == "call_function"]
    result: dict[Node, str | None] = {}
    sizes = [n for n in nodes if n.name not in per_gear[0]]
    for name, reason in _gear_varying_constants(program, specials, set(sizes), plan).items():
        for d in per_gear:
            d[name] = reason
    for node in nodes:
        if node in sizes:
            continue
        reasons = [d.get(node.name, "not analyzed") for d in per_gear]
        refused = [(g, r) for g, r in zip(plan.gears, reasons, strict=True) if r is not None]
        if not refused:
            result[node] = None
        elif len(refused) == len(plan.gears) and len({r for _, r in refused}) == 1:
            result[node] = refused[0][1]
        else:
            gear, reason = refused[0]
            result[node] = f"at gear ({plan.label(gear)}): {reason}"
    changed = True
    while changed:
        changed = False
        for node in reversed(sizes):
            taken = bool(node.users) and all(result.get(u, "x") is None for u in node.users)
            result[node] = None if taken else "a size used outside Ascend partitions"
        for node in nodes:
            if node in sizes or result[node] is not None:
                continue
            cpu = [n.name for n in node.all_input_nodes if n in sizes and result[n] is not None]
            if cpu:
                result[node] = f"reads a size computed on the CPU ({', '.join(cpu)})"
                changed = True
    return {n: result[n] for n in nodes}


def _gear_varying_constants(
    program: ExportedProgram, specials: list[ExportedProgram], sizes: set[Node], plan: GearPlan
) -> dict[str, str]:
    # ExecuTorch may partition under a fake mode; the constants themselves are real.
    with unset_fake_temporarily():
        return _varying_constants(program, specials, sizes, plan)


def _varying_constants(
    program: ExportedProgram, specials: list[ExportedProgram], sizes: set[Node], plan: GearPlan
) -> dict[str, str]:
    """Constants computed from sizes (scalar_tensor(s), arange(s)) that one graph cannot hold:
    a float whose value changes with the gear, or a tensor that grows but is not the leading
    part of the largest gear's. They stay on the CPU, so the partition reads them as inputs."""
    from .constants import ConstantResolver

    derived: set[Node] = set()
    for node in program.graph.nodes:
        if node.op == "call_function" and node not in sizes:
            if any(n in sizes or n in derived for n in node.all_input_nodes):
                derived.add(node)
    if not derived:
        return {}
    resolvers = [ConstantResolver(s) for s in specials]
    by_name = [{n.name: n for n in s.graph.nodes} for s in specials]
    refused: dict[str, str] = {}
    for node in derived:
        found = [names.get(node.name) for names in by_name]
        nodes = [n for n in found if n is not None]
        if len(nodes) != len(found) or not all(
            r.is_constant(n) for n, r in zip(nodes, resolvers, strict=True)
        ):
            continue
        try:
            held = [r.value(n) for n, r in zip(nodes, resolvers, strict=True)]
        except Exception:  # not computable here: the lowering checks it
            continue
        values = [v for v in held if v is not None]  # constants: all of them
        if len(values) != len(held) or any(isinstance(v, FakeTensor) for v in values):
            continue
        if all(v.shape == values[0].shape and torch.equal(v, values[0]) for v in values):
            continue
        if all(v.shape == values[0].shape for v in values):
            sizes_like = values[0].dtype == torch.int64 or _integral_floats(
                [v.detach().float().numpy() for v in values]
            )
            if sizes_like and values[0].dim() <= 1:
                # Sizes (int64, or held as floats): fitted to the gear symbols at lowering, when
                # every entry is an integer formula of them.
                columns = zip(*(v.reshape(-1).long().tolist() for v in values), strict=True)
                if all(_fit(list(c), plan) is not None or len(set(c)) == 1 for c in columns):
                    continue
                refused[node.name] = (
                    f"its value is computed from the shape and changes with the gear "
                    f"({gears_text(plan.gears)}) as no integer formula of the gear symbols, so it "
                    "is computed on the CPU"
                )
                continue
            if values[0].dtype == torch.int64:
                continue  # rank > 1: the lowering says why it cannot hold it
            refused[node.name] = (
                f"its value is computed from the shape and changes with the gear "
                f"({gears_text(plan.gears)}), so it is computed on the CPU"
            )
            continue
        largest = max(values, key=lambda v: v.numel())
        for v in values:
            corner = tuple(slice(0, n) for n in v.shape)
            if v.dim() != largest.dim() or not torch.equal(largest[corner], v):
                refused[node.name] = (
                    "its shape changes with the gear and it is not the leading part of the "
                    "largest gear's value, so it is computed on the CPU"
                )
                break
    return refused


def kept_whole_at_gears(
    program: ExportedProgram, spec: AscendCompileSpec, kept: Callable[[Node], bool]
) -> set[str] | None:
    """Names of the nodes `kept` accepts at every gear; None when the program has no usable
    gears (then `kept` decides on the symbolic node itself, and refuses it)."""
    plan = plan_gears(program, spec)
    if not isinstance(plan, GearPlan):
        return None
    names: set[str] | None = None
    for binding in plan.bindings():
        special = specialize(program, binding)
        ok = {n.name for n in special.graph.nodes if n.op == "call_function" and kept(n)}
        names = ok if names is None else names & ok
    return names


def has_symbolic_shape(node: Node) -> bool:
    vals = node.meta.get("val")
    vals = vals if isinstance(vals, (list, tuple)) else [vals]
    vals = [*vals, *(n.meta.get("val") for n in node.all_input_nodes)]
    return any(
        isinstance(v, torch.Tensor) and any(isinstance(d, torch.SymInt) for d in v.shape)
        for v in vals
    )


def explain_refusal(decisions: dict[Node, str | None], reason: str) -> dict[Node, str | None]:
    """Adds why gears cannot help to the reasons of nodes refused for dynamic shapes."""
    return {
        n: (
            f"{r.removesuffix(' (atc needs static shapes)')}: {reason}"
            if r is not None and r.startswith("dynamic ")
            else r
        )
        for n, r in decisions.items()
    }


# --- lowering ----------------------------------------------------------------------------------


def lower_partition(
    program: ExportedProgram,
    spec: AscendCompileSpec,
    external_threshold: int | None,
    check: bool = True,
) -> tuple[object, list[str]]:
    """The LoweredGraph of a partition, and the atc options its gears need (none when static).

    `check`: run onnx.checker on a graph without external data here, in memory; False when the
    caller saves the graph (LoweredGraph.save checks the files then: one serialization)."""
    from .program import OnnxValue, to_onnx

    plan = plan_gears(program, spec)
    if plan is None:
        return to_onnx(program, external_threshold, check=check), []
    if isinstance(plan, str):
        raise LoweringError(plan)
    if len(plan.gears) == 1:
        # Every gear gives this partition's symbols the same values: it is static.
        special = specialize(program, plan.bindings()[0])
        return to_onnx(special, external_threshold, check=check), []
    graphs = []
    for binding, gear in zip(plan.bindings(), plan.gears, strict=True):
        try:
            graphs.append(to_onnx(specialize(program, binding), external_threshold, check=check))
        except LoweringError as e:
            raise LoweringError(f"at gear ({plan.label(gear)}): {e}") from e
    # Device-state inputs (a KV cache, lowering/program.py) follow the user inputs: static.
    dims = input_dims(program)
    dims += [list(v.dims) for v in graphs[0].inputs[len(dims) :]]
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
    return lowered, atc_gear_options(plan, dims)


def _merged_dims(per_gear: list[tuple[int, ...]]) -> list[int]:
    return [d[0] if len(set(d)) == 1 else -1 for d in zip(*per_gear, strict=True)]


def atc_gear_options(plan: GearPlan, dims: list[list[sympy.Expr | int]]) -> list[str]:
    """--dynamic_batch_size=1,2,4, or --dynamic_dims with one value per -1 of --input_shape (in
    the order of the inputs that have dims, left to right)."""
    if plan.batch:
        return [f"--dynamic_batch_size={','.join(str(g[0]) for g in plan.gears)}"]
    index = {s: i for i, s in enumerate(plan.symbols)}
    occurrences = [index[d] for ds in dims for d in ds if isinstance(d, sympy.Symbol)]
    gears = ";".join(",".join(str(g[i]) for i in occurrences) for g in plan.gears)
    return [f"--dynamic_dims={gears}"]


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


Fit = tuple[list[tuple[int, tuple[sympy.Symbol, ...]]], int]


def _fit(values: Sequence[int], plan: GearPlan) -> Fit | None:
    """An integer formula of the gear symbols that gives `values` (one per gear) exactly:
    a*s + b, a*s*t + b, or a linear combination of all symbols; None when there is none."""
    gears = plan.gears
    if len(set(values)) == 1:
        return [], int(values[0])
    bases: list[tuple[sympy.Symbol, ...]] = [(s,) for s in plan.symbols]
    bases += list(itertools.combinations_with_replacement(plan.symbols, 2))
    index = {s: i for i, s in enumerate(plan.symbols)}

    def term(gear: Sequence[int], syms: tuple[sympy.Symbol, ...]) -> int:
        return int(np.prod([gear[index[s]] for s in syms]))

    for syms in bases:
        xs = [term(g, syms) for g in gears]
        pairs = [(i, j) for i in range(len(xs)) for j in range(i) if xs[i] != xs[j]]
        if not pairs:
            continue
        i, j = pairs[0]
        a = Fraction(values[i] - values[j], xs[i] - xs[j])
        b = values[i] - a * xs[i]
        if a.denominator == 1 and b.denominator == 1:
            if all(a * x + b == v for x, v in zip(xs, values, strict=True)):
                return [(int(a), syms)], int(b)
    matrix = np.array([[*g, 1] for g in gears], dtype=np.float64)
    solution = np.rint(np.linalg.lstsq(matrix, np.array(values, dtype=np.float64), rcond=None)[0])
    coefs = [int(c) for c in solution]
    if all(
        sum(c * x for c, x in zip(coefs, [*g, 1], strict=True)) == v
        for g, v in zip(gears, values, strict=True)
    ):
        terms = [(c, (s,)) for c, s in zip(coefs[:-1], plan.symbols, strict=True) if c != 0]
        return terms, coefs[-1]
    return None


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
        if _integral_floats(arrays):
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


def _integral_floats(arrays: Sequence[np.ndarray]) -> bool:
    """Float arrays of one shape, rank <= 1, whole numbers at every gear (sizes held as floats)."""
    first = arrays[0]
    if first.dtype.kind != "f" or first.ndim > 1:
        return False
    return all(
        a.shape == first.shape
        and np.all(np.isfinite(a))
        and np.all(a == np.round(a))
        and np.all(np.abs(a) < 2**53)
        for a in arrays
    )


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
        fit = _fit(column, plan)
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
        fit = _fit([a.shape[axis] for a in arrays], plan)
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
