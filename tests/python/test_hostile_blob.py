# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A delegate blob with bytes that are not printable text must fail a load cleanly in the Python
runtime. The backend quotes the blob's named-data key when it is not found; ExecuTorch's Python
log sink throws on invalid UTF-8, which used to terminate the interpreter (SIGABRT). The load
runs in a child interpreter, so an abort fails the test instead of killing pytest."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from ascend_helpers import seeded_inputs
from example_models import Mlp

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save
from executorch_ascend.serialization import blob

pytestmark = pytest.mark.emulator

# Loads the program and its method; exit 0 and "CLEAN <exception>" when the load is refused.
CHILD = """
import sys
import executorch_ascend  # registers AscendBackend
from executorch.runtime import Runtime

try:
    program = Runtime.get().load_program(sys.argv[1])
    program.load_method("forward")
except Exception as error:
    print("CLEAN", type(error).__name__, flush=True)
    sys.exit(0)
print("LOADED", flush=True)
sys.exit(3)
"""


@pytest.fixture(scope="module")
def mlp_pte(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, str]:
    """A saved one-partition program and its delegate's om_key."""
    model, inputs = Mlp().eval(), seeded_inputs((4, 32))
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    assert lowering.summary.partitions == 1, str(lowering.summary)
    pte, _ = save(lowering.program, tmp_path_factory.mktemp("hostile") / "mlp.pte")
    data = pte.read_bytes()
    return data, _om_key(data)


SOC = b"Ascend910B1"  # AscendCompileSpec's default, the blob's one target


def _blob_header(key_length: int) -> bytes:
    """The blob's bytes before its first om_key: magic, version, target count, the target's
    soc_version and the key's length."""
    soc = struct.pack("<I", len(SOC)) + SOC
    version = struct.pack("<I", blob.VERSION)
    return blob.MAGIC + version + struct.pack("<I", 1) + soc + struct.pack("<I", key_length)


def _blob_key_offset(data: bytes, key: bytes) -> int:
    """Where the om_key's bytes start inside the delegate blob (not in the named data table,
    which holds the same key): right after the blob's header."""
    header = _blob_header(len(key))
    at = data.find(header + key)
    assert at >= 0, "delegate blob not found in the .pte"
    assert data.find(header + key, at + 1) < 0, "two delegate blobs"
    return at + len(header)


def _om_key(data: bytes) -> str:
    header = _blob_header(0)[:-4]
    at = data.find(header)
    assert at >= 0
    (length,) = struct.unpack_from("<I", data, at + len(header))
    start = at + len(header) + 4
    return data[start : start + length].decode()


def _load_in_child(pte: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(pte)],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
        check=False,
    )


def test_the_unpatched_program_loads(native, mlp_pte, tmp_path: Path) -> None:
    # The child and the patching below find a program that works: only the bad byte fails it.
    data, key = mlp_pte
    _blob_key_offset(data, key.encode())
    pte = tmp_path / "ok.pte"
    pte.write_bytes(data)
    done = _load_in_child(pte)
    assert done.returncode == 3 and "LOADED" in done.stdout, done.stderr[-2000:]


@pytest.mark.parametrize(
    "bad, escaped",
    [
        (b"\xff", "\\xFF"),  # never valid in UTF-8
        (b"\xc0", "\\xC0"),  # the lead byte of an overlong form
        (b"\n", "\\x0A"),  # a control byte would forge a new log line
    ],
)
def test_a_bad_byte_in_the_om_key_fails_the_load_cleanly(
    native, mlp_pte, tmp_path: Path, bad: bytes, escaped: str
) -> None:
    data, key = mlp_pte
    at = _blob_key_offset(data, key.encode()) + len("ascend/om/")
    patched = data[:at] + bad + data[at + 1 :]
    pte = tmp_path / "bad.pte"
    pte.write_bytes(patched)
    done = _load_in_child(pte)
    assert done.returncode == 0, (
        f"the load did not fail cleanly (exit {done.returncode}):\n{done.stderr[-2000:]}"
    )
    assert "CLEAN" in done.stdout
    # The backend said why, with the key's bad byte escaped, not raw.
    lines = [line for line in done.stderr.splitlines() if "AscendBackend: named data" in line]
    assert lines, done.stderr[-2000:]
    assert escaped in lines[0], lines[0]
