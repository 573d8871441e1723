# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A static KV cache sized for what multi-head latent attention (MLA) caches.

DeepSeek-V3's attention in transformers 5.24 caches its compressed latents, not keys and values:
the key slot of each layer holds `kv_nope` [batch, 1, S, kv_lora_rank] and the value slot the
rope keys `k_rot` [batch, 1, S, qk_rope_head_dim] (modeling_deepseek_v3.py, `cache.update`). The
export wrapper transformers and optimum use, `TorchExportableModuleWithStaticCache`, allocates
every layer ahead of time as [batch, num_key_value_heads, S, head_dim] for both slots
(`StaticCache.early_initialization`), so the first `index_copy_` fails and the model cannot be
exported with a cache at all. Lazily initialised (eager generation), the layers take the latents'
own shapes; `resize_latent_cache` gives the export wrapper those shapes, and `latent_static_cache`
applies it to every wrapper made inside it (the ascend recipe exports under it).

The cache then holds kv_lora_rank + qk_rope_head_dim values per position and layer (DeepSeek-V3:
576), where full keys and values would take num_heads * (qk_head_dim + v_head_dim) (128 heads:
40 960): MLA's point, kept on the device.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import torch

# model_type -> the config fields of the key and value slots' last dim (what the attention
# module writes through cache.update).
LATENT_CACHES: dict[str, tuple[str, str]] = {
    "deepseek_v3": ("kv_lora_rank", "qk_rope_head_dim"),
}


def latent_dims(config: Any) -> tuple[int, int] | None:
    """The key and value slots' last dims for a model that caches MLA latents, else None."""
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    fields = LATENT_CACHES.get(getattr(text, "model_type", ""))
    if fields is None:
        return None
    return int(getattr(text, fields[0])), int(getattr(text, fields[1]))


def resize_latent_cache(exportable: Any) -> bool:
    """Re-allocates a TorchExportableModuleWithStaticCache's layers as [batch, 1, S, dim] of the
    latents (and re-registers them as the module's buffers); False when its model caches keys
    and values as usual."""
    dims = latent_dims(exportable.model.config)
    if dims is None:
        return False
    key_dim, value_dim = dims
    for i, layer in enumerate(exportable.static_cache.layers):
        batch, dtype, device = layer.keys.shape[0], layer.keys.dtype, layer.keys.device
        layer.lazy_initialization(
            torch.zeros((batch, 1, 0, key_dim), dtype=dtype, device=device),
            torch.zeros((batch, 1, 0, value_dim), dtype=dtype, device=device),
        )
        exportable.register_buffer(f"key_cache_{i}", layer.keys, persistent=False)
        exportable.register_buffer(f"value_cache_{i}", layer.values, persistent=False)
    return True


@contextlib.contextmanager
def latent_static_cache() -> Iterator[None]:
    """Within it, every TorchExportableModuleWithStaticCache made (by transformers'
    `convert_and_export_with_cache`, optimum's exporters, or directly) sizes an MLA model's cache
    for its latents (`resize_latent_cache`)."""
    from transformers.integrations import executorch as hf_executorch

    cls = hf_executorch.TorchExportableModuleWithStaticCache
    original = cls.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        resize_latent_cache(self)

    cls.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        cls.__init__ = original  # type: ignore[method-assign]
