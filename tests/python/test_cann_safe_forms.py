# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What reaches atc has the form CANN is known to handle (docs/using-real-cann.md, "What the
lowering hands atc"): each case reads the partition's ONNX from dump_dir, the file atc is given,
and runs the program on the emulator against eager PyTorch, in fp32 and in fp16 where the op
takes it, as plain modules and as nn.Sequential."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
import torch
from ascend_helpers import assert_close, eager
from executorch.exir import to_edge_transform_and_lower
from onnx import numpy_helper

from executorch_ascend import AscendCompileSpec, AscendPartitioner
from executorch_ascend.export import lower, save
from executorch_ascend.run import run_with_runtime


def _lower_and_dump(
    model: torch.nn.Module, inputs: tuple[torch.Tensor, ...], tmp_path: Path
) -> tuple[onnx.ModelProto, list[torch.Tensor]]:
    """Lowers to one partition with dump_dir; returns its part.onnx and the emulator's outputs."""
    spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(tmp_path / "dumps"))
    lowering = lower(model, inputs, spec)
    assert lowering.summary.partitions == 1, lowering.summary
    assert not lowering.summary.cpu_ops, lowering.summary
    (folder,) = sorted((tmp_path / "dumps").iterdir())
    pte, _ = save(lowering.program, tmp_path / "model.pte")
    return onnx.load(str(folder / "part.onnx")), run_with_runtime(pte, inputs)


_ONNX_TYPES = {
    torch.float32: onnx.TensorProto.FLOAT,
    torch.float16: onnx.TensorProto.FLOAT16,
    torch.bfloat16: onnx.TensorProto.BFLOAT16,
}


def _ops(model: onnx.ModelProto, op_type: str) -> list[onnx.NodeProto]:
    return [n for n in model.graph.node if n.op_type == op_type]


def _attr(node: onnx.NodeProto, name: str) -> object:
    (a,) = [a for a in node.attribute if a.name == name]
    return onnx.helper.get_attribute_value(a)


class _LogSoftmaxHead(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log_softmax(self.proj(x) * 8, dim=-1)


@pytest.mark.emulator
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("sequential", [False, True], ids=["module", "sequential"])
def test_log_softmax_is_one_op(
    native, dtype: torch.dtype, sequential: bool, tmp_path: Path
) -> None:
    torch.manual_seed(0)
    model: torch.nn.Module = (
        torch.nn.Sequential(torch.nn.Linear(16, 10), torch.nn.LogSoftmax(dim=1))
        if sequential
        else _LogSoftmaxHead()
    )
    model = model.eval().to(dtype)
    x = (torch.randn(3, 16) * 4).to(dtype)
    graph, outputs = _lower_and_dump(model, (x,), tmp_path)
    (node,) = _ops(graph, "LogSoftmax")
    assert _attr(node, "axis") == 1
    assert not {n.op_type for n in graph.graph.node} & {"ReduceMax", "Exp", "ReduceSum", "Log"}
    assert_close(
        outputs, eager(model, (x,)), "log_softmax", rel=1e-4 if dtype == torch.float32 else 1e-2
    )


class _Accumulate(torch.nn.Module):
    """x[idx] += v with repeated rows (a histogram of embeddings), then a read of the result."""

    def __init__(self, rows: list[int]) -> None:
        super().__init__()
        self.register_buffer("idx", torch.tensor(rows))

    def forward(self, x: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return torch.index_put(x, (self.idx,), v, accumulate=True) * 2


class _AccumulateAt(torch.nn.Module):
    """x[:, i, j] += v with graph-computed indices (an input), two indexed dims."""

    def forward(
        self, x: torch.Tensor, v: torch.Tensor, i: torch.Tensor, j: torch.Tensor
    ) -> torch.Tensor:
        # torch.index_put takes no None entries; the aten op does (a full slice).
        return torch.ops.aten.index_put.default(x, [None, i, j], v, True)


@pytest.mark.emulator
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_accumulating_index_put_is_scatter_elements_add(
    native, dtype: torch.dtype, tmp_path: Path
) -> None:
    model = _Accumulate([1, 3, 1, 0, 3, 3]).eval()
    x = torch.randn(5, 4).to(dtype)
    v = torch.randn(6, 4).to(dtype)
    graph, outputs = _lower_and_dump(model, (x, v), tmp_path)
    assert not _ops(graph, "ScatterND")
    (node,) = _ops(graph, "ScatterElements")
    assert _attr(node, "reduction") == b"add"
    assert _attr(node, "axis") == 0
    # Duplicates add: a ScatterND that ignored `reduction` would keep one row of each.
    assert_close(
        outputs,
        eager(model, (x, v)),
        "index_put accumulate",
        rel=1e-4 if dtype == torch.float32 else 1e-2,
    )


@pytest.mark.emulator
def test_accumulating_index_put_with_computed_indices(native, tmp_path: Path) -> None:
    model = _AccumulateAt().eval()
    x = torch.randn(2, 4, 4)
    v = torch.randn(2, 5)
    i = torch.tensor([0, 3, -1, 0, 2])  # a repeated pair (0, 1) and negative indices
    j = torch.tensor([1, 0, 2, 1, -4])
    graph, outputs = _lower_and_dump(model, (x, v, i, j), tmp_path)
    assert not _ops(graph, "ScatterND")
    (node,) = _ops(graph, "ScatterElements")
    assert _attr(node, "reduction") == b"add"
    assert_close(outputs, eager(model, (x, v, i, j)), "index_put accumulate, computed indices")


@pytest.mark.emulator
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("affine", [True, False], ids=["no_bias", "no_affine"])
def test_layer_norm_without_bias_gets_one_of_its_dtype(
    native, dtype: torch.dtype, affine: bool, tmp_path: Path
) -> None:
    torch.manual_seed(0)
    norm = (
        torch.nn.LayerNorm(12, bias=False)
        if affine
        else torch.nn.LayerNorm(12, elementwise_affine=False)
    )
    if affine:
        with torch.no_grad():
            norm.weight.uniform_(0.5, 2.0)
    model = torch.nn.Sequential(torch.nn.Linear(12, 12), norm).eval().to(dtype)
    x = (torch.randn(2, 5, 12) * 3).to(dtype)
    graph, outputs = _lower_and_dump(model, (x,), tmp_path)
    (node,) = _ops(graph, "LayerNormalization")
    assert len(node.input) == 3 and node.input[2], "LayerNormalization without its bias input"
    inits = {i.name: i for i in graph.graph.initializer}
    bias = inits[node.input[2]]
    assert bias.data_type == _ONNX_TYPES[dtype]
    assert not any(bias.raw_data or numpy_helper.to_array(bias).tobytes()), "a bias not zero"
    assert_close(
        outputs, eager(model, (x,)), "layer_norm", rel=1e-4 if dtype == torch.float32 else 1e-2
    )


@pytest.mark.emulator
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_max_pool3d_is_two_2d_max_pools(native, dtype: torch.dtype, tmp_path: Path) -> None:
    torch.manual_seed(0)
    pool = torch.nn.Sequential(
        torch.nn.MaxPool3d((3, 3, 2), (2, 2, 1), padding=(1, 1, 0), ceil_mode=True)
    )
    model = pool.eval().to(dtype)
    x = torch.randn(2, 3, 7, 6, 9).to(dtype)
    graph, outputs = _lower_and_dump(model, (x,), tmp_path)
    pools = _ops(graph, "MaxPool")
    # CANN's 3-D MaxPool plugin passes 3-element attributes its shape inference refuses.
    assert [len(_attr(n, "kernel_shape")) for n in pools] == [2, 2]
    assert [_attr(n, "kernel_shape") for n in pools] == [[3, 2], [3, 1]]
    # Max is exact in any dtype: the decomposition gives eager's numbers bit for bit.
    assert torch.equal(outputs[0], eager(model, (x,))[0])


@pytest.mark.parametrize(
    ("pool", "shape", "why"),
    [
        (torch.nn.MaxPool2d(16), (1, 2, 32, 32), "a 2-D MaxPool window of 256 elements"),
        (torch.nn.MaxPool3d(2, dilation=2), (1, 2, 6, 6, 6), "2-D MaxPool has no dilation"),
    ],
    ids=["window_256", "pool3d_dilation"],
)
def test_max_pools_past_cann_limits_stay_on_the_cpu(pool, shape, why: str) -> None:
    partitioner = AscendPartitioner(AscendCompileSpec(toolchain="emulator"))
    x = torch.randn(*shape)
    to_edge_transform_and_lower(torch.export.export(pool.eval(), (x,)), partitioner=[partitioner])
    assert any(why in r for r in partitioner.reasons.values()), partitioner.reasons
