# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AscendQuantizer: a PT2E Quantizer that marks what CANN runs in int8, as AMCT does.

CANN's int8 path is AMCT's deploy pattern (cann-quant reference, section 3):

    x -> AscendQuant -> Conv | Gemm (int8 weights, int32 bias) -> AscendDequant -> float

The cube ops (Conv, Gemm/MatMul) compute in int8 with int32 accumulation; AscendDequant turns their
result back to fp16, where every other op (ReLU, pooling, add, concat, reshape, norms, softmax)
runs on the vector unit. So the quantizer annotates the inputs of convolutions and linears only:
their activation, weight and bias. A quantized region is then exactly one AscendQuant, one int8
op and one AscendDequant, and no activation is quantized only to be dequantized again (which on
the NPU would be an AscendQuant + AscendAntiQuant pair around a float op: time and accuracy spent
for nothing). ReLU, clamp, pooling, reshape/permute, concat and add between two quantized ops
stay in float and keep the partition whole: there is no quantize/dequantize op anywhere else for
the graph to split at.

Ops or modules left in float: `set_module_name(name, None)`, `set_module_type(type, None)`, or
`AscendQuantizer(ops=("conv",))` to quantize convolutions only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import torch
from torch.fx import GraphModule, Node
from torchao.quantization.pt2e.quantizer import QuantizationAnnotation, Quantizer

from .config import AscendQuantizationConfig, bias_spec, get_ascend_quantization_config

aten = torch.ops.aten

# The ops AscendQuantizer quantizes, by kind: what CANN runs in int8 through atc's ONNX path
# (Conv, and Gemm/MatMul with a 2-D constant weight).
QUANTIZED_OPS: dict[str, tuple[torch._ops.OpOverload, ...]] = {
    "conv": (aten.conv1d.default, aten.conv2d.default, aten.conv1d.padding, aten.conv2d.padding),
    "linear": (aten.linear.default,),
}

_ANNOTATION = "quantization_annotation"


def _module_stack(node: Node) -> list[tuple[str, object]]:
    stack = node.meta.get("nn_module_stack") or {}
    return [(str(v[0]), v[1]) for v in stack.values()]


def _in_module_named(name: str) -> Callable[[Node], bool]:
    def matches(node: Node) -> bool:
        # nn_module_stack names read "L['self'].layer1.0" or "layer1.0", depending on the tracer.
        for path, _ in _module_stack(node):
            path = path.replace("L['self'].", "").replace("L__self___", "")
            if path == name or path.startswith(name + "."):
                return True
        return False

    return matches


def _in_module_of_type(module_type: type) -> Callable[[Node], bool]:
    qualified = f"{module_type.__module__}.{module_type.__qualname__}"

    def matches(node: Node) -> bool:
        return any(t is module_type or t == qualified for _, t in _module_stack(node))

    return matches


class AscendQuantizer(Quantizer):
    """Static int8 (per-tensor asymmetric activations, symmetric weights: per channel for
    convolutions, per tensor for linears; int32 bias) for `prepare_pt2e`, or with
    `get_ascend_quantization_config(is_qat=True)` for `prepare_qat_pt2e`."""

    def __init__(
        self,
        config: AscendQuantizationConfig | None = None,
        ops: Iterable[str] = tuple(QUANTIZED_OPS),
    ) -> None:
        super().__init__()
        unknown = set(ops) - set(QUANTIZED_OPS)
        if unknown:
            raise ValueError(
                f"AscendQuantizer quantizes {sorted(QUANTIZED_OPS)}; unknown: {sorted(unknown)}"
            )
        self.global_config = config or get_ascend_quantization_config()
        self.ops = tuple(ops)
        # Later settings win: (filter, config or None for float), checked last to first.
        self._overrides: list[tuple[Callable[[Node], bool], AscendQuantizationConfig | None]] = []

    def set_global(self, config: AscendQuantizationConfig) -> AscendQuantizer:
        self.global_config = config
        return self

    def set_module_name(
        self, name: str, config: AscendQuantizationConfig | None
    ) -> AscendQuantizer:
        """The submodule `name` (e.g. "layer4.1" or "classifier") and everything in it get
        `config`; None leaves them in float."""
        self._overrides.append((_in_module_named(name), config))
        return self

    def set_module_type(
        self, module_type: type, config: AscendQuantizationConfig | None
    ) -> AscendQuantizer:
        """Every module of `module_type` gets `config`; None leaves them in float."""
        self._overrides.append((_in_module_of_type(module_type), config))
        return self

    def _config_for(self, node: Node) -> AscendQuantizationConfig | None:
        for matches, config in reversed(self._overrides):
            if matches(node):
                return config
        return self.global_config

    def annotate(self, model: GraphModule) -> GraphModule:
        targets = {t: kind for kind in self.ops for t in QUANTIZED_OPS[kind]}
        for node in model.graph.nodes:
            kind = targets.get(node.target) if node.op == "call_function" else None
            if kind is None or _ANNOTATION in node.meta:
                continue
            config = self._config_for(node)
            if config is not None and _quantizable(node):
                _annotate(node, config, kind)
        return model

    def validate(self, model: GraphModule) -> None:
        pass


def _quantizable(node: Node) -> bool:
    """A float activation and a float weight that is a module parameter path (a placeholder or
    get_attr, maybe through a view): CANN's int8 ops take a constant int8 weight."""
    x, w = node.args[0], node.args[1]
    if not isinstance(x, Node) or not isinstance(w, Node):
        return False
    for value in (x, w):
        val = value.meta.get("val")
        if not isinstance(val, torch.Tensor) or val.dtype not in (torch.float32, torch.float16):
            return False
    return w.op in ("placeholder", "get_attr")


def _annotate(node: Node, config: AscendQuantizationConfig, kind: str) -> None:
    x, w = node.args[0], node.args[1]
    weight = config.conv_weight if kind == "conv" else config.linear_weight
    specs: dict[Node, object] = {x: config.activation, w: weight}  # type: ignore[dict-item]
    bias = node.args[2] if len(node.args) > 2 else node.kwargs.get("bias")
    if isinstance(bias, Node):
        specs[bias] = bias_spec(node, weight)
    node.meta[_ANNOTATION] = QuantizationAnnotation(
        input_qspec_map=specs,
        _annotated=True,
    )
