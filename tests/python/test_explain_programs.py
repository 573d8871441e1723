# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""explain() on both programs a user has: what torch.export returns (ATen) and an edge program;
the partition picture drawn from the same decisions (DOT; SVG when Graphviz is installed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch
from executorch.exir import to_edge

from executorch_ascend import explain
from executorch_ascend.cli import main
from executorch_ascend.graph_picture import partition_dot, write_picture


class ConvBnSoftmax(torch.nn.Module):
    """conv2d, batch_norm and softmax: the ops issue 12 saw reported as 'no converter' on ATen."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.bn = torch.nn.BatchNorm2d(4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.bn(self.conv(x)), dim=1)


class FlipBetween(torch.nn.Module):
    """relu and add go to Ascend; atan has no converter and stays on the CPU between them."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.atan(torch.relu(x)) + 1


def _aten(model: torch.nn.Module, *shape: int):
    return torch.export.export(model.eval(), (torch.randn(*shape),))


def test_explain_takes_aten_and_edge_programs_alike() -> None:
    aten = explain(_aten(ConvBnSoftmax(), 1, 3, 8, 8))
    edge = explain(to_edge(_aten(ConvBnSoftmax(), 1, 3, 8, 8)).exported_program())
    for explanation in (aten, edge):
        assert not explanation.cpu, [(r.op, r.reason) for r in explanation.cpu]
        assert explanation.partitions == 1
        ops = " ".join(r.op for r in explanation)
        assert "convolution" in ops and "softmax" in ops and "batch_norm" in ops, ops


def test_picture_colours_partitions_and_cpu_reasons(tmp_path: Path) -> None:
    dot = partition_dot(_aten(FlipBetween(), 3, 4))
    assert dot.startswith("digraph partitions {")
    assert dot.count("subgraph cluster_ascend_") == 2  # relu, and add: atan splits them
    assert "atan" in dot and "CPU: " in dot
    assert "input x" in dot and '"outputs"' in dot
    picture = write_picture(dot, tmp_path / "flip.dot")
    assert picture.dot.read_text() == dot and picture.rendered is None


def test_picture_without_graphviz_writes_the_dot(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    picture = write_picture("digraph g { a -> b; }\n", tmp_path / "g.svg")
    assert picture.rendered is None and picture.dot == tmp_path / "g.dot"
    assert "apt-get install graphviz" in picture.note
    assert not (tmp_path / "g.svg").exists()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_explain_cli_draws_an_svg(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / "picture_models.py").write_text(
        "import torch\n"
        "class Net(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        return torch.atan(torch.relu(x)) + 1\n"
    )
    monkeypatch.chdir(tmp_path)
    assert (
        main(["explain", "picture_models:Net", "--input", "x:3,4:float32", "--graph", "p.svg"]) == 0
    )
    out = capsys.readouterr().out
    assert "in 2 partition(s)" in out and "wrote p.svg" in out, out
    svg = (tmp_path / "p.svg").read_text()
    assert "<svg" in svg and "Ascend partition 0" in svg and "atan" in svg
