# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The emulator's optional multi-threading (EXECUTORCH_ASCEND_EMU_NUM_THREADS,
docs/emulator-kernels.md): a small BERT (oneDNN GEMMs) and a small Conv net (oneDNN Conv
primitives) run by an emulator with 2 threads give the result of a single thread, within float32
tolerance (oneDNN may split sums differently across threads), and the 2-thread run really starts
OpenMP workers (a Conv once kept itself to one thread whatever the setting). The emulator reads the
variable at aclInit, which the backend calls once per process, so each run is a child process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from ascend_helpers import assert_close, eager

from executorch_ascend import AscendCompileSpec
from executorch_ascend.export import lower, save

transformers = pytest.importorskip("transformers")

from model_zoo import TensorModel  # noqa: E402  (needs transformers)

# The threads are counted while the method is alive: the model runs on its delegate's stream,
# whose worker thread is the one that starts oneDNN's OpenMP team, and the team goes with it.
_CHILD = """
import os, sys, torch
import executorch_ascend  # registers AscendBackend (the parent chose the emulator)
from executorch.runtime import Runtime
pte, inputs, out = sys.argv[1:4]
method = Runtime.get().load_program(pte).load_method("forward")
outputs = [o for o in method.execute(list(torch.load(inputs)))]
torch.save((outputs, len(os.listdir("/proc/self/task"))), out)
"""


def _bert() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    config = transformers.BertConfig(
        vocab_size=64,
        hidden_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=256,
        max_position_embeddings=64,
    )
    model = TensorModel(transformers.BertModel(config, add_pooling_layer=False).eval()).eval()
    return model, (torch.randint(0, 64, (1, 64), generator=torch.Generator().manual_seed(0)),)


def _conv_net() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    model = torch.nn.Sequential(
        torch.nn.Conv2d(16, 32, 3, padding=1),
        torch.nn.BatchNorm2d(32),
        torch.nn.ReLU(),
        torch.nn.Conv2d(32, 32, 3, padding=1),
    ).eval()
    return model, (torch.randn(1, 16, 24, 24),)


def _run_child(pte: Path, tmp_path: Path, threads: str) -> tuple[list[torch.Tensor], int]:
    env = dict(
        os.environ, EXECUTORCH_ASCEND_EMU_NUM_THREADS=threads, PYTHONPATH=os.pathsep.join(sys.path)
    )
    out = tmp_path / f"out{threads}.pt"
    subprocess.run(
        [sys.executable, "-c", _CHILD, str(pte), str(tmp_path / "inputs.pt"), str(out)],
        env=env,
        check=True,
        timeout=300,
    )
    return torch.load(out)


@pytest.mark.emulator
@pytest.mark.parametrize("make", [_bert, _conv_net], ids=["bert", "conv"])
def test_two_emulator_threads_match_one(native, make, tmp_path: Path) -> None:
    torch.manual_seed(0)
    model, inputs = make()
    lowering = lower(model, inputs, AscendCompileSpec(toolchain="emulator"))
    pte, _ = save(lowering.program, tmp_path / "model.pte")
    torch.save(inputs, tmp_path / "inputs.pt")
    one_thread, tasks_one = _run_child(pte, tmp_path, "1")
    two_threads, tasks_two = _run_child(pte, tmp_path, "2")
    assert_close(two_threads, one_thread, "2 emulator threads vs 1")
    assert_close(one_thread, eager(model, inputs), "1 emulator thread vs eager", rel=1e-3)
    # The only code that differs between the two children is the emulator's kernels: with 2
    # threads oneDNN's OpenMP team adds a worker thread that stays alive with the stream's.
    assert tasks_two > tasks_one, (tasks_one, tasks_two)
