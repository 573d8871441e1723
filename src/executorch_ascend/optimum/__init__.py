# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Hugging Face optimum-executorch integration: an `ascend` recipe.

optimum-executorch exports transformers models for ExecuTorch (`optimum-cli export executorch`,
`optimum.exporters.executorch.main_export`) and lowers them with a recipe from its registry
(`xnnpack`, `coreml`, `cuda`, ...). Importing this package registers `ascend` there:

    import executorch_ascend.optimum  # registers the "ascend" recipe
    from optimum.exporters.executorch import main_export

    main_export("path/to/model_dir", "text-generation", "ascend", "out/",
                recipe_kwargs={"soc_version": "Ascend310P3"})

`optimum-cli` itself cannot find a recipe outside optimum's own package, so the same export is
`executorch-ascend export-hf MODEL_DIR --task text-generation -o out/` on the command line.
docs/llm.md says how optimum-executorch installs beside this project's pins.
"""

from __future__ import annotations

from .recipe import RECIPE_NAME, export_with_ascend, register
from .shape_gears import choose_gears

register()

__all__ = ["RECIPE_NAME", "choose_gears", "export_with_ascend", "register"]
