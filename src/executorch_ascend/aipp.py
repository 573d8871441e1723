# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AIPP: CANN's image pre-processing on the NPU, asked for in the model itself.

`with_aipp(model, AippConfig(...), input_shape)` puts `torch.ops.ascend.aipp` in front of the
model's image input: the exported program's input is then the raw uint8 frame (NHWC RGB888_U8,
YUV400_U8, or YUV420SP_U8 as [N, H*3/2, W, 1]), and the lowering makes the delegated partition's
ONNX input the AIPP output (float NCHW, as real atc expects) and hands atc the config as
`--insert_op_conf` (CANN's text format, `AippConfig.to_prototext`), so the .om's input is the frame.

The op's eager CPU implementation is CANN's AIPP arithmetic, the reference the emulator is tested
against (docs/aipp.md names the CANN source of every step): channel swap, crop, colour-space
conversion `clamp((M @ (p - input_bias)) >> 8)` (YUV input) or `clamp((M @ p) >> 8 +
output_bias)` (RGB input), `(p - mean_chn - min_chn) * var_reci_chn` rounded to float16, padding.

Dynamic AIPP (`with_aipp(model, DynamicAipp(...), input_shape)`): the program takes the frame and
a small float32 parameter tensor per call (`DynamicAippParams(...).to_tensor()`, layout below);
atc gets `aipp_mode: dynamic`, the .om gets CANN's extra input `ascend_dynamic_aipp_data`, and
the backend turns the tensor into CANN's aclmdlSetAIPP* calls and aclmdlSetInputAIPP before each
execute. The eager op runs the same arithmetic (`aipp_reference`, per image).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, replace
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


def _f16(x: float) -> float:
    return float(torch.tensor(x, dtype=torch.float32).to(torch.float16))


def aipp_reference(frame: torch.Tensor, config: AippConfig, channels: int) -> torch.Tensor:
    """CANN's static AIPP on a uint8 frame (a resolved config): float32 [N, channels, H', W'],
    every value a float16 (docs/aipp.md, step by step)."""
    cfg = config
    n = frame.shape[0]
    h, w = cfg.src_image_size_h, cfg.src_image_size_w
    if tuple(frame.shape) != cfg.frame_shape(n) or frame.dtype != torch.uint8:
        raise AippError(
            f"the frame is {frame.dtype} {tuple(frame.shape)}; the config takes uint8 "
            f"{cfg.frame_shape(n)}"
        )
    f = frame.to(torch.int64)
    yuv = cfg.input_format == "YUV420SP_U8"
    if cfg.input_format == "RGB888_U8":
        px = f
        if cfg.rbuv_swap_switch:
            px = px[..., [2, 1, 0]]
    elif yuv:
        y = f[:, :h, :, 0]
        uv = f[:, h:, :, 0].reshape(n, h // 2, w // 2, 2)
        uv = uv.repeat_interleave(2, dim=1).repeat_interleave(2, dim=2)
        u, v = uv[..., 0], uv[..., 1]
        if cfg.rbuv_swap_switch:
            u, v = v, u
        px = torch.stack([y, u, v], dim=-1)
    else:
        px = torch.cat([f, torch.zeros_like(f), torch.zeros_like(f)], dim=-1)
    y0, x0 = cfg.load_start_pos_h, cfg.load_start_pos_w
    px = px[:, y0 : y0 + cfg.crop_size_h, x0 : x0 + cfg.crop_size_w, :]
    if cfg.csc_switch:
        m = cfg.matrix or (_DEFAULT_YUV2BGR if yuv else _DEFAULT_RGB2YUV)
        ib = cfg.input_bias or (16, 128, 128)
        ob = cfg.output_bias or (16, 128, 128)
        rows = []
        for i in range(3):
            if yuv:
                s = sum(m[i][j] * (px[..., j] - ib[j]) for j in range(3))
                rows.append(torch.div(s, 256, rounding_mode="floor").clamp(0, 255))
            else:
                s = sum(m[i][j] * px[..., j] for j in range(3))
                rows.append((torch.div(s, 256, rounding_mode="floor") + ob[i]).clamp(0, 255))
        px = torch.stack(rows, dim=-1)
    mean = torch.tensor(cfg.mean_chn[:channels], dtype=torch.int64)
    mins = torch.tensor([_f16(v) for v in cfg.min_chn[:channels]], dtype=torch.float32)
    var = torch.tensor([_f16(v) for v in cfg.var_reci_chn[:channels]], dtype=torch.float32)
    d = (px[..., :channels] - mean).to(torch.float32) - mins
    out = (d * var).to(torch.float16).to(torch.float32).permute(0, 3, 1, 2)
    t, b, left, r = (
        cfg.top_padding_size,
        cfg.bottom_padding_size,
        cfg.left_padding_size,
        cfg.right_padding_size,
    )
    if t or b or left or r:
        full = torch.full(
            (n, channels, cfg.crop_size_h + t + b, cfg.crop_size_w + left + r),
            _f16(cfg.padding_value),
            dtype=torch.float32,
        )
        full[:, :, t : t + cfg.crop_size_h, left : left + cfg.crop_size_w] = out
        out = full
    return out.contiguous()


@torch.library.custom_op("ascend::aipp", mutates_args=())
def aipp(frame: torch.Tensor, config: str, channels: int) -> torch.Tensor:
    """CANN's static AIPP (`config`: a resolved AippConfig as JSON) on a uint8 frame."""
    return aipp_reference(frame, AippConfig.from_json(config), channels)


@aipp.register_fake
def _(frame: torch.Tensor, config: str, channels: int) -> torch.Tensor:
    cfg = AippConfig.from_json(config)
    oh = cfg.crop_size_h + cfg.top_padding_size + cfg.bottom_padding_size
    ow = cfg.crop_size_w + cfg.left_padding_size + cfg.right_padding_size
    return frame.new_empty((frame.shape[0], channels, oh, ow), dtype=torch.float32)


#: The op as it appears in exported graphs.
AIPP_OP = torch.ops.ascend.aipp.default


class AippModel(torch.nn.Module):
    """`model` with CANN's static AIPP in front of its first input: forward(frame, *rest)."""

    def __init__(self, model: torch.nn.Module, config: AippConfig, channels: int) -> None:
        super().__init__()
        self.model = model
        self.config = config
        self.channels = channels
        self._json = config.to_json()

    def frame_shape(self, batch: int = 1) -> tuple[int, int, int, int]:
        return self.config.frame_shape(batch)

    def forward(self, frame: torch.Tensor, *rest: torch.Tensor) -> torch.Tensor:
        x = torch.ops.ascend.aipp(frame, self._json, self.channels)
        return self.model(x, *rest)


def with_aipp(
    model: torch.nn.Module, config: AippConfig | DynamicAipp, input_shape: tuple[int, ...]
) -> AippModel | DynamicAippModel:
    """`model` (whose first input is a float32 [N, C, H, W] image, `input_shape`) fed by CANN's
    AIPP: the returned module takes the raw uint8 frame (`.frame_shape(N)`), and with a
    `DynamicAipp` config also the per-call parameter tensor (`DynamicAippParams.to_tensor`).
    Exported and lowered for Ascend, the AIPP runs in the .om (atc --insert_op_conf); in eager
    PyTorch it runs CANN's arithmetic on the CPU. Raises AippError when CANN would refuse the
    config."""
    if isinstance(config, DynamicAipp):
        return DynamicAippModel(model, config.resolve(tuple(input_shape)))
    resolved = config.resolve(tuple(input_shape))
    return AippModel(model, resolved, int(input_shape[1]))


@dataclass(frozen=True)
class AippInput:
    """A lowered partition input that atc's AIPP computes: ONNX input `index` is the AIPP
    output; `config` the resolved config (lowering/lowered_graph.py)."""

    index: int
    config: AippConfig = field(compare=False)


def why_unsupported(node: torch.fx.Node) -> str | None:
    """The partitioner's rule for an ascend.aipp (or ascend.aipp_dynamic) node: it must read a
    graph input (the frame) that nothing else reads, since atc's AIPP replaces a model input;
    a dynamic one's parameter tensor too, since it becomes CANN's AIPP data input."""
    dynamic = len(node.args) == 3 and isinstance(node.args[1], torch.fx.Node)
    op = "ascend.aipp_dynamic" if dynamic else "ascend.aipp"
    inputs = (("the uint8 frame", node.args[0] if node.args else None),) + (
        (("the parameter tensor", node.args[1]),) if dynamic else ()
    )
    for what, src in inputs:
        if not isinstance(src, torch.fx.Node) or src.op != "placeholder":
            return f"{op} must read a program input ({what}) directly"
        if len(src.users) != 1:
            return f"{op}'s input ({what}) is also read by other ops"
    try:
        if dynamic:
            DynamicAipp.from_json(str(node.args[2]))
        else:
            AippConfig.from_json(str(node.args[1]))
    except (AippError, TypeError, ValueError, KeyError) as e:
        return f"{op}'s config: {e}"
    return None


def aipp_config_text(inputs: tuple[tuple[int, str], ...]) -> str | None:
    """The --insert_op_conf file for a lowered partition's AIPP inputs (LoweredGraph.aipp):
    one aipp_op block per input (static or dynamic), or None without any."""
    if not inputs:
        return None
    return "".join(config_from_json(cfg).to_prototext(index) for index, cfg in inputs)


def config_from_json(text: str) -> AippConfig | DynamicAipp:
    """A config as the lowering keeps it (AippConfig.to_json or DynamicAipp.to_json)."""
    if json.loads(text).get("aipp_mode") == "dynamic":
        return DynamicAipp.from_json(text)
    return AippConfig.from_json(text)


# ---- dynamic AIPP ------------------------------------------------------------------------

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
