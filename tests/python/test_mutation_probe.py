# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The mutation probe (issue 11): truncations and seeded byte/bit flips of two real programs'
delegate blob and .om, run through ascend_runner and through executorch.runtime in a child
interpreter. Every mutant must end in a clean error (non-zero exit / an exception) or in outputs
bit-identical to the unmutated program's: never a signal death, never a hang, never different
numbers with success.

What is protected (docs/om-format.md, docs/blob-format.md):
- the .om: a CRC-32 trailer over every byte and a file_size field; "resealed" mutants recompute
  both so the flip reaches the reader and validator (as tests/fuzz's ResealOm). A resealed flip
  inside the .om's inline weight section is NOT detectable (no checksum over weight values), so
  resealed flips are asserted only for no crash / no hang, and their changed outputs are counted.
- the delegate blob: no checksum, but every key is `<sha256>`-named and checked against named
  data, sizes are checked; a flip must fail cleanly or be harmless.
- weights as named data (external weight files): no checksum; flips there change numbers by
  design, so that region is asserted for no crash / no hang only.
"""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path

import pytest
import torch
from ascend_helpers import ascend_lowered_modules, named_data, seeded_inputs
from example_models import Mlp, small_cnn

from executorch_ascend import AscendCompileSpec, paths
from executorch_ascend.export import lower, save
from executorch_ascend.run import write_raw
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator

FLIPS = 40  # per region and program
SEED = 11
RUNNER_TIMEOUT_S = 20
# Regions where a successful run must reproduce the unmutated outputs exactly.
PROTECTED = {"truncate", "blob", "om"}

# Runs each listed mutant; prints START before and one JSON result after each, so a child that
# dies is attributable to the mutant it started last.
CHILD = """
import json, sys
import torch
import executorch_ascend  # registers AscendBackend
from executorch.runtime import Runtime

inputs = torch.load(sys.argv[1])
for path in sys.argv[2:]:
    print("START", path, flush=True)
    try:
        program = Runtime.get().load_program(path)
        outs = program.load_method("forward").execute(inputs)
        outs = [o.contiguous().numpy().tobytes().hex() for o in outs if isinstance(o, torch.Tensor)]
        print(json.dumps({"path": path, "ok": True, "outs": outs}), flush=True)
    except Exception as error:
        print(json.dumps({"path": path, "ok": False, "error": type(error).__name__}), flush=True)
"""


def _reseal(om: bytearray) -> None:
    struct.pack_into("<Q", om, 16, len(om))
    struct.pack_into("<I", om, len(om) - 4, zlib.crc32(bytes(om[:-4])))


class Program:
    def __init__(self, name: str, data: bytes, inputs: tuple[torch.Tensor, ...], lowering) -> None:
        self.name, self.data, self.inputs = name, data, inputs
        module = ascend_lowered_modules(lowering.edge)[0]
        processed = bytes(module.processed_bytes)
        self.blob_at = data.find(processed)
        assert self.blob_at >= 0 and data.find(processed, self.blob_at + 1) < 0
        self.blob_len = len(processed)
        decoded = blob.decode(processed)
        om = named_data(module, decoded.om_key)
        self.om_at = data.find(om)
        assert self.om_at >= 0 and om[:8] == b"AEMU.OM\0"
        self.om_len = len(om)
        self.weights = []
        for w in decoded.weights:
            wb = named_data(module, w.key)
            at = data.find(wb)
            assert at >= 0
            self.weights.append((at, len(wb)))

    def mutants(self) -> list[tuple[str, str, bytes]]:
        """(region, description, bytes) for every mutant of this program."""
        data, rng = self.data, random.Random(f"{SEED}-{self.name}")
        out = []
        cuts = {
            "header": 16,
            "blob start": self.blob_at,
            "inside blob": self.blob_at + self.blob_len // 2,
            "blob end": self.blob_at + self.blob_len,
            "om start": self.om_at,
            "om header": self.om_at + 12,
            "inside om": self.om_at + self.om_len // 2,
            "om before crc": self.om_at + self.om_len - 4,
            "om end": self.om_at + self.om_len,
            "last byte": len(data) - 1,
        }
        for what, at in cuts.items():
            out.append(("truncate", f"truncate at {at} ({what})", data[:at]))

        def flip(start: int, length: int, region: str, reseal: bool = False) -> None:
            for i in range(FLIPS):
                lo, hi = (24, length - 4) if reseal else (0, length)
                off = rng.randrange(lo, hi)
                mask = 1 << rng.randrange(8) if i % 2 else rng.randrange(1, 256)
                mutated = bytearray(data)
                mutated[start + off] ^= mask
                if reseal:
                    om = bytearray(mutated[start : start + length])
                    _reseal(om)
                    mutated[start : start + length] = om
                kind = "bit" if i % 2 else "byte"
                out.append(
                    (region, f"{kind} ^0x{mask:02x} at {start + off} (+{off})", bytes(mutated))
                )

        flip(self.blob_at, self.blob_len, "blob")
        flip(self.om_at, self.om_len, "om")
        flip(self.om_at, self.om_len, "om resealed", reseal=True)
        for at, length in self.weights[:1]:
            flip(at, length, "weights")
        return out


MODELS = {
    # name: (factory, shapes, compile spec): the MLP keeps its weights as named data (external
    # weight files), the CNN's stay inline in the .om.
    "mlp": (lambda: Mlp(), [(4, 32)], AscendCompileSpec(toolchain="emulator")),
    "cnn": (
        small_cnn,
        [(1, 3, 16, 16)],
        AscendCompileSpec(toolchain="emulator", external_weight=0),
    ),
}


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> list[Program]:
    torch.manual_seed(0)
    work, found = tmp_path_factory.mktemp("mutation"), []
    for name, (factory, shapes, spec) in MODELS.items():
        model, inputs = factory().eval(), seeded_inputs(*shapes, seed=1)
        lowering = lower(model, inputs, spec)
        assert lowering.summary.partitions == 1, str(lowering.summary)
        pte, ptds = save(lowering.program, work / f"{name}.pte")
        assert not ptds
        found.append(Program(name, pte.read_bytes(), inputs, lowering))
    assert found[0].weights, "the MLP should hold a weight file as named data"
    return found


def _judge(region: str, ok: bool, outs, baseline) -> str:
    if not ok:
        return "clean error"
    if outs == baseline:
        return "identical output"
    return "changed output" if region not in PROTECTED else "SILENT WRONG OUTPUT"


def _summary(runner: str, counts: Counter) -> None:
    for region in sorted({r for r, _ in counts}):
        line = ", ".join(f"{o}: {n}" for (r, o), n in sorted(counts.items()) if r == region)
        print(f"mutation probe [{runner}] {region}: {line}")


def _run_runner(pte: Path, prog: Program, work: Path):
    out_dir = work / "out"
    for f in out_dir.glob("*"):
        f.unlink()
    out_dir.mkdir(parents=True, exist_ok=True)
    files = []
    for i, t in enumerate(prog.inputs):
        f = work / f"input{i}.bin"
        if not f.exists():
            write_raw(t, f)
        files.append(str(f))
    cmd = [str(paths.runner()), "--model", str(pte), "--output-dir", str(out_dir)]
    cmd += ["--inputs", ",".join(files)]
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=RUNNER_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return "hang", None
    if done.returncode < 0:
        return f"signal {-done.returncode}", done.stderr.decode(errors="replace")[-400:]
    if done.returncode != 0:
        return "error", None
    return "ok", [p.read_bytes() for p in sorted(out_dir.glob("out*.bin"))]


def test_runner_survives_mutants(native, programs, tmp_path: Path) -> None:
    counts, bad = Counter(), []
    for prog in programs:
        work = tmp_path / prog.name
        work.mkdir()
        base_pte = work / "base.pte"
        base_pte.write_bytes(prog.data)
        status, baseline = _run_runner(base_pte, prog, work)
        assert status == "ok" and baseline, f"{prog.name}: the unmutated program fails"
        pte = work / "m.pte"
        for region, what, mutated in prog.mutants():
            pte.write_bytes(mutated)
            status, outs = _run_runner(pte, prog, work)
            if status not in ("ok", "error"):
                outcome = status
            else:
                outcome = _judge(region, status == "ok", outs, baseline)
            counts[(f"{prog.name} {region}", outcome)] += 1
            if outcome not in ("clean error", "identical output", "changed output"):
                bad.append(
                    f"{prog.name} {region}: {what}: {outcome} {outs if status != 'ok' else ''}"
                )
    _summary("ascend_runner", counts)
    assert not bad, "\n".join(bad)


def _runtime_batch(paths_: list[str], inputs_pt: Path, timeout_s: float):
    """{path: result} for the mutants a child finished, and (path, what) of one that killed it."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(inputs_pt), *paths_],
            env=dict(os.environ),
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout_s,
            check=False,
        )
        stdout, rc = done.stdout, done.returncode
    except subprocess.TimeoutExpired as expired:
        stdout = (expired.stdout or b"").decode(errors="replace")
        rc = None
    results, started = {}, None
    for line in stdout.splitlines():
        if line.startswith("START "):
            started = line[6:]
        elif line.startswith("{"):
            r = json.loads(line)
            results[r["path"]] = r
            started = None
    failure = None
    if rc is None:
        failure = (started or paths_[len(results)], "hang")
    elif rc != 0 or len(results) < len(paths_):
        failure = (started or paths_[len(results)], f"exit {rc}: {done.stderr[-400:]}")
    return results, failure


def test_python_runtime_survives_mutants(native, programs, tmp_path: Path) -> None:
    counts, bad = Counter(), []
    for prog in programs:
        work = tmp_path / prog.name
        work.mkdir()
        inputs_pt = work / "inputs.pt"
        torch.save(list(prog.inputs), inputs_pt)
        (work / "base.pte").write_bytes(prog.data)
        mutants = prog.mutants()
        meta = {}
        for i, (region, what, mutated) in enumerate(mutants):
            p = work / f"m{i}.pte"
            p.write_bytes(mutated)
            meta[str(p)] = (region, what)
        base, failure = _runtime_batch([str(work / "base.pte")], inputs_pt, 120)
        assert failure is None and base[str(work / "base.pte")]["ok"], failure
        baseline = base[str(work / "base.pte")]["outs"]
        pending = list(meta)
        while pending:
            results, failure = _runtime_batch(pending, inputs_pt, 120 + 2 * len(pending))
            for p, r in results.items():
                region, _ = meta[p]
                outcome = _judge(region, r["ok"], r.get("outs"), baseline)
                counts[(f"{prog.name} {region}", outcome)] += 1
                if outcome == "SILENT WRONG OUTPUT":
                    bad.append(f"{prog.name} {region}: {meta[p][1]}: {outcome}")
            if failure is not None:
                region, what = meta[failure[0]]
                counts[(f"{prog.name} {region}", "crash/hang")] += 1
                bad.append(f"{prog.name} {region}: {what}: {failure[1]}")
                done = set(results) | {failure[0]}
            else:
                done = set(results)
            pending = [p for p in pending if p not in done]
    _summary("executorch.runtime", counts)
    assert not bad, "\n".join(bad)
