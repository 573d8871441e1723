# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Per-op profiling of an Ascend partition, read back by executorch.devtools.Inspector.

A delegated model (an MLP, a small CNN; one Ascend partition each) runs through executorch.runtime
with ETDump enabled; with the ETRecord of its lowering, the Inspector must show one delegate event
per .om op (the op list `atc --mode=6` prints), named after the op, with the ATen nodes the debug
handle map from preprocess ties it to. No timing is asserted. The run is a child process
(etdump_run.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager, seeded_inputs
from etdump_run import run_with_etdump
from executorch.exir import to_edge, to_edge_transform_and_lower

from executorch_ascend import AscendCompileSpec, AscendPartitioner
from executorch_ascend.export import save
from executorch_ascend.lowering import to_onnx
from executorch_ascend.serialization.debug_map import debug_handle_map
from executorch_ascend.toolchain.atc import om_op_names, resolve_atc

EXECUTE_EVENT = "AscendBackend::execute"
RUNS = 2


class Mlp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


class SmallCnn(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(torch.flatten(self.pool(torch.relu(self.conv(x))), 1))


def _profile(
    model: torch.nn.Module, shape: tuple[int, ...], tmp_path: Path
) -> tuple[list, dict, list[str]]:
    """Lowers with an ETRecord, runs under ETDump; the Inspector's delegate events (the whole-call
    event aside), the delegate's debug handle map and the .om's ops (`atc --mode=6`)."""
    from executorch.devtools import Inspector

    torch.manual_seed(0)
    model = model.eval()
    inputs = seeded_inputs(shape, seed=1)
    spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(tmp_path / "dump"))
    exported = torch.export.export(model, inputs)
    edge = to_edge_transform_and_lower(
        exported, partitioner=[AscendPartitioner(spec)], generate_etrecord=True
    )
    program = edge.to_executorch()
    etrecord = tmp_path / "etrecord.bin"
    program.get_etrecord().save(str(etrecord))
    pte, _ = save(program, tmp_path / "model.pte")

    outputs, etdump = run_with_etdump(pte, inputs[0], tmp_path, RUNS)
    assert_close(outputs, eager(model, inputs), type(model).__name__)

    inspector = Inspector(etdump_path=str(etdump), etrecord=str(etrecord))
    events = [
        e
        for block in inspector.event_blocks
        for e in block.events
        if e.is_delegated_op and e.name != EXECUTE_EVENT
    ]
    maps = [m for m in inspector._etrecord._delegate_map["forward"].values()]
    assert len(maps) == 1, maps  # one Ascend partition
    (om,) = (tmp_path / "dump").glob("*/part.om")
    ops = om_op_names(om, resolve_atc(spec))
    assert ops, "atc --mode=6 listed no ops"
    return events, maps[0]["delegate_map"], ops


@pytest.mark.emulator
@pytest.mark.parametrize(
    ("model", "shape", "op_type", "aten"),
    [
        (Mlp(), (4, 16), "Gemm", ("linear", "addmm")),
        (SmallCnn(), (1, 3, 8, 8), "Conv", ("convolution",)),
    ],
    ids=["mlp", "cnn"],
)
def test_one_event_per_om_op_with_its_aten_nodes(
    native: None,
    tmp_path: Path,
    model: torch.nn.Module,
    shape: tuple[int, ...],
    op_type: str,
    aten: tuple[str, ...],
) -> None:
    events, delegate_map, ops = _profile(model, shape, tmp_path)

    # One event per .om op, named after it, with a sample per execute.
    by_name = {e.name: e for e in events}
    assert len(events) == len(ops) and sorted(by_name) == sorted(ops), (sorted(by_name), ops)
    for event in events:
        assert len(event.perf_data.raw) == RUNS, (event.name, event.perf_data.raw)

    # Every op maps back, through the debug handle map, to the ATen nodes it computes.
    for op in ops:
        assert op in delegate_map, (op, sorted(delegate_map))
        assert by_name[op].debug_handles, op
        assert by_name[op].stack_traces, op  # the nodes' names, with their source lines
    matched = [op for op in ops if op_type in op.split("+")[0].split("/")[-1]]
    assert matched, ops
    for op in matched:
        nodes = by_name[op].stack_traces
        assert any(a in node for node in nodes for a in aten), (op, sorted(nodes))
        assert any(a in str(t) for t in by_name[op].op_types for a in aten), by_name[op].op_types


def test_debug_map_names_nodes_after_their_fx_node_and_unites_fused_ops() -> None:
    """The contract with atc: a fused op is named by its ONNX nodes joined with '+' in graph
    order, and maps to the union of their nodes' debug handles. No atc needed."""

    class LinearRelu(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = torch.nn.Linear(4, 3)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(self.fc(x))

    exported = torch.export.export(LinearRelu().eval(), (torch.randn(2, 4),))
    program = to_edge(exported).exported_program()
    handles = {
        n.name: n.meta["debug_handle"] for n in program.graph.nodes if "debug_handle" in n.meta
    }
    graph = to_onnx(program)
    # Every ONNX node is named "<fx node>/<OpType>" and traced to that FX node.
    assert [n.name for n in graph.model.graph.node] == list(graph.sources)
    for name, fx in graph.sources.items():
        assert name.startswith(fx + "/"), (name, fx)
    gemm, relu = graph.sources
    fused = f"{gemm}+{relu}"
    mapping = debug_handle_map(program, graph.sources, [gemm, fused])
    assert mapping[gemm] == (handles[graph.sources[gemm]],)
    assert mapping[relu] == (handles[graph.sources[relu]],)
    assert mapping[fused] == tuple(sorted(set(mapping[gemm] + mapping[relu])))
