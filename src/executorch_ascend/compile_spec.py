# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The options of an Ascend lowering, and their round trip through ExecuTorch CompileSpecs."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal, cast

from executorch.exir.backend.compile_spec_schema import CompileSpec

from .cann_op_facts import default_precision_mode
from .soc_versions import MIN_GEARS, max_gears, soc_version_error
from .toolchain import atc_options as atc_table

Toolchain = Literal["auto", "cann", "emulator"]
TOOLCHAINS: tuple[str, ...] = ("auto", "cann", "emulator")

# atc's --precision_mode values (CANN's atc: atc_options.json). The backend's default depends on
# the chip (cann_op_facts.default_precision_mode): must_keep_origin_dtype, which keeps fp32 graphs
# fp32 (an exported program gives eager PyTorch's fp32 numbers on the chip as on the emulator),
# where every op has float32; allow_fp32_to_fp16 on the inference chips (Ascend310P, Ascend310B),
# whose cube units have no float32: Conv/MatMul/Gemm run in float16 there. CANN's own default is
# force_fp16, which the emulator's atc emulates too (docs/atc.md "Precision modes").
PRECISION_MODES: tuple[str, ...] = atc_table.PRECISION_MODES  # atc_options.json

# atc --external_weight (CANN's atc: atc_options.json): 0 every constant inside the .om, 1 one
# file per constant in weight/ beside the .om, 2 all of them in one combined file there.
EXTERNAL_WEIGHT_MODES: tuple[int, ...] = tuple(
    int(v) for v in atc_table.CANN_OPTIONS["external_weight"].values
)
# The default where every op has float32 (the chip's own default: default_precision_mode).
DEFAULT_PRECISION_MODE = "must_keep_origin_dtype"
# How long atc may run on one partition before the lowering fails (seconds).
DEFAULT_ATC_TIMEOUT_S = 600
# Compile specs whose value is an int (the others are text).
_INT_FIELDS: tuple[str, ...] = ("device_id", "external_weight", "external_weight_threshold")
# Gear fields: in a CompileSpec as atc writes them, "1,2,4" and "1,16;2,32" (empty: no gears).
_GEAR_FIELDS: tuple[str, ...] = ("dynamic_batch_size", "dynamic_dims")

# When set (and AscendCompileSpec.dump_dir is not), the folder every lowering dumps into.
ENV_DUMP_DIR = "EXECUTORCH_ASCEND_DUMP_DIR"

# The tag becomes a file name, "<tag>.ptd", next to the .pte.
_TAG_PATTERN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


class CompileSpecError(ValueError):
    """An AscendCompileSpec field has a value atc or the runtime cannot use."""


@dataclass(frozen=True)
class AscendCompileSpec:
    """How AscendBackend compiles a partition.

    soc_version:    atc --soc_version, the chip the .om runs on (an .om runs only on its family).
    precision_mode: atc --precision_mode; None (the default): the chip's, must_keep_origin_dtype
                    (fp32 parity with eager) where every op has float32, allow_fp32_to_fp16 on
                    Ascend310P/Ascend310B, whose cube units have none (Conv, MatMul and Gemm
                    then run in float16: expect ~1e-3 of the output's scale). CANN's own default
                    is force_fp16, emulated by the emulator too. docs/using-real-cann.md.
    device_id:      default device the runtime uses for this program.
    toolchain:      "cann" requires CANN's atc, "emulator" uses the bundled emulator's atc,
                    "auto" uses CANN's when found, else the emulator's (with a warning).
    atc_path:       explicit CANN atc (toolchain "cann" or "auto").
    external_tag:   when set, the compiled .om goes to "<external_tag>.ptd" instead of the .pte,
                    and so do the weight files of the partition (unless a constant carries its
                    own tag from delegate_external_constants_pass_unlifted).
    external_weight: atc --external_weight: 0 the weights stay inside the .om; 1 atc writes one
                    weight file per large constant, 2 one combined file. The weight files are
                    stored as named data under content keys, so identical weights of several
                    partitions or methods are stored once (and held once on the device).
    external_weight_threshold: constants of at least this many bytes are handed to atc as ONNX
                    external data (so no ONNX protobuf limit applies) and, with external_weight 1
                    or 2, become weight files; 0 takes every constant that has bytes. Smaller
                    ones (shapes, scalars, biases) stay inline in the .om.
    dynamic_batch_size: shape gears of the batch (dim 0 of every input that has a symbolic
                    dim), atc --dynamic_batch_size: e.g. (1, 2, 4). The program must be exported
                    with a bounded torch.export.Dim there, and every gear must lie in its range;
                    the one .om then runs at exactly these batch sizes.
    dynamic_dims:   shape gears of several symbolic dims, atc --dynamic_dims: each gear gives one
                    value per distinct symbolic dim of the exported program's inputs, in order of
                    first appearance (input 0's dims left to right, then input 1's...), e.g.
                    ((1, 16), (1, 32)) for (batch, seq); atc gets one value per -1 occurrence.
                    Not together with dynamic_batch_size. See docs/shape-gears.md.
    atc_options:    further atc options, passed as --name=value: a mapping {name: value} or
                    (name, value) pairs, kept as pairs sorted by name. Checked against the
                    options CANN's atc accepts (toolchain/atc_options.py; docs/atc.md, "Further atc
                    options"): an unknown name, an option the spec sets itself, one that would
                    change the .om's inputs or outputs, or a value atc would refuse is a
                    CompileSpecError.
                    File options (keep_dtype, insert_op_conf, fusion_switch_file, ...) must name
                    an existing file; atc gets a copy of it taken at compile time.
    dump_dir:       a folder that receives, per partition, what atc got and gave: the ONNX
                    model (with its external data), the .om and its weight files, the atc
                    command line and atc's log (also when atc fails). Unset: the environment
                    variable EXECUTORCH_ASCEND_DUMP_DIR, if set. Dumping changes nothing compiled.
    atc_timeout_s:  seconds atc may run on one partition (default 600).
    keep_onnx:      also store each partition's ONNX model (and its external data, under the
                    same content keys as the weight files, so identical bytes are stored once)
                    as named data beside the .om, so that `executorch-ascend compile` can build
                    .om files for other SoCs, or with CANN's atc, from the saved program alone
                    (docs/using-real-cann.md, "Compiling later, or for several chips").
    """

    soc_version: str = "Ascend910B1"
    precision_mode: str | None = None
    device_id: int = 0
    toolchain: Toolchain = "auto"
    atc_path: str | None = None
    external_tag: str | None = None
    external_weight: int = 1
    external_weight_threshold: int = 1024
    dynamic_batch_size: tuple[int, ...] = ()
    dynamic_dims: tuple[tuple[int, ...], ...] = ()
    atc_options: tuple[tuple[str, str], ...] = ()
    dump_dir: str | None = None
    atc_timeout_s: float = DEFAULT_ATC_TIMEOUT_S
    keep_onnx: bool = False

    def __post_init__(self) -> None:
        # Lists are accepted and kept as tuples, so the spec stays hashable and comparable.
        if isinstance(self.dynamic_batch_size, list):
            object.__setattr__(self, "dynamic_batch_size", tuple(self.dynamic_batch_size))
        if isinstance(self.dynamic_dims, list) or (
            isinstance(self.dynamic_dims, tuple)
            and any(isinstance(g, list) for g in self.dynamic_dims)
        ):
            gears = tuple(tuple(g) if isinstance(g, list) else g for g in self.dynamic_dims)
            object.__setattr__(self, "dynamic_dims", gears)
        try:
            options = atc_table.normalize(cast(Any, self.atc_options))
        except ValueError as e:
            raise CompileSpecError(str(e)) from e
        object.__setattr__(self, "atc_options", options)
        if isinstance(self.dump_dir, os.PathLike):
            object.__setattr__(self, "dump_dir", os.fspath(self.dump_dir))
        v2 = dict(self.atc_options).get(atc_table.PRECISION_MODE_V2)
        if v2 is not None and self.precision_mode not in (
            None,
            default_precision_mode(self.soc_version),
        ):
            raise CompileSpecError(
                f"precision_mode={self.precision_mode!r} and the atc option "
                f"precision_mode_v2={v2!r} are both set, and atc takes one of them: leave "
                "precision_mode unset (precision_mode_v2 then replaces it)"
            )
        if self.precision_mode is None:
            # The chip's default (an unknown SoC name is refused by validate() below).
            object.__setattr__(self, "precision_mode", default_precision_mode(self.soc_version))
        self.validate()

    @property
    def gears(self) -> tuple[tuple[int, ...], ...]:
        """The shape gears, one tuple of symbol values each (a batch gear is a 1-tuple)."""
        if self.dynamic_batch_size:
            return tuple((b,) for b in self.dynamic_batch_size)
        return self.dynamic_dims

    def validate(self) -> None:
        soc_error = soc_version_error(self.soc_version)
        if soc_error is not None:
            raise CompileSpecError(soc_error)
        if self.precision_mode not in PRECISION_MODES:
            raise CompileSpecError(
                f"precision_mode {self.precision_mode!r} is not an atc precision mode; "
                f"use one of {', '.join(PRECISION_MODES)}"
            )
        if not _is_int(self.device_id) or not 0 <= self.device_id < 2**31:
            raise CompileSpecError(f"device_id must be an int >= 0, got {self.device_id!r}")
        if self.toolchain not in TOOLCHAINS:
            raise CompileSpecError(
                f"toolchain must be one of {', '.join(TOOLCHAINS)}, got {self.toolchain!r}"
            )
        if self.atc_path is not None:
            if not isinstance(self.atc_path, str) or not self.atc_path:
                raise CompileSpecError("atc_path must be a non-empty path string")
            if self.toolchain == "emulator":
                raise CompileSpecError(
                    "atc_path names CANN's atc and is not used with toolchain='emulator'; "
                    "set EXECUTORCH_ASCEND_EMULATOR_ATC to choose another emulator atc"
                )
        if self.external_tag is not None and (
            not isinstance(self.external_tag, str) or not _TAG_PATTERN.match(self.external_tag)
        ):
            raise CompileSpecError(
                "external_tag becomes the file name '<tag>.ptd': use letters, digits, '_', '-', "
                f"'.', not starting with '.' or '-'; got {self.external_tag!r}"
            )
        if not _is_int(self.external_weight) or self.external_weight not in EXTERNAL_WEIGHT_MODES:
            raise CompileSpecError(
                "external_weight is atc's --external_weight: 0 (weights inside the .om), "
                "1 (one weight file per constant) or 2 (one combined weight file); "
                f"got {self.external_weight!r}"
            )
        if not _is_int(self.external_weight_threshold) or not (
            0 <= self.external_weight_threshold < 2**63
        ):
            raise CompileSpecError(
                "external_weight_threshold must be an int >= 0 (bytes; 0 makes every constant "
                f"external), got {self.external_weight_threshold!r}"
            )
        _validate_gears(self.dynamic_batch_size, self.dynamic_dims, self.soc_version)
        self._validate_atc_extras()

    def _validate_atc_extras(self) -> None:
        if self.dump_dir is not None and (
            not isinstance(self.dump_dir, str) or not self.dump_dir or "\0" in self.dump_dir
        ):
            raise CompileSpecError(
                f"dump_dir must be a non-empty folder path, got {self.dump_dir!r}"
            )
        if not isinstance(self.keep_onnx, bool):
            raise CompileSpecError(f"keep_onnx must be True or False, got {self.keep_onnx!r}")
        t = self.atc_timeout_s
        if isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t <= 0:
            raise CompileSpecError(f"atc_timeout_s must be a number of seconds > 0, got {t!r}")

    @property
    def effective_dump_dir(self) -> str | None:
        """dump_dir, else EXECUTORCH_ASCEND_DUMP_DIR (empty: none)."""
        return self.dump_dir or os.environ.get(ENV_DUMP_DIR) or None

    def to_compile_specs(self) -> list[CompileSpec]:
        """One CompileSpec per set field, values UTF-8 encoded."""
        specs = []
        for key, value in asdict(self).items():
            if value is None or value == ():
                continue
            if key == "atc_timeout_s" and value == DEFAULT_ATC_TIMEOUT_S:
                continue  # the default is not recorded in every program
            if key == "keep_onnx":
                if not value:
                    continue
                value = 1
            if key in _GEAR_FIELDS:
                value = gears_text(value)
            elif key == "atc_options":
                value = json.dumps([list(pair) for pair in value])
            specs.append(CompileSpec(key, str(value).encode("utf-8")))
        return specs

    @classmethod
    def from_compile_specs(cls, specs: Iterable[CompileSpec]) -> AscendCompileSpec:
        known = {f.name for f in fields(cls)}
        values: dict[str, object] = {}
        for spec in specs:
            if spec.key not in known:
                raise CompileSpecError(
                    f"unknown Ascend compile spec key {spec.key!r}; known: {sorted(known)}"
                )
            if spec.key in values:
                raise CompileSpecError(f"compile spec key {spec.key!r} given twice")
            try:
                text = bytes(spec.value).decode("utf-8")
            except UnicodeDecodeError as e:
                raise CompileSpecError(f"compile spec {spec.key!r} is not UTF-8 text") from e
            if spec.key in _INT_FIELDS:
                try:
                    values[spec.key] = int(text)
                except ValueError as e:
                    raise CompileSpecError(f"{spec.key} must be an integer, got {text!r}") from e
            elif spec.key in _GEAR_FIELDS:
                values[spec.key] = _parse_gears(spec.key, text)
            elif spec.key == "atc_options":
                values[spec.key] = _parse_atc_options(text)
            elif spec.key == "keep_onnx":
                if text not in ("0", "1"):
                    raise CompileSpecError(f"keep_onnx must be 0 or 1, got {text!r}")
                values[spec.key] = text == "1"
            elif spec.key == "atc_timeout_s":
                values[spec.key] = _parse_seconds(text)
            else:
                values[spec.key] = text
        return cls(**values)  # type: ignore[arg-type]


def gears_text(value: tuple[int, ...] | tuple[tuple[int, ...], ...]) -> str:
    """atc's syntax: "1,2,4" for batch gears, "1,16;2,32" for dims gears."""
    if value and isinstance(value[0], tuple):
        return ";".join(",".join(str(v) for v in g) for g in value)
    return ",".join(str(v) for v in value)


def _parse_gears(key: str, text: str) -> tuple:
    try:
        if key == "dynamic_batch_size":
            return tuple(int(v) for v in text.split(","))
        return tuple(tuple(int(v) for v in g.split(",")) for g in text.split(";"))
    except ValueError as e:
        raise CompileSpecError(f"{key} must look like atc's '{_EXAMPLE[key]}', got {text!r}") from e


def _parse_atc_options(text: str) -> tuple[tuple[str, str], ...]:
    try:
        pairs = json.loads(text)
    except ValueError as e:
        raise CompileSpecError(f"atc_options must be a JSON list of pairs, got {text!r}") from e
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p) for p in pairs
    ):
        raise CompileSpecError(f"atc_options must be a JSON list of [name, value], got {text!r}")
    return tuple((name, value) for name, value in pairs)


def _parse_seconds(text: str) -> float:
    try:
        return int(text) if text.isdigit() else float(text)
    except ValueError as e:
        raise CompileSpecError(f"atc_timeout_s must be a number, got {text!r}") from e


_EXAMPLE = {"dynamic_batch_size": "1,2,4", "dynamic_dims": "1,16;2,32"}


def _validate_gears(batch: object, dims: object, soc_version: str) -> None:
    if not isinstance(batch, tuple) or not all(_is_int(b) for b in batch):
        raise CompileSpecError(f"dynamic_batch_size must be a tuple of ints, got {batch!r}")
    if not isinstance(dims, tuple) or not all(
        isinstance(g, tuple) and all(_is_int(v) for v in g) for g in dims
    ):
        raise CompileSpecError(
            f"dynamic_dims must be a tuple of int tuples (one per gear), got {dims!r}"
        )
    if batch and dims:
        raise CompileSpecError(
            "dynamic_batch_size and dynamic_dims cannot both be set (atc takes one of them); "
            "give the batch as one of the dynamic_dims values instead"
        )
    if dims:
        counts = {len(g) for g in dims}
        if len(counts) != 1 or 0 in counts:
            raise CompileSpecError(
                "every dynamic_dims gear must give the same number (>= 1) of values, one per "
                f"symbolic dim; got {gears_text(dims)}"
            )
    for key, gears in (("dynamic_batch_size", batch), ("dynamic_dims", dims)):
        if not gears:
            continue
        most = max_gears(soc_version)
        if not MIN_GEARS <= len(gears) <= most:
            raise CompileSpecError(
                f"{key} needs {MIN_GEARS} to {most} gears (atc's limit for {soc_version}), "
                f"got {len(gears)}"
            )
        if len(set(gears)) != len(gears):
            raise CompileSpecError(f"{key} lists a gear twice: {gears_text(gears)}")
        values = [v for g in gears for v in (g if isinstance(g, tuple) else (g,))]
        if any(v <= 0 for v in values):
            raise CompileSpecError(f"{key} gears must be positive, got {gears_text(gears)}")


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True is no device id or byte count.
    return isinstance(value, int) and not isinstance(value, bool)


SpecLike = AscendCompileSpec | Sequence[CompileSpec] | None


def as_compile_spec(spec: SpecLike) -> AscendCompileSpec:
    """Accepts an AscendCompileSpec, a list of CompileSpec, or None (defaults)."""
    if spec is None:
        return AscendCompileSpec()
    if isinstance(spec, AscendCompileSpec):
        return spec
    return AscendCompileSpec.from_compile_specs(cast(Sequence[CompileSpec], spec))
