# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The emulator's optional multi-threading (EXECUTORCH_ASCEND_EMU_NUM_THREADS,
docs/emulator-kernels.md): a small BERT run by an emulator with 2 threads gives the result of the
default single thread, within float32 tolerance (oneDNN may split a GEMM's sums differently across
threads). The emulator reads the variable at aclInit, which the backend calls once per process,
so the 2-thread run is a child process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save
from executorch_ascend.run import run_with_runtime

transformers = pytest.importorskip("transformers")

from model_zoo import TensorModel  # noqa: E402  (needs transformers)

_CHILD = """
import sys, torch
import executorch_ascend  # registers AscendBackend (the parent chose the emulator)
from executorch_ascend.run import run_with_runtime
pte, inputs, out = sys.argv[1:4]
torch.save(run_with_runtime(pte, torch.load(inputs)), out)
"""


@pytest.mark.emulator
def test_two_emulator_threads_match_one(native, tmp_path: Path) -> None:
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=64,
        hidden_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=256,
        max_position_embeddings=64,
    )
    model = TensorModel(transformers.BertModel(config, add_pooling_layer=False).eval()).eval()
    inputs = (torch.randint(0, 64, (1, 64), generator=torch.Generator().manual_seed(0)),)
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    pte, _ = save(lowering.program, tmp_path / "bert.pte")
    assert os.environ.get("EXECUTORCH_ASCEND_EMU_NUM_THREADS") in (None, "1")
    one_thread = run_with_runtime(pte, inputs)

    torch.save(inputs, tmp_path / "inputs.pt")
    env = dict(
        os.environ, EXECUTORCH_ASCEND_EMU_NUM_THREADS="2", PYTHONPATH=os.pathsep.join(sys.path)
    )
    subprocess.run(
        [
            sys.executable,
            "-c",
            _CHILD,
            str(pte),
            str(tmp_path / "inputs.pt"),
            str(tmp_path / "out.pt"),
        ],
        env=env,
        check=True,
        timeout=300,
    )
    two_threads = torch.load(tmp_path / "out.pt")
    assert_close(two_threads, one_thread, "2 emulator threads vs 1")
