# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Runs tools/llm_runner on an exported decoder and reads its report (the test and the decode
benchmark both do this, so the report format is parsed in one place)."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ENV_LLM_RUNNER = "EXECUTORCH_ASCEND_LLM_RUNNER"


def llm_runner_path() -> Path:
    """$EXECUTORCH_ASCEND_LLM_RUNNER, else the development build named by
    $EXECUTORCH_ASCEND_DEV_BUILD, else the installed package's bin/llm_runner."""
    if os.environ.get(ENV_LLM_RUNNER):
        return Path(os.environ[ENV_LLM_RUNNER])
    if os.environ.get("EXECUTORCH_ASCEND_DEV_BUILD"):
        return Path(os.environ["EXECUTORCH_ASCEND_DEV_BUILD"]) / "tools/llm_runner/llm_runner"
    from executorch_ascend import paths

    return paths.PACKAGE_DIR / "bin" / "llm_runner"


@dataclass(frozen=True)
class Traffic:
    host_to_device: float  # bytes per token
    device_to_host: float
    executes: float  # aclmdlExecute calls per token


@dataclass(frozen=True)
class Report:
    tokens: list[int]
    prefill_calls: int
    decode_tokens: int
    decode_ms: float
    tokens_per_s: float
    prefill_traffic: Traffic | None  # None: no counters (not the emulator, or no Ascend part)
    decode_traffic: Traffic | None
    traffic_reason: str  # why there are no counters, else ""
    stdout: str


_TRAFFIC = re.compile(
    r"^traffic per (prefill|decode) token: host->device (\d+) B, device->host (\d+) B, "
    r"aclmdlExecute ([\d.]+)$",
    re.M,
)


def _one(pattern: str, text: str) -> re.Match[str]:
    match = re.search(pattern, text, re.M)
    if match is None:
        raise ValueError(f"llm_runner printed no line matching {pattern!r}:\n{text}")
    return match


def parse_report(stdout: str) -> Report:
    tokens = [int(t) for t in _one(r"^tokens:((?: \d+)+)$", stdout).group(1).split()]
    prefill = _one(r"^prefill: \d+ token\(s\) in (\d+) call\(s\)", stdout)
    decode = _one(r"^decode: (\d+) token\(s\) in ([\d.]+) ms, ([\d.]+) tokens/s$", stdout)
    traffic = {
        m.group(1): Traffic(float(m.group(2)), float(m.group(3)), float(m.group(4)))
        for m in _TRAFFIC.finditer(stdout)
    }
    reason = re.search(r"^traffic: not available \((.*)\)$", stdout, re.M)
    if not traffic and reason is None:
        raise ValueError(f"llm_runner printed neither traffic nor why not:\n{stdout}")
    return Report(
        tokens=tokens,
        prefill_calls=int(prefill.group(1)),
        decode_tokens=int(decode.group(1)),
        decode_ms=float(decode.group(2)),
        tokens_per_s=float(decode.group(3)),
        prefill_traffic=traffic.get("prefill"),
        decode_traffic=traffic.get("decode"),
        traffic_reason=reason.group(1) if reason else "",
        stdout=stdout,
    )


def run_llm_runner(pte: Path, prompt: list[int], tokens: int, timeout: float = 600) -> Report:
    """llm_runner --model pte --prompt ... --tokens N, in this process's environment (so on the
    ACL library use_emulator() chose); raises with its output if it fails."""
    cmd = [str(llm_runner_path()), "--model", str(pte), "--prompt", ",".join(map(str, prompt))]
    cmd += ["--tokens", str(tokens)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        )
    return parse_report(done.stdout)
