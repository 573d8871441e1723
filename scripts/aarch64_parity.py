# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The aarch64 build against the x86-64 one (scripts/aarch64.sh run; docs/installing.md,
"aarch64"): the same two programs, exported once here with the x86-64 emulator's atc, run by the
x86-64 ascend_runner/llm_runner on the x86-64 libascendcl.so and by the aarch64 ones under
qemu-aarch64 on the aarch64 libascendcl.so, on two of QEMU's CPU models: `max` (SVE, where the
arm64 oneDNN runs its SVE-512 JIT kernels) and `cortex-a72` (Advanced SIMD only, as on a Kunpeng
920 or an Atlas board's Cortex-A55 cores: oneDNN's other AArch64 paths).

- The demo's program (examples/demo.py: the small transformers ResNet, a 1x3x64x64 image of seed
  1, the .om in model.ptd): each output of the aarch64 run within the project's fp32 tolerance
  (1e-4 * max(1, max |eager|), examples/parity.py) of the x86-64 run's, and of eager PyTorch's.
  Why that bound holds: the two emulators run the same .om with the same reference semantics in
  fp32; only the order of the sums differs (oneDNN's GEMM/Conv kernels are AVX2/AVX-512 on one
  and AArch64 on the other, the emulator's own loops 8 or 16 floats wide there and 4 here), and
  the exp/tanh/erf approximations of the vector helpers, all accurate to a few ulp. A few
  roundings of 2^-24 relative, summed over a ResNet's depth, stay orders of magnitude below
  1e-4 of the output's scale; the demo holds each run to that same bound against eager
  PyTorch, whose sums run in yet another order.
- A decoder (examples/llm/export_llm.py: Llama, fp32, a 64-position KV cache inside the
  program, the prompt fed one token per call): 32 greedy tokens from llm_runner, the aarch64
  run's ids equal to the x86-64 run's and to eager transformers' greedy ids, exactly.

- The saved programs of the newest blob corpus (tests/data/blob_corpus/v<N>/, saved on x86-64
  with their inputs, outputs and eager outputs) that run in one call: each with ascend_runner
  under QEMU on its stored input, within test_blob_compat.py's bounds of its stored x86-64 output
  (1e-5 relative for float32, 4/255 for int8) and of eager (the manifest's eager_tolerance). The
  int8 program runs the quantize/dequantize kernels whose x86-64 AVX2/F16C paths are portable
  loops on aarch64.

Every file goes to --work-dir: the programs, the input, both runs' outputs (x86_64/, aarch64/).
Exits non-zero on any mismatch.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "examples"), str(REPO / "examples" / "llm")]

from example_models import small_resnet  # noqa: E402
from export_llm import export_llm  # noqa: E402
from llm_model import build_model, eager_greedy  # noqa: E402
from parity import fp32_tolerance, max_abs_error  # noqa: E402
from run_llm import parse_report, run_llm_runner  # noqa: E402

import executorch_ascend  # noqa: E402
from executorch_ascend.compile_spec import AscendCompileSpec  # noqa: E402
from executorch_ascend.export import lower, save  # noqa: E402
from executorch_ascend.run import read_raw, run_with_runner, write_raw  # noqa: E402

PROMPT = [1, 5, 9, 17, 33]
TOKENS = 32
CACHE = 64


class Aarch64:
    """The aarch64 binaries, run under QEMU on the aarch64 libascendcl.so."""

    def __init__(self, qemu: str, cpu: str, acl_lib: Path, runner: Path, llm_runner: Path) -> None:
        self.qemu = [*shlex.split(qemu), "-cpu", cpu]
        self.cpu = cpu
        self.runner = runner
        self.llm_runner = llm_runner
        self.env = dict(os.environ, EXECUTORCH_ASCEND_ACL_LIB=str(acl_lib))

    def run(self, exe: Path, args: list[str], quiet: bool = False) -> str:
        cmd = [*self.qemu, str(exe), *args]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=self.env, check=False)
        if done.returncode != 0:
            raise RuntimeError(
                f"{shlex.join(cmd)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
            )
        if not quiet:
            print(
                f"  aarch64 ({self.cpu}) {exe.name}: {time.perf_counter() - start:.1f} s under QEMU"
            )
        return done.stdout


def check_demo(work: Path, arms: list[Aarch64]) -> bool:
    model = small_resnet()
    image = torch.randn(1, 3, 64, 64, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = [model(image)]
    spec = AscendCompileSpec(toolchain="emulator", external_tag="model")
    pte, ptds = save(lower(model, (image,), spec).program, work / "demo" / "model.pte")
    ptd = ptds[0] if ptds else None
    tolerance = fp32_tolerance(expected)

    x86 = run_with_runner(pte, [image], expected, work / "demo" / "x86_64", ptd=ptd)
    print(f"demo ResNet {tuple(expected[0].shape)}: tolerance {tolerance:.3g} (fp32)")
    print(f"  x86-64 vs eager: max abs error {max_abs_error(x86, expected):.3g}")
    ok = True
    for arm in arms:
        out_dir = work / "demo" / f"aarch64-{arm.cpu}"
        out_dir.mkdir(parents=True, exist_ok=True)
        write_raw(image, out_dir / "input0.bin")
        args = ["--model", str(pte), "--inputs", str(out_dir / "input0.bin")]
        args += ["--output-dir", str(out_dir)] + (["--data", str(ptd)] if ptd else [])
        arm.run(arm.runner, args)
        arm_out = [read_raw(out_dir / f"out{i}.bin", e) for i, e in enumerate(expected)]
        vs_x86 = max_abs_error(arm_out, x86)
        vs_eager = max_abs_error(arm_out, expected)
        good = vs_x86 <= tolerance and vs_eager <= tolerance
        print(f"  aarch64 ({arm.cpu}) vs x86-64: max abs error {vs_x86:.3g}")
        print(f"  aarch64 ({arm.cpu}) vs eager:  max abs error {vs_eager:.3g}")
        print(f"  {'OK' if good else 'MISMATCH'}")
        ok &= good
    return ok


def check_decoder(work: Path, arms: list[Aarch64]) -> bool:
    pte = work / "llm" / "llama.pte"
    pte.parent.mkdir(parents=True, exist_ok=True)
    export_llm("llama", "fp32", CACHE, prefill_len=1, output=pte)
    expected = eager_greedy(build_model("llama", "fp32", CACHE), PROMPT, TOKENS, CACHE)
    x86 = run_llm_runner(pte, PROMPT, TOKENS).tokens
    print(f"decoder Llama fp32, prompt {PROMPT}, {TOKENS} greedy tokens:")
    print(f"  eager:  {expected}")
    print(f"  x86-64: {x86}")
    ok = x86 == expected and len(set(expected)) > 4
    for arm in arms:
        stdout = arm.run(
            arm.llm_runner,
            ["--model", str(pte), "--prompt", ",".join(map(str, PROMPT)), "--tokens", str(TOKENS)],
        )
        (pte.parent / f"aarch64-{arm.cpu}.txt").write_text(stdout)
        arm_tokens = parse_report(stdout).tokens
        good = arm_tokens == x86 == expected
        print(f"  aarch64 ({arm.cpu}): {arm_tokens}")
        print(f"  {'OK (token ids equal)' if good else 'MISMATCH'}")
        ok &= good
    return ok


STORED_REL = {"float32": 1e-5, "float16": 2e-3, "int8": 4 / 255}  # test_blob_compat.py's


def check_corpus(work: Path, arms: list[Aarch64]) -> bool:
    folder = max(
        (REPO / "tests" / "data" / "blob_corpus").glob("v*"), key=lambda f: int(f.name[1:])
    )
    manifest = json.loads((folder / "manifest.json").read_text())
    chip = manifest["emulated_chip"]
    print(f"saved programs ({folder.relative_to(REPO)}, one call each, as {chip}):")
    ok = True
    for program in manifest["programs"]:
        if program["calls"] != 1:
            continue  # ascend_runner makes one call per process; device state would not carry
        run = program["runs"][chip]
        with np.load(folder / program["io"]) as io:
            inputs = [torch.from_numpy(io[f"call0.input{i}"]) for i in range(program["inputs"])]
            eager = [torch.from_numpy(io[f"call0.eager{i}"]) for i in range(program["outputs"])]
            stored = [
                torch.from_numpy(io[f"call0.{chip}.output{i}"]) for i in range(program["outputs"])
            ]
        peak = max(float(t.abs().max()) for t in stored)
        limit = STORED_REL[run["arithmetic"]] * max(1.0, peak)
        for arm in arms:
            out_dir = work / "corpus" / program["name"] / arm.cpu
            out_dir.mkdir(parents=True, exist_ok=True)
            files = []
            for i, t in enumerate(inputs):
                write_raw(t, out_dir / f"input{i}.bin")
                files.append(str(out_dir / f"input{i}.bin"))
            args = ["--model", str(folder / program["pte"]), "--inputs", ",".join(files)]
            args += ["--output-dir", str(out_dir)]
            for ptd in program["ptd"]:
                args += ["--data", str(folder / ptd)]
            arm.run(arm.runner, args, quiet=True)
            got = [read_raw(out_dir / f"out{i}.bin", e) for i, e in enumerate(stored)]
            vs_stored, vs_eager = max_abs_error(got, stored), max_abs_error(got, eager)
            good = vs_stored <= limit and vs_eager <= run["eager_tolerance"]
            print(
                f"  {program['name']} ({run['arithmetic']}) aarch64 ({arm.cpu}): "
                f"{vs_stored:.3g} from x86-64 (at most {limit:.3g}), "
                f"{vs_eager:.3g} from eager (at most {run['eager_tolerance']:.3g})  "
                + ("OK" if good else "MISMATCH")
            )
            ok &= good
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/aarch64_parity.py", description=__doc__)
    parser.add_argument("--work-dir", type=Path, required=True)
    parser.add_argument("--qemu", default="qemu-aarch64")
    parser.add_argument(
        "--cpus", default="max,cortex-a72",
        help="QEMU CPU models to run on (max: SVE; cortex-a72: Advanced SIMD only)",
    )  # fmt: skip
    parser.add_argument("--acl-lib", type=Path, required=True, help="aarch64 libascendcl.so")
    parser.add_argument("--runner", type=Path, required=True, help="aarch64 ascend_runner")
    parser.add_argument("--llm-runner", type=Path, required=True, help="aarch64 llm_runner")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    executorch_ascend.use_emulator()  # the x86-64 atc and libascendcl.so for this side
    arms = [
        Aarch64(args.qemu, cpu, args.acl_lib, args.runner, args.llm_runner)
        for cpu in args.cpus.split(",")
    ]
    args.work_dir.mkdir(parents=True, exist_ok=True)
    ok = check_demo(args.work_dir, arms)
    ok &= check_decoder(args.work_dir, arms)
    ok &= check_corpus(args.work_dir, arms)
    print("aarch64 parity: " + ("all OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
