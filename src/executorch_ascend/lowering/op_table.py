# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The op-support table, generated from the converter registry (docs/op-support.md)."""

from __future__ import annotations

from .registry import all_converters


def render_op_table() -> str:
    """Markdown: edge op, ONNX ops emitted, dtypes, constraints, number of tested samples."""
    lines = [
        "| edge op | ONNX ops (opset 17) | dtypes | constraints | tested samples |",
        "| --- | --- | --- | --- | --- |",
    ]
    for conv in all_converters():
        dtypes = ", ".join(str(d).replace("torch.", "") for d in conv.dtypes)
        doc = (conv.supports.__doc__ or "").strip() if conv.supports else ""
        constraints = " ".join(doc.split()) or "-"
        onnx_ops = ", ".join(conv.onnx_ops)
        lines.append(
            f"| `{conv.name}` | {onnx_ops} | {dtypes} | {constraints} | {len(conv.samples)} |"
        )
    return "\n".join(lines) + "\n"
