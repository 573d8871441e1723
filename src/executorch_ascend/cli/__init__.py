# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The `executorch-ascend` command (docs/cli.md).

Only what a command needs is imported, when it runs: `--help`, `--version`, `info`, `ops` and
`run` import neither torch nor executorch.exir; `export`, `explain` and `compile` import the AOT
stack.
User mistakes (a bad --input, a misspelled module or factory, a factory that raises) are one line
on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..upstream_noise import quiet_known_upstream_noise
from .inputs import CliError

OP_TABLE = Path(__file__).resolve().parents[1] / "op_support_table.md"


class _VersionAction(argparse.Action):
    """--version, computed only when asked (package metadata, no imports)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the versions and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from .info import version_text

        print(version_text())
        parser.exit()


def _cmd_ops(args: argparse.Namespace) -> int:
    if args.from_registry:
        from ..lowering.op_table import render_op_table

        print(render_op_table(), end="")
    else:
        print(OP_TABLE.read_text(), end="")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    from .info import info_lines

    print("\n".join(info_lines()))
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from .export import run_export

    return run_export(args)


def _cmd_explain(args: argparse.Namespace) -> int:
    from .explain import run_explain

    return run_explain(args)


def _run_runner(runner_args: list[str]) -> int:
    """Runs a .pte (and its .ptd) with the C++ ascend_runner; arguments go to the runner."""
    import subprocess

    from .. import paths

    # `executorch-ascend --emulator run ...` has already chosen the emulator; else CANN.
    runner = paths.runner()
    if not runner.is_file():
        print(f"ascend_runner not found at {runner} (set {paths.ENV_RUNNER})", file=sys.stderr)
        return 2
    return subprocess.call([str(runner), *runner_args])


def build_parser() -> argparse.ArgumentParser:
    from .export import add_atc_arguments, add_model_arguments, add_spec_arguments
    from .quantize import add_quantize_arguments

    parser = argparse.ArgumentParser(
        prog="executorch-ascend",
        description="Export, inspect and run ExecuTorch programs with Ascend (CANN) delegates.",
    )
    parser.add_argument("--version", action=_VersionAction)
    # Handled before parsing (so `run` can pass everything on to the runner); listed for --help.
    parser.add_argument(
        "--emulator", action="store_true", help="run on the CANN emulator (use_emulator())"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    ops = sub.add_parser("ops", help="print the op-support table (Markdown)")
    ops.add_argument(
        "--from-registry",
        action="store_true",
        help="render it from the converter registry (imports the AOT stack) instead of the "
        "copy generated into the package",
    )
    ops.set_defaults(fn=_cmd_ops)
    sub.add_parser(
        "info", help="versions, and which atc / ACL library this installation uses (tried)"
    ).set_defaults(fn=_cmd_info)

    export = sub.add_parser(
        "export", help="MODULE:FACTORY -> .pte (+ .ptd) with Ascend delegates, stage by stage"
    )
    export.add_argument("model", help="MODULE:FACTORY (MODULE importable from the current folder)")
    add_model_arguments(export)
    export.add_argument("-o", "--output", required=True, help="the .pte to write")
    export.add_argument(
        "--ptd", metavar="TAG", help="put the .om and weight files into TAG.ptd beside the .pte"
    )
    add_spec_arguments(export)
    add_atc_arguments(export)
    add_quantize_arguments(export)
    export.set_defaults(fn=_cmd_export)

    explain = sub.add_parser(
        "explain",
        help="which ops Ascend takes and why the others stay on the CPU (a model), or which "
        "calls are Ascend delegates and which CPU kernels (a .pte)",
    )
    explain.add_argument("model", help="MODULE:FACTORY, or a .pte file")
    add_model_arguments(explain)
    explain.add_argument(
        "--graph",
        metavar="FILE",
        help="also draw the partition picture: .svg/.png/.pdf (Graphviz's dot) or .dot",
    )
    add_spec_arguments(explain)
    explain.set_defaults(fn=_cmd_explain)
    from .compile import add_compile_parser
    from .export_hf import add_export_hf_parser

    add_compile_parser(sub)
    add_export_hf_parser(sub)
    # `run` hands every argument to ascend_runner untouched (see `run --help`).
    sub.add_parser("run", help=_run_runner.__doc__, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    from ..toolchain.cann import EmulatorNotFound, use_emulator

    quiet_known_upstream_noise()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--emulator"]:
        try:
            use_emulator()
        except EmulatorNotFound as e:
            print(f"executorch-ascend: error: {e}", file=sys.stderr)
            return 2
        argv = argv[1:]
    if argv[:1] == ["run"]:
        return _run_runner(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        return int(args.fn(args))
    except (CliError, EmulatorNotFound) as e:
        print(f"executorch-ascend {args.command}: error: {e}", file=sys.stderr)
        return getattr(e, "exit_status", 2)
