# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The options of CANN's atc, as data: which ones AscendCompileSpec.atc_options passes through,
which ones the compile spec owns, and which ones the backend cannot pass.

The facts are data, `atc_options.json` beside this file: every option atc defines, the kind of
value it takes and the values atc accepts, from CANN's graph engine (hicann/ge, the commit named
in the file: `api/atc/atc_flags.cc`, `api/atc/cmd_flag_info.cc`, `compiler/api/aclgrph/
option_utils.cc`). The emulator's atc reads the same file (a header generated from it at build
time), so the compile spec and atc agree on what each option takes. Here: which options the
compile spec sets itself (OWNED) and which the backend cannot pass (REFUSED), with the reason;
every other option passes through. docs/atc.md says what the emulator's atc does with each one.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal, cast

_DATA = json.loads(
    resources.files("executorch_ascend").joinpath("atc_options.json").read_text("utf-8")
)

#: Where the option table comes from (repository@commit:files).
SOURCE: str = _DATA["source"]

# choice: one of `values`; file: an existing file (atc reads it); dir: an existing folder atc
# reads (a tuning repository); outdir: a folder atc writes (created by atc); int: a decimal
# integer >= `minimum`; text: free text on one line; bool: a flag (help and one more).
Kind = Literal["choice", "file", "dir", "outdir", "int", "text", "bool"]


@dataclass(frozen=True)
class AtcOption:
    kind: Kind
    values: tuple[str, ...] = ()  # kind "choice"
    minimum: int = 0  # kind "int"


def _option(entry: Mapping[str, object]) -> AtcOption:
    values = entry.get("values", [])
    assert isinstance(values, list)
    return AtcOption(
        cast(Kind, entry["kind"]),
        tuple(str(v) for v in values),
        int(cast(int, entry.get("minimum", 0))),
    )


#: Every option of CANN's atc (help included), in atc_flags.cc's order.
CANN_OPTIONS: dict[str, AtcOption] = {
    name: _option(entry) for name, entry in _DATA["options"].items()
}

#: CANN's --precision_mode values, in CANN's order.
PRECISION_MODES: tuple[str, ...] = CANN_OPTIONS["precision_mode"].values

#: Each --precision_mode_v2 value as a --precision_mode value (None: none, the HiFloat8 modes).
PRECISION_MODE_V2_AS_V1: dict[str, str | None] = dict(
    _DATA["precision_mode_v2"]["as_precision_mode"]
)

# Options the compile spec sets itself: the field (or the reason) to use instead.
OWNED: dict[str, str] = {
    "soc_version": "set AscendCompileSpec.soc_version",
    "precision_mode": "set AscendCompileSpec.precision_mode (or pass precision_mode_v2 here)",
    "external_weight": "set AscendCompileSpec.external_weight",
    "dynamic_batch_size": "set AscendCompileSpec.dynamic_batch_size",
    "dynamic_dims": "set AscendCompileSpec.dynamic_dims",
    "input_shape": "the backend gives every input's shape from the exported program "
    "(shape gears: AscendCompileSpec.dynamic_batch_size / dynamic_dims)",
    "input_format": "the backend chooses it from the inputs' ranks (NCHW for 4-D inputs, else ND)",
    "framework": "the backend always gives atc ONNX (--framework=5)",
    "model": "the backend writes the partition's ONNX model and names it",
    "output": "the backend names the .om and reads it back (see AscendCompileSpec.dump_dir to "
    "keep a copy)",
    "mode": "the backend builds an .om (--mode=0)",
    "device_id": "atc's --device_id picks a device for tuning; the runtime device is "
    "AscendCompileSpec.device_id, which is not an atc option",
    "insert_op_conf": "put CANN's AIPP in the model, so that the program's input is the uint8 "
    "frame: executorch_ascend.with_aipp(model, AippConfig(...) or AippConfig.from_file(path), "
    "input_shape) (docs/aipp.md)",
}

# Real atc options the backend cannot pass, and why.
REFUSED: dict[str, str] = {
    "output_type": "it changes the .om's output dtypes, which must be the exported program's",
    "out_nodes": "it changes the .om's outputs, which must be the exported program's",
    "input_fp16_nodes": "it changes the .om's input dtypes, which must be the exported program's",
    "is_input_adjust_hw_layout": "it changes the .om's input layout (NC1HWC0), which must be "
    "the exported program's",
    "is_output_adjust_hw_layout": "it changes the .om's output layout (NC1HWC0), which must be "
    "the exported program's",
    "dynamic_image_size": "the backend compiles static shapes or shape gears "
    "(AscendCompileSpec.dynamic_batch_size / dynamic_dims)",
    "input_shape_range": "the backend compiles static shapes or shape gears "
    "(AscendCompileSpec.dynamic_batch_size / dynamic_dims)",
    "input_hint_shape": "the backend compiles static shapes or shape gears "
    "(AscendCompileSpec.dynamic_batch_size / dynamic_dims)",
    "weight": "it is Caffe's weight file; the backend gives atc ONNX",
    "enable_scope_fusion_passes": "it selects TensorFlow scope fusion passes; the backend gives "
    "atc ONNX",
    "singleop": "it builds single-op models, not a partition's .om",
    "om": "it is read only by --mode=1 and --mode=6; the backend builds (--mode=0)",
    "json": "it is written only by --mode=1; the backend builds (--mode=0)",
    "dump_mode": "it is read only by --mode=1; the backend builds (--mode=0)",
    "check_report": "it is written only by --mode=3; the backend builds (--mode=0)",
    "raw_ge_options": "its JSON file can set any option, the compile spec's own included; "
    "pass the options one by one",
    "raw_ge_options_ignore_unsupported": "it goes with raw_ge_options, which is refused",
    "help": "it prints atc's help and builds nothing",
}

# Options atc_options passes to atc as --name=value: every other option.
PASS_THROUGH: dict[str, AtcOption] = {
    name: option
    for name, option in CANN_OPTIONS.items()
    if name not in OWNED and name not in REFUSED
}

ALL_ATC_OPTIONS: frozenset[str] = frozenset(CANN_OPTIONS)

# CANN's atc takes one of --precision_mode and --precision_mode_v2 ("Cannot config both").
PRECISION_MODE_V2 = "precision_mode_v2"
# --optypelist_for_implmode without --op_select_implmode is an atc error.
IMPLMODE_PAIR = ("optypelist_for_implmode", "op_select_implmode")


AtcOptionsLike = Mapping[str, object] | Iterable[tuple[str, object]] | None
# Where file options' copies go in atc's working folder (and so in a dump folder).
STAGED_FOLDER = "atc_option_files"


def normalize(options: AtcOptionsLike) -> tuple[tuple[str, str], ...]:
    """Checks `options` against the table; returns (name, value) pairs sorted by name, every
    value atc's text, file and folder paths absolute. Raises ValueError saying what is wrong."""
    if options is None:
        return ()
    if isinstance(options, str | bytes):
        raise ValueError(
            "atc_options must be a mapping {name: value} or (name, value) pairs, "
            f"got {type(options).__name__}"
        )
    items = list(options.items()) if isinstance(options, Mapping) else list(options)
    pairs: dict[str, str] = {}
    for item in items:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise ValueError(f"atc_options entries must be (name, value) pairs, got {item!r}")
        name, value = item
        check_name(name)
        if name in pairs:
            raise ValueError(f"atc option {name!r} is given twice")
        pairs[name] = _check_value(name, PASS_THROUGH[name], value)
    first, second = IMPLMODE_PAIR
    if first in pairs and second not in pairs:
        raise ValueError(
            f"atc option {first!r} needs {second!r} too (atc: they must be set at the same time)"
        )
    return tuple(sorted(pairs.items()))


def check_name(name: object) -> None:
    if not isinstance(name, str):
        raise ValueError(f"atc option names are text, got {name!r}")
    if name.startswith("-"):
        raise ValueError(
            f"give atc option {name!r} without the leading dashes: {name.lstrip('-')!r}"
        )
    if name in OWNED:
        raise ValueError(f"atc option {name!r} is set by the compile spec: {OWNED[name]}")
    if name in REFUSED:
        raise ValueError(f"atc option {name!r} cannot be passed through: {REFUSED[name]}")
    if name not in PASS_THROUGH:
        close = difflib.get_close_matches(name, sorted(ALL_ATC_OPTIONS), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise ValueError(
            f"{name!r} is not an option of CANN's atc{hint} (docs/atc.md lists the options "
            "atc_options passes through)"
        )


def _check_value(name: str, option: AtcOption, value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | os.PathLike):
        raise ValueError(
            f"atc option {name!r} takes text as on atc's command line (e.g. '1', 'true'), "
            f"got {value!r}"
        )
    if isinstance(value, os.PathLike) and option.kind not in ("file", "dir", "outdir"):
        raise ValueError(f"atc option {name!r} does not name a file, got the path {value!r}")
    text = os.fspath(value) if isinstance(value, os.PathLike) else str(value)
    if not text or any(ord(c) < 32 or c == "\x7f" for c in text):
        raise ValueError(f"atc option {name!r} needs a non-empty value on one line, got {text!r}")
    if option.kind == "choice" and text not in option.values:
        raise ValueError(
            f"atc option {name}={text!r} is invalid: atc takes {', '.join(option.values)}"
        )
    if option.kind == "int":
        try:
            number = int(text)
        except ValueError:
            number = option.minimum - 1
        if number < option.minimum or text.strip() != text:
            raise ValueError(
                f"atc option {name}={text!r} is invalid: atc takes an integer >= {option.minimum}"
            )
    if option.kind in ("file", "dir", "outdir"):
        path = Path(text).expanduser().resolve()
        if option.kind == "file" and not path.is_file():
            raise ValueError(f"atc option {name!r} names {text!r}, which is not an existing file")
        if option.kind == "dir" and not path.is_dir():
            raise ValueError(f"atc option {name!r} names {text!r}, which is not an existing folder")
        text = str(path)
    return text


def content_digest(name: str, value: str) -> str | None:
    """sha256 of what a file or folder option gives atc to read (a folder: every file in it, with
    its relative path), so a record of a compile names the content, not just the path. None for
    options that name no input."""
    kind = PASS_THROUGH[name].kind
    if kind == "file":
        return hashlib.sha256(Path(value).read_bytes()).hexdigest()
    if kind == "dir":
        digest = hashlib.sha256()
        root = Path(value)
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        return digest.hexdigest()
    return None


def stage(options: tuple[tuple[str, str], ...], workdir: Path) -> tuple[tuple[str, str], ...]:
    """Copies each file option's file into `workdir`/STAGED_FOLDER/<name>/ and gives atc that copy
    (a path relative to its working folder): atc reads the content as it was at compile time, and
    a dump of the working folder can be run again. Folders are passed as absolute paths."""
    staged = []
    for name, value in options:
        if PASS_THROUGH[name].kind == "file":
            source = Path(value)
            if not source.is_file():
                raise ValueError(f"atc option {name!r} names {value!r}, which no longer exists")
            target = workdir / STAGED_FOLDER / name / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            value = str(target.relative_to(workdir))
        staged.append((name, value))
    return tuple(staged)
