# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""ExecuTorch's recipe API with the out-of-tree Ascend provider: executorch.export.export(model,
[inputs], ExportRecipe.get_recipe(AscendRecipeType.FP32)) delegates to Ascend, and the program
runs with executorch.runtime like eager PyTorch."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from example_models import small_cnn
from executorch.export import ExportRecipe, export, recipe_registry
from parity import fp32_tolerance, max_abs_error

from executorch_ascend.compile_spec import CompileSpecError
from executorch_ascend.recipes import AscendRecipeType
from executorch_ascend.run import run_with_runtime


def test_the_provider_is_registered() -> None:
    assert "ascend" in recipe_registry.list_backends()
    assert list(recipe_registry.get_supported_recipes("ascend")) == [AscendRecipeType.FP32]


def test_recipe_arguments_are_compile_spec_fields() -> None:
    recipe = ExportRecipe.get_recipe(AscendRecipeType.FP32, soc_version="Ascend310P3")
    (partitioner,) = recipe.lowering_recipe.partitioners
    assert partitioner.compile_spec.soc_version == "Ascend310P3"
    with pytest.raises(CompileSpecError):
        ExportRecipe.get_recipe(AscendRecipeType.FP32, soc_version="910")


@pytest.mark.emulator
def test_export_through_the_recipe_and_run(native, tmp_path: Path) -> None:
    model = small_cnn()
    image = torch.randn(2, 3, 16, 16, generator=torch.Generator().manual_seed(4))
    session = export(model, [(image,)], ExportRecipe.get_recipe(AscendRecipeType.FP32))
    delegates = session.get_executorch_program().execution_plan[0].delegates
    assert [d.id for d in delegates] == ["AscendBackend"]
    pte = tmp_path / "recipe.pte"
    session.save_to_pte(str(pte))
    with torch.no_grad():
        expected = [model(image)]
    actual = run_with_runtime(pte, [image])
    assert max_abs_error(actual, expected) <= fp32_tolerance(expected)
