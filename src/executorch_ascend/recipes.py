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

Keyword arguments of get_recipe are AscendCompileSpec fields (soc_version, external_tag, ...).
There is one recipe, FP32: the graph as exported, compiled with the chip's default precision mode
(must_keep_origin_dtype, fp16/bf16 models keep their dtype too; allow_fp32_to_fp16 on
Ascend310P/310B, which have no float32 cube units). There is no quantized recipe (what a
PT2E-quantized graph gets today: docs/atc.md, "Quantized models").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from executorch.export import (
    BackendRecipeProvider,
    ExportRecipe,
    LoweringRecipe,
    RecipeType,
    recipe_registry,
)

from .compile_spec import AscendCompileSpec
from .partitioner import AscendPartitioner

BACKEND_NAME = "ascend"


class AscendRecipeType(RecipeType):
    """Ascend's recipes (values are prefixed with the backend name, as XNNPACK's are)."""

    FP32 = "ascend_fp32"

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
        raises TypeError, a wrong value CompileSpecError)."""
        if recipe_type not in self.get_supported_recipes():
            return None
        spec = AscendCompileSpec(**kwargs)
        return ExportRecipe(
            name=str(recipe_type.value),
            lowering_recipe=LoweringRecipe(partitioners=[AscendPartitioner(spec)]),
        )


recipe_registry.register_backend_recipe_provider(AscendRecipeProvider())
