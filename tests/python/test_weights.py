# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The weight files atc writes, as preprocess stores them: content keys, one copy per distinct
weight across partitions and methods, the blob's weight table, and which file (.pte or <tag>.ptd)
each goes to. Ahead of time only, with fake_atc.py standing in for atc --external_weight."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest
import torch
from ascend_helpers import ascend_lowered_modules, named_data, seeded_inputs
from fake_atc import MAGIC, script
from weight_models import (
    BIAS_BYTES,
    IN,
    OUT,
    WEIGHT_BYTES,
    FlipBetween,
    Linear64x256,
    export_all,
    lower_methods,
    parameter_bytes,
    shared_heads,
    tagged_export,
    tensor_files,
)

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, lower_program
from executorch_ascend.serialization import blob
from executorch_ascend.serialization.weights import WEIGHT_KEY_PREFIX


@pytest.fixture
def fake_atc(tmp_path: Path):
    """Makes an AscendCompileSpec that compiles with fake_atc.py."""
    atc = script(tmp_path / "bin" / "atc")

    def spec(**kwargs) -> AscendCompileSpec:
        return AscendCompileSpec(toolchain="cann", atc_path=str(atc), **kwargs)

    return spec


def _blobs(edge) -> list[blob.AscendBlob]:
    return [blob.decode(m.processed_bytes) for m in ascend_lowered_modules(edge)]


def test_weight_files_are_named_data_under_content_keys(fake_atc) -> None:
    model = Linear64x256().eval()
    lowering = lower(model, seeded_inputs((2, IN)), fake_atc())
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    assert sorted(w.size for w in decoded.weights) == [BIAS_BYTES, WEIGHT_BYTES]
    params = {parameter_bytes(model, "fc.weight"), parameter_bytes(model, "fc.bias")}
    for w in decoded.weights:
        data = named_data(module, w.key)
        assert w.key == WEIGHT_KEY_PREFIX + hashlib.sha256(data).hexdigest()
        assert w.name == "weight_" + hashlib.sha256(data).hexdigest()  # the fake's naming
        assert len(data) == w.size and data in params
        assert module.named_data_store_output.pte_data[w.key].alignment == 64
    om = named_data(module, decoded.om_key)
    assert om.startswith(MAGIC) and len(om) < 4096  # the .om holds no weights
    # Lowering the same model again gives the same keys (the .om is keyed by its bytes).
    again = lower(model, seeded_inputs((2, IN)), fake_atc())
    assert _blobs(again.edge) == [decoded]


def test_two_methods_store_a_shared_weight_once(fake_atc) -> None:
    heads = shared_heads()
    program = lower_methods(export_all(heads, seeded_inputs((2, IN))), fake_atc())
    weight = parameter_bytes(heads["a"], "fc.weight")
    pte = program.buffer
    assert pte.count(weight) == 1
    assert WEIGHT_BYTES < len(pte) < WEIGHT_BYTES + 16 * 1024
    keys = []
    for method in ("a", "b"):
        (module,) = _lowered_of(program, method)
        keys.append({w.key for w in blob.decode(module.processed_bytes).weights})
    assert keys[0] == keys[1] and len(keys[0]) == 2


def _lowered_of(program, method: str) -> list:
    from executorch.exir.lowered_backend_module import get_lowered_submodules

    gm = program.exported_program(method).graph_module
    return [m for _, m, _ in get_lowered_submodules(gm)]


def test_two_partitions_of_one_method_store_a_shared_weight_once(fake_atc) -> None:
    model = FlipBetween().eval()
    lowering = lower(model, seeded_inputs((2, OUT)), fake_atc())
    assert lowering.summary.partitions == 2
    first, second = _blobs(lowering.edge)
    assert {w.key for w in first.weights} == {w.key for w in second.weights}
    pte = lowering.program.buffer
    assert pte.count(parameter_bytes(model, "fc.weight")) == 1
    assert len(pte) < OUT * OUT * 4 + 16 * 1024


def test_tagged_weights_go_to_their_ptd_and_the_pte_stays_small(fake_atc) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((2, IN))
    lowering = lower_program(tagged_export(model, inputs, lambda _: "model"), fake_atc())
    files = tensor_files(lowering.program)
    assert list(files) == ["model"]
    weight = parameter_bytes(model, "fc.weight")
    assert files["model"].count(weight) == 1
    assert len(lowering.program.buffer) < 16 * 1024
    assert weight not in lowering.program.buffer
    (module,) = ascend_lowered_modules(lowering.edge)
    out = module.named_data_store_output
    decoded = blob.decode(module.processed_bytes)
    assert decoded.om_key in out.pte_data  # no spec external_tag: the .om stays in the .pte
    assert {w.key for w in decoded.weights} == set(out.external_data["model"])


def test_the_spec_external_tag_takes_the_om_and_the_untagged_weights(fake_atc) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((2, IN))
    lowering = lower(model, inputs, fake_atc(external_tag="all"))
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    assert set(module.named_data_store_output.external_data["all"]) == {
        decoded.om_key,
        *(w.key for w in decoded.weights),
    }
    # Per-constant tags win over the spec's for the weights; the .om keeps the spec's.
    tagged = tagged_export(model, inputs, lambda _: "w")
    lowering = lower_program(tagged, fake_atc(external_tag="om"))
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    external = module.named_data_store_output.external_data
    assert set(external["om"]) == {decoded.om_key}
    assert set(external["w"]) == {w.key for w in decoded.weights}


def test_per_constant_tags_pick_the_file_of_each_weight(fake_atc) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((2, IN))
    tags = {"fc.weight": "weights", "fc.bias": None}
    lowering = lower_program(
        tagged_export(model, inputs, lambda n: tags[n.target]), fake_atc(external_tag="rest")
    )
    (module,) = ascend_lowered_modules(lowering.edge)
    external = module.named_data_store_output.external_data
    by_size = {w.size: w.key for w in blob.decode(module.processed_bytes).weights}
    assert set(external["weights"]) == {by_size[WEIGHT_BYTES]}
    assert by_size[BIAS_BYTES] in external["rest"]  # untagged: the spec's tag


def test_a_file_that_matches_no_constant_takes_the_partitions_one_tag(
    fake_atc, monkeypatch
) -> None:
    monkeypatch.setenv("FAKE_ATC_TRANSFORM", "1")  # atc rewrote the bytes: no digest matches
    model, inputs = Linear64x256().eval(), seeded_inputs((2, IN))
    lowering = lower_program(tagged_export(model, inputs, lambda _: "model"), fake_atc())
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    assert len(decoded.weights) == 2
    assert set(module.named_data_store_output.external_data["model"]) == {
        w.key for w in decoded.weights
    }
    # Two tags in the partition: no single one to take, so the spec's tag applies.
    tags = {"fc.weight": "w1", "fc.bias": "w2"}
    lowering = lower_program(
        tagged_export(model, inputs, lambda n: tags[n.target]), fake_atc(external_tag="spec")
    )
    (module,) = ascend_lowered_modules(lowering.edge)
    external = module.named_data_store_output.external_data
    assert set(external) == {"spec"}


def test_one_combined_weight_file_with_external_weight_2(fake_atc) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((2, IN))
    lowering = lower_program(
        tagged_export(model, inputs, lambda _: "model"), fake_atc(external_weight=2)
    )
    (module,) = ascend_lowered_modules(lowering.edge)
    (weight,) = blob.decode(module.processed_bytes).weights
    assert weight.name.startswith("weight_combined_")
    assert weight.size == WEIGHT_BYTES + BIAS_BYTES
    # The combined file matches no single constant: the partition's one tag.
    assert weight.key in module.named_data_store_output.external_data["model"]


def test_external_weight_0_keeps_the_weights_in_the_om(fake_atc, caplog) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((2, IN))
    with caplog.at_level(logging.WARNING, logger="executorch_ascend.backend"):
        lowering = lower_program(
            tagged_export(model, inputs, lambda _: "model"), fake_atc(external_weight=0)
        )
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    out = module.named_data_store_output
    assert decoded.weights == ()
    assert set(out.pte_data) == {decoded.om_key} and not out.external_data
    assert parameter_bytes(model, "fc.weight") in named_data(module, decoded.om_key)
    assert "stay inside the .om" in caplog.text and "model.ptd" in caplog.text


def test_the_threshold_decides_which_constants_are_external(fake_atc) -> None:
    model, inputs = Linear64x256().eval(), seeded_inputs((2, IN))
    high = lower(model, inputs, fake_atc(external_weight_threshold=1 << 30))
    assert [b.weights for b in _blobs(high.edge)] == [()]
    low = lower(model, inputs, fake_atc(external_weight_threshold=WEIGHT_BYTES))
    assert [[w.size for w in b.weights] for b in _blobs(low.edge)] == [[WEIGHT_BYTES]]


def test_identical_bytes_in_one_partition_are_one_file(fake_atc) -> None:
    class Twice(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.a, self.b = torch.nn.Linear(IN, OUT), torch.nn.Linear(IN, OUT)
            self.b.load_state_dict(self.a.state_dict())

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.a(x) + self.b(x)

    lowering = lower(Twice().eval(), seeded_inputs((2, IN)), fake_atc())
    (decoded,) = _blobs(lowering.edge)
    assert sorted(w.size for w in decoded.weights) == [BIAS_BYTES, WEIGHT_BYTES]
