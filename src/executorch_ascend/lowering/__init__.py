# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Lowering of edge-dialect programs to ONNX (ai.onnx opset 17, IR version 8)."""

from .context import LoweringError
from .external_data import GraphConstant
from .lower import LoweredPartition, lower_partition
from .lowered_graph import LoweredGraph, OnnxValue, to_onnx
from .onnx_graph import IR_VERSION, OPSET
from .registry import Converter, Sample, all_converters, ops_kept_whole, why_unsupported

__all__ = [
    "IR_VERSION",
    "OPSET",
    "Converter",
    "GraphConstant",
    "LoweredGraph",
    "LoweredPartition",
    "LoweringError",
    "OnnxValue",
    "Sample",
    "all_converters",
    "lower_partition",
    "ops_kept_whole",
    "to_onnx",
    "why_unsupported",
]
