# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Programs saved by earlier releases still load and give their outputs (docs/blob-format.md,
"Compatibility"): every program of every folder of tests/data/blob_corpus/ (one per released
blob version, written once by its generate.py) is read back and run on the emulator.

- Its blobs decode (serialization/blob.py) to what the manifest says, are byte for byte the .blob
  files the C++ reader's test reads (tests/cpp/runtime/delegate_blob_corpus_test.cpp), and every
  named-data key they name is there, under its key scheme, with its size; its compile specs read
  back as they were given.
- It runs through executorch.runtime (AscendBackend::init reads the blob with the C++ reader) as
  the chip it was exported for, and in ascend_runner as every further chip its blob has a target
  for; each call's outputs match the stored ones within STORED_REL (by the run's arithmetic) and
  eager PyTorch's within the tolerance the generator checked (the manifest's `eager_tolerance`).
"""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import numpy as np
import pytest
import torch

from executorch_ascend import AscendCompileSpec
from executorch_ascend.ptd_check import check_ptd
from executorch_ascend.run import run_with_runner
from executorch_ascend.saved_program import SavedProgram
from executorch_ascend.serialization import blob
from executorch_ascend.serialization.source import PartitionSource

CORPUS = Path(__file__).resolve().parents[1] / "data" / "blob_corpus"
MANIFESTS = sorted(CORPUS.glob("v*/manifest.json"))

# How far a run may be from the outputs the generator stored, relative to max(1, max |stored|),
# by what the .om computes in (the manifest's `arithmetic`). Not bit-exactness: the emulator's
# GEMMs and Convs run on oneDNN, which picks its kernels by the CPU, and its own kernels are built
# 8 floats wide (x86-64-v3) or 4 (portable); each sums in its own order. Measured on the v5
# corpus (2026-12, AMD EPYC): AVX-512 and oneDNN capped to AVX2 or SSE4.1 give the same bits, a
# portable emulator up to 2.3e-7 off in float32: hence 1e-5. Where the .om rounds to float16 or
# int8 between ops, such a last-bit difference just before a rounding moves that value by one
# step of the coarser grid: float16's 2^-10 (2e-3 allows two), int8's 1/255 of the range (two
# steps of a range up to twice the peak: 4/255). A blob read wrong binds a wrong .om, weight file,
# state or target: off by the output's own scale.
STORED_REL = {"float32": 1e-5, "float16": 2e-3, "int8": 4 / 255}


def _manifest(path: Path) -> dict:
    return json.loads(path.read_text())


def _programs() -> list:
    """(folder, program) of every program in the corpus, named v<N>/<program>."""
    return [
        pytest.param(path.parent, program, id=f"{path.parent.name}/{program['name']}")
        for path in MANIFESTS
        for program in _manifest(path)["programs"]
    ]


def _runs() -> list:
    """(folder, program, chip) of every chip each program was run as, named v<N>/<name>@<chip>."""
    return [
        pytest.param(*p.values, chip, id=f"{p.id}@{chip}")
        for p in _programs()
        for chip in p.values[1]["runs"]
    ]


def _files(folder: Path, program: dict) -> tuple[Path, list[Path]]:
    return folder / program["pte"], [folder / p for p in program["ptd"]]


def test_the_current_and_the_oldest_read_version_have_a_corpus() -> None:
    versions = {}
    for path in MANIFESTS:
        manifest = _manifest(path)
        assert path.parent.name == f"v{manifest['blob_version']}", path
        versions[manifest["blob_version"]] = path.parent
    # A folder is never removed (its programs must keep loading), and min_read_version never
    # rises past one: the oldest version read and the current one each have their programs.
    assert blob.MIN_READ_VERSION in versions, f"no corpus of blob version {blob.MIN_READ_VERSION}"
    assert blob.VERSION in versions, (
        f"blob version {blob.VERSION} has no corpus: run tests/data/blob_corpus/generate.py "
        "on the commit that releases it"
    )
    assert all(blob.MIN_READ_VERSION <= v <= blob.VERSION for v in versions), sorted(versions)


@pytest.mark.parametrize(("folder", "program"), _programs())
def test_blobs_decode_as_saved(folder: Path, program: dict) -> None:
    pte, ptds = _files(folder, program)
    saved = SavedProgram.load(pte, ptds)
    delegates = saved.delegates("AscendBackend")
    assert len(delegates) == len(program["delegates"])
    for (_, _, delegate), described in zip(delegates, program["delegates"], strict=True):
        data = saved.processed(delegate)
        assert data == (folder / described["blob"]).read_bytes()
        assert struct.unpack_from("<I", data, 4)[0] == described["version"]
        decoded = blob.decode(data)
        assert list(decoded.soc_versions) == described["soc_versions"]
        assert [len(t.weights) for t in decoded.targets] == described["weights"]
        assert len(decoded.states) == described["states"]
        assert (decoded.source_key is not None) == described["source"]
        _check_named_data(saved, decoded)
        # `executorch-ascend compile` reads every compile spec of a saved program back.
        spec = AscendCompileSpec.from_compile_specs(delegate.compile_specs)
        for name, value in program["compile_spec"].items():
            assert json.loads(json.dumps(getattr(spec, name))) == value, name


def _check_content_key(saved: SavedProgram, key: str, prefix: str, size: int | None = None) -> None:
    """`key` is prefix + the SHA-256 of its bytes (the named-data key scheme), and is there."""
    assert key.startswith(prefix), key
    assert key in saved.entries, f"{key} is not in the program's named data"
    data = bytes(saved.read(key))
    assert key == prefix + hashlib.sha256(data).hexdigest(), key
    assert size is None or len(data) == size, (key, len(data), size)


def _check_named_data(saved: SavedProgram, decoded: blob.AscendBlob) -> None:
    for target in decoded.targets:
        _check_content_key(saved, target.om_key, "ascend/om/")
        for w in target.weights:
            _check_content_key(saved, w.key, "ascend/weight/", w.size)
    for state in decoded.states:
        if state.key is not None:
            _check_content_key(saved, state.key, "ascend/state/", state.size)
    if decoded.source_key is not None:
        _check_content_key(saved, decoded.source_key, "ascend/source/")
        source = PartitionSource.from_json(saved.read(decoded.source_key))
        _check_content_key(saved, source.onnx_key, "ascend/onnx/", source.onnx_size)
        for piece in source.pieces:
            _check_content_key(saved, piece.key, "ascend/weight/", piece.size)


def _tensors(io: np.lib.npyio.NpzFile, call: int, kind: str, count: int) -> list[torch.Tensor]:
    return [torch.from_numpy(io[f"call{call}.{kind}{i}"]) for i in range(count)]


def _run_in_process(pte: Path, ptds: list[Path], calls: list[list[torch.Tensor]]):
    """Each call in order on one loaded method (device state carries over)."""
    from executorch.runtime import Runtime

    assert len(ptds) <= 1
    for ptd in ptds:
        check_ptd(ptd)
    program = Runtime.get().load_program(pte, data_path=ptds[0] if ptds else None)
    method = program.load_method("forward")
    return [list(method.execute(inputs)) for inputs in calls]


def _max_error(got: list[torch.Tensor], want: list[torch.Tensor]) -> float:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert (tuple(g.shape), g.dtype) == (tuple(w.shape), w.dtype)
    return max(float((g.double() - w.double()).abs().max()) for g, w in zip(got, want, strict=True))


@pytest.mark.emulator
@pytest.mark.parametrize(("folder", "program", "chip"), _runs())
def test_programs_give_their_stored_outputs(
    native, folder: Path, program: dict, chip: str, tmp_path: Path, monkeypatch
) -> None:
    pte, ptds = _files(folder, program)
    n_in, n_out = program["inputs"], program["outputs"]
    with np.load(folder / program["io"]) as io:
        calls = [_tensors(io, c, "input", n_in) for c in range(program["calls"])]
        eager = [_tensors(io, c, "eager", n_out) for c in range(program["calls"])]
        stored = [_tensors(io, c, f"{chip}.output", n_out) for c in range(program["calls"])]
    if chip == _manifest(folder / "manifest.json")["emulated_chip"]:
        got = _run_in_process(pte, ptds, calls)
    else:  # the emulator as another chip: its own process (ACL is set up once per process)
        assert len(calls) == 1 and len(ptds) <= 1
        monkeypatch.setenv("EXECUTORCH_ASCEND_EMU_SOC_NAME", chip)
        ptd = ptds[0] if ptds else None
        got = [run_with_runner(pte, calls[0], stored[0], tmp_path, ptd=ptd)]
    run = program["runs"][chip]
    for c in range(program["calls"]):
        peak = max(float(t.abs().max()) for t in stored[c])
        limit = STORED_REL[run["arithmetic"]] * max(1.0, peak)
        error = _max_error(got[c], stored[c])
        assert error <= limit, f"call {c}: {error:.3g} from the stored output (at most {limit:.3g})"
        error, limit = _max_error(got[c], eager[c]), run["eager_tolerance"]
        assert error <= limit, f"call {c}: {error:.3g} from eager (at most {limit:.3g})"
