# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Ahead-of-time memory: the lowering holds no second copy of the weights (docs/packaging.md,
"What the lowering holds").

Not timings and not RSS (both depend on the machine): what is checked is what the code does.
- preprocess reads the module's own parameters: ExecuTorch's copy of the partition for preprocess
  shares their storage (no deep copy of the weights);
- the whole lowering (to_edge_transform_and_lower, atc, to_executorch, writing the .pte and
  .ptd, keep_onnx included)
  allocates far less Python memory than the weights (tracemalloc sees every bytes object and
  numpy array; a weight read back from atc or copied into bytes would be one);
- each partition's ONNX model is serialized once, and onnx.checker reads the saved files, never a
  model it would serialize again.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import onnx
import pytest
import torch
from ascend_helpers import seeded_inputs

from executorch_ascend import AscendCompileSpec
from executorch_ascend.backend import AscendBackend
from executorch_ascend.export import lower, lower_program, save
from executorch_ascend.lowering import external_data
from executorch_ascend.toolchain import dump

pytestmark = pytest.mark.emulator

WIDTH, LAYERS = 2048, 4  # 4 x 16 MiB of fp32 weights: far above the fixed allocations
# ExecuTorch's FileBackedData hashes and copies its file in chunks of this size: one chunk is
# alive at a time, whatever the size of the weights.
CHUNK = 8 << 20


def _stack() -> torch.nn.Module:
    torch.manual_seed(0)
    layers = [torch.nn.Linear(WIDTH, WIDTH, bias=False) for _ in range(LAYERS)]
    return torch.nn.Sequential(*layers).eval()


def _weight_bytes(module: torch.nn.Module) -> int:
    return sum(p.numel() * p.element_size() for p in module.parameters())


def test_preprocess_reads_the_modules_own_parameters(native, monkeypatch) -> None:
    module = _stack()
    own = {p.untyped_storage().data_ptr() for p in module.parameters()}
    seen: list[set[int]] = []
    preprocess = AscendBackend.preprocess

    def recording(edge_program, compile_specs):
        seen.append({t.untyped_storage().data_ptr() for t in edge_program.state_dict.values()})
        return preprocess(edge_program, compile_specs)

    monkeypatch.setattr(AscendBackend, "preprocess", staticmethod(recording))
    lower(module, seeded_inputs((2, WIDTH)), AscendCompileSpec(toolchain="emulator"))
    assert len(seen) == 1 and seen[0] == own


@pytest.mark.parametrize("tag", [None, "weights"], ids=["in_pte", "external_tag"])
def test_export_makes_no_python_copy_of_the_weights(native, tmp_path: Path, tag) -> None:
    module = _stack()
    inputs = seeded_inputs((2, WIDTH))
    weights = _weight_bytes(module)
    spec = AscendCompileSpec(toolchain="emulator", external_tag=tag, keep_onnx=True)
    lower(module, inputs, spec)  # warm-up: first-use caches (op tables, schemas) are not copies
    exported = torch.export.export(module, inputs)  # torch's part, untraced (faster)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        lowering = lower_program(exported, spec)
        pte, ptds = save(lowering.program, tmp_path / "stack.pte")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The weights did reach the files (each stored once, keep_onnx's pieces sharing them).
    data = ptds[0] if tag else pte
    assert weights <= data.stat().st_size < 1.5 * weights
    # Before: atc's weight files were read back as bytes, one copy of the weights.
    allocated = peak - before
    assert allocated < CHUNK + 0.25 * weights, f"{allocated} bytes allocated at peak"


def test_each_partition_is_serialized_once_and_checked_from_its_files(
    native, tmp_path: Path, monkeypatch
) -> None:
    serialized: list[int] = []
    checked: list[object] = []
    serialize, check = external_data.serialize_model, onnx.checker.check_model

    def counting(model: onnx.ModelProto) -> bytes:
        data = serialize(model)
        serialized.append(len(data))
        return data

    def recording(model, *args, **kwargs) -> None:
        checked.append(model)
        check(model, *args, **kwargs)

    monkeypatch.setattr(external_data, "serialize_model", counting)
    monkeypatch.setattr(onnx.checker, "check_model", recording)
    # A model whose constants are all inline (no external data) and one with external data;
    # keep_onnx and a dump each want the model too.
    for threshold in (1 << 30, 1024):
        serialized.clear(), checked.clear()
        spec = AscendCompileSpec(
            toolchain="emulator",
            external_weight_threshold=threshold,
            keep_onnx=True,
            dump_dir=str(tmp_path / f"dump_{threshold}"),
        )
        lower(_stack(), seeded_inputs((2, WIDTH)), spec)
        assert len(serialized) == 1, f"threshold {threshold}: serialized {len(serialized)} times"
        assert len(checked) == 1 and isinstance(checked[0], (str, Path))
        (folder,) = (tmp_path / f"dump_{threshold}").glob(f"{dump.FOLDER_PREFIX}*")
        assert (folder / external_data.MODEL_FILE).stat().st_size == serialized[0]
