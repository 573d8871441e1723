"""Whole `transformers` models (small configs, random weights) lowered to one Ascend partition and
run on the emulator: every compute node is delegated and the output matches eager PyTorch within
the fp32 tolerance (1e-4 relative to the output's scale)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
from ascend_helpers import assert_close, eager

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower
from executorch_ascend.run import run_with_runtime

transformers = pytest.importorskip("transformers")

SEQ = 8
VOCAB = 64


class FirstOutput(torch.nn.Module):
    """The model's main output (last hidden state) as a plain tensor, for export."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(x, return_dict=False)[0]


def _ids() -> tuple[torch.Tensor, ...]:
    return (torch.randint(0, VOCAB, (1, SEQ), generator=torch.Generator().manual_seed(0)),)


def _image(size: int) -> tuple[torch.Tensor, ...]:
    return (torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(0)),)


def bert() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    config = transformers.BertConfig(
        vocab_size=VOCAB,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=32,
        attn_implementation="eager",
    )
    return transformers.BertModel(config, add_pooling_layer=False), _ids()


def gpt2() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    config = transformers.GPT2Config(
        vocab_size=VOCAB,
        n_embd=32,
        n_layer=2,
        n_head=2,
        n_positions=32,
        bos_token_id=0,
        eos_token_id=0,
        use_cache=False,
        attn_implementation="eager",
    )
    return transformers.GPT2Model(config), _ids()


def vit() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    config = transformers.ViTConfig(
        image_size=16,
        patch_size=4,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        attn_implementation="eager",
    )
    return transformers.ViTModel(config, add_pooling_layer=False), _image(16)


def mobilenet_v2() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    config = transformers.MobileNetV2Config(image_size=32, depth_multiplier=0.35)
    return transformers.MobileNetV2Model(config), _image(32)


MODELS: dict[str, Callable[[], tuple[torch.nn.Module, tuple[torch.Tensor, ...]]]] = {
    "bert": bert,
    "gpt2": gpt2,
    "vit": vit,
    "mobilenet_v2": mobilenet_v2,
}


@pytest.mark.emulator
@pytest.mark.parametrize("name", list(MODELS))
def test_model_is_one_partition_and_matches_eager(native, name: str) -> None:
    torch.manual_seed(0)
    model, inputs = MODELS[name]()
    module = FirstOutput(model.eval()).eval()
    lowering = lower(module, inputs, AscendCompileSpec(toolchain="emulator"))
    summary = lowering.summary
    assert summary.partitions == 1, f"{name}: {summary}"
    assert summary.delegated_nodes == summary.total_nodes, f"{name}: {summary}"

    outputs = run_with_runtime(lowering.program.buffer, inputs)
    assert_close(outputs, eager(module, inputs), f"{name} on the emulator")
