# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A partition picture of a program: the edge graph AscendPartitioner sees, each op in the box of
its Ascend partition or red on the CPU with the reason, drawn by Graphviz.

The graph is the one lowering partitions (explain.edge_program: the same to_edge step, the same
decisions), so the picture shows what `to_edge_transform_and_lower` will do. It is written in
Graphviz's DOT language; `dot` (Debian package graphviz) renders it to SVG/PNG/PDF. Weights and
buffers are left out (they would outnumber the ops); the program's inputs and outputs are drawn.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from torch.export import ExportedProgram
from torch.fx import Node

from .compile_spec import SpecLike, as_compile_spec
from .lowering.registry import op_name
from .partitioner import analyze, propose_partitions

RENDERED_FORMATS = ("svg", "png", "pdf")
ASCEND_FILL = "#d5f0d5"
ASCEND_BORDER = "#2e7d32"
CPU_FILL = "#fbd5d5"
IO_FILL = "#e8e8e8"
DOT_TIMEOUT_S = 300


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _wrap(text: str, width: int = 48) -> str:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "\n".join([*lines, line] if line else lines)


def _short_op(node: Node) -> str:
    """aten.convolution.default -> convolution."""
    name = op_name(node)
    parts = name.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "aten" else name


def partition_dot(program: ExportedProgram, compile_spec: SpecLike = None) -> str:
    """The DOT text of `program`'s partition picture; `program` is ATen (what torch.export
    returns: taken to edge as lowering would) or edge."""
    from .explain import edge_program

    spec = as_compile_spec(compile_spec)
    edge = program if program.dialect == "EDGE" else edge_program(program, spec)[0]
    decisions = analyze(edge, spec.soc_version, spec)
    order = {node: i for i, node in enumerate(edge.graph.nodes)}
    # Numbered in graph order (the partitioner's own ids count from the output).
    groups = sorted((p.nodes for p in propose_partitions(edge, decisions)),
                    key=lambda nodes: min(order[n] for n in nodes))  # fmt: skip
    return _dot(edge, decisions, groups)


def _dot(
    edge: ExportedProgram, decisions: dict[Node, str | None], partitions: list[Iterable[Node]]
) -> str:
    user_inputs = set(edge.graph_signature.user_inputs)
    ids: dict[Node, str] = {}
    lines = [
        "digraph partitions {",
        "  rankdir=TB;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
        '  edge [color="#777777", arrowsize=0.6];',
    ]
    for node in edge.graph.nodes:
        if node.op == "placeholder" and node.name in user_inputs:
            ids[node] = f"n{len(ids)}"
            shape = tuple(getattr(node.meta.get("val"), "shape", ()))
            label = f"input {node.name}\n{list(shape)}"
            lines.append(
                f'  {ids[node]} [label={_quote(label)}, shape=ellipse, fillcolor="{IO_FILL}"];'
            )
    in_partition: dict[Node, int] = {}
    for index, nodes in enumerate(partitions):
        for node in nodes:
            in_partition[node] = index
    taken = sum(1 for r in decisions.values() if r is None)
    title = (
        f"{len(partitions)} Ascend partition(s), {taken} of {len(decisions)} ops on Ascend; "
        "red: on the CPU, with the reason"
    )
    lines.append(f"  label={_quote(title)};")
    lines.append("  labelloc=t;")
    for index, nodes in enumerate(partitions):
        members = [n for n in edge.graph.nodes if n in set(nodes)]
        lines.append(f"  subgraph cluster_ascend_{index} {{")
        lines.append(f"    label={_quote(f'Ascend partition {index} ({len(members)} ops)')};")
        lines.append(f'    style="rounded"; color="{ASCEND_BORDER}"; fontcolor="{ASCEND_BORDER}";')
        for node in members:
            ids[node] = f"n{len(ids)}"
            lines.append(
                f'    {ids[node]} [label={_quote(_short_op(node))}, fillcolor="{ASCEND_FILL}"];'
            )
        lines.append("  }")
    for node, reason in decisions.items():
        if node in in_partition:
            continue
        ids[node] = f"n{len(ids)}"
        label = f"{_short_op(node)}\nCPU: {_wrap(reason or 'not in a partition')}"
        lines.append(f'  {ids[node]} [label={_quote(label)}, fillcolor="{CPU_FILL}"];')
    output = edge.graph.output_node()
    ids[output] = f"n{len(ids)}"
    lines.append(f'  {ids[output]} [label="outputs", shape=ellipse, fillcolor="{IO_FILL}"];')
    for node in [*decisions, output]:
        for source in node.all_input_nodes:
            if source in ids:
                lines.append(f"  {ids[source]} -> {ids[node]};")
    lines.append("}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Picture:
    dot: Path  # always written
    rendered: Path | None  # the SVG/PNG/PDF, when asked for and Graphviz's dot is installed
    note: str  # what happened, for the user


def check_picture_path(output: str | Path) -> str:
    """The picture's format from its suffix; ValueError for one Graphviz is not asked for."""
    fmt = Path(output).suffix.lstrip(".").lower()
    if fmt not in (*RENDERED_FORMATS, "dot", "gv"):
        raise ValueError(f"{output}: the picture must end in .svg, .png, .pdf or .dot")
    return fmt


def write_picture(dot_text: str, output: str | Path) -> Picture:
    """Writes `output` (.dot, or .svg/.png/.pdf rendered with Graphviz's `dot` beside a .dot)."""
    out = Path(output)
    fmt = check_picture_path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    dot_path = out if fmt in ("dot", "gv") else out.with_suffix(".dot")
    dot_path.write_text(dot_text)
    if dot_path == out:
        return Picture(dot_path, None, f"wrote {dot_path}")
    dot = shutil.which("dot")
    if dot is None:
        return Picture(
            dot_path,
            None,
            f"Graphviz's `dot` is not installed (apt-get install graphviz), so there is no "
            f"{out.name}; wrote {dot_path} (render it with: dot -T{fmt} {dot_path} -o {out})",
        )
    done = subprocess.run(
        [dot, f"-T{fmt}", str(dot_path), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=DOT_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        return Picture(dot_path, None, f"dot failed ({done.stderr.strip()}); wrote {dot_path}")
    return Picture(dot_path, out, f"wrote {out} (and {dot_path})")
