# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The `executorch-ascend` command."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable

import torch


def _cmd_ops(args: argparse.Namespace) -> int:
    """Prints the op-support table, generated from the converter registry."""
    from .lowering.op_table import render_op_table

    print(render_op_table(), end="")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    """Which atc, ACL library, backend library and runner this installation would use."""
    from . import cann, paths
    from .compile_spec import AscendCompileSpec
    from .toolchain import ToolchainError, resolve_atc

    for toolchain in ("cann", "emulator"):
        try:
            atc = resolve_atc(AscendCompileSpec(toolchain=toolchain))  # type: ignore[arg-type]
            print(f"atc ({toolchain}): {atc.description}")
        except ToolchainError as e:
            print(f"atc ({toolchain}): not available ({e})")
    emulator = cann.find_emulator()
    for what, path in (
        ("backend library", paths.backend_library()),
        ("emulator libascendcl", emulator.acl_library if emulator else None),
        ("ascend_runner", paths.runner()),
    ):
        state = "not installed" if path is None else "present" if path.is_file() else "missing"
        print(f"{what}: {path or '-'} ({state})")
    print(f"ACL the backend loads: {cann.acl_library() or 'libascendcl.so from the loader path'}")
    return 0


def _load_factory(spec: str) -> Callable[[], torch.nn.Module]:
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise SystemExit(f"expected MODULE:CALLABLE, got {spec!r}")
    return getattr(importlib.import_module(module_name), attr)


def _cmd_explain(args: argparse.Namespace) -> int:
    """Says which ops of a model Ascend takes and why the others stay on the CPU; for a .pte,
    which calls are Ascend delegates and which CPU kernels."""
    if args.model.endswith(".pte"):
        from .pte_report import format_pte_report, report_pte

        try:
            print(format_pte_report(report_pte(args.model)))
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        return 0
    if not args.input_shape:
        raise SystemExit("explain MODULE:CALLABLE needs --input-shape")
    from .explain import explain, format_explanation

    model = _load_factory(args.model)().eval()
    shapes = [tuple(int(d) for d in s.split(",")) for s in args.input_shape]
    inputs = tuple(torch.randn(s) for s in shapes)
    print(format_explanation(explain(torch.export.export(model, inputs))))
    return 0


def _run_runner(runner_args: list[str]) -> int:
    """Runs a .pte (and its .ptd) with the C++ ascend_runner; arguments go to the runner."""
    import subprocess

    from . import paths

    # `executorch-ascend --emulator run ...` has already chosen the emulator; else CANN.
    runner = paths.runner()
    if not runner.is_file():
        print(f"ascend_runner not found at {runner} (set {paths.ENV_RUNNER})", file=sys.stderr)
        return 2
    return subprocess.call([str(runner), *runner_args])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="executorch-ascend")
    # Handled before parsing (so `run` can pass everything on to the runner); listed for --help.
    parser.add_argument(
        "--emulator", action="store_true", help="run on the CANN emulator (use_emulator())"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("ops", help=_cmd_ops.__doc__).set_defaults(fn=_cmd_ops)
    sub.add_parser("info", help=_cmd_info.__doc__).set_defaults(fn=_cmd_info)
    explain_p = sub.add_parser("explain", help=_cmd_explain.__doc__)
    explain_p.add_argument("model", help="MODULE:CALLABLE returning an nn.Module, or a .pte file")
    explain_p.add_argument(
        "--input-shape", action="append", help="e.g. 1,3,224,224 (once per input; not for a .pte)"
    )
    explain_p.set_defaults(fn=_cmd_explain)
    # `run` hands every argument to ascend_runner untouched (see `run --help`).
    sub.add_parser("run", help=_run_runner.__doc__, add_help=False)
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--emulator"]:
        from .cann import use_emulator

        use_emulator()
        argv = argv[1:]
    if argv[:1] == ["run"]:
        return _run_runner(argv[1:])
    args = parser.parse_args(argv)
    return int(args.fn(args))


if __name__ == "__main__":
    sys.exit(main())
