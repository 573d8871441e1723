# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`executorch-ascend explain`: for MODULE:FACTORY, what lowering will delegate and why the rest
stays on the CPU (explain.py), optionally drawn (graph_picture.py); for a .pte, its delegate and
CPU kernel calls (pte_report.py)."""

from __future__ import annotations

import argparse
import sys

from .export import compile_spec_from_args, failure, inputs_from_args, model_from_args
from .inputs import CliError


def _explain_pte(path: str) -> int:
    from ..pte_report import format_pte_report, report_pte

    try:
        print(format_pte_report(report_pte(path)))
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def run_explain(args: argparse.Namespace) -> int:
    if args.model.endswith(".pte"):
        if args.graph:
            raise CliError("--graph needs the model (MODULE:FACTORY): a .pte has no edge graph")
        return _explain_pte(args.model)
    inputs_from_args(args)  # a bad --input fails before the imports below
    if args.graph:
        from ..graph_picture import check_picture_path

        try:
            check_picture_path(args.graph)
        except ValueError as e:
            raise CliError(str(e)) from None
    import copy

    import torch

    from ..explain import explain, format_explanation

    spec = compile_spec_from_args(args)
    loaded = model_from_args(args)
    try:
        exported = torch.export.export(loaded.model, loaded.args, kwargs=loaded.kwargs)
    except Exception as e:
        first = (str(e).strip().splitlines() or ["(no message)"])[0]
        raise CliError(f"torch.export failed: {type(e).__name__}: {first}") from None
    # Both take the ATen program through lowering's to_edge step, which edits it in place.
    for_picture = copy.deepcopy(exported) if args.graph else None
    # ExecuTorch's to_edge step can refuse a program (an op outside core ATen, say): one message.
    with failure("to_edge", args.traceback):
        explanation = explain(exported, spec)
    print(format_explanation(explanation))
    if for_picture is not None:
        from ..graph_picture import partition_dot, write_picture

        with failure("drawing the partition picture", args.traceback):
            dot = partition_dot(for_picture, spec)
        print(write_picture(dot, args.graph).note)
    return 0
