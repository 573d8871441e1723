# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What the partitioner, the lowering and the atc driver ask of an AIPP node: its rule, the
partition input it becomes, and the `--insert_op_conf` file."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import torch

from .config import AippConfig, AippError
from .dynamic import DynamicAipp


@dataclass(frozen=True)
class AippInput:
    """A lowered partition input that atc's AIPP computes: ONNX input `index` is the AIPP
    output; `config` the resolved config (lowering/lowered_graph.py)."""

    index: int
    config: AippConfig = field(compare=False)


def why_unsupported(node: torch.fx.Node) -> str | None:
    """The partitioner's rule for an ascend.aipp (or ascend.aipp_dynamic) node: it must read a
    graph input (the frame) that nothing else reads, since atc's AIPP replaces a model input;
    a dynamic one's parameter tensor too, since it becomes CANN's AIPP data input."""
    dynamic = len(node.args) == 3 and isinstance(node.args[1], torch.fx.Node)
    op = "ascend.aipp_dynamic" if dynamic else "ascend.aipp"
    inputs = (("the uint8 frame", node.args[0] if node.args else None),) + (
        (("the parameter tensor", node.args[1]),) if dynamic else ()
    )
    for what, src in inputs:
        if not isinstance(src, torch.fx.Node) or src.op != "placeholder":
            return f"{op} must read a program input ({what}) directly"
        if len(src.users) != 1:
            return f"{op}'s input ({what}) is also read by other ops"
    try:
        if dynamic:
            DynamicAipp.from_json(str(node.args[2]))
        else:
            AippConfig.from_json(str(node.args[1]))
    except (AippError, TypeError, ValueError, KeyError) as e:
        return f"{op}'s config: {e}"
    return None


def aipp_config_text(inputs: tuple[tuple[int, str], ...]) -> str | None:
    """The --insert_op_conf file for a lowered partition's AIPP inputs (LoweredGraph.aipp):
    one aipp_op block per input (static or dynamic), or None without any."""
    if not inputs:
        return None
    return "".join(config_from_json(cfg).to_prototext(index) for index, cfg in inputs)


def config_from_json(text: str) -> AippConfig | DynamicAipp:
    """A config as the lowering keeps it (AippConfig.to_json or DynamicAipp.to_json)."""
    if json.loads(text).get("aipp_mode") == "dynamic":
        return DynamicAipp.from_json(text)
    return AippConfig.from_json(text)
