# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Model latencies, one thread: eager PyTorch, ExecuTorch + XNNPACK, ONNX Runtime on the ONNX the
Ascend backend emitted, and Ascend on the CANN emulator through ExecuTorch's runtime.

    python benchmarks/bench_vs_ort.py [--rounds N] [--warmup N] [--models resnet bert gpt2 vit ...]
                                      [--json PATH]

The models are small configs of transformers' ResNet, BERT and GPT-2 built with random weights
(default configuration otherwise, default attention implementation):
- resnet: examples/example_models.py small_resnet (embedding 16, hidden sizes 16/32/64/128, one
  basic block per stage, 10 labels), input [1, 3, 64, 64], output the logits;
- bert: BertModel, hidden 128, 2 layers, 4 heads, intermediate 512, vocabulary 1000, no pooler,
  input_ids [1, 128], output last_hidden_state;
- gpt2: GPT2Model, n_embd 128, 2 layers, 4 heads, n_positions 64, vocabulary 1000, no KV
  cache (use_cache=False), input_ids [1, 64], output last_hidden_state.
Further models, measured only when named in --models (issue 14's survey of other models, see
docs/benchmarks.md "Other models vs ONNX Runtime"): vit, convnext, mobilenetv2, llama, t5enc,
distilbert, whisperenc, wav2vec2 (small configs, images [1, 3, 64, 64], 64 tokens, Whisper
input_features [1, 80, 64], Wav2Vec2 4000 samples; see their factories below).
Full-size default configs, also only when named: resnet50, mobilenetv2_224, efficientnet_b0
(transformers' default ResNet-50, MobileNetV2 and EfficientNet-B0 classifiers at [1, 3, 224, 224]),
bert_base4 and gpt2_small4 (BERT-base's and GPT-2 small's widths with 4 of their 12 layers, 128
tokens).
`--models zoo` (or `zoo:<name>`, e.g. `zoo:efficientnet`) adds the test suite's model zoo
(tests/python/model_zoo.py: ~45 transformers families in their default configuration, tiny
configs, weights rescaled, inputs as users pass them, e.g. token ids with a padded attention
mask): there the per-op overhead weighs more than the kernels.
Their weights are rescaled (x4 for the transformers' matrices, whose default init std is 0.02) so
that intermediate activations and outputs are far from zero and a wrong kernel cannot hide under
the tolerance.

Each model is lowered once with AscendCompileSpec(toolchain="emulator", dump_dir=...); the dump
keeps the partition's part.onnx, which ONNX Runtime runs (intra_op_num_threads=1, its default
graph optimisations). Every model must lower to exactly one Ascend partition whose ONNX inputs are
the model's inputs (so ONNX Runtime runs the very graph the emulator runs). Every path's output is
checked against eager PyTorch before anything is timed.

Timing: one thread everywhere (torch.set_num_threads(1), ExecuTorch's threadpool 1, ORT
intra_op_num_threads=1 and inter_op 1, the emulator's EXECUTORCH_ASCEND_EMU_NUM_THREADS unset,
i.e. 1). Rounds are interleaved in one process (each round calls every path once, in rotating
order); each call is timed by the calling thread's CPU time (time.thread_time_ns) and wall time.
The table shows medians; "emu/ORT" is the ratio of the medians of thread CPU time.

The emulator used is the one the package finds (EXECUTORCH_ASCEND_EMULATOR_ACL_LIB and
EXECUTORCH_ASCEND_EMULATOR_ATC point at a build; EXECUTORCH_ASCEND_DEV_BUILD=<cmake build dir>
sets both and the backend library). Run on purpose only, never from the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))


sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_build

dev_build.wire()

import onnxruntime as ort  # noqa: E402
from example_models import small_resnet  # noqa: E402
from executorch.backends.xnnpack.partition.xnnpack_partitioner import (  # noqa: E402
    XnnpackPartitioner,
)
from executorch.exir import to_edge_transform_and_lower  # noqa: E402
from executorch.extension.pybindings import portable_lib  # noqa: E402
from executorch.runtime import Method, Runtime  # noqa: E402

from executorch_ascend import AscendCompileSpec, use_emulator  # noqa: E402
from executorch_ascend.export import lower, save  # noqa: E402

PATHS = ("eager", "xnnpack", "ort", "ascend")
PATH_TITLES = {
    "eager": "eager PyTorch",
    "xnnpack": "ExecuTorch + XNNPACK",
    "ort": "ONNX Runtime (Ascend's ONNX)",
    "ascend": "Ascend on the emulator",
}


class BenchError(RuntimeError):
    """A path failed, or its output differs from eager PyTorch."""


class _Hidden(torch.nn.Module):
    """A transformers encoder/decoder exported as one input (input_ids by default) ->
    last_hidden_state."""

    def __init__(self, model: torch.nn.Module, input_name: str = "input_ids") -> None:
        super().__init__()
        self.model = model
        self.input_name = input_name

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.model(**{self.input_name: x}).last_hidden_state


class _Logits(torch.nn.Module):
    """A transformers image classifier exported as pixel_values -> logits."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        return self.model(pixel_values=pixel_values).logits


def _rescale(model: torch.nn.Module, factor: float) -> torch.nn.Module:
    """Multiplies every weight matrix (2-D parameter) by `factor`: the default init (std 0.02)
    leaves attention nearly uniform and activations tiny."""
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() == 2:
                p.mul_(factor)
    return model


def _rescale_convs(model: torch.nn.Module) -> torch.nn.Module:
    """Rescales every Conv weight (parameter of 3 or more dimensions) to std sqrt(2 / fan_in)
    (He init): with transformers' default init (std 0.02) the activations of a deep conv stack
    behind eval-mode BatchNorm shrink towards zero (MobileNetV2's logits would be ~1e-24)."""
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() >= 3:
                fan_in = p[0].numel()
                p.mul_((2.0 / fan_in) ** 0.5 / float(p.std()))
    return model


def _bert() -> torch.nn.Module:
    from transformers import BertConfig, BertModel

    config = BertConfig(
        hidden_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=512,
        vocab_size=1000,
        max_position_embeddings=128,
    )
    return _Hidden(_rescale(BertModel(config, add_pooling_layer=False), 4.0))


def _gpt2() -> torch.nn.Module:
    from transformers import GPT2Config, GPT2Model

    config = GPT2Config(
        n_embd=128,
        n_layer=2,
        n_head=4,
        n_positions=64,
        vocab_size=1000,
        bos_token_id=0,
        eos_token_id=0,
        use_cache=False,  # one forward over the prompt, no KV-cache outputs
    )
    return _Hidden(_rescale(GPT2Model(config), 4.0))


# Further models, not measured by default (--models NAME ...): the "other models" survey of
# issue 14 (docs/benchmarks.md, "Other models vs ONNX Runtime"). Small configs, default
# attention implementation, random weights rescaled as above.


def _vit() -> torch.nn.Module:
    from transformers import ViTConfig, ViTForImageClassification

    config = ViTConfig(
        image_size=64,
        patch_size=8,
        hidden_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=512,
        num_labels=10,
    )
    return _Logits(_rescale(ViTForImageClassification(config), 4.0))


def _convnext() -> torch.nn.Module:
    from transformers import ConvNextConfig, ConvNextForImageClassification

    config = ConvNextConfig(
        hidden_sizes=[32, 64, 128, 256],
        depths=[1, 1, 2, 1],
        num_labels=10,
        # the default 1e-6 would scale every block's branch (depthwise 7x7, LayerNorm, MLP)
        # down to nothing next to the residual, hiding a wrong kernel under the tolerance
        layer_scale_init_value=1.0,
    )
    return _Logits(_rescale_convs(_rescale(ConvNextForImageClassification(config), 4.0)))


def _mobilenet_v2() -> torch.nn.Module:
    from transformers import MobileNetV2Config, MobileNetV2ForImageClassification

    config = MobileNetV2Config(image_size=64, depth_multiplier=0.5, num_labels=10)
    return _Logits(_rescale_convs(_rescale(MobileNetV2ForImageClassification(config), 4.0)))


def _resnet50() -> torch.nn.Module:
    from transformers import ResNetConfig, ResNetForImageClassification

    return _Logits(_rescale_convs(_rescale(ResNetForImageClassification(ResNetConfig()), 4.0)))


def _mobilenet_v2_224() -> torch.nn.Module:
    from transformers import MobileNetV2Config, MobileNetV2ForImageClassification

    model = MobileNetV2ForImageClassification(MobileNetV2Config())
    return _Logits(_rescale_convs(_rescale(model, 4.0)))


def _efficientnet_b0() -> torch.nn.Module:
    from transformers import EfficientNetConfig, EfficientNetForImageClassification

    # The zoo's LeCun-normal weights: He-rescaled Convs vanish through EfficientNet's
    # squeeze-and-excitation gates (logits ~1e-41); these keep them ~0.3.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
    import model_zoo

    model = EfficientNetForImageClassification(EfficientNetConfig())
    return _Logits(model_zoo.rescale_weights(model))


def _bert_base4() -> torch.nn.Module:
    from transformers import BertConfig, BertModel

    config = BertConfig(num_hidden_layers=4)  # BERT-base's widths, 4 of its 12 layers
    return _Hidden(_rescale(BertModel(config, add_pooling_layer=False), 4.0))


def _gpt2_small4() -> torch.nn.Module:
    from transformers import GPT2Config, GPT2Model

    config = GPT2Config(n_layer=4, use_cache=False)  # GPT-2 small's widths, 4 of its 12 layers
    return _Hidden(_rescale(GPT2Model(config), 4.0))


def _llama() -> torch.nn.Module:
    from transformers import LlamaConfig, LlamaModel

    config = LlamaConfig(
        hidden_size=128,
        intermediate_size=344,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        vocab_size=1000,
        max_position_embeddings=128,
        use_cache=False,
    )
    return _Hidden(_rescale(LlamaModel(config), 4.0))


def _t5_encoder() -> torch.nn.Module:
    from transformers import T5Config, T5EncoderModel

    config = T5Config(d_model=128, d_kv=32, d_ff=512, num_layers=2, num_heads=4, vocab_size=1000)
    return _Hidden(_rescale(T5EncoderModel(config), 4.0))


def _distilbert() -> torch.nn.Module:
    from transformers import DistilBertConfig, DistilBertModel

    config = DistilBertConfig(
        dim=128, hidden_dim=512, n_layers=2, n_heads=4, vocab_size=1000, max_position_embeddings=128
    )
    return _Hidden(_rescale(DistilBertModel(config), 4.0))


def _whisper_encoder() -> torch.nn.Module:
    from transformers import WhisperConfig
    from transformers.models.whisper.modeling_whisper import WhisperEncoder

    config = WhisperConfig(
        d_model=128,
        encoder_layers=2,
        encoder_attention_heads=4,
        encoder_ffn_dim=512,
        num_mel_bins=80,
        max_source_positions=32,  # input_features [1, 80, 64]: two Conv1d, the second stride 2
    )
    return _Hidden(_rescale_convs(_rescale(WhisperEncoder(config), 4.0)), "input_features")


def _wav2vec2() -> torch.nn.Module:
    from transformers import Wav2Vec2Config, Wav2Vec2Model

    config = Wav2Vec2Config(
        hidden_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=512,
        conv_dim=(64, 64, 64),
        conv_stride=(5, 2, 2),
        conv_kernel=(10, 3, 3),
        num_conv_pos_embeddings=16,
        num_conv_pos_embedding_groups=4,
    )
    # the feature extractor's Conv1d are He-initialised already (and the positional Conv1d is
    # weight-normed): only the matrices are rescaled
    return _Hidden(_rescale(Wav2Vec2Model(config), 4.0), "input_values")


@dataclass(frozen=True)
class Spec:
    name: str
    factory: Callable[[], torch.nn.Module]
    make_inputs: Callable[[torch.Generator], tuple[torch.Tensor, ...]]
    owner: str  # who optimises the emulator's kernels for it (issue 14)

    def build(self) -> torch.nn.Module:
        torch.manual_seed(0)
        return self.factory().eval()


MODELS = (
    Spec(
        "resnet",
        small_resnet,
        lambda g: (torch.randn(1, 3, 64, 64, generator=g),),
        "conv",
    ),
    Spec("bert", _bert, lambda g: (torch.randint(0, 1000, (1, 128), generator=g),), "gemm"),
    Spec("gpt2", _gpt2, lambda g: (torch.randint(0, 1000, (1, 64), generator=g),), "gemm"),
)
_IMAGE = lambda g: (torch.randn(1, 3, 64, 64, generator=g),)  # noqa: E731
_TOKENS = lambda g: (torch.randint(0, 1000, (1, 64), generator=g),)  # noqa: E731
_IMAGE224 = lambda g: (torch.randn(1, 3, 224, 224, generator=g),)  # noqa: E731
_TOKENS128 = lambda g: (torch.randint(0, 30000, (1, 128), generator=g),)  # noqa: E731
EXTRA_MODELS = (
    Spec("vit", _vit, _IMAGE, "survey"),
    Spec("convnext", _convnext, _IMAGE, "survey"),
    Spec("mobilenetv2", _mobilenet_v2, _IMAGE, "survey"),
    Spec("llama", _llama, _TOKENS, "survey"),
    Spec("t5enc", _t5_encoder, _TOKENS, "survey"),
    Spec("distilbert", _distilbert, _TOKENS, "survey"),
    Spec(
        "whisperenc", _whisper_encoder, lambda g: (torch.randn(1, 80, 64, generator=g),), "survey"
    ),
    Spec("wav2vec2", _wav2vec2, lambda g: (torch.randn(1, 4000, generator=g),), "survey"),
    # Full-size defaults (transformers' default configs, 224x224 images, 128 tokens; the text
    # models with 4 of their 12 layers to keep a run short)
    Spec("resnet50", _resnet50, _IMAGE224, "full"),
    Spec("mobilenetv2_224", _mobilenet_v2_224, _IMAGE224, "full"),
    Spec("efficientnet_b0", _efficientnet_b0, _IMAGE224, "full"),
    Spec("bert_base4", _bert_base4, _TOKENS128, "full"),
    Spec("gpt2_small4", _gpt2_small4, _TOKENS128, "full"),
)


def _zoo_specs() -> tuple[Spec, ...]:
    """The test suite's model zoo as Specs named zoo:<name> (its first sequence length)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))
    import model_zoo

    return tuple(
        Spec(f"zoo:{m.name}", m.build, lambda g, m=m: m.inputs(m.seqs[0]), "zoo")
        for m in model_zoo.ZOO
    )


def _check(name: str, path: str, got: torch.Tensor, expected: torch.Tensor) -> float:
    """Max abs error of `got`, relative to the output's largest magnitude; raises past 1e-3."""
    got = torch.as_tensor(got).to(torch.float32).reshape(expected.shape)
    scale = float(expected.abs().max())
    if scale < 1e-2:
        raise BenchError(f"{name}: eager output is near zero (max |y| {scale:.2e})")
    err = float((got - expected).abs().max()) / scale
    if not err <= 1e-3:
        raise BenchError(f"{name} {path}: max abs error {err:.2e} of max |y| {scale:.3g}")
    return err


@dataclass
class Runners:
    calls: dict[str, Callable[[], object]]
    errors: dict[str, float]
    onnx_ops: int
    keep_alive: tuple[object, ...]  # buffers a loaded program reads in place


def _prepare(spec: Spec, work: Path) -> Runners:
    model = spec.build()
    inputs = spec.make_inputs(torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = model(*inputs).to(torch.float32)

    def eager() -> object:
        with torch.no_grad():
            return model(*inputs)

    exported = torch.export.export(model, inputs)
    xnn_buffer = (
        to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
        .to_executorch()
        .buffer
    )
    runtime = Runtime.get()
    xnn_method: Method = runtime.load_program(xnn_buffer).load_method("forward")

    dump = work / spec.name / "dump"
    shutil.rmtree(dump, ignore_errors=True)  # a kept --work-dir holds an earlier run's dump
    lowering = lower(
        model,
        inputs,
        AscendCompileSpec(toolchain="emulator", dump_dir=str(dump), external_tag="model"),
    )
    summary = lowering.summary
    if summary.partitions != 1 or summary.delegated_nodes != summary.total_nodes:
        raise BenchError(f"{spec.name}: expected the whole model in one partition: {summary}")
    pte, ptds = save(lowering.program, work / spec.name / "model.pte")
    ascend_method: Method = runtime.load_program(
        pte, data_path=ptds[0] if ptds else None
    ).load_method("forward")

    onnx_files = sorted(dump.glob("partition_*/part.onnx"))
    if len(onnx_files) != 1:
        raise BenchError(f"{spec.name}: expected one dumped part.onnx, found {onnx_files}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(onnx_files[0]), options, providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    if len(names) != len(inputs):
        raise BenchError(f"{spec.name}: part.onnx has inputs {names}, the model {len(inputs)}")
    feed = {n: t.numpy() for n, t in zip(names, inputs, strict=True)}
    import onnx

    onnx_ops = len(onnx.load(str(onnx_files[0]), load_external_data=False).graph.node)

    calls: dict[str, Callable[[], object]] = {
        "eager": eager,
        "xnnpack": lambda: xnn_method.execute(list(inputs)),
        "ort": lambda: session.run(None, feed),
        "ascend": lambda: ascend_method.execute(list(inputs)),
    }
    outputs = {
        "eager": eager(),
        "xnnpack": calls["xnnpack"]()[0],
        "ort": torch.from_numpy(calls["ort"]()[0]),
        "ascend": calls["ascend"]()[0],
    }
    errors = {p: _check(spec.name, p, outputs[p], expected) for p in PATHS}
    return Runners(calls, errors, onnx_ops, (xnn_buffer,))


@dataclass
class Timing:
    cpu_ms: float
    wall_ms: float


def _measure(runners: Runners, rounds: int, warmup: int) -> dict[str, Timing]:
    for _ in range(warmup):
        for p in PATHS:
            runners.calls[p]()
    cpu: dict[str, list[float]] = {p: [] for p in PATHS}
    wall: dict[str, list[float]] = {p: [] for p in PATHS}
    for r in range(rounds):
        order = PATHS[r % len(PATHS) :] + PATHS[: r % len(PATHS)]  # rotate who goes first
        for p in order:
            fn = runners.calls[p]
            c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
            fn()
            w1, c1 = time.perf_counter_ns(), time.thread_time_ns()
            cpu[p].append((c1 - c0) / 1e6)
            wall[p].append((w1 - w0) / 1e6)
    return {p: Timing(statistics.median(cpu[p]), statistics.median(wall[p])) for p in PATHS}


def _zoo_names(known: dict[str, Spec]) -> list[str]:
    return [n for n in known if n.startswith("zoo:")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=60, help="interleaved rounds (default 60)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed rounds first (default 5)")
    parser.add_argument("--models", nargs="*", default=[m.name for m in MODELS])
    parser.add_argument("--json", type=Path, help="write the figures as a flat JSON object")
    parser.add_argument("--work-dir", type=Path, help="keep the .pte files and dumps here")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.warmup < 0:
        parser.error("--rounds must be >= 1 and --warmup >= 0")
    known = {m.name: m for m in MODELS + EXTRA_MODELS}
    if any(n == "zoo" or n.startswith("zoo:") for n in args.models):
        known.update((m.name, m) for m in _zoo_specs())
    names = [z for n in args.models for z in (_zoo_names(known) if n == "zoo" else [n])]
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown models {unknown}: must be among {list(known)} or zoo")
    chosen = [known[n] for n in names]

    use_emulator()
    torch.set_num_threads(1)
    portable_lib._unsafe_reset_threadpool(1)
    load_before = os.getloadavg()[0]
    figures: dict[str, float] = {}
    rows = []
    with tempfile.TemporaryDirectory(prefix="ascend-vs-ort-") as tmp:
        work = args.work_dir or Path(tmp)
        for spec in chosen:
            print(f"preparing {spec.name} ...", file=sys.stderr, flush=True)
            runners = _prepare(spec, work)
            print(f"timing {spec.name} ...", file=sys.stderr, flush=True)
            t = _measure(runners, args.rounds, args.warmup)
            ratio = t["ascend"].cpu_ms / t["ort"].cpu_ms
            wall_ratio = t["ascend"].wall_ms / t["ort"].wall_ms
            rows.append((spec, t, ratio, wall_ratio, runners))
            for p in PATHS:
                figures[f"{spec.name}.{p}.cpu_ms"] = round(t[p].cpu_ms, 4)
                figures[f"{spec.name}.{p}.wall_ms"] = round(t[p].wall_ms, 4)
                figures[f"{spec.name}.{p}.max_rel_error"] = runners.errors[p]
            figures[f"{spec.name}.emulator_over_ort"] = round(ratio, 3)
            figures[f"{spec.name}.emulator_over_ort_wall"] = round(wall_ratio, 3)
    load_after = os.getloadavg()[0]
    figures["load_average_before"] = load_before
    figures["load_average_after"] = load_after
    figures["rounds"] = args.rounds

    print(
        f"one thread everywhere (torch {torch.get_num_threads()}, ExecuTorch threadpool "
        f"{portable_lib._threadpool_get_thread_count()}, ORT intra_op 1, emulator "
        f"threads {os.environ.get('EXECUTORCH_ASCEND_EMU_NUM_THREADS', 'unset (1)')}); "
        f"{args.rounds} interleaved rounds; medians of thread CPU time / wall time in ms; "
        f"1-min load average {load_before:.2f} before, {load_after:.2f} after "
        f"({os.cpu_count()} CPUs)\n"
    )
    header = (
        ["model", "ONNX nodes"]
        + [PATH_TITLES[p] for p in PATHS]
        + ["emu/ORT (CPU)", "emu/ORT (wall)", "kernels owner"]
    )
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for spec, t, ratio, wall_ratio, runners in rows:
        cells = [f"{t[p].cpu_ms:.3f} / {t[p].wall_ms:.3f}" for p in PATHS]
        print(
            f"| {spec.name} | {runners.onnx_ops} | " + " | ".join(cells)
            + f" | {ratio:.2f} | {wall_ratio:.2f} | {spec.owner} |"
        )  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
