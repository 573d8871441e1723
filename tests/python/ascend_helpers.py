# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Helpers shared by the Python tests: eager, ONNX Runtime and emulator runs, and the tolerance."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch
from cann_quant_reference import has_vendor_ops, run_reference
from executorch.exir._serialize._cord import FileBackedData
from executorch_ascend_emulator.stats import read_stats
from parity import fp32_tolerance, max_abs_error

from executorch_ascend import AscendBackend
from executorch_ascend.lowering import LoweredGraph

REPO = Path(__file__).resolve().parents[2]
KERNEL_REGISTRY = REPO / "emulator" / "engine" / "kernels" / "kernels.def"


def emulator_kernel_ops() -> set[str]:
    """The ONNX ops the emulator has kernels for, read from its kernel table in the source tree."""
    return set(re.findall(r"^ASCEND_EMU_KERNEL\((\w+)[,)]", KERNEL_REGISTRY.read_text(), re.M))


# What the converters may emit: an op CANN's parser registers for opset 17 (checked by the
# emulator atc) that the emulator also implements.
ALLOWED_ONNX_OPS = emulator_kernel_ops()


def eager(module: torch.nn.Module, inputs: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    with torch.no_grad():
        out = module(*inputs)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def run_onnxruntime(graph: LoweredGraph, inputs: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    """ONNX Runtime's results; for a graph with CANN's own quantization ops (which ONNX Runtime
    does not have), onnx.reference's with their numpy implementations (cann_quant_reference)."""
    if has_vendor_ops(graph.model):
        feeds = {v.name: t.detach().numpy() for v, t in zip(graph.inputs, inputs, strict=True)}
        return [torch.from_numpy(np.asarray(o)) for o in run_reference(graph.model, feeds)]
    session = ort.InferenceSession(
        graph.model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    feeds = {v.name: t.detach().numpy() for v, t in zip(graph.inputs, inputs, strict=True)}
    return [torch.from_numpy(np.asarray(o)) for o in session.run(None, feeds)]


def assert_close(
    actual: Sequence[torch.Tensor],
    expected: Sequence[torch.Tensor],
    what: str,
    rel: float = 1e-4,
) -> None:
    """Same shapes and dtypes, max abs error <= rel * max(1, max |expected|) (fp32: 1e-4)."""
    assert len(actual) == len(expected), f"{what}: {len(actual)} outputs, expected {len(expected)}"
    for a, e in zip(actual, expected, strict=True):
        assert tuple(a.shape) == tuple(e.shape), (
            f"{what}: shape {tuple(a.shape)} != {tuple(e.shape)}"
        )
        assert a.dtype == e.dtype, f"{what}: dtype {a.dtype} != {e.dtype}"
    err, tol = max_abs_error(actual, expected), fp32_tolerance(expected) * rel / 1e-4
    assert err <= tol, f"{what}: max abs error {err:.3g} > tolerance {tol:.3g}"


def onnx_op_types(model: onnx.ModelProto) -> set[str]:
    return {n.op_type for n in model.graph.node}


def seeded_inputs(*shapes: tuple[int, ...], seed: int = 0) -> tuple[torch.Tensor, ...]:
    gen = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(s, generator=gen) for s in shapes)


def ascend_lowered_modules(edge_manager) -> list:
    """The AscendBackend LoweredBackendModules of a lowered EdgeProgramManager, in call order."""
    from executorch.exir.lowered_backend_module import get_lowered_submodules

    gm = edge_manager.exported_program().graph_module
    return [m for _, m, _ in get_lowered_submodules(gm) if m.backend_id == AscendBackend.__name__]


def named_data(lowered_module, key: str, tag=None) -> bytes:
    """The bytes a delegate stored under `key` (in the .pte, or in `<tag>.ptd` when tag is set).

    What atc wrote is stored as files (FileBackedData), the rest as bytes."""
    out = lowered_module.named_data_store_output
    entries = out.pte_data if tag is None else out.external_data[tag]
    buffer = out.buffers[entries[key].buffer_index]
    return buffer.to_bytes() if isinstance(buffer, FileBackedData) else bytes(buffer)


def emulator_device_memory() -> tuple[int, int]:
    """(live device allocations, live device bytes) of the emulator serving this process.

    dlopen of the library the backend uses (EXECUTORCH_ASCEND_ACL_LIB, set by use_emulator())
    returns that very copy, so these are the counters of the delegates loaded here.
    """
    stats = read_stats(os.environ["EXECUTORCH_ASCEND_ACL_LIB"])
    return stats["live_device_allocs"], stats["live_device_bytes"]
