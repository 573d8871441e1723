# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AscendPartitioner: tags exactly the nodes the converter registry can lower."""

from __future__ import annotations

import logging
import operator
from collections import Counter
from collections.abc import Callable

import torch
from executorch.exir.backend.partitioner import DelegationSpec, Partitioner, PartitionResult
from executorch.exir.backend.utils import tag_constant_data
from torch.export import ExportedProgram
from torch.fx import Node
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from .backend import AscendBackend
from .compile_spec import AscendCompileSpec, SpecLike, as_compile_spec
from .lowering.before_to_edge import rewrite_before_to_edge
from .lowering.constants import ConstantResolver
from .lowering.gears.partitioning import (
    analyze_at_gears,
    explain_refusal,
    has_symbolic_shape,
    kept_whole_at_gears,
)
from .lowering.gears.plan import GearPlan, plan_gears
from .lowering.registry import ops_kept_whole, why_unsupported
from .lowering.whole_ops import make_kept_outputs_contiguous
from .soc_dtypes import bf16_refusal

logger = logging.getLogger(__name__)


def analyze(
    program: ExportedProgram,
    soc_version: str | None = None,
    spec: AscendCompileSpec | None = None,
) -> dict[Node, str | None]:
    """For every call_function node: None if Ascend can take it, else why not.

    With `soc_version`, nodes with dtypes that chip lacks (bf16 on Ascend310P) are refused too.
    With the shape gears of `spec`, symbolic shapes are taken where every gear is
    (lowering/gears/partitioning.py); without usable gears the reason says what to add.
    """
    plan = plan_gears(program, spec or AscendCompileSpec())
    if isinstance(plan, GearPlan):
        return analyze_at_gears(program, plan, lambda p: _analyze(p, soc_version))
    decisions = _analyze(program, soc_version)
    return decisions if plan is None else explain_refusal(decisions, plan)


def _computes_tensors(node: Node) -> bool:
    """A call_function producing tensors: compute a user would want on the NPU (getitem,
    symbolic-size and assertion nodes are bookkeeping)."""
    if node.target is operator.getitem:
        return False
    val = node.meta.get("val")
    vals = val if isinstance(val, (list, tuple)) else [val]
    return any(isinstance(v, torch.Tensor) for v in vals)


def placement_warning(partitions: int, decisions: dict[Node, str | None], top: int = 3) -> str:
    """The warning lowering logs when a program gets no Ascend partition or leaves compute ops
    on the CPU: how many, the most frequent reasons, and where to look. Empty: all delegated."""
    left = [(node, reason) for node, reason in decisions.items() if reason is not None]
    left = [(node, reason) for node, reason in left if _computes_tensors(node)]
    if partitions and not left:
        return ""
    counts = Counter(reason for _, reason in left)
    reasons = "; ".join(
        f"{reason} ({n} op{'s' if n > 1 else ''})" for reason, n in counts.most_common(top)
    )
    more = f"; and {len(counts) - top} other reason(s)" if len(counts) > top else ""
    head = (
        "no Ascend partition: the whole program runs on the CPU"
        if not partitions
        else f"{partitions} Ascend partition(s), but {len(left)} compute op(s) stay on the CPU"
    )
    why = f": {reasons}{more}" if reasons else ""
    return (
        f"AscendPartitioner: {head}{why}. executorch_ascend.explain(exported_program) "
        "(or `executorch-ascend explain`) lists every op and why; docs/troubleshooting.md "
        "has the usual causes."
    )


def _analyze(program: ExportedProgram, soc_version: str | None) -> dict[Node, str | None]:
    """analyze() for static shapes.

    Constant computations (folded into ONNX initializers at lowering) are taken only when every
    user is taken, and a getitem only with its tuple-producing op; neither is worth a delegate call
    on its own.
    """
    constants = ConstantResolver(program)
    nodes = [n for n in program.graph.nodes if n.op == "call_function"]
    result: dict[Node, str | None] = {}
    for node in nodes:
        if not constants.is_constant(node):
            reason = why_unsupported(node)
            if reason is None and soc_version is not None:
                reason = bf16_refusal(node, soc_version)
            result[node] = reason
    for node in reversed(nodes):
        if constants.is_constant(node):
            users_taken = bool(node.users) and all(result.get(u, "x") is None for u in node.users)
            result[node] = (
                None if users_taken else "constant computation used outside Ascend partitions"
            )
    for node in nodes:
        # A tuple-producing op writes its outputs through its getitem users, so it goes only
        # with all of them.
        getitems = [u for u in node.users if u.target is operator.getitem]
        if result[node] is None and any(result.get(u) is not None for u in getitems):
            result[node] = "an output of this op cannot be delegated"
    for node in nodes:
        if node.target is operator.getitem and result[node] is None:
            source = node.args[0]
            if isinstance(source, Node) and result.get(source) is not None:
                result[node] = "its tuple-producing op is not delegated"
    return {n: result[n] for n in nodes}


def propose_partitions(program: ExportedProgram, decisions: dict[Node, str | None]) -> list:
    """The partitions AscendPartitioner makes of `program` (fx Partition objects; the graph is
    not changed)."""
    return CapabilityBasedPartitioner(
        program.graph_module, _RegistrySupport(decisions), allows_single_node_partition=True
    ).propose_partitions()


def _kept_whole(node: Node, soc_version: str | None = None) -> bool:
    if why_unsupported(node) is not None:
        return False
    return soc_version is None or bf16_refusal(node, soc_version) is None


class _RegistrySupport(OperatorSupportBase):
    def __init__(self, decisions: dict[Node, str | None]) -> None:
        self._decisions = decisions

    def is_node_supported(self, submodules: object, node: Node) -> bool:
        return node.op == "call_function" and self._decisions.get(node, "unknown") is None


def tag_owned_buffers(program: ExportedProgram) -> list[str]:
    """Gives each mutable buffer (a KV cache) to the partition that reads and updates it, so the
    delegate keeps it on the device as state (lowering/lowered_graph.py). A buffer is taken only
    when its every reader and its new value, with every reader of that value, are in one partition;
    else it stays with ExecuTorch and crosses to the device as an input each call. Returns the
    buffer targets taken.

    ExecuTorch's tag_mutated_buffer tags a buffer with its readers' partition even when its
    update runs on the CPU, which leaves the update without its buffer; hence this stricter rule.
    """
    sig = program.graph_signature
    new_values: dict[str, Node] = {}
    output = program.graph.output_node()
    for spec, value in zip(sig.output_specs, output.args[0], strict=True):
        if spec.kind.name == "BUFFER_MUTATION" and isinstance(value, Node) and spec.target:
            new_values[spec.target] = value
    taken: list[str] = []
    for node in program.graph.nodes:
        target = sig.inputs_to_buffers.get(node.name) if node.op == "placeholder" else None
        new_value = new_values.get(target) if target else None
        if new_value is None:
            continue
        tag = new_value.meta.get("delegation_tag")
        readers = list(node.users) + [u for u in new_value.users if u.op != "output"]
        if tag is None or any(u.meta.get("delegation_tag") != tag for u in readers):
            continue
        node.meta["delegation_tag"] = tag
        taken.append(target)  # type: ignore[arg-type]
    return taken


class AscendPartitioner(Partitioner):
    """Partitions an edge program for AscendBackend.

    `compile_spec` is an AscendCompileSpec, a list of CompileSpec, or None for the defaults.
    `take_over_mutable_buffer` (as CoreMLPartitioner's): a mutable buffer whose reads and update
    all fall in one partition becomes that delegate's device state (a KV cache stays on the
    device). False leaves every buffer with ExecuTorch, which passes it in and takes it back each
    call: what a program whose methods share a buffer (share_mutable_buffers) needs, since a
    delegate's state belongs to its own method.
    After `partition`, `reasons` maps each node left on the CPU to why.
    """

    def __init__(
        self, compile_spec: SpecLike = None, take_over_mutable_buffer: bool = True
    ) -> None:
        super().__init__()
        self.compile_spec = as_compile_spec(compile_spec)
        self.take_over_mutable_buffer = take_over_mutable_buffer
        self.delegation_spec = DelegationSpec(
            AscendBackend.__name__, self.compile_spec.to_compile_specs()
        )
        self.reasons: dict[str, str] = {}
        # Kept ops whose output got a contiguous copy before decomposition (node names).
        self.layout_fixes: list[str] = []
        # copy_ nodes given an explicit cast to their destination's dtype (node names).
        self.copy_casts: list[str] = []
        self._gear_kept: set[str] | None = None  # ops kept whole at every shape gear
        # Mutable buffers (targets) a partition owns as device state, set by `partition`.
        self.owned_buffers: list[str] = []

    def transform_for_pre_decomposition(self, exported_program: ExportedProgram) -> ExportedProgram:
        # A kept op's output layout can differ between the traces to_edge makes, and a view
        # after it then fails to re-trace; see lowering/whole_ops.py. The program is edited in
        # place (a clone that changes no value), as ExecuTorch hands it over for that purpose.
        # Before that, the rewrites of non-core ops and of dtype-changing copies
        # (lowering/before_to_edge.py).
        exported_program, self.copy_casts = rewrite_before_to_edge(exported_program)
        self._gear_kept = self._kept_at_gears(exported_program)
        self.layout_fixes = make_kept_outputs_contiguous(exported_program, self._kept_whole)
        return exported_program

    def ops_to_not_decompose(
        self, ep: ExportedProgram
    ) -> tuple[list[torch._ops.OpOverload], Callable[[Node], bool] | None]:
        # Keep an op whole only where it will be delegated: a kept op left on the CPU would have
        # no portable kernel after to_edge.
        self._gear_kept = self._kept_at_gears(ep)
        return ops_kept_whole(), self._kept_whole

    @property
    def kept_at_every_gear(self) -> set[str] | None:
        """Symbolic ops kept whole because they lower at every shape gear (None: no gears)."""
        return self._gear_kept

    def _kept_at_gears(self, ep: ExportedProgram) -> set[str] | None:
        return kept_whole_at_gears(
            ep, self.compile_spec, lambda n: _kept_whole(n, self.compile_spec.soc_version)
        )

    def _kept_whole(self, node: Node) -> bool:
        # A kept op left on the CPU (bf16 on Ascend310P included) has no portable kernel.
        # With shape gears, a symbolic op is kept when it is lowerable at every gear.
        if self._gear_kept is not None and has_symbolic_shape(node):
            return node.name in self._gear_kept
        return _kept_whole(node, self.compile_spec.soc_version)

    def partition(self, exported_program: ExportedProgram) -> PartitionResult:
        spec = self.compile_spec
        decisions = analyze(exported_program, spec.soc_version, spec)
        self.reasons = {n.name: r for n, r in decisions.items() if r is not None}
        partitions = propose_partitions(exported_program, decisions)
        tags: dict[str, DelegationSpec] = {}
        for partition in partitions:
            tag = f"ascend_{partition.id}"
            for node in partition.nodes:
                node.meta["delegation_tag"] = tag
            tags[tag] = self.delegation_spec
        tag_constant_data(exported_program)
        self.owned_buffers = (
            tag_owned_buffers(exported_program) if self.take_over_mutable_buffer else []
        )
        logger.info(
            "AscendPartitioner: %d partition(s); %d op(s) stay on the CPU; %d mutable buffer(s) "
            "kept on the device",
            len(tags),
            len(self.reasons),
            len(self.owned_buffers),
        )
        warning = placement_warning(len(tags), decisions)
        if warning:
            logger.warning("%s", warning)
        return PartitionResult(tagged_exported_program=exported_program, partition_tags=tags)
