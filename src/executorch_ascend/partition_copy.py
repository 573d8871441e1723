# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The copy of a partition ExecuTorch hands to AscendBackend.preprocess, without its weights.

ExecuTorch deep-copies each partition's ExportedProgram before preprocess, "in case backends
change graph inside preprocess" (BackendDetails.copy_exported_program_for_preprocess). The deep
copy includes the state dict and constants: one more copy of every weight of the partition, held
for as long as preprocess runs, which made it the largest item of the lowering's peak memory.
preprocess never writes a tensor (it reads parameters into ONNX external data and constant folding
makes new tensors), so the copy here shares the tensors and copies the rest (graph, signature,
metadata), as ExecuTorch's CUDA backend does in its low-memory mode.
"""

from __future__ import annotations

import copy

import torch
from torch.export import ExportedProgram


def copy_sharing_tensors(program: ExportedProgram) -> ExportedProgram:
    """A deep copy of `program` whose state dict and constants are the very same tensors."""
    memo: dict[int, object] = {
        id(tensor): tensor
        for values in (program.state_dict, program.constants)
        for tensor in values.values()
        if isinstance(tensor, torch.Tensor)
    }
    return copy.deepcopy(program, memo)
