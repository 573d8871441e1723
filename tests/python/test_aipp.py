# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Static AIPP (docs/aipp.md): a classifier fed uint8 frames through atc's --insert_op_conf on the
emulator, against the float model fed the same frames converted and normalised in PyTorch."""

from __future__ import annotations

import pytest
import torch
from aipp_models import MEAN, MEAN_CHN, MIN_CHN, STD, VAR_RECI, Classifier, normalise, nv12_to_rgb

from executorch_ascend import AscendCompileSpec
from executorch_ascend.aipp import (
    YUV_TO_RGB_JPEG,
    AippConfig,
    AippError,
    aipp_reference,
    with_aipp,
)
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime


def _delegated(model: torch.nn.Module, frame: torch.Tensor):
    lowering = lower(model, (frame,), AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1 and not summary.cpu_ops, summary
    # The program's input is the uint8 frame itself.
    program = lowering.program.exported_program()
    (name,) = program.graph_signature.user_inputs
    (placeholder,) = [n for n in program.graph.nodes if n.name == name]
    assert placeholder.meta["val"].dtype == torch.uint8
    assert tuple(placeholder.meta["val"].shape) == tuple(frame.shape)
    return lowering


def test_prototext_round_trip() -> None:
    config = AippConfig(
        input_format="YUV420SP_U8",
        src_image_size_w=640,
        src_image_size_h=480,
        crop=True,
        load_start_pos_w=80,
        load_start_pos_h=16,
        crop_size_w=448,
        crop_size_h=448,
        csc_switch=True,
        matrix=YUV_TO_RGB_JPEG,
        input_bias=(0, 128, 128),
        mean_chn=MEAN_CHN,
        min_chn=MIN_CHN,
        var_reci_chn=VAR_RECI,
    )
    text = config.to_prototext()
    assert "aipp_mode: static" in text and "input_format: YUV420SP_U8" in text
    assert "matrix_r1c2: -183" in text and "load_start_pos_h: 16" in text
    assert AippConfig.from_prototext(text) == config
    assert config.resolve((1, 3, 448, 448)).frame_shape(2) == (2, 720, 640, 1)


def test_with_aipp_refuses_what_cann_refuses() -> None:
    model = Classifier()
    with pytest.raises(AippError, match="load_start_pos_w \\+ crop_size_w should <="):
        with_aipp(
            model,
            AippConfig(
                "RGB888_U8",
                src_image_size_w=8,
                src_image_size_h=8,
                crop=True,
                load_start_pos_w=6,
                crop_size_w=4,
                crop_size_h=4,
            ),
            (1, 3, 4, 4),
        )
    with pytest.raises(AippError, match="not one CANN's static AIPP takes"):
        AippConfig("BGR888_U8")
    with pytest.raises(AippError, match="the data output H and W is not equal"):
        with_aipp(model, AippConfig("RGB888_U8", src_image_size_w=6), (1, 3, 4, 4))


def test_atc_options_cannot_pass_insert_op_conf(tmp_path) -> None:
    cfg = tmp_path / "aipp.cfg"
    cfg.write_text(AippConfig("RGB888_U8").to_prototext())
    with pytest.raises(ValueError, match="with_aipp"):
        AscendCompileSpec(toolchain="emulator", atc_options={"insert_op_conf": str(cfg)})


@pytest.mark.emulator
def test_rgb_frames_match_pytorch_preprocessing(native) -> None:
    # A BGR camera frame, 20x24, centre-cropped to the model's 16x16.
    config = AippConfig(
        "RGB888_U8",
        src_image_size_w=24,
        src_image_size_h=20,
        crop=True,
        load_start_pos_w=4,
        load_start_pos_h=2,
        crop_size_w=16,
        crop_size_h=16,
        rbuv_swap_switch=True,
        mean_chn=MEAN_CHN,
        min_chn=MIN_CHN,
        var_reci_chn=VAR_RECI,
    )
    classifier = Classifier().eval()
    model = with_aipp(classifier, config, (2, 3, 16, 16)).eval()
    gen = torch.Generator().manual_seed(1)
    bgr = torch.randint(0, 256, model.frame_shape(2), dtype=torch.uint8, generator=gen)
    (got,) = run_with_runtime(_delegated(model, bgr).program.buffer, [bgr])

    # The eager wrapped module (CANN's AIPP arithmetic on the CPU, then the float model): the
    # emulator's AIPP step is bit-exact to it, the rest is the float32 model.
    with torch.no_grad():
        eager = model(bgr)
    torch.testing.assert_close(got, eager, rtol=0, atol=1e-5 * float(eager.abs().max()))

    # PyTorch's own pre-processing of the same frame: BGR -> RGB, crop, (x / 255 - mean) / std.
    rgb = bgr[:, 2:18, 4:20, :].flip(-1)
    x = normalise(rgb)
    aipp_x = aipp_reference(bgr, model.config, 3)
    # AIPP's float16 (mean_chn + fp16 min_chn exact, var_reci_chn and the result each rounded
    # to float16): |error| <= |x| * 2^-11 * 2 + rounding of min_chn (<= 2^-11 * 255 * |var|).
    assert float((aipp_x - x).abs().max()) <= float(x.abs().max()) * 2**-10 + 3e-3
    with torch.no_grad():
        want = classifier(x)
    # An input off by about 2^-10 relatively (0.06% of its range; 2026-12-06: 1.5e-3 of 2.6)
    # moves the logits by the same order: 0.2% of their scale bounds it (measured 4e-5 of 0.32).
    torch.testing.assert_close(got, want, rtol=0, atol=2e-3 * float(want.abs().max()))
    assert torch.equal(got.argmax(1), want.argmax(1))


@pytest.mark.emulator
def test_yuv420sp_frames_match_pytorch_conversion(native) -> None:
    # An NV12 frame 24x20 (H x W), cropped at (4, 2) to 16x16, JPEG YUV -> RGB, normalised.
    h, w = 24, 20
    config = AippConfig(
        "YUV420SP_U8",
        src_image_size_w=w,
        src_image_size_h=h,
        crop=True,
        load_start_pos_w=2,
        load_start_pos_h=4,
        crop_size_w=16,
        crop_size_h=16,
        csc_switch=True,
        matrix=YUV_TO_RGB_JPEG,
        input_bias=(0, 128, 128),
        mean_chn=MEAN_CHN,
        min_chn=MIN_CHN,
        var_reci_chn=VAR_RECI,
    )
    classifier = Classifier().eval()
    model = with_aipp(classifier, config, (1, 3, 16, 16)).eval()
    assert model.frame_shape(1) == (1, 36, 20, 1)
    # Smooth colours (a camera's), so that the conversion is not dominated by clamping.
    gen = torch.Generator().manual_seed(2)
    nv12 = torch.empty(model.frame_shape(1), dtype=torch.uint8)
    nv12[:, :h] = torch.randint(40, 220, (1, h, w, 1), generator=gen, dtype=torch.uint8)
    nv12[:, h:] = torch.randint(90, 166, (1, h // 2, w, 1), generator=gen, dtype=torch.uint8)
    (got,) = run_with_runtime(_delegated(model, nv12).program.buffer, [nv12])

    with torch.no_grad():
        eager = model(nv12)
    torch.testing.assert_close(got, eager, rtol=0, atol=1e-5 * float(eager.abs().max()))

    rgb = nv12_to_rgb(nv12, h, w)[:, 4:20, 2:18, :]
    x = (rgb.permute(0, 3, 1, 2) / 255 - torch.tensor(MEAN).view(1, 3, 1, 1)) / torch.tensor(
        STD
    ).view(1, 3, 1, 1)
    aipp_x = aipp_reference(nv12, model.config, 3)
    # CANN's integer CSC: coefficients in 1/256 steps (|1.402 - 359/256| * 128 < 0.1 levels)
    # and a floor (< 1 level): under 1.2 levels of 255, then float16 as above.
    assert float((aipp_x - x).abs().max()) <= 1.2 / (255 * min(STD)) + 2**-10 * 3
    with torch.no_grad():
        want = classifier(x)
    # An input off by up to 1.2 levels of 255 (0.8% of its range; measured 0.018 of 2.64)
    # moves the logits by the same order: 1% of their scale (measured 6.6e-4 of 0.29).
    torch.testing.assert_close(got, want, rtol=0, atol=1e-2 * float(want.abs().max()))
    assert torch.equal(got.argmax(1), want.argmax(1))


@pytest.mark.emulator
def test_bad_aipp_config_fails_at_atc_with_the_reason(native, tmp_path) -> None:
    from executorch_ascend.export import edge_for_analysis
    from executorch_ascend.lowering import to_onnx
    from executorch_ascend.toolchain.atc import ToolchainError, compile_onnx

    model = with_aipp(Classifier().eval(), AippConfig("RGB888_U8"), (1, 3, 8, 8)).eval()
    frame = torch.zeros(model.frame_shape(1), dtype=torch.uint8)
    graph = to_onnx(edge_for_analysis(model, (frame,)))
    assert [v.dims for v in graph.inputs] == [(1, 3, 8, 8)] and len(graph.aipp) == 1
    spec = AscendCompileSpec(toolchain="emulator")
    names, dims = [v.name for v in graph.inputs], [v.dims for v in graph.inputs]
    bad = {
        # A crop outside the 8x8 image, as atc reads it (the Python side refuses it earlier).
        "aipp_op { aipp_mode: static input_format: RGB888_U8 src_image_size_w: 8 "
        "src_image_size_h: 8 crop: true load_start_pos_w: 2 crop_size_w: 8 crop_size_h: 8 }": (
            "load_start_pos_w + crop_size_w should <= src_image_size_w"
        ),
        "aipp_op { aipp_mode: static input_format: RGBA_U8 }": (
            'Unknown enumeration value of "RGBA_U8" for field "input_format"'
        ),
    }
    for text, reason in bad.items():
        with pytest.raises(ToolchainError, match=reason.replace("+", "\\+")):
            compile_onnx(graph.model.SerializeToString(), spec, names, dims, insert_op_conf=text)
    # The config to_onnx recorded compiles, and the .om's input is the uint8 frame.
    from executorch_ascend.aipp import aipp_config_text

    compiled = compile_onnx(
        graph.model.SerializeToString(),
        spec,
        names,
        dims,
        insert_op_conf=aipp_config_text(graph.aipp),
    )
    assert compiled.om_file is not None


@pytest.mark.emulator
def test_demo_resnet_with_aipp_in_runtime_and_runner(native, tmp_path) -> None:
    # The demo's model (examples/demo.py) behind AIPP: a 40x36 NV12 frame, cropped to its 32x32
    # input, JPEG CSC and ImageNet normalisation; run by ExecuTorch's runtime and ascend_runner.
    from example_models import small_resnet
    from parity import fp32_tolerance, max_abs_error

    from executorch_ascend.export import save
    from executorch_ascend.run import run_with_runner

    config = AippConfig(
        "YUV420SP_U8",
        src_image_size_w=36,
        src_image_size_h=40,
        crop=True,
        load_start_pos_w=2,
        load_start_pos_h=4,
        crop_size_w=32,
        crop_size_h=32,
        csc_switch=True,
        matrix=YUV_TO_RGB_JPEG,
        input_bias=(0, 128, 128),
        mean_chn=MEAN_CHN,
        min_chn=MIN_CHN,
        var_reci_chn=VAR_RECI,
    )
    model = with_aipp(small_resnet().eval(), config, (1, 3, 32, 32)).eval()
    gen = torch.Generator().manual_seed(3)
    nv12 = torch.randint(0, 256, model.frame_shape(1), dtype=torch.uint8, generator=gen)
    with torch.no_grad():
        expected = [model(nv12)]
    pte, _ = save(_delegated(model, nv12).program, tmp_path / "model.pte")
    # The AIPP step is bit-exact to the eager op: the rest is the float32 demo model.
    tolerance = fp32_tolerance(expected)
    assert max_abs_error(run_with_runtime(pte, [nv12]), expected) <= tolerance
    runner = run_with_runner(pte, [nv12], expected, tmp_path / "runner")
    assert max_abs_error(runner, expected) <= tolerance


@pytest.mark.emulator
def test_kept_onnx_source_recompiles_with_its_aipp(native, tmp_path) -> None:
    # keep_onnx keeps the AIPP config in the source manifest (version 2): compiled again from
    # it (replacing the .om), the .om's input is still the frame and the program still runs.
    from executorch_ascend.export import save
    from executorch_ascend.recompile import recompile
    from executorch_ascend.saved_program import SavedProgram
    from executorch_ascend.serialization import blob
    from executorch_ascend.serialization.source import AIPP_MANIFEST_VERSION, PartitionSource
    from executorch_ascend.toolchain.atc import resolve_atc

    config = AippConfig("RGB888_U8", mean_chn=MEAN_CHN, var_reci_chn=VAR_RECI)
    model = with_aipp(Classifier().eval(), config, (1, 3, 8, 8)).eval()
    frame = torch.randint(0, 256, model.frame_shape(1), dtype=torch.uint8)
    spec = AscendCompileSpec(toolchain="emulator", keep_onnx=True)
    pte, _ = save(lower(model, (frame,), spec).program, tmp_path / "model.pte")
    program = SavedProgram.load(pte)
    ((_, _, delegate),) = program.delegates("AscendBackend")
    source_key = blob.decode(program.processed(delegate)).source_key
    manifest = PartitionSource.from_json(program.read(source_key))
    assert manifest.insert_op_conf == config.resolve((1, 3, 8, 8)).to_prototext()
    assert f'"version": {AIPP_MANIFEST_VERSION}' in manifest.to_json().decode()

    spec_atc = resolve_atc(AscendCompileSpec(toolchain="emulator"))
    recompile(program, ["Ascend910B1"], spec_atc, replace=True)
    out = tmp_path / "again.pte"
    program.save(out)
    with torch.no_grad():
        want = model(frame)
    (got,) = run_with_runtime(out, [frame])
    torch.testing.assert_close(got, want, rtol=0, atol=1e-5 * float(want.abs().max()))
