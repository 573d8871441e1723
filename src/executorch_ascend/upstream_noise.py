# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Known upstream messages the `executorch-ascend` commands do not show.

Each filter drops exactly one message, matched on its logger and its text, so every other record
of those loggers (real errors included) still gets through. Installed by the CLI only: a program
importing executorch_ascend keeps its logging as it set it up.

- torchao logs "Failed to load .../torchao/_C_mxfp8...so" and "_C_cutlass_90a" at import: CUDA
  kernels of torchao's wheel that a CPU-only torch cannot load, and that nothing here uses.
- torch.utils._pytree warns that torchao registers an Enum with register_constant(), deprecated in
  torch 2.13; torchao's business, once per process.
- A FutureWarning that `isinstance(treespec, LeafSpec)` is deprecated, raised inside torch's
  pytree when ExecuTorch deep-copies an exported program (copyreg): upstream code, not ours.
"""

from __future__ import annotations

import logging
import re
import warnings

# logger name -> pattern of the message that logger's filter drops
KNOWN_NOISE: dict[str, re.Pattern[str]] = {
    "torchao": re.compile(r"^Failed to load \S*torchao/_C_(mxfp8|cutlass_90a)\S*\.so: "),
    "torch.utils._pytree": re.compile(
        r"is an Enum subclass and is now natively supported by torch\.compile"
    ),
}


class _DropMessage(logging.Filter):
    def __init__(self, pattern: re.Pattern[str]) -> None:
        super().__init__()
        self.pattern = pattern

    def filter(self, record: logging.LogRecord) -> bool:
        return not self.pattern.search(record.getMessage())


def quiet_known_upstream_noise() -> None:
    """Adds one filter per known message (idempotent); call before torch is imported."""
    for name, pattern in KNOWN_NOISE.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, _DropMessage) for f in logger.filters):
            logger.addFilter(_DropMessage(pattern))
    warnings.filterwarnings(
        "ignore",
        message=r"`isinstance\(treespec, LeafSpec\)` is deprecated",
        category=FutureWarning,
    )
