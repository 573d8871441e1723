# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The dtype groups the converters accept, one definition each for every op family."""

from __future__ import annotations

import torch

# fp16 and bf16 end to end: the emulator stores 16-bit floats and computes in float, like the
# NPU. bf16 is accepted wherever float16 is (CANN lists bf16 for these ops on Ascend910B and
# later); ConvTranspose is the one exception (conv.py). SoCs without bf16 (Ascend310P) are
# refused per node by the partitioner (soc_dtypes.py).
FLOATS = (torch.float32, torch.float16, torch.bfloat16)
INTS = (torch.int32, torch.int64)
# Arithmetic also takes int32/int64 (the kernels wrap on overflow, like PyTorch).
NUMERIC = (*FLOATS, *INTS)
# Reshape, Transpose, Concat, Expand, Tile, Slice, Gather, Split and Identity move elements by
# size: every dtype the emulator stores, so integer and bool tensors stay on the device too.
MOVABLE = (*FLOATS, torch.int64, torch.int32, torch.bool)
