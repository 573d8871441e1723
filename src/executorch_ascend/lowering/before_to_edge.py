# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The rewrites AscendPartitioner makes to a program before to_edge, in one place: the
partitioner's `transform_for_pre_decomposition` and the tests' analysis graph
(tests/python/ascend_helpers.py) both call `rewrite_before_to_edge`, so they cannot drift apart.
Each rewrite changes no value; each module says why it is needed."""

from __future__ import annotations

from torch.export import ExportedProgram

from .copy_casts import cast_copy_sources
from .dynamic_activation_quant import decompose_activation_quant
from .median import decompose_medians
from .pre_decompositions import decompose_adaptive_max_pools
from .stable_sort import stable_sorts_as_sorts


def rewrite_before_to_edge(program: ExportedProgram) -> tuple[ExportedProgram, list[str]]:
    """`program` rewritten (in place where it can be; medians, adaptive max pools and dynamic
    activation quantization by run_decompositions, hence the return), and the names of the
    `copy_` nodes given a cast."""
    # A copy_ across dtypes gets its cast made explicit, which functionalisation would drop
    # (copy_casts.py: longrope's float32 update of a float16 buffer).
    copy_casts = cast_copy_sources(program)
    # sort/argsort(stable=...) and median are not core ATen and have no decomposition:
    # TopK's tie rule is a stable sort's (stable_sort.py); a median is a sort's middle
    # element (median.py).
    stable_sorts_as_sorts(program)
    program = decompose_medians(program)
    # Adaptive max pools become core ATen ops (pre_decompositions.py).
    program = decompose_adaptive_max_pools(program)
    # torchao's per-token activation quantization (8da4w / 8da8w) becomes its own definition
    # in core ATen ops (dynamic_activation_quant.py: CANN's op for it needs opset 16).
    program = decompose_activation_quant(program)
    return program, copy_casts
