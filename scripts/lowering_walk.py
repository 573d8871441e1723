# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The modules of executorch_ascend a partition passes through in AscendBackend.preprocess.

Lowers two small programs, the examples' MLP with static shapes and with batch gears, with the
emulator's atc, and records (sys.setprofile) every call into a function of the package while
preprocess runs. Prints, per program, the package's modules in the order they are first entered
(the converter families as one entry, `lowering/converters/`), how many, and how often the walk
returns to a module it had left (every move between two modules counts; the converters' per-node
round trips through the context and the graph builder included), then the outline: the same walk
cut at three package calls deep (preprocess, what it calls, what those call).
docs/architecture.md quotes it.

    python scripts/lowering_walk.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import torch
from executorch.exir import to_edge_transform_and_lower
from torch.export import Dim, export

import executorch_ascend
from executorch_ascend import AscendCompileSpec, AscendPartitioner
from executorch_ascend.backend import AscendBackend

PACKAGE = Path(executorch_ascend.__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from example_models import Mlp  # noqa: E402  (examples/ is no package)


def _module_of(frame: FrameType) -> str | None:
    path = Path(frame.f_code.co_filename).resolve()
    if PACKAGE not in path.parents:
        return None
    name = path.relative_to(PACKAGE).as_posix()
    return "lowering/converters/" if name.startswith("lowering/converters/") else name


def walk(program: Any, spec: AscendCompileSpec) -> tuple[list[str], list[str]]:
    """The package modules the code runs in during preprocess, consecutive repeats merged: every
    step, and the outline (calls at most three package functions deep: preprocess, what it
    calls, and what those call)."""
    steps: list[str] = []
    outline: list[str] = []
    stack: list[str] = []  # the package modules of the package frames being run
    original: Callable[..., Any] = AscendBackend.preprocess

    def note() -> None:
        if stack and (not steps or steps[-1] != stack[-1]):
            steps.append(stack[-1])
        if stack and len(stack) <= 3 and (not outline or outline[-1] != stack[-1]):
            outline.append(stack[-1])

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event not in ("call", "return"):
            return
        module = _module_of(frame)
        if module is None:
            return
        if event == "call":
            stack.append(module)
        elif stack:
            stack.pop()
        note()

    def traced(*args: Any) -> Any:
        sys.setprofile(profile)
        try:
            return original(*args)
        finally:
            sys.setprofile(None)

    AscendBackend.preprocess = staticmethod(traced)
    try:
        to_edge_transform_and_lower(program, partitioner=[AscendPartitioner(spec)])
    finally:
        AscendBackend.preprocess = staticmethod(original)
    return steps, outline


def report(title: str, walked: tuple[list[str], list[str]]) -> None:
    steps, outline = walked
    order = list(dict.fromkeys(steps))
    returns = len(steps) - len(order)
    print(f"{title}: {len(order)} modules, {len(steps)} stops, {returns} returns")
    for i, module in enumerate(order, 1):
        print(f"  {i:2d} {module}")
    print(f"  outline, three calls deep ({len(outline)} stops): {' > '.join(outline)}")


def main() -> None:
    executorch_ascend.use_emulator()
    module = Mlp().eval()
    x = torch.randn(2, 32)
    report("static", walk(export(module, (x,)), AscendCompileSpec()))
    geared = export(module, (x,), dynamic_shapes=({0: Dim("batch", min=1, max=4)},))
    report("gears", walk(geared, AscendCompileSpec(dynamic_batch_size=(1, 2, 4))))


if __name__ == "__main__":
    main()
