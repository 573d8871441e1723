# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Random differential test, the small seeded sample CI runs (docs/testing.md, "Random
differential tests"): random ONNX graphs aimed at the emulator's fast paths (random_onnx_graphs.py),
compiled by the emulator's atc, run on the emulator's ACL and compared with onnxruntime. The long
run is scripts/random_graphs.py; the regressions below are graphs it found wrong once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from emulator_onnx import EmulatorOnnx
from random_onnx_graphs import FAMILIES, Case, _Graph, check_case, make_case

from executorch_ascend import cann

# Per family: enough seeds that each of its kinds shows up, a few seconds in all.
SAMPLE_SEEDS = range(0, 40)


@pytest.fixture(scope="module")
def emulator(native) -> EmulatorOnnx:
    found = cann.find_emulator()
    assert found is not None
    return EmulatorOnnx(found.atc, found.acl_library)


@pytest.mark.emulator
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_random_graphs_match_onnxruntime(emulator: EmulatorOnnx, family: str, tmp_path: Path):
    failures = []
    for seed in SAMPLE_SEEDS:
        case = make_case(seed, family)
        problem = check_case(emulator, case, tmp_path)
        if problem:
            failures.append(f"seed {seed}: {case.about}: {problem}")
    assert not failures, "\n".join(failures)


def _single_op_case(about: str, build) -> Case:
    g = _Graph(np.random.default_rng(0))
    build(g)
    return Case(0, "regression", g.model(), dict(g.feeds), about)


@pytest.mark.emulator
def test_exp_is_finite_up_to_ln_flt_max(emulator: EmulatorOnnx, tmp_path: Path) -> None:
    """Found by the long run: Exp of 88.4..88.72 (finite, up to 3.4e38) gave +inf on
    the vectorised path (Eigen's packet exp overflows before ln(FLT_MAX))."""
    values = np.linspace(88.0, 89.0, 64, dtype=np.float32)

    def build(g: _Graph) -> None:
        g.outputs.append(g.op("Exp", [g.input(values.shape, values)]))

    case = _single_op_case("Exp near ln(FLT_MAX)", build)
    assert check_case(emulator, case, tmp_path) is None
