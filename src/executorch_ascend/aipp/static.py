# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's static AIPP arithmetic on a uint8 frame (`aipp_reference`, the oracle the emulator is
tested against), the `ascend::aipp` op that runs it in eager PyTorch, and the module that puts it
in front of a model."""

from __future__ import annotations

import torch

from .config import (
    _DEFAULT_RGB2YUV,
    _DEFAULT_YUV2BGR,
    AippConfig,
    AippError,
)


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
