# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The models the quantization example, tests and benchmark quantize: transformers' ResNet,
MobileNetV2 and BERT from small configurations, random weights rescaled (LeCun-normal conv and
linear weights, unit-normal embeddings) so activations and outputs are O(1) as in a trained
model, and their example inputs."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from example_models import _Logits, small_resnet

Inputs = list[tuple[torch.Tensor, ...]]


def rescaled(model: torch.nn.Module) -> torch.nn.Module:
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
                fan_in = module.weight[0].numel()
                module.weight.normal_(0.0, fan_in**-0.5)
            elif isinstance(module, torch.nn.Embedding):
                module.weight.normal_()
    return model.eval()


def resnet() -> torch.nn.Module:
    return rescaled(small_resnet())


def mobilenet_v2() -> torch.nn.Module:
    from transformers import MobileNetV2Config, MobileNetV2ForImageClassification

    torch.manual_seed(0)
    config = MobileNetV2Config(image_size=64, depth_multiplier=0.5, num_labels=10)
    return rescaled(_Logits(MobileNetV2ForImageClassification(config)))


class Bert(torch.nn.Module):
    """BertModel's last hidden state for input_ids."""

    def __init__(self) -> None:
        super().__init__()
        from transformers import BertConfig, BertModel

        torch.manual_seed(0)
        config = BertConfig(
            hidden_size=64,
            num_hidden_layers=2,
            num_attention_heads=4,
            intermediate_size=128,
            vocab_size=512,
            max_position_embeddings=64,
        )
        self.bert = BertModel(config, add_pooling_layer=False)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.bert(input_ids=input_ids).last_hidden_state


def bert() -> torch.nn.Module:
    return rescaled(Bert())


def images(size: int) -> Callable[[int, int], Inputs]:
    def make(n: int, seed: int) -> Inputs:
        gen = torch.Generator().manual_seed(seed)
        return [(torch.randn(1, 3, size, size, generator=gen),) for _ in range(n)]

    return make


def tokens(n: int, seed: int) -> Inputs:
    gen = torch.Generator().manual_seed(seed)
    return [(torch.randint(0, 512, (1, 16), generator=gen),) for _ in range(n)]


#: name -> (build the float model, make n example inputs from a seed)
MODELS: dict[str, tuple[Callable[[], torch.nn.Module], Callable[[int, int], Inputs]]] = {
    "resnet": (resnet, images(32)),
    "mobilenet_v2": (mobilenet_v2, images(64)),
    "bert": (bert, tokens),
}


def quantize_pt2e(model: torch.nn.Module, calibration: Inputs, quantizer=None) -> torch.nn.Module:
    """PT2E static int8: export, prepare with `quantizer` (AscendQuantizer by default), run the
    calibration inputs, convert."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    from executorch_ascend.quantizer import AscendQuantizer

    graph = torch.export.export(model, calibration[0]).module()
    prepared = prepare_pt2e(graph, quantizer or AscendQuantizer())  # type: ignore[arg-type]
    with torch.no_grad():
        for inputs in calibration:
            prepared(*inputs)
    return convert_pt2e(prepared)
