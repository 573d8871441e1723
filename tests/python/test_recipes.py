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
    assert list(recipe_registry.get_supported_recipes("ascend")) == [
        AscendRecipeType.FP32,
        AscendRecipeType.INT8_STATIC,
        AscendRecipeType.INT8_WEIGHT_ONLY,
        AscendRecipeType.INT4_WEIGHT_ONLY,
    ]


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


def test_quantized_recipes_refuse_what_cann_does_not_take() -> None:
    with pytest.raises(ValueError, match="multiples of 32"):
        ExportRecipe.get_recipe(AscendRecipeType.INT4_WEIGHT_ONLY, group_size=48)
    with pytest.raises(TypeError, match="calibration_inputs_fn"):
        ExportRecipe.get_recipe(AscendRecipeType.FP32, calibration_inputs_fn=list)


@pytest.mark.emulator
def test_int8_static_recipe_quantizes_and_runs_on_ascend(native, tmp_path: Path) -> None:
    """INT8_STATIC: AscendQuantizer calibrated on calibration_inputs_fn's inputs, one Ascend
    delegate holding int8 ops, close to the float model."""
    model = small_cnn()
    gen = torch.Generator().manual_seed(4)
    calibration = [(torch.randn(2, 3, 16, 16, generator=gen),) for _ in range(8)]
    recipe = ExportRecipe.get_recipe(
        AscendRecipeType.INT8_STATIC, calibration_inputs_fn=lambda: calibration
    )
    session = export(model, [calibration[0]], recipe)
    delegates = session.get_executorch_program().execution_plan[0].delegates
    assert [d.id for d in delegates] == ["AscendBackend"]
    pte = tmp_path / "int8.pte"
    session.save_to_pte(str(pte))
    image = torch.randn(2, 3, 16, 16, generator=gen)
    with torch.no_grad():
        expected = model(image)
    (actual,) = run_with_runtime(pte, [image])
    cosine = torch.nn.functional.cosine_similarity(actual.flatten(), expected.flatten(), dim=0)
    assert cosine > 0.98, float(cosine)


@pytest.mark.emulator
def test_int4_weight_only_recipe(native, tmp_path: Path) -> None:
    """INT4_WEIGHT_ONLY on an nn.Sequential MLP: its linears become WeightQuantBatchMatmulV2 with
    packed int4 weights (the 10-output head, N not a multiple of 8, stays a float Gemm with a
    warning), one delegate, close to the float model; the program is smaller than the float
    one's."""
    from example_models import Mlp

    torch.manual_seed(0)
    model = Mlp().eval()
    x = torch.randn(4, 32, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = model(x)
    sizes = {}
    for recipe in (AscendRecipeType.FP32, AscendRecipeType.INT4_WEIGHT_ONLY):
        session = export(model, [(x,)], ExportRecipe.get_recipe(recipe))
        assert [d.id for d in session.get_executorch_program().execution_plan[0].delegates] == [
            "AscendBackend"
        ]
        pte = tmp_path / f"{recipe.value}.pte"
        session.save_to_pte(str(pte))
        sizes[recipe] = pte.stat().st_size
    (actual,) = run_with_runtime(tmp_path / "ascend_int4_weight_only.pte", [x])
    cosine = torch.nn.functional.cosine_similarity(actual.flatten(), expected.flatten(), dim=0)
    assert cosine > 0.97, float(cosine)
    assert sizes[AscendRecipeType.INT4_WEIGHT_ONLY] < sizes[AscendRecipeType.FP32], sizes
