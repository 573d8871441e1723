# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Latency statistics shared by the benchmark's measurements."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Latency:
    median_ms: float
    p90_ms: float

    def cell(self) -> str:
        return f"{self.median_ms:.3f} / {self.p90_ms:.3f}"


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile: the smallest sample with at least q of the samples <= it."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def measure(fn: Callable[[], object], iterations: int, warmup: int) -> Latency:
    """Calls fn `warmup` times untimed, then `iterations` times, each timed on its own."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(iterations):
        start = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return Latency(statistics.median(samples), percentile(samples, 0.9))


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """fn's result and its wall time in seconds."""
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start
