# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend export --quantize ...`: the model quantized before it is lowered.

  int8         AscendQuantizer (PT2E static int8), calibrated on --calibration;
  int8-weight  torchao int8 weight-only per channel (W8A16);
  int4-weight  torchao int4 weight-only per group of --group-size (W4A16).

--calibration is a .npy (a single-input model: axis 0 indexes the samples), a .npz (one array
per forward() input name, axis 0 the samples), or a folder of them (one sample per file, in name
order). Every sample is one forward() call with the example inputs' shapes and dtypes.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .inputs import CliError, LoadedModel

MODES = ("int8", "int8-weight", "int4-weight")


def add_quantize_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quantize",
        choices=MODES,
        help="int8: static int8 with AscendQuantizer (calibrated on --calibration); "
        "int8-weight / int4-weight: torchao weight-only linears (docs/quantization.md)",
    )
    parser.add_argument(
        "--calibration",
        metavar="DIR_OR_NPY",
        help="calibration samples for --quantize int8: a .npy (axis 0 = samples, one input), a "
        ".npz (one array per input name) or a folder of them (one sample per file)",
    )
    parser.add_argument(
        "--group-size", type=int, default=32, help="int4-weight group size: 32, 64 or 128"
    )


def check_quantize_arguments(args: argparse.Namespace) -> None:
    if args.calibration and args.quantize != "int8":
        raise CliError("--calibration is for --quantize int8")
    if args.quantize == "int8" and not args.calibration:
        raise CliError("--quantize int8 needs --calibration DIR_OR_NPY (16 samples or more)")
    if args.quantize == "int4-weight":
        from ..recipes import WEIGHT_GROUP_SIZES

        if args.group_size not in WEIGHT_GROUP_SIZES:
            raise CliError(f"--group-size {args.group_size}: one of {WEIGHT_GROUP_SIZES}")
    if args.calibration and not Path(args.calibration).exists():
        raise CliError(f"--calibration {args.calibration}: no such file or folder")


def _samples(path: Path, loaded: LoadedModel) -> list[list[Any]]:
    """The calibration samples as flat input lists (the order forward() takes them)."""
    import numpy as np
    import torch

    names = [f"arg{i}" for i in range(len(loaded.args))] + list(loaded.kwargs)
    examples = loaded.flat_inputs()

    def tensor(array: Any, index: int, where: str) -> Any:
        example = examples[index]
        value = torch.from_numpy(np.ascontiguousarray(array)).to(example.dtype)
        if tuple(value.shape) != tuple(example.shape):
            raise CliError(
                f"{where}: input {names[index]} has shape {tuple(value.shape)}, the example "
                f"input {tuple(example.shape)}"
            )
        return value

    def from_file(file: Path, batched: bool) -> list[list[Any]]:
        try:
            data = np.load(file, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise CliError(f"--calibration {file}: not a .npy/.npz file ({e})") from None
        if isinstance(data, np.ndarray):
            if len(examples) != 1:
                raise CliError(f"{file}: a .npy holds one input; the model takes {len(examples)}")
            arrays = [data]
        else:
            keys = list(loaded.kwargs) if loaded.kwargs else list(data.files)
            if len(keys) != len(examples):
                raise CliError(f"{file}: holds {sorted(data.files)}; the model takes {names}")
            try:
                arrays = [data[k] for k in keys]
            except KeyError as e:
                raise CliError(f"{file}: no array {e} (it holds {sorted(data.files)})") from None
        if not batched:
            return [[tensor(a, i, str(file)) for i, a in enumerate(arrays)]]
        count = len(arrays[0])
        return [
            [tensor(a[j], i, f"{file}[{j}]") for i, a in enumerate(arrays)] for j in range(count)
        ]

    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in (".npy", ".npz"))
        if not files:
            raise CliError(f"--calibration {path}: no .npy or .npz files")
        return [s for f in files for s in from_file(f, batched=False)]
    return from_file(path, batched=True)


def _call(model: Any, loaded: LoadedModel, flat: list[Any]) -> None:
    n = len(loaded.args)
    model(*flat[:n], **dict(zip(loaded.kwargs, flat[n:], strict=True)))


def quantize(args: argparse.Namespace, loaded: LoadedModel, note: Callable[[str], None]) -> Any:
    """The ExportedProgram of the quantized model (`note` prints one progress line)."""
    import torch

    if args.quantize == "int8":
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

        from ..quantizer import AscendQuantizer

        samples = _samples(Path(args.calibration), loaded)
        graph = torch.export.export(loaded.model, loaded.args, kwargs=loaded.kwargs).module()
        prepared = prepare_pt2e(graph, AscendQuantizer())
        with torch.no_grad():
            for i, sample in enumerate(samples, start=1):
                _call(prepared, loaded, sample)
                note(f"calibration batch {i}/{len(samples)}")
        model = convert_pt2e(prepared)
    else:
        from torchao.quantization import quantize_

        from ..recipes import weight_only_config

        # --group-size was checked by check_quantize_arguments
        config = weight_only_config(args.quantize == "int4-weight", args.group_size)
        model = loaded.model
        quantize_(model, config, filter_fn=lambda m, _: isinstance(m, torch.nn.Linear))
        note(f"{args.quantize}: torchao IntxWeightOnlyConfig on every nn.Linear")
    return torch.export.export(model, loaded.args, kwargs=loaded.kwargs)
