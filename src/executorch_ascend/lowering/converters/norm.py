"""Inference batch norm -> Mul + Add with per-channel scale and shift folded ahead of time.

In eval mode batch norm is an affine map of constants, so no BatchNormalization op (and none of its
CANN layout limits) is needed: y = x * (w / sqrt(var + eps)) + (b - mean * w / sqrt(var + eps)).
"""

from __future__ import annotations

import torch
from torch.fx import Node

from ..context import LoweringContext, LoweringError
from ..registry import converter
from ..samples import module_sample
from ._args import rank
from .tuple_outputs import first_output_name, only_first_output_used

aten = torch.ops.aten


def _bn_supported(node: Node) -> str | None:
    """inference form, saved statistics unused, input has a channel dim."""
    if not only_first_output_used(node):
        return "batch norm's saved statistics are used"
    if rank(node.args[0]) < 2:
        return "batch norm input must have a channel dimension"
    for i, what in ((1, "weight"), (2, "bias"), (3, "running_mean"), (4, "running_var")):
        operand = node.args[i]
        if operand is not None and not isinstance(operand, Node):
            return f"batch norm {what} is not a tensor"
    return None


@converter(
    aten._native_batch_norm_legit_no_training.default,
    onnx=["Mul", "Add"],
    supports=_bn_supported,
    samples=[
        module_sample("batchnorm_2d", lambda: _bn(torch.nn.BatchNorm2d(4)), (2, 4, 5, 5)),
        module_sample("batchnorm_1d", lambda: _bn(torch.nn.BatchNorm1d(6)), (3, 6)),
        module_sample(
            "batchnorm_no_affine", lambda: _bn(torch.nn.BatchNorm2d(3, affine=False)), (1, 3, 4, 4)
        ),
    ],
)
def batch_norm(ctx: LoweringContext, node: Node) -> None:
    x, weight, bias, mean, var = node.args[:5]
    eps = float(node.args[6])  # type: ignore[arg-type]
    values = {}
    for what, operand in (("weight", weight), ("bias", bias), ("mean", mean), ("var", var)):
        values[what] = ctx.constant(operand) if operand is not None else None
        if operand is not None and values[what] is None:
            raise LoweringError(f"batch norm {what} must be a constant to fold")
    mean_t, var_t = values["mean"], values["var"]
    assert mean_t is not None and var_t is not None
    inv_std = torch.rsqrt(var_t.double() + eps)
    w = values["weight"].double() if values["weight"] is not None else torch.ones_like(inv_std)
    b = values["bias"].double() if values["bias"] is not None else torch.zeros_like(inv_std)
    scale = w * inv_std
    shift = b - mean_t.double() * scale
    trailing = (1,) * (rank(x) - 2)
    scale_name = ctx.builder.add_initializer(
        scale.float().reshape(-1, *trailing).numpy(), "bn_scale"
    )
    shift_name = ctx.builder.add_initializer(
        shift.float().reshape(-1, *trailing).numpy(), "bn_shift"
    )
    scaled = ctx.tmp("Mul", [ctx.value(x), scale_name])
    ctx.builder.add_node("Add", [scaled, shift_name], [first_output_name(ctx, node)])


def _bn(module: torch.nn.Module) -> torch.nn.Module:
    # Non-trivial running statistics, so the fold is actually exercised; eval mode.
    gen = torch.Generator().manual_seed(1)
    for name in ("running_mean", "running_var"):
        buf = getattr(module, name)
        buf.copy_(torch.rand(buf.shape, generator=gen) + (0.5 if name == "running_var" else -0.5))
    if getattr(module, "weight", None) is not None:
        with torch.no_grad():
            module.weight.copy_(torch.rand(module.weight.shape, generator=gen) + 0.5)
            module.bias.copy_(torch.randn(module.bias.shape, generator=gen))
    return module.eval()
