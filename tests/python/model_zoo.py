# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A zoo of `transformers` model families as users bring them: each built from a small config in
its *default* configuration (default attention implementation, default options), its weights
re-initialised so the outputs are O(1) (transformers' std-0.02 init shrinks many of them towards
zero, where any result would pass), and fed inputs the way users pass them (token ids with a padded
`attention_mask`, pixel values, raw audio or log-mel features).

Every entry is a `ZooModel`: `build()` returns the module (whose forward returns one tensor) and
`inputs(seq)` the example inputs, `seq` being the sequence length for text models.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

transformers = __import__("transformers")

VOCAB = 96
SEQ = 8
SEQ_LONG = 13  # the second sequence length decoders run at (the padding moves with it)
IMAGE = 32


@dataclass(frozen=True)
class ZooModel:
    name: str
    family: str  # "vision", "encoder", "decoder", "speech"
    build: Callable[[], torch.nn.Module]
    inputs: Callable[[int], tuple[torch.Tensor, ...]]
    # Sequence lengths to run at (one lowering each); vision and speech models run once.
    seqs: tuple[int, ...] = (SEQ,)
    # Ops expected to stay on the CPU, with why (empty: one partition, nothing on the CPU).
    cpu_ops: dict[str, str] = field(default_factory=dict)
    fp16: bool = True


# ---------------------------------------------------------------------------------------------
# Weights: O(1) activations everywhere


def rescale_weights(model: torch.nn.Module, seed: int = 0) -> torch.nn.Module:
    """LeCun-normal weights (std 1/sqrt(fan_in)) for linear and conv layers, unit-normal embeddings,
    norms with non-trivial affine parameters and batch-norm statistics, small non-zero biases.

    transformers initialises with std 0.02, so a 32-wide layer scales activations by ~0.1: after a
    few layers, outputs of CNNs and un-normalised heads sit near zero and a 1e-4-of-scale tolerance
    no longer tells a right result from a wrong one.
    """
    gen = torch.Generator().manual_seed(seed)

    def normal(t: torch.Tensor, std: float, mean: float = 0.0) -> None:
        t.copy_(torch.randn(t.shape, generator=gen) * std + mean)

    with torch.no_grad():
        for m in model.modules():
            _rescale_experts(m, normal)
            weight = getattr(m, "weight", None)
            bias = getattr(m, "bias", None)
            if isinstance(m, torch.nn.Embedding):
                normal(m.weight, 1.0)
            elif isinstance(m, (torch.nn.Linear, torch.nn.Conv1d, torch.nn.Conv2d)):
                normal(m.weight, m.weight[0].numel() ** -0.5)
                if bias is not None:
                    normal(bias, 0.1)
            elif isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                if m.running_mean is not None:
                    normal(m.running_mean, 0.1)
                    m.running_var.copy_(torch.rand(m.running_var.shape, generator=gen) + 0.5)
                if m.affine:
                    m.weight.copy_(torch.rand(m.weight.shape, generator=gen) + 0.5)
                    normal(m.bias, 0.1)
            elif isinstance(weight, torch.nn.Parameter) and "norm" in type(m).__name__.lower():
                # LayerNorm, GroupNorm and the families' own RMSNorm classes.
                normal(weight, 0.1, mean=float(weight.mean()))
                if isinstance(bias, torch.nn.Parameter):
                    normal(bias, 0.1)
    return model


def _rescale_experts(m: torch.nn.Module, normal: Callable[..., None]) -> None:
    """Mixture of experts: the stacked expert weights ([experts, out, in], or [experts, in, out]
    when is_transposed) LeCun-normal per expert, their biases small; a router's weight
    [experts, hidden] LeCun-normal too, so the routing is far from ties (transformers' zero or
    std-0.02 routers send every token to near-tied experts)."""
    router = "router" in type(m).__name__.lower()
    experts = hasattr(m, "has_gate")  # transformers' use_experts_implementation sets it
    if not (router or experts):
        return
    for name, p in m.named_parameters(recurse=False):
        if experts and p.dim() == 3:
            normal(p, p.shape[1 if getattr(m, "is_transposed", False) else 2] ** -0.5)
        elif experts and name.endswith("_bias"):
            normal(p, 0.1)
        elif router and name == "weight":
            normal(p, p.shape[1] ** -0.5)
        elif router and name == "bias":
            normal(p, 0.1)


# ---------------------------------------------------------------------------------------------
# Inputs


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def token_inputs(seq: int) -> tuple[torch.Tensor, ...]:
    """Two sequences, the second left-padded by 3 tokens, as batched generation passes them."""
    ids = torch.randint(3, VOCAB, (2, seq), generator=_gen())
    mask = torch.ones(2, seq, dtype=torch.int64)
    mask[1, :3] = 0
    ids[1, :3] = 0  # the pad token
    return ids, mask


def image_inputs(seq: int = 0) -> tuple[torch.Tensor, ...]:
    return (torch.randn(1, 3, IMAGE, IMAGE, generator=_gen()),)


def audio_inputs(seq: int = 0) -> tuple[torch.Tensor, ...]:
    return (torch.randn(1, 800, generator=_gen()),)


def mel_inputs(seq: int = 0) -> tuple[torch.Tensor, ...]:
    return (torch.randn(1, 16, 32, generator=_gen()),)


# ---------------------------------------------------------------------------------------------
# Wrappers: one tensor out, arguments by name as the families expect them


class TextModel(torch.nn.Module):
    """input_ids + attention_mask -> the first output (logits or last hidden state)."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.model(input_ids=input_ids, attention_mask=attention_mask, return_dict=False)[0]


class CausalLM(torch.nn.Module):
    """input_ids + attention_mask -> logits, no KV cache (one prefill step of a generation loop)."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        out = self.model(
            input_ids=input_ids, attention_mask=attention_mask, use_cache=False, return_dict=False
        )
        return out[0]


class TensorModel(torch.nn.Module):
    """One positional tensor in (pixel values, audio) -> the first output."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x, return_dict=False)[0]


def _finish(model: torch.nn.Module, wrapper: type[torch.nn.Module]) -> torch.nn.Module:
    torch.manual_seed(0)
    return wrapper(rescale_weights(model).eval()).eval()


# ---------------------------------------------------------------------------------------------
# Families

_TEXT = dict(
    vocab_size=VOCAB,
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    max_position_embeddings=64,
    pad_token_id=0,
)
_DECODER = dict(_TEXT, num_key_value_heads=2, bos_token_id=1, eos_token_id=2)


def _decoder(config_cls: str, **overrides: object) -> Callable[[], torch.nn.Module]:
    def build() -> torch.nn.Module:
        config = getattr(transformers, config_cls)(**{**_DECODER, **overrides})
        return _finish(transformers.AutoModelForCausalLM.from_config(config), CausalLM)

    return build


def _encoder(config_cls: str, **overrides: object) -> Callable[[], torch.nn.Module]:
    def build() -> torch.nn.Module:
        config = getattr(transformers, config_cls)(**{**_TEXT, **overrides})
        return _finish(transformers.AutoModel.from_config(config), TextModel)

    return build


def _vision(config_cls: str, **overrides: object) -> Callable[[], torch.nn.Module]:
    def build() -> torch.nn.Module:
        config = getattr(transformers, config_cls)(**overrides)
        return _finish(transformers.AutoModel.from_config(config), TensorModel)

    return build


def _vision_classifier(config_cls: str, **overrides: object) -> Callable[[], torch.nn.Module]:
    """The family with its image-classification head (pooling and classifier): logits out."""

    def build() -> torch.nn.Module:
        config = getattr(transformers, config_cls)(**overrides)
        return _finish(
            transformers.AutoModelForImageClassification.from_config(config), TensorModel
        )

    return build


_VIT = dict(
    image_size=IMAGE,
    patch_size=8,
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=64,
)
_WAV2VEC2 = dict(
    hidden_size=32,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=64,
    conv_dim=(16, 16, 16),
    conv_stride=(5, 2, 2),
    conv_kernel=(10, 3, 3),
    num_conv_pos_embeddings=16,
    num_conv_pos_embedding_groups=4,
    vocab_size=VOCAB,
)


def _speech(config_cls: str, **overrides: object) -> Callable[[], torch.nn.Module]:
    def build() -> torch.nn.Module:
        config = getattr(transformers, config_cls)(**{**_WAV2VEC2, **overrides})
        return _finish(transformers.AutoModel.from_config(config), TensorModel)

    return build


def _whisper_encoder() -> torch.nn.Module:
    config = transformers.WhisperConfig(
        d_model=32,
        encoder_layers=2,
        encoder_attention_heads=4,
        encoder_ffn_dim=64,
        decoder_layers=1,
        decoder_attention_heads=4,
        decoder_ffn_dim=64,
        num_mel_bins=16,
        max_source_positions=16,
        vocab_size=VOCAB,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=1,
    )
    return _finish(transformers.WhisperModel(config).get_encoder(), TensorModel)


def _t5_encoder() -> torch.nn.Module:
    config = transformers.T5Config(
        vocab_size=VOCAB, d_model=32, d_kv=8, d_ff=64, num_layers=2, num_heads=4
    )
    return _finish(transformers.T5EncoderModel(config), TextModel)


def _text(name: str, build: Callable[[], torch.nn.Module], **kw: object) -> ZooModel:
    return ZooModel(name, "encoder", build, token_inputs, **kw)  # type: ignore[arg-type]


def _llm(name: str, build: Callable[[], torch.nn.Module], **kw: object) -> ZooModel:
    return ZooModel(name, "decoder", build, token_inputs, seqs=(SEQ, SEQ_LONG), **kw)  # type: ignore[arg-type]


def _image(name: str, build: Callable[[], torch.nn.Module], **kw: object) -> ZooModel:
    return ZooModel(name, "vision", build, image_inputs, **kw)  # type: ignore[arg-type]


def _audio(name: str, build: Callable[[], torch.nn.Module], **kw: object) -> ZooModel:
    return ZooModel(name, "speech", build, audio_inputs, **kw)  # type: ignore[arg-type]


ZOO: list[ZooModel] = [
    # vision: CNNs and ViTs
    _image(
        "convnext",
        _vision("ConvNextConfig", hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1]),
    ),
    _image(
        "regnet",
        _vision("RegNetConfig", hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1], groups_width=8),
    ),
    _image("mobilenet_v1", _vision("MobileNetV1Config", image_size=IMAGE, depth_multiplier=0.25)),
    _image(
        "efficientnet",
        _vision(
            "EfficientNetConfig",
            image_size=IMAGE,
            width_coefficient=0.25,
            depth_coefficient=0.2,
            hidden_dim=320,
        ),
    ),
    # with its classification head: transformers pools the last map with
    # AvgPool2d(hidden_dim, ceil_mode=True), a kernel past CANN's 255 (a GlobalAveragePool)
    _image(
        "efficientnet_classifier",
        _vision_classifier(
            "EfficientNetConfig",
            image_size=IMAGE,
            width_coefficient=0.25,
            depth_coefficient=0.2,
            hidden_dim=320,
        ),
    ),
    _image("deit", _vision("DeiTConfig", **_VIT)),
    _image("dinov2", _vision("Dinov2Config", **_VIT)),
    _image("beit", _vision("BeitConfig", **_VIT, use_relative_position_bias=True)),
    _image(
        "swin",
        _vision(
            "SwinConfig",
            image_size=IMAGE,
            patch_size=2,
            embed_dim=16,
            depths=[1, 1],
            num_heads=[2, 4],
            window_size=4,
        ),
    ),
    _image(
        "segformer",
        _vision(
            "SegformerConfig",
            num_encoder_blocks=2,
            depths=[1, 1],
            sr_ratios=[2, 1],
            hidden_sizes=[16, 32],
            num_attention_heads=[1, 2],
            patch_sizes=[7, 3],
            strides=[4, 2],
            mlp_ratios=[2, 2],
            decoder_hidden_size=32,
        ),
    ),
    _image(
        "poolformer",
        _vision(
            "PoolFormerConfig",
            hidden_sizes=[8, 16, 24, 32],
            depths=[1, 1, 1, 1],
            num_encoder_blocks=4,
        ),
    ),
    _image(
        "convnextv2",
        _vision("ConvNextV2Config", hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1]),
    ),
    _image("clip_vision", _vision("CLIPVisionConfig", **_VIT)),
    _image(
        "mobilevit",
        _vision(
            "MobileViTConfig",
            image_size=IMAGE,
            hidden_sizes=[16, 24, 32],
            neck_hidden_sizes=[8, 8, 16, 16, 24, 24, 32],
        ),
    ),
    # encoders
    _text("roberta", _encoder("RobertaConfig", max_position_embeddings=80)),
    _text("distilbert", _encoder("DistilBertConfig", dim=32, hidden_dim=64, n_layers=2, n_heads=4)),
    _text("albert", _encoder("AlbertConfig", embedding_size=16)),
    _text("electra", _encoder("ElectraConfig", embedding_size=16)),
    _text("deberta_v2", _encoder("DebertaV2Config")),
    _text("mpnet", _encoder("MPNetConfig")),
    _text("xlm_roberta", _encoder("XLMRobertaConfig", max_position_embeddings=80)),
    _text("t5_encoder", _t5_encoder),
    _text(
        "mobilebert",
        _encoder(
            "MobileBertConfig",
            embedding_size=16,
            intra_bottleneck_size=16,
            true_hidden_size=16,
            num_feedforward_networks=2,
        ),
    ),
    _text(
        "modernbert",
        _encoder("ModernBertConfig", global_attn_every_n_layers=2, local_attention=4),
    ),
    # decoder LLMs
    _llm("llama", _decoder("LlamaConfig")),
    _llm("mistral", _decoder("MistralConfig")),
    _llm("qwen2", _decoder("Qwen2Config")),
    _llm("qwen3", _decoder("Qwen3Config", head_dim=8)),
    _llm("gemma", _decoder("GemmaConfig", head_dim=8)),
    _llm("phi3", _decoder("Phi3Config")),
    _llm("gpt_neox", _decoder("GPTNeoXConfig")),
    _llm("opt", _decoder("OPTConfig", ffn_dim=64, word_embed_proj_dim=32)),
    _llm("falcon", _decoder("FalconConfig")),
    _llm("bloom", _decoder("BloomConfig", n_layer=2, n_head=4)),
    _llm("gptj", _decoder("GPTJConfig", rotary_dim=4)),
    _llm("stablelm", _decoder("StableLmConfig")),
    _llm("gemma2", _decoder("Gemma2Config", head_dim=8)),  # logit soft-capping, sliding window
    _llm("phi", _decoder("PhiConfig")),
    _llm("olmo2", _decoder("Olmo2Config")),
    _llm(
        "gpt_bigcode",
        _decoder("GPTBigCodeConfig", n_embd=32, n_layer=2, n_head=4, n_positions=64),
    ),
    # speech encoders
    _audio("wav2vec2", _speech("Wav2Vec2Config")),
    _audio("hubert", _speech("HubertConfig")),
    _audio("wavlm", _speech("WavLMConfig")),
    _audio("data2vec_audio", _speech("Data2VecAudioConfig")),
    ZooModel("whisper_encoder", "speech", _whisper_encoder, mel_inputs),
]

BY_NAME = {m.name: m for m in ZOO}


# ---------------------------------------------------------------------------------------------
# Decoding with a static KV cache, as transformers' ExecuTorch integration exports it


def static_cache_decoder(config_cls: str, max_cache_len: int = 16, **overrides: object):
    """A CausalLM set up for `transformers.integrations.executorch.convert_and_export_with_cache`
    (one token per call, `cache_position` in, the cache as mutable buffers)."""
    config = getattr(transformers, config_cls)(**{**_DECODER, **overrides})
    torch.manual_seed(0)
    model = rescale_weights(transformers.AutoModelForCausalLM.from_config(config)).eval()
    model.generation_config.cache_implementation = "static"
    model.generation_config.cache_config = {"batch_size": 1, "max_cache_len": max_cache_len}
    return model


STATIC_CACHE_DECODERS = {
    "llama": lambda: static_cache_decoder("LlamaConfig"),
    "gemma": lambda: static_cache_decoder("GemmaConfig", head_dim=8),
}

# Mixture-of-experts decoders, each family's default configuration shrunk: 8 experts (2 per
# token), 32-wide experts; DeepSeek-V3 with MLA (low-rank q and kv), 4 expert groups of which 2
# are kept, one dense layer first, one shared expert.
MOE_DECODERS: dict[str, tuple[str, dict[str, object]]] = {
    "qwen3_moe": (
        "Qwen3MoeConfig",
        dict(head_dim=8, num_experts=8, num_experts_per_tok=2, moe_intermediate_size=32),
    ),
    "olmoe": ("OlmoeConfig", dict(num_experts=8, num_experts_per_tok=2)),
    "mixtral": ("MixtralConfig", dict(num_local_experts=8, num_experts_per_tok=2)),
    "gpt_oss": (
        "GptOssConfig",
        dict(head_dim=8, num_local_experts=8, num_experts_per_tok=2, sliding_window=8),
    ),
    "deepseek_v3": (
        "DeepseekV3Config",
        dict(
            n_routed_experts=8,
            num_experts_per_tok=2,
            n_group=4,
            topk_group=2,
            moe_intermediate_size=32,
            first_k_dense_replace=1,
            num_key_value_heads=4,
            kv_lora_rank=16,
            q_lora_rank=24,
            qk_rope_head_dim=4,
            qk_nope_head_dim=8,
            v_head_dim=8,
        ),
    ),
}


def moe_decoder(family: str, max_cache_len: int = 16) -> torch.nn.Module:
    """A MOE_DECODERS CausalLM, set up as static_cache_decoder."""
    config_cls, overrides = MOE_DECODERS[family]
    return static_cache_decoder(config_cls, max_cache_len=max_cache_len, **overrides)
