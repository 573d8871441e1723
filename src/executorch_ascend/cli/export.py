# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend export MODULE:FACTORY --input NAME:SHAPE:DTYPE ... -o model.pte`: the
README's Python recipe as one command, stage by stage, with a summary of what was delegated."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .inputs import CliError, InputSpec, LoadedModel, load_model, parse_input, parse_shape
from .progress import Progress
from .quantize import check_quantize_arguments, quantize

if TYPE_CHECKING:
    from ..compile_spec import AscendCompileSpec

STAGES = 5


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """The model and its inputs, shared by `export` and `explain`."""
    parser.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME:SHAPE:DTYPE[:VALUES]",
        help="one per forward() input, passed by keyword in this order: "
        "pixel_values:1,3,224,224:float32, input_ids:1,8:int64:1000 (ids from [0, 1000)), "
        "attention_mask:1,8:int64:ones; integer inputs default to [0, 2)",
    )
    parser.add_argument(
        "--input-shape",
        action="append",
        default=[],
        metavar="SHAPE",
        help="shorthand for a positional float32 input: 1,3,224,224 (once per input)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the example inputs")
    parser.add_argument(
        "--traceback", action="store_true", help="show the Python traceback of a failed step"
    )


def add_spec_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--soc", default="Ascend910B1", help="atc --soc_version (Ascend910B1)")
    parser.add_argument(
        "--precision",
        default=None,
        help="atc --precision_mode (the chip's default: must_keep_origin_dtype, or "
        "allow_fp32_to_fp16 on Ascend310P/310B)",
    )
    parser.add_argument(
        "--emulator", action="store_true", help="compile with the CANN emulator's atc"
    )


def add_atc_arguments(parser: argparse.ArgumentParser) -> None:
    """What only a compiling command needs (AscendCompileSpec.atc_options, dump_dir,
    atc_timeout_s; docs/atc.md)."""
    parser.add_argument(
        "--atc-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a further atc option, e.g. op_select_implmode=high_precision (repeatable; checked "
        "against the options CANN's atc accepts)",
    )
    parser.add_argument(
        "--dump-dir", help="keep each partition's ONNX model, .om, atc command line and log here"
    )
    parser.add_argument("--atc-timeout", type=float, help="seconds atc may run on one partition")
    parser.add_argument(
        "--keep-onnx",
        action="store_true",
        help="also keep each partition's ONNX as named data, for 'executorch-ascend compile' "
        "(other SoCs, or CANN's atc, later)",
    )


def _atc_options(texts: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name:
            raise CliError(f"bad --atc-option {text!r}: expected NAME=VALUE")
        options[name.lstrip("-")] = value
    return options


def inputs_from_args(args: argparse.Namespace) -> tuple[list[InputSpec], list[tuple[int, ...]]]:
    """The --input specs and --input-shape shapes, checked before anything is imported."""
    inputs = [parse_input(text) for text in args.input]
    names = [i.name for i in inputs]
    if len(set(names)) != len(names):
        raise CliError(f"--input names repeat: {', '.join(names)}")
    if inputs and args.input_shape:
        raise CliError("use --input or --input-shape, not both")
    shapes = [parse_shape(text, f"--input-shape {text!r}") for text in args.input_shape]
    return inputs, shapes


def model_from_args(args: argparse.Namespace) -> LoadedModel:
    inputs, shapes = inputs_from_args(args)
    return load_model(args.model, inputs, shapes, seed=args.seed)


def compile_spec_from_args(args: argparse.Namespace, external_tag: str | None = None):
    from ..compile_spec import AscendCompileSpec, CompileSpecError
    from ..toolchain.cann import use_emulator

    if args.emulator:
        use_emulator()
    compiling: dict[str, Any] = {}
    if getattr(args, "atc_option", None):
        compiling["atc_options"] = _atc_options(args.atc_option)
    if getattr(args, "dump_dir", None):
        compiling["dump_dir"] = args.dump_dir
    if getattr(args, "atc_timeout", None) is not None:
        compiling["atc_timeout_s"] = args.atc_timeout
    if getattr(args, "keep_onnx", False):
        compiling["keep_onnx"] = True
    try:
        return AscendCompileSpec(
            soc_version=args.soc,
            precision_mode=args.precision,
            external_tag=external_tag,
            **compiling,
        )
    except (CompileSpecError, ValueError) as e:
        raise CliError(str(e)) from None


def _size(path: Path) -> str:
    size = float(path.stat().st_size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return ""


def precision_note(spec: AscendCompileSpec) -> str:
    """The precision mode atc compiles with on the spec's chip, and what it does to the numbers."""
    from ..cann_op_facts import KEEP_DTYPE, family, no_float32_ops

    mode = dict(spec.atc_options).get("precision_mode_v2")
    if mode is not None:
        return f"precision_mode_v2={mode} (atc's option)"
    lacking = ", ".join(sorted(no_float32_ops(spec.soc_version)))
    if spec.precision_mode == KEEP_DTYPE:
        return f"{KEEP_DTYPE}: every op computes in the model's dtypes (fp32 parity with eager)"
    if spec.precision_mode == "allow_fp32_to_fp16" and lacking:
        return (
            f"allow_fp32_to_fp16 ({family(spec.soc_version)} has no float32 for {lacking}): "
            "those ops compute in float16, the rest in float32; expect ~1e-3 of the output's "
            "scale against eager fp32"
        )
    return f"{spec.precision_mode}: some ops compute in 16 bits (docs/atc.md, Precision modes)"


def run_export(args: argparse.Namespace) -> int:
    import torch

    from ..export import delegation_summary, save
    from ..toolchain.atc import ToolchainError, resolve_atc
    from ..transforms.moe import rewrite_moe

    output = Path(args.output)
    if output.suffix != ".pte":
        raise CliError(f"-o {args.output}: the program file must end in .pte")
    inputs_from_args(args)  # a bad --input fails before the imports below
    spec = compile_spec_from_args(args, external_tag=args.ptd)
    try:
        atc = resolve_atc(spec)
    except ToolchainError as e:
        raise CliError(f"{e} (or pass --emulator)") from None

    check_quantize_arguments(args)
    progress = Progress(STAGES + (1 if args.quantize else 0))
    with progress.stage(f"build {args.model}"):
        loaded = model_from_args(args)
        named = [*((f"arg{i}", a) for i, a in enumerate(loaded.args)), *loaded.kwargs.items()]
        shown = ", ".join(
            f"{name}{list(t.shape)} {str(t.dtype).replace('torch.', '')}" for name, t in named
        )
        progress.note(f"{type(loaded.model).__name__}; inputs: {shown}")
        # transformers' MoE routing exports data-dependent ops (transforms/moe.py).
        moe = rewrite_moe(loaded.model)
        if moe:
            progress.note(
                f"mixture of experts: {moe.experts} experts and {moe.routers} router modules "
                f"rewritten ({moe.form} form)"
            )
    if args.quantize:
        with progress.stage(f"quantize ({args.quantize})"), failure("quantizing", args.traceback):
            exported = quantize(args, loaded, progress.note)
    else:
        with progress.stage("torch.export"):
            try:
                exported = torch.export.export(loaded.model, loaded.args, kwargs=loaded.kwargs)
            except Exception as e:
                raise CliError(
                    f"torch.export failed: {type(e).__name__}: {_first_line(e)}"
                ) from None
    from executorch.exir import to_edge_transform_and_lower

    from ..partitioner import AscendPartitioner

    with failure("lowering", args.traceback):
        with progress.stage(f"partition, ONNX, atc ({atc.description})"), progress.package_logs():
            edge = to_edge_transform_and_lower(exported, partitioner=[AscendPartitioner(spec)])
            summary = delegation_summary(edge)
        with progress.stage("to_executorch"):
            program = edge.to_executorch()
        with progress.stage(f"save {output}"):
            pte, ptds = save(program, output)

    print(f"summary ({progress.total_s:.1f} s):")
    print(f"  {summary}")
    print(f"  precision: {precision_note(spec)}")
    if summary.cpu_ops:
        top = Counter(summary.cpu_ops).most_common(8)
        print("  on the CPU: " + ", ".join(f"{op} x{n}" for op, n in top))
        print(f"  why: executorch-ascend explain {args.model} (same inputs)")
    for path in (pte, *ptds):
        print(f"  wrote {path} ({_size(path)})")
    return 0


@contextmanager
def failure(what: str, traceback: bool) -> Iterator[None]:
    """A failure inside lowering is a real error: its whole message is printed (atc's log
    included) and the command exits 1; the Python traceback only with --traceback."""
    try:
        yield
    except Exception as e:
        if traceback:
            raise
        raise LoweringFailed(
            f"{what} failed: {type(e).__name__}: {e} (--traceback shows where)"
        ) from None


class LoweringFailed(CliError):
    """Exit status 1: the command line was right, lowering was not."""

    exit_status = 1


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else "(no message)"
