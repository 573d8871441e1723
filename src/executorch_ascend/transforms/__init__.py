# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Source transforms: rewrites of a model's modules before torch.export, as ExecuTorch applies
per-backend model rewrites, so the exported graph holds only what the backend can run."""

from .latent_cache import latent_static_cache, resize_latent_cache
from .moe import MoeRewrite, dense_topk, rewrite_moe

__all__ = [
    "MoeRewrite",
    "dense_topk",
    "latent_static_cache",
    "resize_latent_cache",
    "rewrite_moe",
]
