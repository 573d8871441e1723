# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Ascend recipes for ExecuTorch's recipe API (`executorch.export`).

Importing this module registers AscendRecipeProvider with `executorch.export.recipe_registry`,
the registry ExecuTorch's own backends (XNNPACK, Core ML, QNN, Arm) register with; the API is
public and takes out-of-tree providers as they are:

    import executorch_ascend.recipes  # registers the "ascend" provider
    from executorch.export import ExportRecipe, export
    from executorch_ascend.recipes import AscendRecipeType

    recipe = ExportRecipe.get_recipe(AscendRecipeType.FP32, soc_version="Ascend310P3")
    session = export(model, [example_inputs], recipe)
    session.save_to_pte("model.pte")

Keyword arguments of get_recipe are AscendCompileSpec fields (soc_version, external_tag, ...),
and for the quantized recipes the options below. Every recipe compiles with the chip's default
precision mode (must_keep_origin_dtype, fp16/bf16 models keep their dtype too;
allow_fp32_to_fp16 on Ascend310P/310B, which have no float32 cube units):

  FP32                 the graph as exported;
  INT8_STATIC          AscendQuantizer (PT2E) calibrated on `calibration_inputs_fn()` (default:
                       the example inputs): int8 Conv/Gemm between AscendQuant and AscendDequant;
  INT8_WEIGHT_ONLY     torchao's int8 weight-only per channel: WeightQuantBatchMatmulV2, W8A16;
  INT4_WEIGHT_ONLY     torchao's int4 weight-only per group (`group_size`, 32 by default; 64 and
                       128 too): WeightQuantBatchMatmulV2, W4A16.

docs/quantization.md says what each runs as on each chip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch
from executorch.export import (
    AOQuantizationConfig,
    BackendRecipeProvider,
    ExportRecipe,
    LoweringRecipe,
    QuantizationRecipe,
    RecipeType,
    recipe_registry,
)

from .compile_spec import AscendCompileSpec
from .partitioner import AscendPartitioner

BACKEND_NAME = "ascend"


class AscendRecipeType(RecipeType):
    """Ascend's recipes (values are prefixed with the backend name, as XNNPACK's are)."""

    FP32 = "ascend_fp32"
    INT8_STATIC = "ascend_int8_static"
    INT8_WEIGHT_ONLY = "ascend_int8_weight_only"
    INT4_WEIGHT_ONLY = "ascend_int4_weight_only"

    @classmethod
    def get_backend_name(cls) -> str:
        return BACKEND_NAME


class AscendRecipeProvider(BackendRecipeProvider):
    @property
    def backend_name(self) -> str:
        return BACKEND_NAME

    def get_supported_recipes(self) -> Sequence[RecipeType]:
        return list(AscendRecipeType)

    def create_recipe(self, recipe_type: RecipeType, **kwargs: Any) -> ExportRecipe | None:
        """The ExportRecipe for `recipe_type`; kwargs are AscendCompileSpec fields (a wrong one
        raises TypeError, a wrong value CompileSpecError), and `calibration_inputs_fn`
        (INT8_STATIC) or `group_size` (INT4_WEIGHT_ONLY)."""
        if recipe_type not in self.get_supported_recipes():
            return None
        calibration = kwargs.pop("calibration_inputs_fn", None)
        group_size = kwargs.pop("group_size", 32)
        if calibration is not None and recipe_type != AscendRecipeType.INT8_STATIC:
            raise TypeError(f"{recipe_type.value} takes no calibration_inputs_fn")
        spec = AscendCompileSpec(**kwargs)
        return ExportRecipe(
            name=str(recipe_type.value),
            quantization_recipe=_quantization(recipe_type, calibration, group_size),
            lowering_recipe=LoweringRecipe(partitioners=[AscendPartitioner(spec)]),
        )


def _quantization(
    recipe_type: RecipeType, calibration: Callable[[], Any] | None, group_size: int
) -> QuantizationRecipe | None:
    if recipe_type == AscendRecipeType.INT8_STATIC:
        from .quantizer import AscendQuantizer

        return QuantizationRecipe(quantizers=[AscendQuantizer()], calibration_inputs_fn=calibration)
    if recipe_type not in (AscendRecipeType.INT8_WEIGHT_ONLY, AscendRecipeType.INT4_WEIGHT_ONLY):
        return None
    int4 = recipe_type == AscendRecipeType.INT4_WEIGHT_ONLY
    config = weight_only_config(int4, group_size)
    return QuantizationRecipe(
        quantizers=None, ao_quantization_configs=[AOQuantizationConfig(config, _linear_only)]
    )


#: The int4 group sizes the recipe offers (msModelSlim's W4A16 choices below 256).
WEIGHT_GROUP_SIZES = (32, 64, 128)


def weight_only_config(int4: bool, group_size: int = 32) -> Any:
    """torchao's IntxWeightOnlyConfig as WeightQuantBatchMatmulV2 takes it: int8 per output
    channel, or int4 in groups of `group_size` (one of WEIGHT_GROUP_SIZES; ValueError else).
    The one place the recipes and `export --quantize` build it."""
    from torchao.quantization import IntxWeightOnlyConfig
    from torchao.quantization.granularity import PerAxis, PerGroup

    if not int4:
        return IntxWeightOnlyConfig(weight_dtype=torch.int8, granularity=PerAxis(0))
    if group_size not in WEIGHT_GROUP_SIZES:
        raise ValueError(
            f"group_size {group_size}: CANN's WeightQuantBatchMatmulV2 takes multiples of 32; "
            f"the recipe offers {WEIGHT_GROUP_SIZES}"
        )
    # torch.int4 exists at run time (torch 2.6 and up); torch's stubs do not list it.
    int4_dtype = torch.int4  # type: ignore[attr-defined]
    return IntxWeightOnlyConfig(weight_dtype=int4_dtype, granularity=PerGroup(group_size))


def _linear_only(module: torch.nn.Module, fqn: str) -> bool:
    """Weight-only quantization applies to Linear layers (WeightQuantBatchMatmulV2)."""
    return isinstance(module, torch.nn.Linear)


recipe_registry.register_backend_recipe_provider(AscendRecipeProvider())
