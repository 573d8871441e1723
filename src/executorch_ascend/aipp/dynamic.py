# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Dynamic AIPP (`aipp_mode: dynamic`): the config atc gets, the per-call parameter tensor and
its checks (CANN's setter limits), and the `ascend::aipp_dynamic` op that runs the static
arithmetic per image (docs/aipp.md, "Dynamic AIPP")."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace

import torch

from .config import (
    FORMATS,
    AippConfig,
    AippError,
    Matrix,
)
from .static import aipp_reference

#: aclAippInputFormat's values (acl_mdl.h), the numbering of the parameter tensor.
ACL_INPUT_FORMATS = {"YUV420SP_U8": 1, "XRGB8888_U8": 2, "RGB888_U8": 3, "YUV400_U8": 4}
#: Columns of the parameter tensor, [1 + N, PARAMS_WIDTH] float32. Row 0 holds the image-wide
#: parameters, row 1 + n those of image n of the batch (CANN's per-image ones). Unused columns
#: are 0.
PARAMS_WIDTH = 24
#: Row 0: input_format (aclAippInputFormat: 1 YUV420SP_U8, 3 RGB888_U8, 4 YUV400_U8),
#: src_image_size_w, src_image_size_h, csc_switch, matrix r0c0..r2c2, output_bias 0..2,
#: input_bias 0..2, rbuv_swap_switch; columns 20.. reserved (0).
HEAD_COLUMNS = (
    "input_format",
    "src_image_size_w",
    "src_image_size_h",
    "csc_switch",
    *(f"matrix_r{r}c{c}" for r in range(3) for c in range(3)),
    *(f"output_bias_{k}" for k in range(3)),
    *(f"input_bias_{k}" for k in range(3)),
    "rbuv_swap_switch",
)
#: Row 1 + n: crop (0/1), load_start_pos_w, load_start_pos_h, crop_size_w, crop_size_h,
#: padding (0/1), top, bottom, left, right padding sizes, mean_chn 0..3, min_chn 0..3,
#: var_reci_chn 0..3; columns 22.. reserved (0).
IMAGE_COLUMNS = (
    "crop",
    "load_start_pos_w",
    "load_start_pos_h",
    "crop_size_w",
    "crop_size_h",
    "padding",
    *(f"{side}_padding_size" for side in ("top", "bottom", "left", "right")),
    *(f"mean_chn_{k}" for k in range(4)),
    *(f"min_chn_{k}" for k in range(4)),
    *(f"var_reci_chn_{k}" for k in range(4)),
)
#: CANN's dynamic AIPP limits (hicann/ge api/acl/acl_model/model/model_common.h and the setters
#: of acl_aipp_om2.cpp; docs/aipp.md).
_CSC_MATRIX_RANGE = (-32677, 32676)
#: The widest padded output on every chip that runs dynamic AIPP except the Ascend310B family
#: (aipp_param_check.cpp GetAippOutputHW; docs/aipp.md). The eager op, which does not know the
#: chip, applies it everywhere: stricter than CANN on Ascend310B only.
_PADDED_WIDTH_MAX = 1080


def _image_bytes(input_format: str, h: int, w: int) -> int:
    """One image's bytes in the frame (CANN's GetSrcImageSize)."""
    per2 = {"YUV420SP_U8": 3, "XRGB8888_U8": 8, "RGB888_U8": 6, "YUV400_U8": 2}[input_format]
    return per2 * h * w // 2


@dataclass(frozen=True)
class DynamicAipp:
    """Dynamic AIPP (CANN's `aipp_mode: dynamic`) for the model's image input: the frame the
    program takes (format and size) and `max_src_image_size`, the frame bytes atc reserves
    (0: the frame's own, N * image bytes). The pre-processing itself (crop, CSC,
    normalisation, padding) is a per-call parameter tensor (`DynamicAippParams`).

    `resolve` fills in the model input it feeds (batch, channels, height, width)."""

    input_format: str
    src_image_size_w: int
    src_image_size_h: int
    max_src_image_size: int = 0
    batch: int = 0
    channels: int = 0
    height: int = 0
    width: int = 0

    def __post_init__(self) -> None:
        if self.input_format not in FORMATS:
            raise AippError(
                f"input_format {self.input_format!r}: the emulator runs {', '.join(FORMATS)}"
            )

    def resolve(self, input_shape: tuple[int, ...] | torch.Size) -> DynamicAipp:
        """This config fitted to a model input [N, C, H, W] (CANN's checks, docs/aipp.md)."""
        if len(input_shape) != 4:
            raise AippError(f"AIPP needs a 4-D NCHW model input, got {tuple(input_shape)}")
        n, c, h, w = (int(d) for d in input_shape)
        if not 1 <= c <= 3:
            raise AippError(f"a model input of {c} channels after dynamic AIPP is not emulated")
        if not 1 <= n <= 127:
            raise AippError(f"a dynamic AIPP model input of batch {n} is not emulated (1..127)")
        sw, sh = self.src_image_size_w, self.src_image_size_h
        if not (2 <= sw <= 4096 and 1 <= sh <= 4096):
            raise AippError(f"the frame is {sh}x{sw}: CANN takes w in [2, 4096], h in [1, 4096]")
        if self.input_format == "YUV420SP_U8" and (sh % 2 or sw % 2):
            raise AippError(
                f"srcImageSizeH[{sh}] and srcImageSizeW[{sw}] must be even for YUV420SP_U8!"
            )
        frame = n * _image_bytes(self.input_format, sh, sw)
        size = self.max_src_image_size or frame
        if size < frame:
            raise AippError(f"max_src_image_size {size} is smaller than the frame's {frame} bytes")
        if size > 0xFFFFFFFF:
            raise AippError(f"max_src_image_size {size} is not a uint32")
        return replace(self, max_src_image_size=size, batch=n, channels=c, height=h, width=w)

    def frame_shape(self, batch: int = 1) -> tuple[int, int, int, int]:
        """The frame tensor the program takes, as AippConfig.frame_shape."""
        return AippConfig(
            self.input_format,
            src_image_size_w=self.src_image_size_w,
            src_image_size_h=self.src_image_size_h,
        ).frame_shape(batch)

    def params_shape(self) -> tuple[int, int]:
        """The parameter tensor the program takes: [1 + N, PARAMS_WIDTH] float32."""
        return (1 + self.batch, PARAMS_WIDTH)

    def to_prototext(self, related_input_rank: int = 0) -> str:
        """The block CANN's atc reads: the mode, the input, the frame bytes."""
        lines = ["aipp_op {", "  aipp_mode: dynamic"]
        if related_input_rank:
            lines.append(f"  related_input_rank: {related_input_rank}")
        lines += [f"  max_src_image_size: {self.max_src_image_size}", "  support_rotation: false"]
        return "\n".join([*lines, "}"]) + "\n"

    def to_json(self) -> str:
        return json.dumps({"aipp_mode": "dynamic", **asdict(self)}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> DynamicAipp:
        data = json.loads(text)
        if data.pop("aipp_mode", None) != "dynamic":
            raise AippError("not a dynamic AIPP config")
        return cls(**data)


@dataclass(frozen=True)
class DynamicAippParams:
    """One call's dynamic AIPP parameters, CANN's aclmdlSetAIPP* values by the names of the
    static config (AippConfig). No defaults are CANN's here: with `csc_switch`, `matrix` must be
    given, the biases are 0 unless given; `var_reci_chn` starts at 1.0 as aclmdlCreateAIPP
    sets it. `to_tensor(N)` gives every image of the batch these parameters; `stack` one set
    per image (the image-wide fields must agree)."""

    input_format: str
    src_image_size_w: int
    src_image_size_h: int
    crop: bool = False
    load_start_pos_w: int = 0
    load_start_pos_h: int = 0
    crop_size_w: int = 0
    crop_size_h: int = 0
    csc_switch: bool = False
    matrix: Matrix | None = None
    input_bias: tuple[int, int, int] = (0, 0, 0)
    output_bias: tuple[int, int, int] = (0, 0, 0)
    rbuv_swap_switch: bool = False
    mean_chn: tuple[int, ...] = (0, 0, 0, 0)
    min_chn: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
    var_reci_chn: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0)
    padding: bool = False
    top_padding_size: int = 0
    bottom_padding_size: int = 0
    left_padding_size: int = 0
    right_padding_size: int = 0

    def __post_init__(self) -> None:
        if self.input_format not in ACL_INPUT_FORMATS:
            raise AippError(
                f"input_format {self.input_format!r} is not one of {', '.join(ACL_INPUT_FORMATS)}"
            )
        for name, pad in (("mean_chn", 0), ("min_chn", 0.0), ("var_reci_chn", 1.0)):
            values = tuple(getattr(self, name))
            if not 1 <= len(values) <= 4:
                raise AippError(f"{name} has 1 to 4 values, got {values}")
            object.__setattr__(self, name, values + (pad,) * (4 - len(values)))
        if self.csc_switch and self.matrix is None:
            raise AippError("dynamic AIPP has no default CSC matrix: give matrix= with csc_switch")

    def _head(self) -> list[float]:
        m = self.matrix or ((0, 0, 0), (0, 0, 0), (0, 0, 0))
        row = [
            float(ACL_INPUT_FORMATS[self.input_format]),
            float(self.src_image_size_w),
            float(self.src_image_size_h),
            float(self.csc_switch),
            *(float(v) for r in m for v in r),
            *(float(v) for v in self.output_bias),
            *(float(v) for v in self.input_bias),
            float(self.rbuv_swap_switch),
        ]
        return row + [0.0] * (PARAMS_WIDTH - len(row))

    def _image(self) -> list[float]:
        row = [
            float(self.crop),
            float(self.load_start_pos_w),
            float(self.load_start_pos_h),
            float(self.crop_size_w),
            float(self.crop_size_h),
            float(self.padding),
            float(self.top_padding_size),
            float(self.bottom_padding_size),
            float(self.left_padding_size),
            float(self.right_padding_size),
            *(float(v) for v in self.mean_chn),
            *(float(v) for v in self.min_chn),
            *(float(v) for v in self.var_reci_chn),
        ]
        return row + [0.0] * (PARAMS_WIDTH - len(row))

    def to_tensor(self, batch: int = 1) -> torch.Tensor:
        """The parameter tensor, [1 + batch, PARAMS_WIDTH] float32, these parameters for every
        image of the batch."""
        return DynamicAippParams.stack([self] * batch)

    @staticmethod
    def stack(images: list[DynamicAippParams]) -> torch.Tensor:
        """The parameter tensor for a batch, one DynamicAippParams per image."""
        if not images:
            raise AippError("a dynamic AIPP batch has at least one image")
        head = images[0]._head()
        for k, img in enumerate(images[1:], 1):
            if img._head() != head:
                raise AippError(
                    f"image {k}'s image-wide parameters (format, size, CSC, swap) differ from "
                    "image 0's: CANN sets them once per call"
                )
        return torch.tensor([head] + [img._image() for img in images], dtype=torch.float32)


def _int(v: float, name: str, lo: int, hi: int) -> int:
    """An integer field of the parameter tensor, in CANN's range [lo, hi]."""
    if not (v == v and float(v).is_integer()):
        raise AippError(f"{name} {v} is not an integer")
    if not lo <= v <= hi:
        raise AippError(f"[Check][{name}]param:[{int(v)}] must be in range of [{lo}] and [{hi}]")
    return int(v)


def _c_type_range(column: str) -> tuple[int, int]:
    """The range of the C type an integer column is passed to ACL as (runtime/dynamic_aipp.cpp)."""
    if column.startswith("matrix") or column.startswith("mean_chn"):
        return (-32768, 32767)
    if column.endswith("_bias_0") or column.endswith("_bias_1") or column.endswith("_bias_2"):
        return (0, 255)
    if column in ("csc_switch", "rbuv_swap_switch", "crop", "padding"):
        return (-128, 127)
    return (-(2**31), 2**31 - 1)


def _float(v: float, name: str, lo: float, hi: float) -> float:
    if not lo <= v <= hi:  # NaN fails too: CANN would saturate it to 65504
        raise AippError(f"[Check][{name}]param:[{v}] must be in range of [{lo}] and [{hi}]")
    return float(v)


def decode_params(params: torch.Tensor, cfg: DynamicAipp) -> list[AippConfig]:
    """The parameter tensor as one resolved static AippConfig per image, checked as CANN's
    setters and aclmdlSetInputAIPP check them (docs/aipp.md), against the model input `cfg`
    was resolved for; raises AippError with CANN's reason otherwise. The backend makes the same
    checks through the ACL calls (runtime/dynamic_aipp.cpp)."""
    if params.dtype != torch.float32 or tuple(params.shape) != cfg.params_shape():
        raise AippError(
            f"the dynamic AIPP parameters are {params.dtype} {tuple(params.shape)}; the model "
            f"takes float32 {cfg.params_shape()} (DynamicAippParams.to_tensor)"
        )
    rows = params.tolist()
    for r, row in enumerate(rows):
        used = len(HEAD_COLUMNS) if r == 0 else len(IMAGE_COLUMNS)
        if any(v != v or abs(v) == float("inf") for v in row):
            raise AippError(f"dynamic AIPP parameters, row {r}: a value is not a finite number")
        if any(v != 0 for v in row[used:]):
            raise AippError(f"dynamic AIPP parameters, row {r}: a reserved column must be 0")
        # Every integer field an integer of its C type (what the ACL call takes), whether or
        # not its switch makes CANN read it.
        columns = HEAD_COLUMNS if r == 0 else IMAGE_COLUMNS
        for name, v in zip(columns, row, strict=False):
            if r and name.startswith(("min_chn", "var_reci_chn")):
                continue
            _int(v, name, *_c_type_range(name))
    head = dict(zip(HEAD_COLUMNS, rows[0], strict=False))
    fmt_value = _int(head["input_format"], "inputFormat", 1, 14)
    names = {v: k for k, v in ACL_INPUT_FORMATS.items()}
    if fmt_value not in names:
        raise AippError(
            f"arch only support YUV420SP_U8, XRGB8888_U8, RGB888_U8, YUV400_U8, "
            f"inputFormat = {fmt_value}"
        )
    fmt = names[fmt_value]
    if fmt == "XRGB8888_U8":
        raise AippError("XRGB8888_U8 is not emulated")
    csc = _int(head["csc_switch"], "cscSwitch", 0, 1)
    # With csc_switch 0, aclmdlSetAIPPCscParams ignores the rest (acl_aipp_om2.cpp).
    matrix = tuple(
        tuple(
            _int(head[f"matrix_r{r}c{c}"], f"cscMatrixR{r}C{c}", *_CSC_MATRIX_RANGE) if csc else 0
            for c in range(3)
        )
        for r in range(3)
    )
    out_bias = tuple(
        _int(head[f"output_bias_{k}"], f"cscOutputBiasR{k}", 0, 255) if csc else 0 for k in range(3)
    )
    in_bias = tuple(
        _int(head[f"input_bias_{k}"], f"cscInputBiasR{k}", 0, 255) if csc else 0 for k in range(3)
    )
    swap = _int(head["rbuv_swap_switch"], "rbuvSwapSwitch", 0, 1)
    sw = _int(head["src_image_size_w"], "srcImageSizeW", 2, 4096)
    sh = _int(head["src_image_size_h"], "srcImageSizeH", 1, 4096)
    if cfg.batch * _image_bytes(fmt, sh, sw) > cfg.max_src_image_size:
        raise AippError(
            f"the dynamic aipp size[{cfg.batch * _image_bytes(fmt, sh, sw)}] is bigger than "
            f"max_src_image_size[{cfg.max_src_image_size}]"
        )
    if fmt == "YUV400_U8" and csc:
        raise AippError("YUV400 or raw not support csc switch!")
    if fmt == "YUV420SP_U8" and (sw % 2 or sh % 2):
        raise AippError(
            f"srcImageSizeH[{sh}] and srcImageSizeW[{sw}] must be even for YUV420SP_U8!"
        )
    configs = []
    for n, values in enumerate(rows[1:]):
        row = dict(zip(IMAGE_COLUMNS, values, strict=False))
        crop = _int(row["crop"], "cropSwitch", 0, 1)
        x0 = y0 = 0
        cw, ch = sw, sh
        if crop:
            x0 = _int(row["load_start_pos_w"], "cropStartPosW", 0, 4095)
            y0 = _int(row["load_start_pos_h"], "cropStartPosH", 0, 4095)
            cw = _int(row["crop_size_w"], "cropSizeW", 1, 4096)
            ch = _int(row["crop_size_h"], "cropSizeH", 1, 4096)
        pad = _int(row["padding"], "paddingSwitch", 0, 1)
        sides = ("top", "bottom", "left", "right")
        pads = tuple(
            _int(row[f"{s}_padding_size"], f"paddingSize{s.capitalize()}", 0, 32) if pad else 0
            for s in sides
        )
        mean = tuple(_int(row[f"mean_chn_{k}"], f"dtcPixelMeanChn{k}", 0, 255) for k in range(4))
        mins = tuple(
            _float(row[f"min_chn_{k}"], f"dtcPixelMinChn{k}", 0.0, 255.0) for k in range(4)
        )
        var = tuple(
            _float(row[f"var_reci_chn_{k}"], f"dtcPixelVarReciChn{k}", -65504.0, 65504.0)
            for k in range(4)
        )
        ow, oh = cw + pads[2] + pads[3], ch + pads[0] + pads[1]
        if pad and ow > _PADDED_WIDTH_MAX:
            raise AippError(
                f"after padding, aipp output W[{ow}] should be less than or equal to 1080"
            )
        if (ow, oh) != (cfg.width, cfg.height):
            raise AippError(
                "aipp output shape set by ACL must be equal to aipp output shape in the model! "
                f"(image {n}: AclAippOutputW = {ow}, AclAippOutputH = {oh}, "
                f"ModelAippOutputW = {cfg.width}, ModelAippOutputH = {cfg.height})"
            )
        if crop and (x0 + cw > sw or y0 + ch > sh):
            raise AippError(
                f"the sum of cropStartPos and cropSize cannot be larger than srcImageSize "
                f"(image {n}: ({x0}, {y0}) + {cw}x{ch} in {sw}x{sh})"
            )
        if crop and fmt == "YUV420SP_U8" and (x0 % 2 or y0 % 2):
            raise AippError(
                f"cropStartPosW[{x0}], cropStartPosH[{y0}] must be even for YUV420SP_U8!"
            )
        channels = 1 if fmt == "YUV400_U8" else 3
        if cfg.channels > channels:
            raise AippError(
                f"{fmt} gives {channels} channel(s); the model input has {cfg.channels}"
            )
        configs.append(
            AippConfig(
                fmt,
                src_image_size_w=sw,
                src_image_size_h=sh,
                crop=True,
                load_start_pos_w=x0,
                load_start_pos_h=y0,
                crop_size_w=cw,
                crop_size_h=ch,
                csc_switch=bool(csc),
                rbuv_swap_switch=bool(swap),
                matrix=matrix,  # type: ignore[arg-type]
                input_bias=in_bias,  # type: ignore[arg-type]
                output_bias=out_bias,  # type: ignore[arg-type]
                mean_chn=mean,
                min_chn=mins,
                var_reci_chn=var,
                padding=bool(pad),
                top_padding_size=pads[0],
                bottom_padding_size=pads[1],
                left_padding_size=pads[2],
                right_padding_size=pads[3],
                padding_value=0.0,  # no dynamic AIPP call sets one (docs/aipp.md)
            )
        )
    return configs


def dynamic_aipp_reference(
    frame: torch.Tensor, params: torch.Tensor, cfg: DynamicAipp
) -> torch.Tensor:
    """CANN's dynamic AIPP on a uint8 frame: image n is the n-th block of the image size the
    parameters give, from the start of the frame's bytes (as the .om reads its
    [1, max_src_image_size] input); each runs `aipp_reference`."""
    images = decode_params(params, cfg)
    if frame.dtype != torch.uint8:
        raise AippError(f"the frame is {frame.dtype}; dynamic AIPP takes uint8")
    flat = frame.contiguous().reshape(-1)
    outs = []
    for n, img in enumerate(images):
        shape = img.frame_shape(1)
        size = shape[1] * shape[2] * shape[3]
        if (n + 1) * size > flat.numel():
            raise AippError(
                f"the parameters describe {len(images)} image(s) of {size} bytes; the frame "
                f"holds {flat.numel()}"
            )
        outs.append(
            aipp_reference(flat[n * size : (n + 1) * size].reshape(shape), img, cfg.channels)
        )
    return torch.cat(outs, dim=0)


@torch.library.custom_op("ascend::aipp_dynamic", mutates_args=())
def aipp_dynamic(frame: torch.Tensor, params: torch.Tensor, config: str) -> torch.Tensor:
    """CANN's dynamic AIPP (`config`: a resolved DynamicAipp as JSON) on a uint8 frame, with
    this call's parameter tensor (DynamicAippParams.to_tensor)."""
    return dynamic_aipp_reference(frame, params, DynamicAipp.from_json(config))


@aipp_dynamic.register_fake
def _(frame: torch.Tensor, params: torch.Tensor, config: str) -> torch.Tensor:
    cfg = DynamicAipp.from_json(config)
    return frame.new_empty((cfg.batch, cfg.channels, cfg.height, cfg.width), dtype=torch.float32)


#: The dynamic op as it appears in exported graphs.
AIPP_DYNAMIC_OP = torch.ops.ascend.aipp_dynamic.default


class DynamicAippModel(torch.nn.Module):
    """`model` with CANN's dynamic AIPP in front of its first input: forward(frame, params,
    *rest), `params` this call's DynamicAippParams tensor."""

    def __init__(self, model: torch.nn.Module, config: DynamicAipp) -> None:
        super().__init__()
        self.model = model
        self.config = config
        self._json = config.to_json()

    def frame_shape(self, batch: int | None = None) -> tuple[int, int, int, int]:
        return self.config.frame_shape(self.config.batch if batch is None else batch)

    def params_shape(self) -> tuple[int, int]:
        return self.config.params_shape()

    def forward(
        self, frame: torch.Tensor, params: torch.Tensor, *rest: torch.Tensor
    ) -> torch.Tensor:
        x = torch.ops.ascend.aipp_dynamic(frame, params, self._json)
        return self.model(x, *rest)
