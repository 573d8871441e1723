# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Stage lines for long CLI commands: each stage with its elapsed time, and the package's own
INFO/WARNING log records (a partition compiled by atc, a placement warning) shown under the stage
that produced them, so a long lowering is not silent."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

# The loggers whose records say what lowering is doing (partitioner.py, backend.py,
# toolchain/atc.py).
PACKAGE_LOGGER = "executorch_ascend"


class _StageHandler(logging.Handler):
    def __init__(self, progress: Progress) -> None:
        super().__init__(logging.INFO)
        self.progress = progress

    def emit(self, record: logging.LogRecord) -> None:
        level = "" if record.levelno < logging.WARNING else f"{record.levelname.lower()}: "
        self.progress.note(f"{level}{record.getMessage()}")


class Progress:
    """`with progress.stage("torch.export"):` prints '[1/4] torch.export ...' and its time."""

    def __init__(self, stages: int, out: TextIO | None = None) -> None:
        self.stages = stages
        self.done = 0
        self.out = out or sys.stdout
        self._started = time.monotonic()
        self._stage_started = self._started

    def note(self, text: str) -> None:
        elapsed = time.monotonic() - self._stage_started
        print(f"      {elapsed:6.1f}s  {text}", file=self.out, flush=True)

    @contextmanager
    def stage(self, title: str) -> Iterator[None]:
        self.done += 1
        print(f"[{self.done}/{self.stages}] {title} ...", file=self.out, flush=True)
        self._stage_started = time.monotonic()
        yield
        took = time.monotonic() - self._stage_started
        print(f"      done in {took:.1f} s", file=self.out, flush=True)

    @property
    def total_s(self) -> float:
        return time.monotonic() - self._started

    @contextmanager
    def package_logs(self) -> Iterator[None]:
        """Shows the package's INFO and WARNING records as notes of the current stage."""
        logger = logging.getLogger(PACKAGE_LOGGER)
        handler = _StageHandler(self)
        old_level, old_propagate = logger.level, logger.propagate
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
        try:
            yield
        finally:
            logger.removeHandler(handler)
            logger.setLevel(old_level)
            logger.propagate = old_propagate
