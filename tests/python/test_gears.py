# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Shape gears on the AOT side (lowering/lower.py, lowering/gears/): the compile spec, the
partitioner's decisions, the one merged ONNX graph (checked on ONNX Runtime at every gear against
eager PyTorch), and the atc command line. No emulator is needed: a recording atc keeps what
AscendBackend handed it.
End-to-end runs on the emulator are in test_gears_end_to_end.py.
"""

from __future__ import annotations

import stat
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from ascend_helpers import ascend_lowered_modules, assert_close, eager
from executorch.exir import to_edge_transform_and_lower
from executorch.exir.backend.compile_spec_schema import CompileSpec
from torch.export import Dim, export

from executorch_ascend import AscendCompileSpec, AscendPartitioner, CompileSpecError
from executorch_ascend.explain import edge_program, explain, format_explanation
from executorch_ascend.lowering import LoweringError
from executorch_ascend.lowering.lower import lower_partition
from executorch_ascend.toolchain.atc import Atc, atc_command

# --- the compile spec ---------------------------------------------------------------------------


def test_gears_round_trip_through_compile_specs_in_atcs_syntax() -> None:
    batch = AscendCompileSpec(dynamic_batch_size=(1, 2, 4))
    specs = {s.key: bytes(s.value) for s in batch.to_compile_specs()}
    assert specs["dynamic_batch_size"] == b"1,2,4"
    assert "dynamic_dims" not in specs
    assert AscendCompileSpec.from_compile_specs(batch.to_compile_specs()) == batch
    assert batch.gears == ((1,), (2,), (4,))
    dims = AscendCompileSpec(dynamic_dims=[[1, 16], [2, 32]])  # lists are kept as tuples
    assert dims.dynamic_dims == ((1, 16), (2, 32))
    assert {s.key: bytes(s.value) for s in dims.to_compile_specs()}["dynamic_dims"] == b"1,16;2,32"
    assert AscendCompileSpec.from_compile_specs(dims.to_compile_specs()) == dims
    assert AscendCompileSpec().gears == ()
    # Without gears nothing new is written, so older specs stay byte-identical.
    keys = {s.key for s in AscendCompileSpec().to_compile_specs()}
    assert not keys & {"dynamic_batch_size", "dynamic_dims"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dynamic_batch_size": (4,)}, "2 to 100 gears"),
        ({"dynamic_batch_size": tuple(range(1, 102))}, "2 to 100 gears"),
        ({"dynamic_batch_size": (1, 2, 2)}, "twice"),
        ({"dynamic_batch_size": (0, 2)}, "positive"),
        ({"dynamic_batch_size": (-1, 2)}, "positive"),
        ({"dynamic_batch_size": (1.0, 2)}, "tuple of ints"),
        ({"dynamic_batch_size": (True, 2)}, "tuple of ints"),
        ({"dynamic_batch_size": "1,2"}, "tuple of ints"),
        ({"dynamic_dims": ((1, 2),)}, "2 to 100 gears"),
        ({"dynamic_dims": ((1, 2), (1, 2))}, "twice"),
        ({"dynamic_dims": ((1, 2), (3,))}, "same number"),
        ({"dynamic_dims": ((), ())}, "same number"),
        ({"dynamic_dims": ((1, 0), (2, 3))}, "positive"),
        ({"dynamic_dims": (1, 2)}, "int tuples"),
        ({"dynamic_batch_size": (1, 2), "dynamic_dims": ((1,), (2,))}, "cannot both"),
    ],
)
def test_bad_gears_are_refused(kwargs, message) -> None:
    with pytest.raises(CompileSpecError, match=message):
        AscendCompileSpec(**kwargs)


def test_the_gear_limit_is_the_chips() -> None:
    # soc_versions.json's gear_limits, which the emulator's atc reads too: Ascend950 takes up
    # to 256 gears, the other chips 100 (CANN's GE docs, the commit the file names).
    AscendCompileSpec(soc_version="Ascend950PR_9599", dynamic_batch_size=tuple(range(1, 257)))
    with pytest.raises(CompileSpecError, match=r"2 to 256 gears .*Ascend950PR_9599"):
        AscendCompileSpec(soc_version="Ascend950PR_9599", dynamic_batch_size=tuple(range(1, 258)))
    with pytest.raises(CompileSpecError, match=r"2 to 100 gears .*Ascend310P3"):
        AscendCompileSpec(soc_version="Ascend310P3", dynamic_batch_size=tuple(range(1, 102)))


@pytest.mark.parametrize(
    ("key", "text"),
    [("dynamic_batch_size", b"1;2"), ("dynamic_dims", b"1,x;2,3"), ("dynamic_batch_size", b"")],
)
def test_malformed_gear_text_is_a_clear_error(key, text) -> None:
    with pytest.raises(CompileSpecError, match=key):
        AscendCompileSpec.from_compile_specs([CompileSpec(key, text)])


# --- models -------------------------------------------------------------------------------------


class Mlp(torch.nn.Module):
    """Linear layers and a reshape whose target holds the batch (a gear-dependent int64 vector)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 32)
        self.fc2 = torch.nn.Linear(32, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.fc2(torch.relu(self.fc1(x)))
        return y.reshape(x.shape[0], 4, 4).softmax(-1).flatten(1)


class ConvNet(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8 * 4 * 4, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.conv(x))), 2)
        return self.fc(y.flatten(1))


class TwoInputs(torch.nn.Module):
    """Batch and sequence symbolic in two inputs: x (b, s, 8) and a mask (b, s)."""

    def __init__(self) -> None:
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        y = self.proj(x) * mask.unsqueeze(-1)
        b, s, _ = x.shape
        # Slice's end 2*s - 1 is computed from the input's shape; the Reshape target is not
        # (0 copies b, -1 infers 2*s).
        return y.reshape(b, s * 2, 4)[:, : s * 2 - 1].sum(1)


class ScaleBySeq(torch.nn.Module):
    """Divides by the sequence length: a size held as a float, a whole number at every gear."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(1) / x.shape[1]


class ScaleByCubedSeq(torch.nn.Module):
    """Divides by seq**3: a float that changes with the gear as no formula the merge fits
    (affine, or a product of two symbols)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(1) / (x.shape[1] * x.shape[1] * x.shape[1])


def _eval(module: torch.nn.Module) -> torch.nn.Module:
    torch.manual_seed(0)
    module.eval()
    for p in module.parameters():
        p.data.normal_(0, 0.5)
    return module


BATCH = Dim("batch", min=1, max=4)


def _batch_export(module: torch.nn.Module, shape: tuple[int, ...], dim: object = BATCH):
    example = torch.randn(2, *shape)
    return export(module, (example,), dynamic_shapes=({0: dim},))


# --- the recording atc --------------------------------------------------------------------------


@pytest.fixture
def recording_atc(tmp_path: Path) -> tuple[AscendCompileSpec, Path]:
    """A CANN-like atc that keeps its command line and working directory (part.onnx, weights)."""
    keep = tmp_path / "atc-runs"
    keep.mkdir()
    script = tmp_path / "bin" / "atc"
    script.parent.mkdir()
    script.write_text(
        "#!/bin/sh\n"
        f'run="{keep}/$(ls {keep} | wc -l)"\n'
        'mkdir "$run"; cp -r . "$run/dir"; printf "%s\\n" "$@" > "$run/args"\n'
        "echo om > part.om\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return AscendCompileSpec(toolchain="cann", atc_path=str(script)), keep


def _runs(keep: Path) -> list[tuple[list[str], Path]]:
    runs = sorted(keep.iterdir(), key=lambda p: int(p.name))
    return [((r / "args").read_text().splitlines(), r / "dir" / "part.onnx") for r in runs]


def _lower_with(spec: AscendCompileSpec, exported, partitioner: AscendPartitioner | None = None):
    partitioner = partitioner or AscendPartitioner(spec)
    return to_edge_transform_and_lower(exported, partitioner=[partitioner]), partitioner


def _spec(base: AscendCompileSpec, **gears: object) -> AscendCompileSpec:
    return AscendCompileSpec(toolchain=base.toolchain, atc_path=base.atc_path, **gears)


def _ort_at(model_path: Path, feeds: dict[str, np.ndarray]) -> list[torch.Tensor]:
    session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    return [torch.from_numpy(np.asarray(o)) for o in session.run(None, feeds)]


def _symbolic_input_dims(model_path: Path) -> list[list[str | int]]:
    model = onnx.load(str(model_path), load_external_data=False)
    return [
        [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]
        for v in model.graph.input
    ]


# --- batch gears: partitioner, merged ONNX, atc command line -----------------------------------


@pytest.mark.parametrize(
    ("make", "shape"), [(Mlp, (8,)), (ConvNet, (3, 8, 8))], ids=["mlp", "conv"]
)
def test_batch_gears_give_one_partition_and_one_graph_right_at_every_gear(
    recording_atc, make, shape
) -> None:
    base, keep = recording_atc
    module = _eval(make())
    spec = _spec(base, dynamic_batch_size=(1, 2, 4))
    _, partitioner = _lower_with(spec, _batch_export(module, shape))
    assert partitioner.reasons == {}, partitioner.reasons
    (run,) = _runs(keep)  # one partition, one atc run, one .om
    args, model_path = run
    rank = 1 + len(shape)
    assert f"--input_shape=input_0:-1,{','.join(map(str, shape))}" in args
    assert "--dynamic_batch_size=1,2,4" in args
    assert not any(a.startswith("--dynamic_dims") for a in args)
    if rank == 4:
        assert "--input_format=NCHW" in args  # dynamic_batch_size keeps NCHW for images
    dims = _symbolic_input_dims(model_path)
    assert isinstance(dims[0][0], str) and dims[0][1:] == list(shape)
    for batch in (1, 2, 4):
        x = torch.randn(batch, *shape, generator=torch.Generator().manual_seed(batch))
        got = _ort_at(model_path, {"input_0": x.numpy()})
        assert_close(got, eager(module, [x]), f"{make.__name__} at batch gear {batch}")


def test_a_reshape_target_with_only_the_batch_varying_stays_a_constant(recording_atc) -> None:
    base, keep = recording_atc
    _lower_with(_spec(base, dynamic_batch_size=(1, 3)), _batch_export(_eval(Mlp()), (8,)))
    ((_, model_path),) = _runs(keep)
    model = onnx.load(str(model_path))
    # Reshape copies the batch from its input (0): no shape computation is needed on the device.
    assert "Shape" not in {n.op_type for n in model.graph.node}
    targets = {n.input[1] for n in model.graph.node if n.op_type == "Reshape"}
    values = [
        onnx.numpy_helper.to_array(i).tolist() for i in model.graph.initializer if i.name in targets
    ]
    assert [0, 4, 4] in values


def test_sequence_and_batch_dims_gears_expand_to_every_minus_one(recording_atc) -> None:
    base, keep = recording_atc
    module = _eval(TwoInputs())
    b, s = Dim("b", min=1, max=4), Dim("s", min=1, max=16)
    x, mask = torch.randn(2, 4, 8), torch.ones(2, 4)
    exported = export(module, (x, mask), dynamic_shapes=({0: b, 1: s}, {0: b, 1: s}))
    spec = _spec(base, dynamic_dims=((1, 4), (2, 8), (4, 16)))
    _, partitioner = _lower_with(spec, exported)
    assert partitioner.reasons == {}
    ((args, model_path),) = _runs(keep)
    assert "--input_shape=input_0:-1,-1,8;input_1:-1,-1" in args
    # One value per -1, in --input_shape order: (b, s) of x, then (b, s) of the mask.
    assert "--dynamic_dims=1,4,1,4;2,8,2,8;4,16,4,16" in args
    assert "--input_format=ND" in args
    model = onnx.load(str(model_path))
    # The Slice end 2*s - 1 is computed from the input's shape: Shape -> Gather -> Mul -> Add.
    assert {"Shape", "Gather", "Mul", "Add"} <= {n.op_type for n in model.graph.node}
    reshape_targets = {n.input[1] for n in model.graph.node if n.op_type == "Reshape"}
    targets = [
        onnx.numpy_helper.to_array(i).tolist()
        for i in model.graph.initializer
        if i.name in reshape_targets
    ]
    assert [0, -1, 4] in targets
    for batch, seq in ((1, 4), (2, 8), (4, 16)):
        gen = torch.Generator().manual_seed(seq)
        xi = torch.randn(batch, seq, 8, generator=gen)
        mi = (torch.rand(batch, seq, generator=gen) > 0.3).float()
        got = _ort_at(model_path, {"input_0": xi.numpy(), "input_1": mi.numpy()})
        assert_close(got, eager(module, [xi, mi]), f"gear ({batch}, {seq})")


def test_dims_gears_force_nd_for_4d_inputs() -> None:
    fake = Atc(Path("/bin/atc"), "cann", "cann /bin/atc")
    spec = AscendCompileSpec(dynamic_dims=((1, 8), (2, 16)))
    cmd = atc_command(
        fake, spec, ["input_0"], [(-1, 3, -1, 8)], gear_options=["--dynamic_dims=1,8;2,16"]
    )
    assert "--input_format=ND" in cmd and "--input_shape=input_0:-1,3,-1,8" in cmd
    assert cmd[-1] == "--dynamic_dims=1,8;2,16"
    static = atc_command(fake, AscendCompileSpec(), ["input_0"], [(1, 3, 8, 8)])
    assert "--input_format=NCHW" in static
    assert not any(a.startswith("--dynamic") for a in static)


class FlipBetween(torch.nn.Module):
    """Two partitions around a CPU op (atan): the first reads only y's symbol, the second reads
    the symbols in another order (atan's output, of y, before x) than the program's inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        h = torch.atan(torch.relu(self.fc1(y)))  # y: (s, 8)
        return self.fc2(h).sum(0) + x.mean(0)  # x: (b, 8)


def test_each_partition_gets_the_gears_of_its_own_symbols_in_its_own_order(recording_atc) -> None:
    base, keep = recording_atc
    module = _eval(FlipBetween())
    b, s = Dim("b", min=1, max=4), Dim("s", min=1, max=16)
    exported = export(
        module, (torch.randn(2, 8), torch.randn(4, 8)), dynamic_shapes=({0: b}, {0: s})
    )
    # Gears of (b, s), the order of the program's inputs.
    _, partitioner = _lower_with(_spec(base, dynamic_dims=((1, 4), (2, 8), (4, 8))), exported)
    assert list(partitioner.reasons) == ["aten_atan_default"]
    (first, first_onnx), (second, second_onnx) = _runs(keep)
    # fc1 on y alone: s takes 4 and 8 (the gear (2, 8) and (4, 8) give it the same value).
    assert "--input_shape=input_0:-1,8" in first and "--dynamic_dims=4;8" in first
    # fc2 on atan(y) (s) before x (b): each gear's values reordered to (s, b).
    assert "--input_shape=input_0:-1,8;input_1:-1,8" in second
    assert "--dynamic_dims=4,1;8,2;8,4" in second
    for seq in (4, 8):
        y = torch.randn(seq, 8, generator=torch.Generator().manual_seed(seq))
        (got,) = _ort_at(first_onnx, {"input_0": y.numpy()})
        assert_close([got], [torch.relu(module.fc1(y)).detach()], f"partition 1 at s={seq}")
    for seq, batch in ((4, 1), (8, 2), (8, 4)):
        gen = torch.Generator().manual_seed(batch)
        h, x = torch.randn(seq, 8, generator=gen), torch.randn(batch, 8, generator=gen)
        (got,) = _ort_at(second_onnx, {"input_0": h.numpy(), "input_1": x.numpy()})
        expected = (module.fc2(h).sum(0) + x.mean(0)).detach()
        assert_close([got], [expected], f"partition 2 at (s={seq}, b={batch})")


# --- a Llama with sequence gears ----------------------------------------------------------------


class LlamaLogits(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        import transformers

        torch.manual_seed(0)
        config = transformers.LlamaConfig(
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            vocab_size=128,
        )
        self.model = transformers.LlamaForCausalLM(config).eval()

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=ids, use_cache=False).logits


def test_llama_sequence_gears_one_graph_right_at_every_gear(recording_atc) -> None:
    base, keep = recording_atc
    module = LlamaLogits().eval()
    seq = Dim("seq", min=1, max=16)
    ids = torch.randint(0, 128, (1, 8))
    exported = export(module, (ids,), dynamic_shapes=({1: seq},), strict=False)
    spec = _spec(base, dynamic_dims=((4,), (8,), (16,)))
    _, partitioner = _lower_with(spec, exported)
    assert partitioner.reasons == {}, partitioner.reasons
    ((args, model_path),) = _runs(keep)
    assert "--input_shape=input_0:1,-1" in args and "--dynamic_dims=4;8;16" in args
    model = onnx.load(str(model_path))
    ops = [n.op_type for n in model.graph.node]
    # The rotary tables and the causal mask grow with the sequence: stored at 16, sliced.
    assert "Slice" in ops and ops.count("Shape") == 1
    for n in (4, 8, 16):
        x = torch.randint(0, 128, (1, n), generator=torch.Generator().manual_seed(n))
        got = _ort_at(model_path, {"input_0": x.numpy()})
        assert_close(got, eager(module, [x]), f"Llama at sequence gear {n}")


# --- what stays on the CPU, and why ------------------------------------------------------------


def _cpu_reasons(exported, spec: AscendCompileSpec, partitions: int = 0) -> list[str]:
    explanation = explain(exported, spec)
    assert explanation.partitions == partitions, format_explanation(explanation)
    return [r.reason for r in explanation.cpu if r.reason]


def test_without_gears_a_bounded_dim_stays_on_the_cpu_and_explain_says_to_add_gears() -> None:
    reasons = _cpu_reasons(_batch_export(_eval(Mlp()), (8,)), AscendCompileSpec())
    geared = [r for r in reasons if "dynamic_batch_size" in r and "dynamic_dims" in r]
    assert geared, reasons
    assert all("no upper bound" not in r for r in reasons)
    text = format_explanation(explain(_batch_export(_eval(Mlp()), (8,))))
    assert "shape gears" in text


def test_an_unbounded_dim_stays_on_the_cpu_even_with_gears_and_explain_says_why() -> None:
    exported = _batch_export(_eval(Mlp()), (8,), Dim("batch"))
    reasons = _cpu_reasons(exported, AscendCompileSpec(dynamic_batch_size=(1, 2)))
    assert any("no upper bound" in r and "max" in r for r in reasons), reasons
    no_gears = _cpu_reasons(_batch_export(_eval(Mlp()), (8,), Dim("batch")), AscendCompileSpec())
    assert any("need(s) a max" in r for r in no_gears), no_gears


def test_a_gear_outside_the_dims_range_is_refused_with_the_gears_listed() -> None:
    exported = _batch_export(_eval(Mlp()), (8,))  # batch in [1, 4]
    reasons = _cpu_reasons(exported, AscendCompileSpec(dynamic_batch_size=(2, 8)))
    assert any("outside its range [1, 4]" in r and "gears: 2,8" in r for r in reasons), reasons


def test_batch_gears_for_a_non_batch_symbolic_dim_suggest_dynamic_dims() -> None:
    module = _eval(ScaleBySeq())
    exported = export(module, (torch.randn(2, 4),), dynamic_shapes=({1: Dim("s", max=8)},))
    # The division after the sum is static, and is taken; the sum is not.
    reasons = _cpu_reasons(exported, AscendCompileSpec(dynamic_batch_size=(2, 4)), 1)
    assert any("use dynamic_dims" in r for r in reasons), reasons
    wrong_count = AscendCompileSpec(dynamic_dims=((2, 4), (4, 8)))
    reasons = _cpu_reasons(
        export(module, (torch.randn(2, 4),), dynamic_shapes=({1: Dim("s", max=8)},)),
        wrong_count,
        1,
    )
    assert any("give 2 value(s) each" in r for r in reasons), reasons


def test_the_cpu_fallback_program_of_an_unbounded_dim_still_runs_right() -> None:
    from executorch.runtime import Runtime

    module = _eval(Mlp())
    example = torch.randn(4, 8)  # ExecuTorch plans memory for the example's size
    exported = export(module, (example,), dynamic_shapes=({0: Dim("batch")},))
    partitioner = AscendPartitioner(AscendCompileSpec(dynamic_batch_size=(1, 2)))
    program = to_edge_transform_and_lower(exported, partitioner=[partitioner]).to_executorch()
    assert any("no upper bound" in r for r in partitioner.reasons.values())
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    for batch in (1, 3, 4):
        x = torch.randn(batch, 8, generator=torch.Generator().manual_seed(batch))
        assert_close(list(method.execute([x])), eager(module, [x]), f"CPU at batch {batch}")


# --- what the merge refuses ---------------------------------------------------------------------


def test_a_constant_whose_value_changes_with_the_gear_is_a_clear_lowering_error() -> None:
    module = _eval(ScaleByCubedSeq())
    exported = export(module, (torch.randn(2, 4),), dynamic_shapes=({1: Dim("s", max=8)},))
    # Three gears: two values always fit a*s + b.
    spec = AscendCompileSpec(dynamic_dims=((2,), (4,), (8,)))
    edge, _ = edge_program(exported, spec)
    with pytest.raises(LoweringError, match=r"read by aten_div_tensor/Div.*no integer formula"):
        lower_partition(edge, spec, None)


class ManyInputs(torch.nn.Module):
    """x [2, s] and 32 static [1, 1, 2, 2] inputs: 2 + 32 * 4 = 130 dims in all."""

    def forward(self, x: torch.Tensor, *ys: torch.Tensor) -> torch.Tensor:
        return x * sum(y.sum() for y in ys)


def test_gears_over_acls_128_input_dims_are_refused_before_the_other_gears() -> None:
    """ACL's aclmdlGetInputDynamicDims lists the dims of every model input together in an
    aclmdlIODims of 128 (ACL_MAX_DIM_CNT), so such gears would fail at load, on CANN as on the
    emulator: the lowering says so (TooManyGearedDims) after the first gear."""
    from executorch_ascend.lowering.lower import TooManyGearedDims

    ys = tuple(torch.randn(1, 1, 2, 2) for _ in range(32))
    exported = export(
        _eval(ManyInputs()),
        (torch.randn(2, 4), *ys),
        dynamic_shapes=({1: Dim("s", max=8)}, (None,) * 32),
    )
    spec = AscendCompileSpec(dynamic_dims=((2,), (4,), (8,)))
    edge, _ = edge_program(exported, spec)
    with pytest.raises(TooManyGearedDims, match=r"33 inputs .* have 130"):
        lower_partition(edge, spec, None)
    # One input fewer (126 dims) lowers.
    exported = export(
        _eval(ManyInputs()),
        (torch.randn(2, 4), *ys[:31]),
        dynamic_shapes=({1: Dim("s", max=8)}, (None,) * 31),
    )
    edge, _ = edge_program(exported, spec)
    assert lower_partition(edge, spec, None).gear_options


def test_a_size_held_as_a_float_is_computed_from_the_input_shape(recording_atc) -> None:
    """x / x.shape[1]: the divisor is the fitted size, cast to float, so the whole program is
    one partition (transformers' StaticCache adds the chunk length to its counter this way)."""
    base, keep = recording_atc
    module = _eval(ScaleBySeq())
    exported = export(module, (torch.randn(2, 4),), dynamic_shapes=({1: Dim("s", max=8)},))
    edge, partitioner = _lower_with(_spec(base, dynamic_dims=((2,), (4,), (8,))), exported)
    assert not partitioner.reasons, partitioner.reasons
    assert len(ascend_lowered_modules(edge)) == 1
    ((args, model_path),) = _runs(keep)
    assert "--input_shape=input_0:2,-1" in args
    assert "Cast" in {n.op_type for n in onnx.load(model_path).graph.node}
    for seq in (2, 4, 8):
        x = torch.randn(2, seq, generator=torch.Generator().manual_seed(seq))
        assert_close(_ort_at(model_path, {"input_0": x.numpy()}), eager(module, [x]), f"{seq}")


def test_a_float_computed_from_the_shape_stays_on_the_cpu_and_the_rest_runs_right(
    recording_atc,
) -> None:
    base, keep = recording_atc
    module = _eval(ScaleByCubedSeq())
    exported = export(module, (torch.randn(2, 4),), dynamic_shapes=({1: Dim("s", max=8)},))
    _, partitioner = _lower_with(_spec(base, dynamic_dims=((2,), (4,), (8,))), exported)
    assert any("changes with the gear" in r for r in partitioner.reasons.values())
    ((args, model_path),) = _runs(keep)
    # The 1/s scalar reaches the partition as an input: the graph holds no gear's value. With
    # gears atc needs every input named, the scalar with no dims.
    assert "--input_shape=input_0:2,-1;input_1:" in args
    for seq in (2, 4, 8):
        x = torch.randn(2, seq, generator=torch.Generator().manual_seed(seq))
        feeds = {"input_0": x.numpy(), "input_1": np.asarray(seq**3, dtype=np.float32)}
        assert_close(_ort_at(model_path, feeds), eager(module, [x]), f"gear {seq}")


def test_each_gear_is_lowered_with_its_own_shapes(recording_atc) -> None:
    """The merged graph is right only because every gear's values were fitted: a graph from
    one gear alone would be wrong at the others (this is what the merge protects against)."""
    base, keep = recording_atc
    module = _eval(TwoInputs())
    b, s = Dim("b", min=1, max=4), Dim("s", min=1, max=16)
    exported = export(
        module, (torch.randn(2, 4, 8), torch.ones(2, 4)), dynamic_shapes=({0: b, 1: s},) * 2
    )
    _lower_with(_spec(base, dynamic_dims=((1, 4), (2, 8))), exported)
    ((_, model_path),) = _runs(keep)
    model = onnx.load(str(model_path))
    muls = [n for n in model.graph.node if n.op_type == "Mul" and n.name.startswith("gear_")]
    assert muls, "2*s - 1 must be computed from the input's shape"
    xi, mi = torch.randn(2, 8, 8), torch.ones(2, 8)
    got = _ort_at(model_path, {"input_0": xi.numpy(), "input_1": mi.numpy()})
    assert_close(got, eager(module, [xi, mi]), "gear (2, 8)")
