# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend compile`: a saved program's Ascend partitions compiled again (recompile.py).

    executorch-ascend compile model.pte [--data model.ptd ...] --soc_version X [--soc_version Y]
                              [--atc PATH] [--replace] -o out.pte

reads the program and its .ptd files, runs atc (CANN's: --atc, or the one CANN's set_env.sh
points at; the emulator's with `executorch-ascend --emulator compile`) on each partition's kept
ONNX for each SoC, and writes out.pte and its .ptd files (same tags, beside out.pte). No PyTorch
model code is needed, and nothing is exported again.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .inputs import CliError


def add_compile_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "compile",
        help="compile a saved program's Ascend partitions (kept ONNX) for other SoCs, or with "
        "CANN's atc",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("program", help="the .pte (exported with --keep-onnx / keep_onnx=True)")
    parser.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="PTD",
        help="a .ptd file of the program (repeatable: every one it has)",
    )
    parser.add_argument(
        "--soc_version",
        "--soc-version",
        dest="soc_versions",
        action="append",
        required=True,
        metavar="SOC",
        help="atc --soc_version to compile for (repeatable: one .om per SoC in the program)",
    )
    parser.add_argument("--atc", metavar="PATH", help="CANN's atc (default: CANN's set_env.sh)")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="keep only the SoCs compiled now (default: add them to those the program has)",
    )
    parser.add_argument("-o", "--output", required=True, help="the .pte to write")
    parser.add_argument("--dump-dir", help="keep each atc run's files here (as export does)")
    parser.add_argument("--traceback", action="store_true", help="show Python tracebacks")
    parser.set_defaults(fn=run_compile)


def run_compile(args: argparse.Namespace) -> int:
    from ..compile_spec import AscendCompileSpec, CompileSpecError
    from ..recompile import RecompileError, recompile
    from ..saved_program import SavedProgram, SavedProgramError
    from ..soc_versions import soc_version_error
    from ..toolchain.atc import ToolchainError, resolve_atc
    from .export import LoweringFailed, _size

    output = Path(args.output)
    if output.suffix != ".pte":
        raise CliError(f"-o {args.output}: the program file must end in .pte")
    for soc in args.soc_versions:
        error = soc_version_error(soc)
        if error is not None:
            raise CliError(error)
    try:
        atc = resolve_atc(AscendCompileSpec(soc_version=args.soc_versions[0], atc_path=args.atc))
    except (ToolchainError, CompileSpecError) as e:
        raise CliError(f"{e} (or pass --atc PATH, or use 'executorch-ascend --emulator')") from None
    try:
        program = SavedProgram.load(args.program, args.data)
    except SavedProgramError as e:
        raise CliError(str(e)) from None
    try:
        reports = recompile(
            program, args.soc_versions, atc, replace=args.replace, dump_dir=args.dump_dir
        )
        written = program.save(output)
    except (RecompileError, SavedProgramError) as e:
        raise CliError(str(e)) from None
    except Exception as e:
        if args.traceback:
            raise
        raise LoweringFailed(f"compile failed: {type(e).__name__}: {e}") from None
    print(f"compiled with {atc.description}:")
    for r in reports:
        made = ", ".join(
            f"{c.soc_version} ({c.om_bytes} B .om, {c.weight_files} weight file(s))"
            for c in r.compiled
        )
        print(f"  method {r.method!r}, delegate {r.index}: {made}")
        print(f"    SoCs: {', '.join(r.before)} -> {', '.join(r.after)}")
    for path in written:
        print(f"  wrote {path} ({_size(path)})")
    return 0
