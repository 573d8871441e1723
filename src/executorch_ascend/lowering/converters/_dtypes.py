# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The dtype groups the converters accept, one definition each for every op family."""

from __future__ import annotations

import torch

# fp16 end to end: the emulator stores half and computes in float, like the NPU.
FLOATS = (torch.float32, torch.float16)
INTS = (torch.int32, torch.int64)
# Arithmetic also takes int32/int64 (the kernels wrap on overflow, like PyTorch).
NUMERIC = (*FLOATS, *INTS)
# Reshape, Transpose, Concat, Expand, Tile, Slice, Gather, Split and Identity move elements by
# size: every dtype the emulator stores, so integer and bool tensors stay on the device too.
MOVABLE = (*FLOATS, torch.int64, torch.int32, torch.bool)
