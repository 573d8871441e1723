# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
from __future__ import annotations

import pytest
from executorch.exir.backend.compile_spec_schema import CompileSpec

from executorch_ascend import AscendCompileSpec, CompileSpecError
from executorch_ascend.compile_spec import as_compile_spec
from executorch_ascend.serialization import blob


def test_defaults() -> None:
    spec = AscendCompileSpec()
    assert spec.soc_version == "Ascend910B1"
    assert spec.precision_mode == "must_keep_origin_dtype"
    assert spec.device_id == 0
    assert spec.toolchain == "auto"
    assert spec.atc_path is None and spec.external_tag is None
    assert spec.external_weight == 1 and spec.external_weight_threshold == 1024


def test_round_trip_through_compile_specs() -> None:
    spec = AscendCompileSpec(
        soc_version="Ascend310P3",
        precision_mode="force_fp32",
        device_id=2,
        toolchain="cann",
        atc_path="/opt/cann/bin/atc",
        external_tag="weights",
        external_weight=2,
        external_weight_threshold=0,
    )
    specs = spec.to_compile_specs()
    assert all(isinstance(s, CompileSpec) and isinstance(s.value, bytes) for s in specs)
    values = {s.key: s.value for s in specs}
    assert values["device_id"] == b"2"
    assert (values["external_weight"], values["external_weight_threshold"]) == (b"2", b"0")
    assert AscendCompileSpec.from_compile_specs(specs) == spec


def test_unset_optionals_are_not_emitted() -> None:
    keys = {s.key for s in AscendCompileSpec().to_compile_specs()}
    assert keys == {
        "soc_version",
        "precision_mode",
        "device_id",
        "toolchain",
        "external_weight",
        "external_weight_threshold",
    }


def test_external_weight_specs_are_ahead_of_time_only() -> None:
    from executorch_ascend.serialization import blob

    assert not {"external_weight", "external_weight_threshold"} & set(blob.RUNTIME_COMPILE_SPECS)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"soc_version": ""}, "soc_version"),
        ({"soc_version": "910B"}, "soc_version"),
        ({"soc_version": "Ascend 910"}, "soc_version"),
        ({"precision_mode": "fast"}, "precision_mode"),
        ({"device_id": -1}, "device_id"),
        ({"device_id": True}, "device_id"),
        ({"device_id": "0"}, "device_id"),
        ({"toolchain": "gpu"}, "toolchain"),
        ({"atc_path": ""}, "atc_path"),
        ({"toolchain": "emulator", "atc_path": "/x/atc"}, "EXECUTORCH_ASCEND_EMULATOR_ATC"),
        ({"external_tag": "a/b"}, "external_tag"),
        ({"external_tag": ""}, "external_tag"),
        ({"external_tag": ".hidden"}, "external_tag"),
        ({"external_weight": 3}, "external_weight"),
        ({"external_weight": -1}, "external_weight"),
        ({"external_weight": True}, "external_weight"),
        ({"external_weight": "1"}, "external_weight"),
        ({"external_weight_threshold": -1}, "external_weight_threshold"),
        ({"external_weight_threshold": 1.5}, "external_weight_threshold"),
        ({"external_weight_threshold": False}, "external_weight_threshold"),
        ({"external_weight_threshold": 2**63}, "external_weight_threshold"),
    ],
)
def test_invalid_values_raise_clear_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(CompileSpecError, match=message):
        AscendCompileSpec(**kwargs)


def test_from_compile_specs_rejects_bad_lists() -> None:
    with pytest.raises(CompileSpecError, match="unknown"):
        AscendCompileSpec.from_compile_specs([CompileSpec("socversion", b"Ascend910B1")])
    with pytest.raises(CompileSpecError, match="twice"):
        AscendCompileSpec.from_compile_specs(
            [CompileSpec("device_id", b"0"), CompileSpec("device_id", b"1")]
        )
    with pytest.raises(CompileSpecError, match="UTF-8"):
        AscendCompileSpec.from_compile_specs([CompileSpec("soc_version", b"\xff")])
    with pytest.raises(CompileSpecError, match="integer"):
        AscendCompileSpec.from_compile_specs([CompileSpec("device_id", b"one")])
    with pytest.raises(CompileSpecError, match="external_weight must be an integer"):
        AscendCompileSpec.from_compile_specs([CompileSpec("external_weight", b"inline")])
    with pytest.raises(CompileSpecError, match="external_weight_threshold must be an integer"):
        AscendCompileSpec.from_compile_specs([CompileSpec("external_weight_threshold", b"1k")])
    with pytest.raises(CompileSpecError, match=r"0 \(weights inside the \.om\)"):
        AscendCompileSpec.from_compile_specs([CompileSpec("external_weight", b"5")])


def test_as_compile_spec_accepts_every_form() -> None:
    spec = AscendCompileSpec(device_id=1)
    assert as_compile_spec(None) == AscendCompileSpec()
    assert as_compile_spec(spec) is spec
    assert as_compile_spec(spec.to_compile_specs()) == spec


def test_keep_onnx_round_trips_and_is_recorded_only_when_set() -> None:
    kept = AscendCompileSpec(keep_onnx=True)
    specs = {s.key: bytes(s.value) for s in kept.to_compile_specs()}
    assert specs["keep_onnx"] == b"1"
    assert AscendCompileSpec.from_compile_specs(kept.to_compile_specs()) == kept
    assert "keep_onnx" not in {s.key for s in AscendCompileSpec().to_compile_specs()}
    assert "keep_onnx" not in blob.RUNTIME_COMPILE_SPECS
    with pytest.raises(CompileSpecError, match="keep_onnx must be True or False"):
        AscendCompileSpec(keep_onnx=1)  # type: ignore[arg-type]
    with pytest.raises(CompileSpecError, match="keep_onnx must be 0 or 1"):
        AscendCompileSpec.from_compile_specs([CompileSpec("keep_onnx", b"yes")])
