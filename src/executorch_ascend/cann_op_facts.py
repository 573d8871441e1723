# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What CANN can compute per chip family, for the ONNX ops the lowering emits.

The facts are data, `cann_op_facts.json` beside this file, read from CANN's public sources (the
commits it names): which chip families have no bfloat16 at all, which ops have no float32 on a
family (the inference chips' cube units take float16/int8) and which ops have no bfloat16. The
emulator's atc reads the same file (a header generated at build time), so the partitioner,
preprocess and atc refuse the same things. An op or a family the file does not name is not
restricted.
"""

from __future__ import annotations

import json
from importlib import resources

from .soc_versions import SOC_VERSIONS

_DATA = json.loads(resources.files(__package__).joinpath("cann_op_facts.json").read_text("utf-8"))

#: Where each fact comes from (short name -> repository@commit, or the document).
SOURCES: dict[str, str] = dict(_DATA["sources"])
_NO_BF16_FAMILIES: dict[str, str] = dict(_DATA["families_without_bfloat16"])
_OPS: dict[str, dict] = dict(_DATA["ops"])

#: The precision mode a chip family gets when the compile spec names none: must_keep_origin_dtype
#: (fp32 parity) where every op has float32, else allow_fp32_to_fp16 (atc runs the ops without
#: float32 in float16 and keeps the rest in float32).
KEEP_DTYPE = "must_keep_origin_dtype"
FP32_TO_FP16 = "allow_fp32_to_fp16"
#: Modes under which atc may run an op without float32 in float16 (docs/atc.md).
MODES_FOR_NO_FLOAT32 = ("allow_fp32_to_fp16", "force_fp16", "allow_mix_precision")


def family(soc_version: str) -> str:
    """CANN's family of a SoC name (Short_SoC_version), or the name itself if unknown."""
    return SOC_VERSIONS.get(soc_version, soc_version)


def soc_has_bf16(soc_version: str) -> bool:
    return family(soc_version) not in _NO_BF16_FAMILIES


def no_bf16_reason(soc_version: str) -> str | None:
    """Why the chip has no bfloat16 at all, or None."""
    return _NO_BF16_FAMILIES.get(family(soc_version))


def no_float32_ops(soc_version: str) -> frozenset[str]:
    """The ONNX ops CANN cannot compute in float32 on `soc_version`'s family."""
    fam = family(soc_version)
    return frozenset(op for op, f in _OPS.items() if fam in f.get("no_float32", ()))


def no_bfloat16_ops() -> frozenset[str]:
    """The ONNX ops CANN cannot compute in bfloat16 on any chip."""
    return frozenset(op for op, f in _OPS.items() if f.get("no_bfloat16", False))


def source_of(op_type: str) -> str:
    return str(_OPS.get(op_type, {}).get("source", ""))


def default_precision_mode(soc_version: str) -> str:
    return FP32_TO_FP16 if no_float32_ops(soc_version) else KEEP_DTYPE
