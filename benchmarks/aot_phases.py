# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Where an export's peak RSS comes from: the process's RSS per phase of the export.

    with PhaseRss() as rss:
        rss.wrap(CausalLMExportableModule, "export", "torch.export")
        ...                                   # run the export
    print(rss.table(weight_bytes))

A thread samples this process's VmRSS every 5 ms and charges it to the innermost phase running
(phases nest: a wrapped call inside another is its own phase, and the outer one resumes after it).
The kernel's high-water mark (VmHWM) is read at every phase change too, so a peak between two
samples (a C call holding the GIL) is still charged to the phase it happened in. Child processes
(atc) are not in this process's RSS (RUSAGE_CHILDREN would not tell theirs: a child forked from
this process counts this process's pages until it execs).
"""

from __future__ import annotations

import functools
import resource
import threading
import time
from typing import Any

_PAGE = resource.getpagesize()


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return 0


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE


class PhaseRss:
    """Per phase: its peak RSS, its RSS at the start and at the end, its seconds."""

    def __init__(self, first: str = "start", interval: float = 0.005) -> None:
        self._stack = [first]
        self._interval = interval
        self._lock = threading.Lock()
        self._hwm = _status_kib("VmHWM:") * 1024
        # name -> [peak, rss at first entry, rss at last exit, seconds, entries]
        self.phases: dict[str, list[float]] = {first: [_rss_bytes(), _rss_bytes(), 0, 0.0, 1]}
        self._entered: list[float] = [time.perf_counter()]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._undo: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> PhaseRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._switch(None)
        self._stop.set()
        self._thread.join()
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)

    def _charge(self, rss: int) -> None:
        row = self.phases[self._stack[-1]]
        row[0] = max(row[0], rss)

    def _sample(self) -> None:
        while not self._stop.wait(self._interval):
            with self._lock:
                self._charge(_rss_bytes())

    def _switch(self, enter: str | None) -> None:
        """Enters phase `enter`, or leaves the innermost one (None)."""
        with self._lock:
            hwm = _status_kib("VmHWM:") * 1024
            if hwm > self._hwm:  # a peak the sampler may have missed, in the running phase
                self._charge(hwm)
                self._hwm = hwm
            rss = _rss_bytes()
            self._charge(rss)
            now = time.perf_counter()
            top = self.phases[self._stack[-1]]
            top[3] += now - self._entered[-1]
            if enter is None:
                top[2] = rss
                self._stack.pop()
                self._entered.pop()
                if self._entered:
                    self._entered[-1] = now
            else:
                self._entered[-1] = now
                row = self.phases.setdefault(enter, [rss, rss, rss, 0.0, 0])
                row[4] += 1
                self._stack.append(enter)
                self._entered.append(now)

    def wrap(self, owner: Any, name: str, phase: str) -> None:
        """Makes every call of `owner.name` (a function or method) the phase `phase`."""
        original = owner.__dict__[name] if name in owner.__dict__ else getattr(owner, name)
        is_static = isinstance(original, staticmethod)
        is_class = isinstance(original, classmethod)
        func = original.__func__ if is_static or is_class else original

        @functools.wraps(func)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._switch(phase)
            try:
                return func(*args, **kwargs)
            finally:
                self._switch(None)

        replacement: Any = timed
        if is_static:
            replacement = staticmethod(timed)
        elif is_class:
            replacement = classmethod(timed)
        setattr(owner, name, replacement)
        self._undo.append((owner, name, original))

    def table(self, weight_bytes: int) -> str:
        gib = 2**30
        rows = [
            "| phase | calls | seconds | RSS at start GiB | peak RSS GiB (x weights) "
            "| RSS after GiB |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for name, (peak, start, end, seconds, calls) in self.phases.items():
            rows.append(
                f"| {name} | {int(calls)} | {seconds:.1f} | {start / gib:.2f} | "
                f"{peak / gib:.2f} ({peak / weight_bytes:.2f}x) | {end / gib:.2f} |"
            )
        hwm = _status_kib("VmHWM:") * 1024
        rows.append(f"\nprocess peak (VmHWM) {hwm / gib:.2f} GiB ({hwm / weight_bytes:.2f}x)")
        return "\n".join(rows)
