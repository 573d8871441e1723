# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Weights verified at load (issue 37): with EXECUTORCH_ASCEND_VERIFY_WEIGHTS=1 the runtime checks
every .om and weight file against the SHA-256 its named-data key names before uploading it, so a
corrupted .ptd is a clean load error naming the key, never a silent difference.

40 seeded single-byte mutations inside the weight files of a saved program's .ptd, each loaded
through executorch.runtime in a child interpreter, twice: unchecked (they load, and most give
other numbers: what the check is for) and checked (every one a load error whose log names the
corrupted key)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from ascend_helpers import ascend_lowered_modules, named_data, seeded_inputs
from example_models import Mlp

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator

MUTANTS = 40
SEED = 37
TAG = "weights"

# Loads the .pte with each listed .ptd and runs it once; one JSON line per .ptd.
CHILD = """
import json, sys
import torch
import executorch_ascend  # registers AscendBackend
from executorch.runtime import Runtime

pte, inputs = sys.argv[1], torch.load(sys.argv[2])
for ptd in sys.argv[3:]:
    print(f"START {ptd}", file=sys.stderr, flush=True)
    try:
        method = Runtime.get().load_program(pte, data_path=ptd).load_method("forward")
        outs = [o.numpy().tobytes().hex() for o in method.execute(inputs)]
        print(json.dumps({"ptd": ptd, "ok": True, "outs": outs}), flush=True)
    except Exception as error:
        print(json.dumps({"ptd": ptd, "ok": False, "error": str(error)[:200]}), flush=True)
    # Released before the next load: the weights cache would otherwise serve the next program
    # the device copies of this one's (keys name content), and its own bytes would go unread.
    method = None
"""


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory):
    """(folder, .pte, .ptd bytes, weight regions [(key, start, length)], inputs)."""
    work = tmp_path_factory.mktemp("integrity")
    torch.manual_seed(0)
    model, inputs = Mlp().eval(), seeded_inputs((4, 32), seed=1)
    spec = AscendCompileSpec(toolchain="emulator", external_tag=TAG, external_weight_threshold=0)
    lowering = lower(model, inputs, spec)
    assert lowering.summary.partitions == 1, str(lowering.summary)
    pte, ptds = save(lowering.program, work / "model.pte")
    assert [p.name for p in ptds] == [f"{TAG}.ptd"]
    data = ptds[0].read_bytes()
    module = ascend_lowered_modules(lowering.edge)[0]
    decoded = blob.decode(bytes(module.processed_bytes))
    regions = []
    for weight in decoded.weights:
        stored = named_data(module, weight.key, TAG)
        start = data.find(stored)
        assert start >= 0 and data.find(stored, start + 1) < 0, weight.key
        regions.append((weight.key, start, len(stored)))
    assert len(regions) >= 3, "the MLP's three Linear weights should be weight files"
    torch.save(list(inputs), work / "inputs.pt")
    return work, pte, data, regions


def _mutants(work: Path, data: bytes, regions) -> dict[str, str]:
    """{.ptd path: the key of the weight file it corrupts}: one byte XOR a non-zero mask each."""
    rng, out = random.Random(SEED), {}
    for i in range(MUTANTS):
        key, start, length = regions[i % len(regions)]
        at = start + rng.randrange(length)
        mutated = bytearray(data)
        mutated[at] ^= rng.randrange(1, 256)
        path = work / f"m{i}.ptd"
        path.write_bytes(mutated)
        out[str(path)] = key
    return out


def _load_each(pte: Path, inputs: Path, ptds: list[str], verify: str):
    env = dict(os.environ, EXECUTORCH_ASCEND_VERIFY_WEIGHTS=verify)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(pte), str(inputs), *ptds],
        env=env, capture_output=True, text=True, errors="replace", timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    results = {r["ptd"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert sorted(results) == sorted(ptds), done.stderr[-2000:]
    # The log of each load: what followed its START line.
    logs, current = {}, None
    for line in done.stderr.splitlines():
        if line.startswith("START "):
            current = line[6:]
            logs[current] = ""
        elif current is not None:
            logs[current] += line + "\n"
    return results, logs


def test_mutated_weights_are_load_errors_with_verification(native, saved) -> None:
    work, pte, data, regions = saved
    good = work / f"{TAG}.ptd"
    mutants = _mutants(work, data, regions)
    inputs = work / "inputs.pt"

    base, _ = _load_each(pte, inputs, [str(good)], verify="1")
    assert base[str(good)]["ok"], base
    baseline = base[str(good)]["outs"]

    unchecked, _ = _load_each(pte, inputs, list(mutants), verify="0")
    assert all(r["ok"] for r in unchecked.values()), "unchecked, a weight flip still loads"
    silent = [p for p, r in unchecked.items() if r["outs"] != baseline]
    # A flip in a low mantissa bit, or of a weight a ReLU then zeroes, may change nothing.
    assert len(silent) >= MUTANTS // 2, f"only {len(silent)} mutants changed the outputs"

    checked, logs = _load_each(pte, inputs, list(mutants), verify="1")
    for path, key in mutants.items():
        assert not checked[path]["ok"], f"{path} (corrupting {key}) loaded with verification on"
        assert f"named data '{key}'" in logs[path], logs[path][-1000:]
        assert "is corrupted" in logs[path], logs[path][-1000:]
    print(f"weight integrity: {len(silent)}/{MUTANTS} mutants silently wrong unchecked, "
          f"{MUTANTS}/{MUTANTS} load errors checked")  # fmt: skip
