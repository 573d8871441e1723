# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Long run of the random differential test (docs/testing.md, "Random differential tests"):
random ONNX graphs from tests/python/random_onnx_graphs.py, compiled by the emulator's atc, run
on the emulator and compared with onnxruntime.

    EXECUTORCH_ASCEND_DEV_BUILD=build/dev python scripts/random_graphs.py --seeds 0:2000
    python scripts/random_graphs.py --seeds 17 --family depthwise --keep /tmp/case17  # one case

Prints each failing seed with what its graph is about and the first mismatch; exits 1 if any."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "python"))

from emulator_onnx import AtcError, EmulatorOnnx  # noqa: E402
from random_onnx_graphs import FAMILIES, check_case, make_case  # noqa: E402


def _emulator() -> EmulatorOnnx:
    """A dev build's atc and libascendcl.so, else the ones tests/python/conftest.py or the user
    named (EXECUTORCH_ASCEND_EMULATOR_ATC / _ACL_LIB), else the installed emulator package's."""
    build = os.environ.get("EXECUTORCH_ASCEND_DEV_BUILD")
    if build:
        return EmulatorOnnx(
            Path(build) / "emulator/atc/atc", Path(build) / "emulator/acl/libascendcl.so"
        )
    atc = os.environ.get("EXECUTORCH_ASCEND_EMULATOR_ATC")
    lib = os.environ.get("EXECUTORCH_ASCEND_EMULATOR_ACL_LIB")
    if not (atc and lib):
        import executorch_ascend_emulator as emu

        atc, lib = atc or str(emu.atc()), lib or str(emu.acl_library())
    return EmulatorOnnx(Path(atc), Path(lib))


def _seeds(text: str) -> range:
    first, _, last = text.partition(":")
    return range(int(first), int(last)) if last else range(int(first), int(first) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0:500", help="FIRST:END (END excluded) or one seed")
    parser.add_argument("--family", choices=sorted(FAMILIES), help="only this family")
    parser.add_argument("--keep", type=Path, help="write each case's net.onnx/net.om here")
    parser.add_argument(
        "--threads", type=int, default=1, help="EXECUTORCH_ASCEND_EMU_NUM_THREADS (GEMM threads)"
    )
    args = parser.parse_args(argv)
    os.environ["EXECUTORCH_ASCEND_EMU_NUM_THREADS"] = str(args.threads)  # read at aclInit
    emulator = _emulator()
    counts: Counter[str] = Counter()
    failures = 0
    start = time.monotonic()
    for seed in _seeds(args.seeds):
        case = make_case(seed, args.family)
        counts[case.family] += 1
        with tempfile.TemporaryDirectory() as tmp:
            work = args.keep or Path(tmp)
            work.mkdir(parents=True, exist_ok=True)
            try:
                problem = check_case(emulator, case, work)
            except (AtcError, RuntimeError, AssertionError) as error:
                problem = f"{type(error).__name__}: {str(error).strip()[:400]}"
        if problem:
            failures += 1
            print(f"seed {seed} [{case.family}] {case.about}\n  {problem}", flush=True)
        done = sum(counts.values())
        if done % 1000 == 0:
            print(f"... {done} cases, {failures} failing", file=sys.stderr, flush=True)
    total = sum(counts.values())
    print(
        f"{total} cases ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))}), "
        f"{failures} failing, {time.monotonic() - start:.0f} s"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
