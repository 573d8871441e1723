# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Writes the blob corpus of this code's delegate blob version: tests/data/blob_corpus/v<N>/.

Run once per released blob version, by a maintainer, on the commit that releases it, with the
package installed from that commit (scripts/setup.sh) and the emulator:

    python tests/data/blob_corpus/generate.py            # writes v<blob.VERSION>/, once
    python tests/data/blob_corpus/generate.py --out DIR  # a trial run anywhere else

A folder once committed is never written again: it is what programs saved by that release look
like, and tests/python/test_blob_compat.py loads it with every later release
(docs/blob-format.md, "Compatibility"). Each program of programs.py is lowered and saved as a
user would, its delegate blobs written beside it (<name>.<i>.blob, for the C++ reader's test),
and run on the emulator: in this process through executorch.runtime as the chip it was exported
for, in ascend_runner as any further chip. Every output is checked against eager PyTorch before
it is stored (<name>.npz: inputs, eager's outputs, the emulator's outputs per chip), and two
loads must give the same bits. manifest.json says what made each file and how.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import filecmp
import json
import platform
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE))

from executorch.version import __version__ as executorch_version  # noqa: E402

import executorch_ascend  # noqa: E402
from executorch_ascend import AscendCompileSpec  # noqa: E402
from executorch_ascend.cann_op_facts import default_precision_mode  # noqa: E402
from executorch_ascend.export import lower_program, save  # noqa: E402
from executorch_ascend.ptd_check import check_ptd  # noqa: E402
from executorch_ascend.run import run_with_runner  # noqa: E402
from executorch_ascend.saved_program import SavedProgram  # noqa: E402
from executorch_ascend.serialization import blob  # noqa: E402
from executorch_ascend.toolchain import cann  # noqa: E402
from executorch_ascend.upstream_noise import quiet_known_upstream_noise  # noqa: E402
from programs import EXPORTED_FOR, PROGRAMS, CorpusProgram  # noqa: E402

# What decides the bytes of a program: a corpus is made only from a clean commit of these.
PRODUCT_PATHS = ("src", "runtime", "emulator", "acl", "CMakeLists.txt", "pyproject.toml")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()


def _check_the_code_is_a_commit() -> str:
    """The last commit that changed the product code, which must be exactly that commit's (and
    the installed package, what actually runs, this tree's Python): the code of the corpus."""
    dirty = _git("status", "--porcelain", "--", *PRODUCT_PATHS)
    if dirty:
        sys.exit(f"the product code differs from HEAD; commit or stash it first:\n{dirty}")
    installed = Path(executorch_ascend.__file__).parent
    source = REPO / "src" / "executorch_ascend"
    for path in sorted(source.rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            other = installed / path.relative_to(source)
            if other != path and not (other.is_file() and filecmp.cmp(path, other, False)):
                sys.exit(f"{other} is not {path}: reinstall the package (scripts/setup.sh)")
    return _git("log", "-1", "--format=%H", "--", *PRODUCT_PATHS)


def _cpu() -> str:
    """The CPU and whether it has AVX-512: oneDNN's GEMMs sum in another order on another ISA."""
    info = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").is_file() else ""
    model = re.search(r"^model name\s*:\s*(.*)$", info, re.M)
    isa = "AVX-512" if re.search(r"^flags\s*:.*\bavx512f\b", info, re.M) else "no AVX-512"
    return f"{platform.machine()} {model.group(1) if model else 'unknown'} ({isa})"


def _spec_fields(spec: AscendCompileSpec) -> dict[str, object]:
    """The chip and the fields that differ from AscendCompileSpec's defaults."""
    default = AscendCompileSpec()
    return {
        f.name: getattr(spec, f.name)
        for f in dataclasses.fields(spec)
        if f.name == "soc_version" or getattr(spec, f.name) != getattr(default, f.name)
    }


def _eager(model: torch.nn.Module, calls) -> list[list[torch.Tensor]]:
    outputs = []
    with torch.no_grad():
        for inputs in calls:
            out = model(*inputs)
            outputs.append(list(out) if isinstance(out, (tuple, list)) else [out])
    return outputs


def _run_in_process(pte: Path, ptds: list[Path], calls) -> list[list[torch.Tensor]]:
    """Each call in order on one loaded method, through executorch.runtime."""
    from executorch.runtime import Runtime

    for ptd in ptds:
        check_ptd(ptd)
    program = Runtime.get().load_program(pte, data_path=ptds[0] if ptds else None)
    method = program.load_method("forward")
    return [list(method.execute(list(inputs))) for inputs in calls]


def _run_as(soc: str, pte: Path, ptds: list[Path], calls, like, work: Path):
    """ascend_runner's outputs with the emulator as chip `soc` (one call, static shapes)."""
    import os

    assert len(calls) == 1, "ascend_runner makes one call"
    os.environ["EXECUTORCH_ASCEND_EMU_SOC_NAME"] = soc
    try:
        out = run_with_runner(pte, calls[0], like[0], work / soc, ptd=ptds[0] if ptds else None)
    finally:
        del os.environ["EXECUTORCH_ASCEND_EMU_SOC_NAME"]
    return [out]


def _eager_tolerance(program: CorpusProgram, soc: str, eager) -> float:
    """The largest max-abs error allowed against eager, as the project's tests state it."""
    limit = program.socs[soc]
    if program.int8:  # `limit` output steps of (max - min) / 255
        return max(limit * float(o.max() - o.min()) / 255 for call in eager for o in call)
    peak = max(float(o.abs().max()) for call in eager for o in call)
    return limit * max(1.0, peak)


def _arithmetic(program: CorpusProgram, soc: str) -> str:
    """What the .om computes in as `soc`: "int8" (quantized), "float16" (a precision mode that
    runs float32 ops in float16) or "float32". How exact a later run can be depends on it."""
    if program.int8:
        return "int8"
    mode = program.spec.precision_mode or default_precision_mode(soc)
    return "float32" if mode == "must_keep_origin_dtype" else "float16"


def _max_error(got, want) -> float:
    errors = []
    for g_call, w_call in zip(got, want, strict=True):
        assert len(g_call) == len(w_call), (len(g_call), len(w_call))
        for g, w in zip(g_call, w_call, strict=True):
            assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
            errors.append(float((g.double() - w.double()).abs().max()))
    return max(errors)


def _delegates(program: CorpusProgram, pte: Path, ptds: list[Path], out: Path) -> list[dict]:
    """Each Ascend delegate's blob, decoded and written to <name>.<i>.blob."""
    saved = SavedProgram.load(pte, ptds)
    described = []
    for i, (_, _, delegate) in enumerate(saved.delegates("AscendBackend")):
        data = saved.processed(delegate)
        decoded = blob.decode(data)
        (version,) = struct.unpack_from("<I", data, len(blob.MAGIC))
        path = out / f"{program.name}.{i}.blob"
        path.write_bytes(data)
        described.append(
            {
                "blob": path.name,
                "version": version,
                "soc_versions": list(decoded.soc_versions),
                "weights": [len(t.weights) for t in decoded.targets],
                "states": len(decoded.states),
                "source": decoded.source_key is not None,
            }
        )
    assert described, f"{program.name}: no Ascend delegate"
    return described


def _save(program: CorpusProgram, out: Path, work: Path) -> tuple[torch.nn.Module, Path, list]:
    model, exported = program.export()
    lowering = lower_program(exported, program.spec)
    summary = lowering.summary
    assert summary.partitions == 1 and summary.delegated_nodes == summary.total_nodes, summary
    if not program.compile_for:
        pte, ptds = save(lowering.program, out / f"{program.name}.pte")
        return model, pte, ptds
    first, first_ptds = save(lowering.program, work / "exported" / f"{program.name}.pte")
    command = [sys.executable, "-m", "executorch_ascend.cli", "--emulator", "compile", str(first)]
    for ptd in first_ptds:
        command += ["--data", str(ptd)]
    for soc in program.compile_for:
        command += ["--soc_version", soc]
    command += ["-o", str(out / f"{program.name}.pte")]
    subprocess.run(command, check=True, capture_output=True, text=True)
    ptds = [out / p.name for p in first_ptds]
    return model, out / f"{program.name}.pte", ptds


def _generate(program: CorpusProgram, out: Path, work: Path) -> dict:
    model, pte, ptds = _save(program, out, work)
    calls = program.calls
    eager = _eager(model, calls)
    arrays = {}
    for c, inputs in enumerate(calls):
        arrays |= {f"call{c}.input{i}": t.numpy() for i, t in enumerate(inputs)}
        arrays |= {f"call{c}.eager{i}": t.numpy() for i, t in enumerate(eager[c])}
    runs = {}
    for soc in program.socs:
        if soc == EXPORTED_FOR:
            got = _run_in_process(pte, ptds, calls)
            again = _run_in_process(pte, ptds, calls)
            assert _max_error(got, again) == 0.0, f"{program.name}: two loads differ"
        else:
            got = _run_as(soc, pte, ptds, calls, eager, work)
        error, tolerance = _max_error(got, eager), _eager_tolerance(program, soc, eager)
        assert error <= tolerance, f"{program.name} as {soc}: {error:.3g} > {tolerance:.3g}"
        runs[soc] = {
            "arithmetic": _arithmetic(program, soc),
            "eager_max_abs_error": error,
            "eager_tolerance": tolerance,
        }
        for c, outputs in enumerate(got):
            arrays |= {f"call{c}.{soc}.output{i}": t.numpy() for i, t in enumerate(outputs)}
    np.savez(out / f"{program.name}.npz", **arrays)
    return {
        "name": program.name,
        "covers": program.covers,
        "pte": pte.name,
        "ptd": [p.name for p in ptds],
        "io": f"{program.name}.npz",
        "compile_spec": _spec_fields(program.spec),
        "then_compiled_for": list(program.compile_for),
        "calls": len(calls),
        "inputs": len(calls[0]),
        "outputs": len(eager[0]),
        "delegates": _delegates(program, pte, ptds, out),
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help=f"default: {HERE}/v<blob version>")
    args = parser.parse_args()
    quiet_known_upstream_noise()
    commit = _check_the_code_is_a_commit()
    out = args.out or HERE / f"v{blob.VERSION}"
    if out.exists():
        sys.exit(f"{out} exists: a corpus folder is written once and never again")
    cann.use_emulator()
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as work:
        programs = [_generate(p, out, Path(work)) for p in PROGRAMS]
    manifest = {
        "about": "Programs saved by executorch-ascend's code of `commit` (the last commit "
        "that changed the product code), delegate blob version "
        "`blob_version`, with their inputs and outputs; loaded by every later release "
        "(tests/python/test_blob_compat.py, docs/blob-format.md).",
        "blob_version": blob.VERSION,
        "commit": commit,
        "date": datetime.date.today().isoformat(),
        "versions": {
            "executorch_ascend": executorch_ascend.__version__,
            "executorch": executorch_version,
            "torch": torch.__version__,
        },
        "cpu": _cpu(),
        "regenerate": "never for this folder; for a new blob version, on its release commit: "
        "python tests/data/blob_corpus/generate.py (writes v<version>/)",
        "emulated_chip": EXPORTED_FOR,
        "programs": programs,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    total = sum(p.stat().st_size for p in out.iterdir())
    print(f"wrote {len(programs)} programs to {out}: {total} bytes")


if __name__ == "__main__":
    main()
