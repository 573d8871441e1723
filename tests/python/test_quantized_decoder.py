# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Weight-only quantized decoders (torchao's IntxWeightOnlyConfig, what optimum-executorch's
--qlinear 8w / 4w produce) through transformers' static-cache export: every linear becomes CANN's
WeightQuantBatchMatmulV2 (W8A16 / W4A16), one Ascend partition with the KV cache on the device,
32 greedy tokens equal to the torchao-quantized eager model's, and the linears' weight bytes a
quarter (int8) or an eighth (int4, plus its per-group scales) of float32's, in the .ptd and
uploaded to the device. The same for 8da4w (int8 per-token activations too, written as torchao's
arithmetic before to_edge: dynamic_activation_quant.py), checked bit for bit on nn.Sequential in
fp32/fp16/bf16; and weights wider than CANN's N <= 65535 split into quantized column chunks."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import onnx
import pytest
import torch
from ascend_helpers import ascend_lowered_modules
from executorch_ascend_emulator.stats import read_stats
from model_zoo import static_cache_decoder

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower_program, save
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator

PROMPT = (1, 17, 42, 73)
NEW_TOKENS = 32
MAX_CACHE_LEN = 40
# Wide enough for groups of 128 below K (CANN: a group size is a multiple of 32 below K).
SHAPE = dict(hidden_size=256, intermediate_size=512, num_attention_heads=4, head_dim=64)
CASES = {
    "int8": (torch.int8, None),
    "int4_g32": (torch.int4, 32),
    "int4_g128": (torch.int4, 128),
    "8da4w_g32": (torch.int4, 32),  # int8 per-token activations too (dynamic_activation_quant.py)
}


def _quantize(model: torch.nn.Module, case: str) -> None:
    """What the weight-only recipes do (torchao's config on every nn.Linear), or torchao's
    8da4w (optimum's `--qlinear 8da4w`)."""
    from torchao.quantization import Int8DynamicActivationIntxWeightConfig, quantize_
    from torchao.quantization.granularity import PerGroup

    from executorch_ascend.recipes import weight_only_config

    dtype, group = CASES[case]
    if case.startswith("8da"):
        config = Int8DynamicActivationIntxWeightConfig(
            weight_dtype=dtype, weight_granularity=PerGroup(group or 32)
        )
    else:
        config = weight_only_config(dtype == torch.int4, group or 32)
    quantize_(model, config, filter_fn=lambda m, _: isinstance(m, torch.nn.Linear))


def _linear_float_bytes(model: torch.nn.Module) -> int:
    return sum(m.weight.numel() * 4 for m in model.modules() if isinstance(m, torch.nn.Linear))


def _weight_bytes_loaded() -> int:
    return int(read_stats(os.environ["EXECUTORCH_ASCEND_ACL_LIB"])["weight_bytes_loaded"])


def _decoder(dtype: torch.dtype) -> torch.nn.Module:
    return static_cache_decoder("LlamaConfig", max_cache_len=MAX_CACHE_LEN, **SHAPE).to(dtype)


@pytest.mark.parametrize(
    ("case", "dtype"),
    [
        ("int8", torch.float32),
        ("int4_g32", torch.float32),
        ("int4_g128", torch.float16),
        ("int8", torch.bfloat16),
        ("8da4w_g32", torch.float16),
    ],
    ids=["int8-fp32", "int4_g32-fp32", "int4_g128-fp16", "int8-bf16", "8da4w_g32-fp16"],
)
def test_weight_only_decoder_generates_eager_tokens(
    native, tmp_path: Path, case: str, dtype: torch.dtype
) -> None:
    from executorch.runtime import Runtime
    from transformers.integrations.executorch import (
        TorchExportableModuleWithStaticCache,
        convert_and_export_with_cache,
    )

    weight_dtype, group = CASES[case]
    model = _decoder(dtype)
    float_bytes = _linear_float_bytes(model)
    embedding_bytes = model.get_input_embeddings().weight.numel() * dtype.itemsize
    _quantize(model, case)

    spec = AscendCompileSpec(toolchain="emulator", external_tag="weights")
    lowering = lower_program(convert_and_export_with_cache(model), spec)
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    (module,) = ascend_lowered_modules(lowering.edge)
    decoded = blob.decode(module.processed_bytes)
    states = decoded.states  # the KV cache, as device state
    assert sum("cache" in s.name for s in states) == 2 * model.config.num_hidden_layers
    pte, (ptd,) = save(lowering.program, tmp_path / f"{case}.pte")

    # The weight files (in the .ptd) hold the linears' int8 / packed int4 weights with their
    # scales, and the float embedding: the linears take 1/4 (int8) or about 1/8 (int4) of
    # float32's bytes.
    ratio = 0.25 if weight_dtype == torch.int8 else 0.125
    scales = float_bytes / 4 / (group or 256) * 2  # an fp16 scale per group (per row for int8)
    bound = ratio * float_bytes + scales + 16 * 1024  # + the norms' weights
    stored = sum(w.size for w in decoded.targets[0].weights)
    assert stored <= ptd.stat().st_size
    assert stored - embedding_bytes <= bound, (stored, embedding_bytes, float_bytes)

    before = _weight_bytes_loaded()
    program = Runtime.get().load_program(pte, data_path=ptd)
    method = program.load_method("forward")
    uploaded = _weight_bytes_loaded() - before  # what the emulated device holds
    assert uploaded - embedding_bytes <= bound, (uploaded, embedding_bytes, float_bytes)

    reference = TorchExportableModuleWithStaticCache(
        model, batch_size=1, max_cache_len=MAX_CACHE_LEN
    )
    tokens: list[int] = []
    expected: list[int] = []
    token = PROMPT[0]
    for position in range(len(PROMPT) + NEW_TOKENS - 1):
        ids, pos = torch.tensor([[token]]), torch.tensor([position])
        with torch.no_grad():
            want = reference(input_ids=ids, cache_position=pos)
        (got,) = [o for o in method.execute([ids, pos]) if isinstance(o, torch.Tensor)]
        assert got.dtype == want.dtype
        if position + 1 < len(PROMPT):
            token = PROMPT[position + 1]
            continue
        tokens.append(int(got[0, -1].float().argmax()))
        expected.append(int(want[0, -1].float().argmax()))
        token = expected[-1]
    assert tokens == expected, case
    assert len(set(expected)) > 3, expected


@pytest.mark.parametrize(("soc", "case"), [("Ascend310P3", "int4_g32"), ("Ascend310B1", "int8")])
def test_weight_only_refused_where_cann_lacks_it(native, soc: str, case: str) -> None:
    """Ascend310P takes int8 weights only and Ascend310B has no WeightQuantBatchMatmulV2
    (cann_op_facts.json): the lowering says so instead of handing atc what it refuses."""
    from transformers.integrations.executorch import convert_and_export_with_cache

    model = _decoder(torch.float16)
    _quantize(model, case)
    with pytest.raises(Exception, match="WeightQuantBatchMatmulV2"):
        lower_program(
            convert_and_export_with_cache(model),
            AscendCompileSpec(toolchain="emulator", soc_version=soc),
        )


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("weights", ["8da4w", "8da8w"])
def test_dynamic_activation_quantization_is_eager_arithmetic_on_ascend(
    native, tmp_path: Path, dtype: torch.dtype, weights: str
) -> None:
    """torchao's 8da4w / 8da8w on an nn.Sequential: the per-token activation quantization is
    written in core ATen ops that compute eager's values exactly (the rewrite alone, bit for
    bit), and the whole model lowers to one Ascend partition with nothing on the CPU, the weights
    still int4/int8 (NPUWeightQuantBatchMatmulV2), its outputs eager's within the float
    rounding of the matmuls."""
    from executorch.runtime import Runtime
    from torchao.quantization import Int8DynamicActivationIntxWeightConfig, quantize_
    from torchao.quantization.granularity import PerAxis, PerGroup

    from executorch_ascend.lowering.before_to_edge import rewrite_before_to_edge
    from executorch_ascend.lowering.dynamic_activation_quant import activation_quant_nodes

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 64), torch.nn.SiLU(), torch.nn.Linear(64, 32)
    ).eval()
    with torch.no_grad():  # default init rescaled: outputs far from zero
        for p in model.parameters():
            p.mul_(4.0)
    model = model.to(dtype)
    int4 = weights == "8da4w"
    config = Int8DynamicActivationIntxWeightConfig(
        weight_dtype=torch.int4 if int4 else torch.int8,
        weight_granularity=PerGroup(32) if int4 else PerAxis(0),
    )
    quantize_(model, config)
    x = (torch.randn(1, 5, 64) * 3).to(dtype)
    with torch.no_grad():
        want = model(x)

    exported = torch.export.export(model, (x,))
    assert len(activation_quant_nodes(exported)) == 6  # choose, quantize, dequantize per linear
    rewritten, _ = rewrite_before_to_edge(exported)
    assert not activation_quant_nodes(rewritten)
    dequantize = torch.ops.torchao.dequantize_affine.default
    assert sum(n.target is dequantize for n in rewritten.graph.nodes) == 2  # the weights'
    assert torch.equal(rewritten.module()(x), want)

    spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(tmp_path))
    lowering = lower_program(torch.export.export(model, (x,)), spec)
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    (part,) = [onnx.load(str(d / "part.onnx")) for d in tmp_path.iterdir()]
    assert sum(n.op_type == "NPUWeightQuantBatchMatmulV2" for n in part.graph.node) == 2
    program = Runtime.get().load_program(lowering.program.buffer)
    got = program.load_method("forward").execute([x])[0]
    assert got.dtype == dtype
    # A few roundings of the matmul's input dtype: CANN's WeightQuantBatchMatmulV2 reads x in
    # float16 (it has no float32 x), so float32 meets float16's rounding (2^-11) too.
    tol = {torch.float32: 4e-3, torch.float16: 4e-3, torch.bfloat16: 3e-2}[dtype]
    torch.testing.assert_close(
        got.float(), want.float(), atol=tol * float(want.abs().max()), rtol=0
    )


@pytest.mark.parametrize("case", ["int4_g32", "int8"])
def test_weight_wider_than_cann_takes_is_split_and_stays_quantized(
    native, tmp_path: Path, case: str
) -> None:
    """CANN's WeightQuantBatchMatmulV2 takes N up to 65535; an LM head over a larger vocabulary
    (Qwen's 151 936) becomes even column chunks, one op each, and a Concat: the weight stays
    int4/int8 (no float initializer of its size) and the output is eager's."""
    from executorch.runtime import Runtime

    n = 65536 + 9 * 8 + (1 if case == "int8" else 0)  # int4 needs N a multiple of 8
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, n, bias=case == "int8")).eval()
    with torch.no_grad():
        model[0].weight.mul_(4.0)
    model = model.to(torch.float16)
    _quantize(model, case)
    x = torch.randn(1, 3, 64).to(torch.float16)
    with torch.no_grad():
        want = model(x)

    spec = AscendCompileSpec(toolchain="emulator", dump_dir=str(tmp_path))
    lowering = lower_program(torch.export.export(model, (x,)), spec)
    assert lowering.summary.partitions == 1, lowering.summary
    (part,) = [onnx.load(str(d / "part.onnx")) for d in tmp_path.iterdir()]
    ops = [n.op_type for n in part.graph.node]
    assert ops.count("NPUWeightQuantBatchMatmulV2") == 2 and "Concat" in ops, ops
    float_types = (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16)
    largest_float = max(
        (int(np.prod(i.dims)) for i in part.graph.initializer if i.data_type in float_types),
        default=0,
    )
    assert largest_float < n * 64 // 16, largest_float  # scales and bias only

    program = Runtime.get().load_program(lowering.program.buffer)
    got = program.load_method("forward").execute([x])[0]
    torch.testing.assert_close(got, want, atol=4e-3 * float(want.abs().max()), rtol=0)
