# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The converter registry: the single source of truth for what AscendBackend can lower.

Each converter is a small function per ATen/edge op overload, registered with `@converter(...)`,
together with
  - `supports(node) -> Optional[str]`: the reason the op cannot be lowered (None = it can),
  - the dtypes it accepts (float32 unless it says otherwise),
  - `samples`: small modules with input shapes that exercise it; the per-op tests are generated
    from them, so what is declared supported is what is tested.
The partitioner accepts exactly the nodes `why_unsupported` returns None for.
"""

from __future__ import annotations

import importlib
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch.fx import Node

from .context import LoweringContext
from .targets import aten_target

ConvertFn = Callable[[LoweringContext, Node], None]
SupportFn = Callable[[Node], str | None]
Target = object  # an OpOverload, or operator.getitem


InputFn = Callable[[tuple[int, ...], torch.Generator], torch.Tensor]


@dataclass(frozen=True)
class Sample:
    """A small module and input shapes that exercise a converter.

    Inputs are standard-normal float32 unless `make_input` says otherwise (positive values for
    log/sqrt, bool masks, int64 indices): it builds one input from its shape and a generator.
    A float16-capable converter's first sample also runs in float16; `half` asks the same of a
    later sample that takes another path through the converter (1-D or transposed conv, ...).
    `rel` is the tolerance relative to the output scale where the op's result is rounded on the
    device by design (CANN's int8 ops write fp16); 1e-4 is float32's.
    """

    make_module: Callable[[], torch.nn.Module]
    shapes: tuple[tuple[int, ...], ...]
    id: str
    make_input: InputFn | None = None
    half: bool = False
    rel: float = 1e-4

    def inputs(self, seed: int = 0) -> tuple[torch.Tensor, ...]:
        gen = torch.Generator().manual_seed(seed)
        make = self.make_input or (lambda s, g: torch.randn(s, generator=g))
        return tuple(make(s, gen) for s in self.shapes)


@dataclass(frozen=True)
class Converter:
    name: str
    targets: tuple[Target, ...]
    convert: ConvertFn
    supports: SupportFn | None
    dtypes: tuple[torch.dtype, ...]
    onnx_ops: tuple[str, ...]
    samples: tuple[Sample, ...]
    keep_whole: bool  # ask to_edge_transform_and_lower not to decompose it
    # Kept whole, the op's output layout depends on which trace computed it (lowering/whole_ops.py).
    layout_varies: bool
    # ONNX ops this converter never emits in bfloat16, because opset 17 or CANN defines them
    # without it: a bf16 node computes them in float32 (cast there and back,
    # LoweringContext.emit_in_float32) or emits another op (GlobalAveragePool -> ReduceMean).
    # soc_dtypes.py does not refuse bf16 for them.
    bf16_in_float32: tuple[str, ...] = ()


_REGISTRY: dict[Target, Converter] = {}
_CONVERTERS: list[Converter] = []


def converter(
    *targets: Target,
    onnx: Sequence[str],
    supports: SupportFn | None = None,
    dtypes: Sequence[torch.dtype] = (torch.float32,),
    samples: Sequence[Sample] = (),
    keep_whole: bool = False,
    layout_varies: bool = False,
    bf16_in_float32: Sequence[str] = (),
) -> Callable[[ConvertFn], ConvertFn]:
    def register(fn: ConvertFn) -> ConvertFn:
        conv = Converter(
            name=", ".join(_target_name(t) for t in targets),
            targets=tuple(targets),
            convert=fn,
            supports=supports,
            dtypes=tuple(dtypes),
            onnx_ops=tuple(onnx),
            samples=tuple(samples),
            keep_whole=keep_whole,
            layout_varies=layout_varies,
            bf16_in_float32=tuple(bf16_in_float32),
        )
        for t in targets:
            if t in _REGISTRY:
                raise RuntimeError(f"two converters for {_target_name(t)}")
            _REGISTRY[t] = conv
        _CONVERTERS.append(conv)
        return fn

    return register


def _target_name(target: object) -> str:
    if target is operator.getitem:
        return "getitem"
    return str(aten_target(target)).replace("::", ".")


def all_converters() -> list[Converter]:
    _load_converters()
    return list(_CONVERTERS)


def lookup(node: Node) -> Converter | None:
    _load_converters()
    if node.op != "call_function":
        return None
    return _REGISTRY.get(aten_target(node.target))


def op_name(node: Node) -> str:
    return _target_name(node.target) if node.op == "call_function" else node.op


def _tensor_vals(val: object) -> list[torch.Tensor]:
    if isinstance(val, torch.Tensor):
        return [val]
    if isinstance(val, (list, tuple)) and val and isinstance(val[0], torch.Tensor):
        # Multi-output ops: the converter's supports() makes sure only output 0 is used.
        return [val[0]]
    return []


def _static(t: torch.Tensor) -> bool:
    return all(isinstance(d, int) for d in t.shape)


# Ops without a converter whose reason says the fix: those that appear only when the model is
# exported in training mode, and dynamic (per-token) activation quantization.
_DYNAMIC_QUANT = (
    "dynamic activation quantization in a form the lowering does not write in float ops "
    "(lowering/dynamic_activation_quant.py takes torchao's int8 ASYMMETRIC/SYMMETRIC "
    "choose_qparams_affine); CANN's QuantBatchMatmul is registered by its ONNX parser for opsets "
    "8-16 only and the lowering emits 17; use torchao's 8da4w / 8da8w, weight-only, or static "
    "int8 with AscendQuantizer (docs/quantization.md)"
)
_HINTS = {
    "native_dropout": "dropout in training mode: call model.eval() before torch.export",
    "_native_batch_norm_legit_functional": "batch norm in training mode: call model.eval() "
    "before torch.export",
    "choose_qparams_affine": _DYNAMIC_QUANT,
    "quantize_affine": _DYNAMIC_QUANT,
    "dequantize_affine": _DYNAMIC_QUANT,  # of an activation (a weight's is a constant, folded)
    "choose_qparams_per_token_asymmetric": _DYNAMIC_QUANT,
    "quantize_per_token": _DYNAMIC_QUANT,
    "dequantize_per_token": _DYNAMIC_QUANT,
}


def is_aipp(node: Node) -> bool:
    """An ascend.aipp or ascend.aipp_dynamic node (executorch_ascend.aipp): CANN's AIPP in front
    of a model input."""
    return node.op == "call_function" and str(aten_target(node.target)) in (
        "ascend.aipp.default",
        "ascend.aipp_dynamic.default",
    )


def is_dynamic_aipp(node: Node) -> bool:
    """An ascend.aipp_dynamic node: its second argument is the per-call parameter tensor."""
    return (
        node.op == "call_function"
        and str(aten_target(node.target)) == "ascend.aipp_dynamic.default"
    )


def why_unsupported(node: Node) -> str | None:
    """None if the registry can lower `node`, else the reason it cannot."""
    if is_aipp(node):
        # Not a converter: atc's AIPP replaces the partition's input (lowering/lowered_graph.py).
        from .. import aipp

        return aipp.why_unsupported(node)
    conv = lookup(node)
    if conv is None:
        name = op_name(node)  # "aten.native_dropout.default"
        hint = _HINTS.get(name.split(".")[1] if name.count(".") == 2 else name)
        return f"no Ascend converter for {name}" + (f" ({hint})" if hint else "")
    outs = _tensor_vals(node.meta.get("val"))
    if not outs:
        return f"{op_name(node)} has no tensor output metadata"
    ins = [t for n in node.all_input_nodes for t in _tensor_vals(n.meta.get("val"))]
    for role, tensors in (("input", ins), ("output", outs)):
        for t in tensors:
            if not _static(t):
                return f"dynamic {role} shape {tuple(t.shape)} (atc needs static shapes)"
            if 0 in t.shape:
                # ONNX Reshape reads a 0 as "copy this dim"; and ACL has no empty buffers.
                return f"empty {role} tensor of shape {tuple(t.shape)}"
            if t.dtype not in conv.dtypes:
                allowed = ", ".join(str(d).replace("torch.", "") for d in conv.dtypes)
                return f"{role} dtype {str(t.dtype).replace('torch.', '')} (supported: {allowed})"
    if conv.supports is not None:
        return conv.supports(node)
    return None


def ops_kept_whole() -> list[torch._ops.OpOverload]:
    ops: list[torch._ops.OpOverload] = []
    for conv in all_converters():
        if conv.keep_whole:
            ops.extend(t for t in conv.targets if isinstance(t, torch._ops.OpOverload))
    return ops


_loaded = False


def _load_converters() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        importlib.import_module(f"{__package__}.converters")  # registers by import
