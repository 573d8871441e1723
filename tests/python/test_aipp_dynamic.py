# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Dynamic AIPP (aipp_mode: dynamic; docs/aipp.md, "Dynamic AIPP"): the parameter tensor, its
checks, and a classifier fed uint8 frames with two parameter sets per program on the emulator,
against the float model fed the same frames pre-processed in PyTorch."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from aipp_models import MEAN, MEAN_CHN, MIN_CHN, STD, VAR_RECI, Classifier, normalise, nv12_to_rgb

from executorch_ascend import AscendCompileSpec
from executorch_ascend.aipp import (
    YUV_TO_RGB_JPEG,
    AippConfig,
    AippError,
    DynamicAipp,
    DynamicAippParams,
    aipp_reference,
    with_aipp,
)
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime


def _params(fmt: str, h: int, w: int, **kw: object) -> DynamicAippParams:
    return DynamicAippParams(fmt, src_image_size_w=w, src_image_size_h=h, **kw)  # type: ignore[arg-type]


def test_dynamic_params_tensor_and_eager_op() -> None:
    classifier = Classifier().eval()
    model = with_aipp(classifier, DynamicAipp("RGB888_U8", 24, 20), (2, 3, 16, 16)).eval()
    assert model.frame_shape() == (2, 20, 24, 3) and model.params_shape() == (3, 24)
    assert "aipp_mode: dynamic" in model.config.to_prototext(0)
    assert "max_src_image_size: 2880" in model.config.to_prototext(0)  # 2 * 20 * 24 * 3
    crop = dict(crop=True, load_start_pos_w=4, load_start_pos_h=2, crop_size_w=16, crop_size_h=16)
    norm = dict(mean_chn=MEAN_CHN, min_chn=MIN_CHN, var_reci_chn=VAR_RECI)
    p = _params("RGB888_U8", 20, 24, rbuv_swap_switch=True, **crop, **norm)
    t = p.to_tensor(2)
    assert t.dtype == torch.float32 and t.shape == (3, 24)
    assert t[0, :4].tolist() == [3.0, 24.0, 20.0, 0.0]  # RGB888_U8, w, h, csc off
    assert t[1].tolist() == t[2].tolist() and t[1, :5].tolist() == [1.0, 4.0, 2.0, 16.0, 16.0]
    # The eager op is the static config's arithmetic, image by image.
    static = with_aipp(
        classifier,
        AippConfig(
            "RGB888_U8",
            src_image_size_w=24,
            src_image_size_h=20,
            rbuv_swap_switch=True,
            **crop,
            **norm,
        ),  # type: ignore[arg-type]
        (2, 3, 16, 16),
    )
    gen = torch.Generator().manual_seed(4)
    frame = torch.randint(0, 256, model.frame_shape(), dtype=torch.uint8, generator=gen)
    with torch.no_grad():
        assert torch.equal(model(frame, t), static(frame))
    # Per-image parameters: image 1 cropped elsewhere.
    other = replace(p, load_start_pos_w=8, load_start_pos_h=4)
    per_image = DynamicAippParams.stack([p, other])
    x = torch.ops.ascend.aipp_dynamic(frame, per_image, model.config.to_json())
    torch.testing.assert_close(
        x[1:],
        aipp_reference(
            frame[1:], replace(static.config, load_start_pos_w=8, load_start_pos_h=4), 3
        ),
        rtol=0,
        atol=0,
    )
    with pytest.raises(AippError, match="image-wide parameters"):
        DynamicAippParams.stack([p, replace(p, rbuv_swap_switch=False)])


def test_dynamic_aipp_refuses_what_cann_refuses() -> None:
    model = with_aipp(Classifier(), DynamicAipp("YUV420SP_U8", 24, 20), (1, 3, 16, 16))
    good = _params("YUV420SP_U8", 20, 24, crop=True, crop_size_w=16, crop_size_h=16)
    frame = torch.zeros(model.frame_shape(), dtype=torch.uint8)
    model(frame, good.to_tensor())
    cases = {
        "cannot be larger than srcImageSize": replace(good, load_start_pos_w=10),
        "must be even for YUV420SP_U8": replace(good, load_start_pos_w=2, load_start_pos_h=1),
        "aipp output shape set by ACL must be equal": replace(good, crop_size_w=14),
        r"\[Check\]\[cropSizeW\]param:\[5000\]": replace(good, crop_size_w=5000),
        "bigger than max_src_image_size": _params(
            "YUV420SP_U8", 40, 40, crop=True, crop_size_w=16, crop_size_h=16
        ),
        "dtcPixelMeanChn0": replace(good, mean_chn=(300, 0, 0)),
        "YUV400 or raw not support csc switch": _params(
            "YUV400_U8",
            20,
            24,
            crop=True,
            crop_size_w=16,
            crop_size_h=16,
            csc_switch=True,
            matrix=YUV_TO_RGB_JPEG,
        ),
    }
    for reason, params in cases.items():
        with pytest.raises(AippError, match=reason):
            model(frame, params.to_tensor())
    bad = good.to_tensor()
    bad[1, 3] = 15.5
    with pytest.raises(AippError, match="is not an integer"):
        model(frame, bad)
    bad = good.to_tensor()
    bad[0, 23] = 1
    with pytest.raises(AippError, match="reserved column must be 0"):
        model(frame, bad)
    with pytest.raises(AippError, match="float32 \\(2, 24\\)"):
        model(frame, good.to_tensor(2))
    with pytest.raises(AippError, match="no default CSC matrix"):
        _params("YUV420SP_U8", 20, 24, csc_switch=True)
    with pytest.raises(AippError, match="smaller than the frame"):
        with_aipp(
            Classifier(), DynamicAipp("RGB888_U8", 24, 20, max_src_image_size=100), (1, 3, 16, 16)
        )
    with pytest.raises(AippError, match="must be even for YUV420SP_U8"):
        with_aipp(Classifier(), DynamicAipp("YUV420SP_U8", 24, 19), (1, 3, 16, 16))


def _dynamic_program(model: torch.nn.Module, frame: torch.Tensor, params: torch.Tensor):
    lowering = lower(model, (frame, params), AscendCompileSpec(toolchain="emulator"))
    assert lowering.summary.partitions == 1 and not lowering.summary.cpu_ops, lowering.summary
    # The program's inputs: the uint8 frame and the float32 parameter tensor.
    program = lowering.program.exported_program()
    vals = {n.name: n.meta["val"] for n in program.graph.nodes if n.op == "placeholder"}
    user = [vals[name] for name in program.graph_signature.user_inputs]
    assert [(v.dtype, tuple(v.shape)) for v in user] == [
        (torch.uint8, tuple(frame.shape)),
        (torch.float32, tuple(params.shape)),
    ]
    return lowering.program.buffer


@pytest.mark.emulator
def test_dynamic_rgb_two_parameter_sets_match_pytorch(native, tmp_path) -> None:
    # One .om, a 20x24 BGR camera frame; call 1 crops at (4, 2) with ImageNet normalisation
    # and the BGR swap, call 2 crops at (8, 0), no swap, another normalisation.
    classifier = Classifier().eval()
    model = with_aipp(classifier, DynamicAipp("RGB888_U8", 24, 20), (1, 3, 16, 16)).eval()
    gen = torch.Generator().manual_seed(5)
    bgr = torch.randint(0, 256, model.frame_shape(), dtype=torch.uint8, generator=gen)
    crop = dict(crop=True, crop_size_w=16, crop_size_h=16)
    first = _params(
        "RGB888_U8",
        20,
        24,
        load_start_pos_w=4,
        load_start_pos_h=2,
        rbuv_swap_switch=True,
        mean_chn=MEAN_CHN,
        min_chn=MIN_CHN,
        var_reci_chn=VAR_RECI,
        **crop,
    )
    second = _params(
        "RGB888_U8",
        20,
        24,
        load_start_pos_w=8,
        load_start_pos_h=0,
        mean_chn=(128, 128, 128),
        var_reci_chn=(1 / 64, 1 / 64, 1 / 64),
        **crop,
    )
    pte = _dynamic_program(model, bgr, first.to_tensor())
    pytorch = {
        # PyTorch's own pre-processing: crop, BGR -> RGB, (x / 255 - mean) / std ...
        0: normalise(bgr[:, 2:18, 4:20, :].flip(-1)),
        # ... and crop, (x - 128) / 64.
        1: (bgr[:, 0:16, 8:24, :].permute(0, 3, 1, 2).to(torch.float32) - 128) / 64,
    }
    outs = []
    for k, params in enumerate((first.to_tensor(), second.to_tensor())):
        (got,) = run_with_runtime(pte, [bgr, params])
        with torch.no_grad():
            eager = model(bgr, params)
            want = classifier(pytorch[k])
        # The emulator's AIPP step is bit-exact to the eager op; the rest is the float model.
        torch.testing.assert_close(got, eager, rtol=0, atol=1e-5 * float(eager.abs().max()))
        # AIPP's float16 (test_rgb_frames_match_pytorch_preprocessing): 0.2% of the logits.
        torch.testing.assert_close(got, want, rtol=0, atol=2e-3 * float(want.abs().max()))
        outs.append(got)
        # ascend_runner feeds the same two inputs from files.
        from executorch_ascend.run import run_with_runner

        pte_file = tmp_path / "dynamic.pte"
        pte_file.write_bytes(pte)
        (runner,) = run_with_runner(pte_file, [bgr, params], [eager], tmp_path / f"runner{k}")
        torch.testing.assert_close(runner, got, rtol=0, atol=0)
    assert not torch.allclose(outs[0], outs[1])  # the parameters did change per call


@pytest.mark.emulator
def test_dynamic_yuv420sp_two_parameter_sets_match_pytorch(native) -> None:
    # An NV12 frame 24x20 (H x W). Call 1: crop 16x16 at (2, 4), JPEG CSC, ImageNet
    # normalisation. Call 2: crop 16x14 at (4, 8), padded 1 row top and bottom, the same CSC,
    # normalised to (x - 128) / 128.
    h, w = 24, 20
    classifier = Classifier().eval()
    model = with_aipp(classifier, DynamicAipp("YUV420SP_U8", w, h), (1, 3, 16, 16)).eval()
    gen = torch.Generator().manual_seed(6)
    nv12 = torch.empty(model.frame_shape(), dtype=torch.uint8)
    nv12[:, :h] = torch.randint(40, 220, (1, h, w, 1), generator=gen, dtype=torch.uint8)
    nv12[:, h:] = torch.randint(90, 166, (1, h // 2, w, 1), generator=gen, dtype=torch.uint8)
    csc = dict(csc_switch=True, matrix=YUV_TO_RGB_JPEG, input_bias=(0, 128, 128))
    first = _params(
        "YUV420SP_U8",
        h,
        w,
        crop=True,
        load_start_pos_w=2,
        load_start_pos_h=4,
        crop_size_w=16,
        crop_size_h=16,
        mean_chn=MEAN_CHN,
        min_chn=MIN_CHN,
        var_reci_chn=VAR_RECI,
        **csc,
    )
    second = _params(
        "YUV420SP_U8",
        h,
        w,
        crop=True,
        load_start_pos_w=4,
        load_start_pos_h=8,
        crop_size_w=16,
        crop_size_h=14,
        padding=True,
        top_padding_size=1,
        bottom_padding_size=1,
        mean_chn=(128, 128, 128),
        var_reci_chn=(1 / 128, 1 / 128, 1 / 128),
        **csc,
    )
    pte = _dynamic_program(model, nv12, first.to_tensor())
    rgb = nv12_to_rgb(nv12, h, w).permute(0, 3, 1, 2)
    mean, std = torch.tensor(MEAN).view(1, 3, 1, 1), torch.tensor(STD).view(1, 3, 1, 1)
    pytorch = {
        0: (rgb[:, :, 4:20, 2:18] / 255 - mean) / std,
        # AIPP pads after normalising: the rows it adds hold 0 (docs/aipp.md).
        1: torch.nn.functional.pad((rgb[:, :, 8:22, 4:20] - 128) / 128, (0, 0, 1, 1)),
    }
    for k, params in enumerate((first.to_tensor(), second.to_tensor())):
        (got,) = run_with_runtime(pte, [nv12, params])
        with torch.no_grad():
            eager = model(nv12, params)
            x = torch.ops.ascend.aipp_dynamic(nv12, params, model.config.to_json())
            want = classifier(pytorch[k])
        torch.testing.assert_close(got, eager, rtol=0, atol=1e-5 * float(eager.abs().max()))
        # CANN's integer CSC is within 1.2 levels of 255 of PyTorch's float one
        # (test_yuv420sp_frames_match_pytorch_conversion), then float16.
        assert float((x - pytorch[k]).abs().max()) <= 1.2 / (255 * min(STD)) + 2**-10 * 3
        torch.testing.assert_close(got, want, rtol=0, atol=1e-2 * float(want.abs().max()))


@pytest.mark.emulator
def test_dynamic_bad_parameters_give_a_clean_error(native, capfd) -> None:
    model = with_aipp(Classifier().eval(), DynamicAipp("RGB888_U8", 24, 20), (1, 3, 16, 16))
    frame = torch.zeros(model.frame_shape(), dtype=torch.uint8)
    good = _params("RGB888_U8", 20, 24, crop=True, crop_size_w=16, crop_size_h=16)
    pte = _dynamic_program(model.eval(), frame, good.to_tensor())
    run_with_runtime(pte, [frame, good.to_tensor()])
    capfd.readouterr()
    # CANN's setter refuses a crop size outside [1, 4096]; the eager op says the same.
    bad = good.to_tensor()
    bad[1, 3] = 5000
    with pytest.raises(RuntimeError):
        run_with_runtime(pte, [frame, bad])
    err = capfd.readouterr().err
    assert "aclmdlSetAIPPCropParams failed with 100000" in err, err
    assert "[Check][cropSizeW]param:[5000] must be in range of [1] and [4096]" in err, err
    with pytest.raises(AippError, match="cropSizeW"):
        model(frame, bad)
    # aclmdlSetInputAIPP checks the crop against the image and the model's H and W.
    outside = replace(good, load_start_pos_w=10).to_tensor()
    with pytest.raises(RuntimeError):
        run_with_runtime(pte, [frame, outside])
    assert "cannot be larger than srcImageSizeW" in capfd.readouterr().err
    # Not an integer: refused before any ACL call.
    half = good.to_tensor()
    half[1, 1] = 0.5
    with pytest.raises(RuntimeError):
        run_with_runtime(pte, [frame, half])
    assert "load_start_pos_w = 0.5 is not an integer" in capfd.readouterr().err
    # The same program still runs good parameters afterwards.
    (got,) = run_with_runtime(pte, [frame, good.to_tensor()])
    with torch.no_grad():
        want = model(frame, good.to_tensor())
    torch.testing.assert_close(got, want, rtol=0, atol=1e-5 * float(want.abs().max()))
