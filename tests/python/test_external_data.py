# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The ONNX handed to atc with external data: which initializers become external, the layout of
part.weights, what onnx reads back, determinism, no copy of the weights, and the external tags
constants carry through folding."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from ascend_helpers import assert_close, eager, seeded_inputs
from executorch.exir.passes.external_constants_pass import (
    delegate_external_constants_pass_unlifted,
)
from onnx import TensorProto, numpy_helper

from executorch_ascend.export import edge_for_analysis
from executorch_ascend.lowering import LoweringError, to_onnx
from executorch_ascend.lowering.constants import common_tag
from executorch_ascend.lowering.external_data import ALIGNMENT, MODEL_FILE, WEIGHTS_FILE
from executorch_ascend.lowering.onnx_graph import OnnxGraphBuilder


class Net(torch.nn.Module):
    """A 64x256 Linear (64 KiB weight, 1 KiB bias) and a 256x4 one (4 KiB weight, 16 B bias)."""

    def __init__(self) -> None:
        super().__init__()
        self.big, self.small = torch.nn.Linear(64, 256), torch.nn.Linear(256, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.small(torch.relu(self.big(x)))


def _external(model: onnx.ModelProto) -> dict[str, dict[str, str]]:
    return {
        t.name: {e.key: e.value for e in t.external_data}
        for t in model.graph.initializer
        if t.data_location == TensorProto.EXTERNAL
    }


def _lower(module: torch.nn.Module, inputs, threshold: int | None):
    return to_onnx(edge_for_analysis(module.eval(), inputs), threshold)


def test_large_initializers_become_external_data(tmp_path: Path) -> None:
    module, inputs = Net().eval(), seeded_inputs((3, 64))
    graph = _lower(module, inputs, 1024)
    sizes = {c.name: c.nbytes for c in graph.constants}
    external = _external(graph.model)
    # At least 1024 bytes: the weights, and the big Linear's bias (exactly 1024).
    assert sorted(sizes[n] for n in external) == [1024, 4096, 65536]
    assert all(sizes[n] < 1024 for n in sizes if n not in external)
    # The ModelProto holds references only, not the bytes.
    assert graph.model.ByteSize() < 4096
    for name, entry in external.items():
        assert entry["location"] == WEIGHTS_FILE
        assert int(entry["offset"]) % ALIGNMENT == 0
        assert int(entry["length"]) == sizes[name]

    path = graph.save(tmp_path)
    assert path == tmp_path / MODEL_FILE
    assert sorted(p.name for p in tmp_path.iterdir()) == [MODEL_FILE, WEIGHTS_FILE]
    loaded = onnx.load(path, load_external_data=True)
    by_name = {c.name: c.array for c in graph.constants}
    for init in loaded.graph.initializer:
        np.testing.assert_array_equal(numpy_helper.to_array(init), by_name[init.name])
    # ONNX Runtime runs the saved files as they are (external data read from part.weights).
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (out,) = session.run(None, {"input_0": inputs[0].numpy()})
    assert_close([torch.from_numpy(out)], eager(module, inputs), "saved with external data")


def test_layout_of_part_weights(tmp_path: Path) -> None:
    builder = OnnxGraphBuilder(external_threshold=0)
    arrays = [
        np.arange(3, dtype=np.float32),  # 12 bytes: the next one starts at 64
        np.array([True, False, True]),
        np.arange(6, dtype=np.int64).reshape(2, 3),
        np.asarray(2.5, dtype=np.float16),  # 0-d
        np.zeros((0, 4), dtype=np.float32),  # no bytes: stays inline
        np.arange(70, dtype=np.uint8),
    ]
    names = [builder.add_initializer(a, "c") for a in arrays]
    builder.add_input("input_0", TensorProto.FLOAT, [3])
    builder.add_node("Identity", ["input_0"], ["output_0"])
    builder.add_output("output_0", TensorProto.FLOAT, [3])
    model = builder.build()
    external = _external(model)
    assert names[4] not in external
    offsets = [int(external[n]["offset"]) for n in names if n in external]
    assert offsets == [0, 64, 128, 192, 256]
    assert [c.offset for c in builder.constants] == [0, 64, 128, 192, None, 256]

    from executorch_ascend.lowering import external_data

    external_data.save(model, builder.constants, tmp_path)
    data = (tmp_path / WEIGHTS_FILE).read_bytes()
    assert len(data) == 256 + 70
    assert data[0:12] == arrays[0].tobytes() and data[12:64] == bytes(52)
    assert data[64:67] == b"\x01\x00\x01"
    assert data[192:194] == arrays[3].tobytes()
    loaded = onnx.load(tmp_path / MODEL_FILE, load_external_data=True)
    for init, array in zip(loaded.graph.initializer, arrays, strict=True):
        got = numpy_helper.to_array(init)
        assert got.dtype == array.dtype and got.shape == array.shape
        np.testing.assert_array_equal(got, array)


def test_no_external_data_below_the_threshold_or_without_one(tmp_path: Path) -> None:
    module, inputs = Net().eval(), seeded_inputs((3, 64))
    for threshold in (None, 1 << 40):
        graph = _lower(module, inputs, threshold)
        assert not graph.has_external_data and not _external(graph.model)
        graph.save(tmp_path / str(threshold))
        assert [p.name for p in (tmp_path / str(threshold)).iterdir()] == [MODEL_FILE]


def test_threshold_zero_takes_every_initializer_with_bytes() -> None:
    graph = _lower(Net().eval(), seeded_inputs((3, 64)), 0)
    assert all(c.external for c in graph.constants if c.nbytes > 0)


def test_saved_files_are_reproducible(tmp_path: Path) -> None:
    module, inputs = Net().eval(), seeded_inputs((3, 64))
    digests = []
    for run in ("a", "b"):
        _lower(module, inputs, 0).save(tmp_path / run)
        files = sorted((tmp_path / run).iterdir())
        digests.append([(p.name, hashlib.sha256(p.read_bytes()).hexdigest()) for p in files])
    assert digests[0] == digests[1]


def test_weights_are_written_from_the_parameters_memory() -> None:
    """No copy of a weight is made before it is written: the constant is a view of the tensor."""
    edge = edge_for_analysis(Net().eval(), seeded_inputs((3, 64)))
    graph = to_onnx(edge, 1024)
    params = [edge.state_dict[k].detach().numpy() for k in ("big.weight", "big.bias")]
    external = [c for c in graph.constants if c.external]
    assert len(external) == 3
    params.append(edge.state_dict["small.weight"].detach().numpy())
    for c in external:
        assert any(np.shares_memory(c.array, p) for p in params), c.name


def test_the_checker_runs_on_the_saved_files(tmp_path: Path) -> None:
    graph = _lower(Net().eval(), seeded_inputs((3, 64)), 0)
    # A model whose external data points outside its folder is refused by onnx.checker.
    bad = graph.model
    for t in bad.graph.initializer:
        for e in t.external_data:
            if e.key == "location":
                e.value = "../elsewhere.weights"
    with pytest.raises(LoweringError, match=r"onnx\.checker"):
        graph.save(tmp_path)


class TransposedWeight(torch.nn.Module):
    """A weight read through a transpose (folded at lowering) and a 3-D Linear (the converter
    transposes its weight): both derived initializers must keep the weight's tag."""

    def __init__(self) -> None:
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(32, 16))
        self.fc = torch.nn.Linear(32, 8)
        self.register_buffer("offset", torch.randn(8))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc((x @ self.w.t()).unsqueeze(0)) + self.offset


def test_external_tags_survive_folding() -> None:
    inputs = seeded_inputs((4, 16))
    tagged = torch.export.export(TransposedWeight().eval(), inputs).module()
    tags = {"w": "a", "fc.weight": "b", "fc.bias": "b"}  # the buffer stays untagged
    delegate_external_constants_pass_unlifted(tagged, gen_tag_fn=lambda n: tags.get(n.target))
    graph = to_onnx(edge_for_analysis(tagged, inputs), 0)
    by_tag: dict[str | None, int] = {}
    for c in graph.constants:
        by_tag[c.tag] = by_tag.get(c.tag, 0) + c.nbytes
    assert by_tag["a"] == 32 * 16 * 4  # w, through its folded transpose
    assert by_tag["b"] == (32 * 8 + 8) * 4  # the Linear's transposed weight, and its bias
    assert by_tag.get(None, 0) >= 8 * 4  # the buffer, shapes


def test_common_tag() -> None:
    assert common_tag([]) is None
    assert common_tag([None, None]) is None
    assert common_tag(["a", None, "a"]) == "a"
    assert common_tag(["a", "b"]) is None


def test_an_external_model_is_small_whatever_the_weights() -> None:
    """The ModelProto never holds external bytes, so protobuf's 2 GB limit cannot be reached by
    weights (a 2 GiB test would need the memory; the property is what matters)."""
    builder = OnnxGraphBuilder(external_threshold=1024)
    big = np.zeros(1 << 22, dtype=np.float32)  # 16 MiB
    for _ in range(8):
        builder.add_initializer(big, "w")
    builder.add_input("input_0", TensorProto.FLOAT, [1])
    builder.add_node("Identity", ["input_0"], ["output_0"])
    builder.add_output("output_0", TensorProto.FLOAT, [1])
    assert builder.build().ByteSize() < 4096
