# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A static AIPP config as CANN reads it (`atc --insert_op_conf`, one `aipp_op` block): its
fields, defaults and checks, read from and written to CANN's text format (docs/aipp.md)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import torch

#: AIPP input formats the emulator runs (CANN's static AIPP also takes XRGB8888_U8).
FORMATS = ("YUV420SP_U8", "RGB888_U8", "YUV400_U8")
#: insert_op.proto's InputFormat values, by name (the ones CANN's static AIPP takes).
_FORMAT_VALUES = {"YUV420SP_U8": 1, "XRGB8888_U8": 2, "RGB888_U8": 3, "YUV400_U8": 4}

Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]

#: CANN's CSC presets (AIPP guide, CSC_config.md): YUV420SP_U8 to RGB for JPEG (BT-601 wide)
#: frames, with input_bias (0, 128, 128); and BT-601 narrow (video), with (16, 128, 128).
YUV_TO_RGB_JPEG: Matrix = ((256, 0, 359), (256, -88, -183), (256, 454, 0))
YUV_TO_RGB_BT601_NARROW: Matrix = ((298, 0, 409), (298, -100, -208), (298, 516, 0))
# aipp_op.cc SetCscDefaultValue: the matrix when csc_switch is on and none is given.
_DEFAULT_YUV2BGR: Matrix = ((298, 516, 0), (298, -100, -208), (298, 0, 409))
_DEFAULT_RGB2YUV: Matrix = ((66, 129, 25), (-38, -74, 112), (112, -94, -18))


class AippError(ValueError):
    """An AIPP config CANN refuses, or that does not fit the model input."""


@dataclass(frozen=True)
class AippConfig:
    """One static `aipp_op` of CANN's AIPP config (insert_op.proto's AippOpParams).

    Fields left at their defaults are CANN's defaults: no crop and `src_image_size` 0 mean the
    model input's H and W; with `csc_switch` and no `matrix`, CANN's default matrix and biases
    (16, 128, 128); `var_reci_chn` 1.0."""

    input_format: str
    src_image_size_w: int = 0
    src_image_size_h: int = 0
    crop: bool = False
    load_start_pos_w: int = 0
    load_start_pos_h: int = 0
    crop_size_w: int = 0
    crop_size_h: int = 0
    csc_switch: bool = False
    rbuv_swap_switch: bool = False
    matrix: Matrix | None = None
    input_bias: tuple[int, int, int] | None = None
    output_bias: tuple[int, int, int] | None = None
    mean_chn: tuple[int, ...] = (0, 0, 0, 0)
    min_chn: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
    var_reci_chn: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0)
    padding: bool = False
    top_padding_size: int = 0
    bottom_padding_size: int = 0
    left_padding_size: int = 0
    right_padding_size: int = 0
    padding_value: float = 0.0

    def __post_init__(self) -> None:
        if self.input_format not in _FORMAT_VALUES:
            raise AippError(
                f"input_format {self.input_format!r} is not one CANN's static AIPP takes "
                f"({', '.join(_FORMAT_VALUES)})"
            )
        if self.input_format not in FORMATS:
            raise AippError(f"input_format {self.input_format} is not emulated ({FORMATS})")
        for name in ("mean_chn", "min_chn", "var_reci_chn"):
            values = tuple(getattr(self, name))
            if not 1 <= len(values) <= 4:
                raise AippError(f"{name} has 1 to 4 values, got {values}")
            pad = (0,) if name == "mean_chn" else (0.0,) if name == "min_chn" else (1.0,)
            object.__setattr__(self, name, values + pad * (4 - len(values)))

    # ---- CANN's text format --------------------------------------------------------------

    def to_prototext(self, related_input_rank: int = 0) -> str:
        """The config as CANN's atc reads it (`--insert_op_conf`): one `aipp_op` block, every
        field this config sets."""
        lines = ["aipp_op {", "  aipp_mode: static"]
        if related_input_rank:
            lines.append(f"  related_input_rank: {related_input_rank}")
        lines.append(f"  input_format: {self.input_format}")

        def put(name: str, value: object) -> None:
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, float):
                text = repr(value)
            else:
                text = str(value)
            lines.append(f"  {name}: {text}")

        for name in ("src_image_size_w", "src_image_size_h"):
            if getattr(self, name):
                put(name, getattr(self, name))
        put("crop", self.crop)
        if self.crop:
            for name in ("load_start_pos_w", "load_start_pos_h", "crop_size_w", "crop_size_h"):
                put(name, getattr(self, name))
        put("csc_switch", self.csc_switch)
        put("rbuv_swap_switch", self.rbuv_swap_switch)
        if self.matrix is not None:
            for r in range(3):
                for c in range(3):
                    put(f"matrix_r{r}c{c}", self.matrix[r][c])
        for name in ("input_bias", "output_bias"):
            bias = getattr(self, name)
            if bias is not None:
                for k in range(3):
                    put(f"{name}_{k}", bias[k])
        for k in range(4):
            put(f"mean_chn_{k}", self.mean_chn[k])
            put(f"min_chn_{k}", float(self.min_chn[k]))
            put(f"var_reci_chn_{k}", float(self.var_reci_chn[k]))
        put("padding", self.padding)
        if self.padding:
            for side in ("top", "bottom", "left", "right"):
                put(f"{side}_padding_size", getattr(self, f"{side}_padding_size"))
            put("padding_value", float(self.padding_value))
        lines.append("}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_prototext(cls, text: str) -> AippConfig:
        """Reads a CANN AIPP config file's one static `aipp_op` block (the emulator's atc reads
        the same text with protobuf's rules, emulator/atc/src/aipp_config.cc)."""
        body = re.sub(r"#[^\n]*", "", text)
        blocks = re.findall(r"aipp_op\s*:?\s*\{([^}]*)\}", body)
        if len(blocks) != 1:
            raise AippError(f"expected one aipp_op block, found {len(blocks)}")
        fields: dict[str, list[str]] = {}
        for name, value in re.findall(r"(\w+)\s*:\s*([^\s,;]+)", blocks[0]):
            fields.setdefault(name, []).append(value)
        mode = fields.pop("aipp_mode", ["undefined"])[0]
        if mode != "static":
            raise AippError(
                f"aipp_mode {mode}: AippConfig is a static block (dynamic AIPP: DynamicAipp)"
            )
        fields.pop("related_input_rank", None)

        def one(name: str, default: str | None = None) -> str | None:
            values = fields.pop(name, None)
            if values is None:
                return default
            if len(values) > 1:
                raise AippError(f"The parameter {name} cannot be configured repeatedly")
            return values[0]

        def flag(name: str) -> bool:
            return one(name, "false") in ("true", "True", "t", "1")

        def ints(names: list[str]) -> tuple[int, ...] | None:
            got = [one(n) for n in names]
            if all(g is None for g in got):
                return None
            return tuple(int(g, 0) if g is not None else 0 for g in got)

        kwargs: dict[str, object] = {"input_format": one("input_format", "UNDEFINED")}
        for name in (
            "src_image_size_w",
            "src_image_size_h",
            "load_start_pos_w",
            "load_start_pos_h",
            "crop_size_w",
            "crop_size_h",
            "top_padding_size",
            "bottom_padding_size",
            "left_padding_size",
            "right_padding_size",
        ):
            kwargs[name] = int(one(name, "0") or "0", 0)
        for name in ("crop", "csc_switch", "rbuv_swap_switch", "padding"):
            kwargs[name] = flag(name)
        kwargs["padding_value"] = float(str(one("padding_value", "0")).rstrip("fF"))
        m = ints([f"matrix_r{r}c{c}" for r in range(3) for c in range(3)])
        kwargs["matrix"] = None if m is None else (m[0:3], m[3:6], m[6:9])
        kwargs["input_bias"] = ints([f"input_bias_{k}" for k in range(3)])
        kwargs["output_bias"] = ints([f"output_bias_{k}" for k in range(3)])
        kwargs["mean_chn"] = tuple(int(one(f"mean_chn_{k}", "0") or "0", 0) for k in range(4))
        kwargs["min_chn"] = tuple(
            float(str(one(f"min_chn_{k}", "0")).rstrip("fF")) for k in range(4)
        )
        kwargs["var_reci_chn"] = tuple(
            float(str(one(f"var_reci_chn_{k}", "1")).rstrip("fF")) for k in range(4)
        )
        for reserved in ("resize", "support_rotation", "single_line_mode"):
            if flag(reserved):
                raise AippError(f"{reserved} is a reserved AIPP field CANN does not support")
        flag("ax_swap_switch")  # swaps an alpha channel: none in the formats emulated
        if fields:
            raise AippError(f"fields this reader does not take: {', '.join(sorted(fields))}")
        return cls(**kwargs)  # type: ignore[arg-type]

    @classmethod
    def from_file(cls, path: str | Path) -> AippConfig:
        return cls.from_prototext(Path(path).read_text())

    # ---- fitting the config to the model input -------------------------------------------

    def resolve(self, input_shape: tuple[int, ...] | torch.Size) -> AippConfig:
        """This config with every size explicit for a model input [N, C, H, W] (CANN's
        defaults and checks: ge aipp_op.cc, the Aipp op's InferShape and TBE checks,
        docs/aipp.md). Raises AippError with CANN's reason when it does not fit."""
        if len(input_shape) != 4:
            raise AippError(f"AIPP needs a 4-D NCHW model input, got {tuple(input_shape)}")
        _, c, h, w = (int(d) for d in input_shape)
        channels = 1 if self.input_format == "YUV400_U8" else 3
        if not 1 <= c <= channels:
            raise AippError(
                f"a model input of {c} channels after {self.input_format} AIPP "
                f"({channels} channels) is not emulated"
            )
        if (self.crop or self.padding) and (
            self.src_image_size_w <= 0 or self.src_image_size_h <= 0
        ):
            raise AippError(
                "when crop or padding is enable, src_image_size_w and src_image_size_h should > 0!"
            )
        src_w, src_h = self.src_image_size_w, self.src_image_size_h
        if self.crop:
            crop_h = self.crop_size_h or h
            crop_w = self.crop_size_w or w
            if (not self.crop_size_h or not self.crop_size_w) and self.padding:
                raise AippError(
                    "when crop_size_h == 0 or crop_size_w == 0, resize and padding should be "
                    "not enable!"
                )
            y0, x0 = self.load_start_pos_h, self.load_start_pos_w
        else:
            src_h, src_w = src_h or h, src_w or w
            crop_h, crop_w, y0, x0 = src_h, src_w, 0, 0
        if not (2 <= src_w <= 4096 and 1 <= src_h <= 4096):
            raise AippError(
                f"the image is {src_h}x{src_w}: CANN takes w in [2, 4096], h in [1, 4096]"
            )
        yuv = self.input_format == "YUV420SP_U8"
        if yuv and (src_h % 2 or src_w % 2):
            raise AippError(f"originalImageSize should be even for YUV420SP_U8! ({src_h}x{src_w})")
        if y0 < 0 or x0 < 0:
            raise AippError("Load_start_pos must not be configured smaller than 0")
        if y0 + crop_h > src_h:
            raise AippError(
                "when crop is enable, load_start_pos_h + crop_size_h should <= src_image_size_h! "
                f"({y0} + {crop_h} > {src_h})"
            )
        if x0 + crop_w > src_w:
            raise AippError(
                "when crop is enable, load_start_pos_w + crop_size_w should <= src_image_size_w! "
                f"({x0} + {crop_w} > {src_w})"
            )
        if yuv and (y0 % 2 or x0 % 2):
            raise AippError(
                "when input_format is YUV420SP_U8, load_start_pos_w and load_start_pos_h must be "
                f"even! ({x0}, {y0})"
            )
        sides = ("top", "bottom", "left", "right")
        pads = tuple(getattr(self, f"{s}_padding_size") if self.padding else 0 for s in sides)
        if any(not 0 <= p <= 32 for p in pads):
            raise AippError(f"a padding size is outside CANN's range [0, 32]: {pads}")
        oh, ow = crop_h + pads[0] + pads[1], crop_w + pads[2] + pads[3]
        if (oh, ow) != (h, w):
            raise AippError(
                "the data output H and W is not equal with aipp output H and W. "
                f"aipp output_height:{oh}, aipp output_width:{ow}, data's height:{h}, "
                f"data's width:{w}"
            )
        return replace(
            self,
            src_image_size_w=src_w,
            src_image_size_h=src_h,
            crop=True,
            load_start_pos_w=x0,
            load_start_pos_h=y0,
            crop_size_w=crop_w,
            crop_size_h=crop_h,
            padding=self.padding,
            top_padding_size=pads[0],
            bottom_padding_size=pads[1],
            left_padding_size=pads[2],
            right_padding_size=pads[3],
            padding_value=self.padding_value if self.padding else 0.0,
        )

    def frame_shape(self, batch: int = 1) -> tuple[int, int, int, int]:
        """The frame a resolved config takes: [N, H, W, 3] RGB888_U8, [N, H, W, 1] YUV400_U8,
        [N, H*3/2, W, 1] YUV420SP_U8 (NV12: the Y plane, then interleaved U, V rows)."""
        h, w = self.src_image_size_h, self.src_image_size_w
        if self.input_format == "YUV420SP_U8":
            return (batch, h * 3 // 2, w, 1)
        return (batch, h, w, 3 if self.input_format == "RGB888_U8" else 1)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> AippConfig:
        data = json.loads(text)
        for name in ("matrix",):
            if data.get(name) is not None:
                data[name] = tuple(tuple(row) for row in data[name])
        for name in ("input_bias", "output_bias", "mean_chn", "min_chn", "var_reci_chn"):
            if data.get(name) is not None:
                data[name] = tuple(data[name])
        return cls(**data)
