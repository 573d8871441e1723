"""Kernel windows, shared by conv and pool: ONNX's pads and CANN's window limits."""

from __future__ import annotations

from collections.abc import Sequence


def onnx_pads(padding: Sequence[int]) -> list[int]:
    # ONNX pads are [begin_1, .., begin_n, end_1, .., end_n]; PyTorch pads symmetrically.
    return [*padding, *padding]


def cann_window_limits(
    k: Sequence[int], s: Sequence[int], d: Sequence[int], p: Sequence[int], width: int
) -> str | None:
    """CANN's Conv/pool window limits; `width` is the last input dim (1-D runs as H = 1)."""
    if not all(1 <= v <= 255 for v in k):
        return f"kernel {list(k)} outside CANN's [1, 255]"
    if not all(1 <= v <= 63 for v in s):
        return f"stride {list(s)} outside CANN's [1, 63]"
    if not all(1 <= v <= 255 for v in d):
        return f"dilation {list(d)} outside CANN's [1, 255]"
    if not all(0 <= v <= 255 for v in p):
        return f"padding {list(p)} outside CANN's [0, 255]"
    if not 1 <= width <= 4096:
        return f"input width {width} outside CANN's [1, 4096]"
    return None
