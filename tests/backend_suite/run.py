# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Runs ExecuTorch's backend test suite (operators) for the "ascend" flow and summarizes it.

    python tests/backend_suite/run.py [-k EXPR] [--report JUNIT_XML] [--summary MD] [--seed N]

The suite (executorch.backends.test.suite, shipped in the executorch wheel) is pytest-based and
parametrizes every operator test over flow.all_flows(); this script adds the out-of-tree
"ascend" flow to that table (flow.register_ascend_flow, beside this file) before pytest
imports the suite's conftest, selects it with `-m flow_ascend`, and runs in this process.

Python code comes from this checkout's src/ (so the newest converters are used); the native
parts (backend library, emulator atc and libascendcl.so) come from
EXECUTORCH_ASCEND_DEV_BUILD=<cmake build dir> when set, else from the pip-installed packages
(executorch-ascend and executorch-ascend-emulator). The suite runs on the emulator, chosen
explicitly with use_emulator().

The summary counts every sub-test by the suite's own TestResult: passed delegated (SUCCESS),
passed undelegated (SUCCESS_UNDELEGATED: nothing was delegated, so only the portable CPU kernels
ran), skipped (test or portable-kernel problems the suite does not blame on the backend) and each
failure kind, and then the same per operator (test file). Failures among delegated tests are
listed by name with the first line of their error.
Run on purpose only; the whole operators suite takes tens of minutes on two cores.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

_DEV_BUILD_OUTPUTS = {
    "EXECUTORCH_ASCEND_BACKEND_LIB": "runtime/libexecutorch_backend_ascend.so",
    "EXECUTORCH_ASCEND_EMULATOR_ATC": "emulator/atc/atc",
    "EXECUTORCH_ASCEND_EMULATOR_ACL_LIB": "emulator/acl/libascendcl.so",
}


def _use_source_tree_with_native_parts() -> None:
    """Point at the native parts, then make src/ win; must run before executorch_ascend loads."""
    build = os.environ.get("EXECUTORCH_ASCEND_DEV_BUILD")
    if build:
        for env, rel in _DEV_BUILD_OUTPUTS.items():
            os.environ.setdefault(env, str(Path(build) / rel))
    sys.path.insert(0, str(REPO / "src"))
    from executorch_ascend import use_emulator

    use_emulator()


@dataclass
class Record:
    """One sub-test (a lower_and_run_model call), or a pytest item that never reached one."""

    name: str
    op: str
    result: str
    delegated: bool
    error: str = ""


@dataclass
class Collector:
    """pytest plugin: reads the suite's TestCaseSummary objects off each item's test_runner.

    With `progress` set it rewrites that file after every test, so an interrupted or crashed
    run still leaves the summary of what ran.
    """

    progress: Path | None = None
    selection: str = ""
    seed: int = 0
    records: list[Record] = field(default_factory=list)
    _seen: set[str] = field(default_factory=set)

    def _write_progress(self, last: str) -> None:
        if self.progress is not None:
            head = f"PARTIAL: stopped after `{last}`.\n\n"
            self.progress.write_text(head + render_summary(self.records, self.selection, self.seed))

    @staticmethod
    def _op(item: Any) -> str:
        return Path(str(item.path)).stem.removeprefix("test_")

    def pytest_runtest_teardown(self, item: Any, nextitem: Any) -> None:
        runner = getattr(item, "funcargs", {}).get("test_runner")
        for summary in getattr(runner, "_results", []):
            error = "" if summary.error is None else _first_line(summary.error)
            self.records.append(
                Record(
                    summary.name + (f"#{summary.subtest_index}" if summary.subtest_index else ""),
                    self._op(item),
                    summary.result.name,
                    summary.is_delegated(),
                    error,
                )
            )
        self._seen.add(item.nodeid)
        self._write_progress(item.nodeid)

    def pytest_runtest_logreport(self, report: Any) -> None:
        # Items skipped by the flow's skip patterns, or erroring in setup, never run a sub-test.
        if report.when == "setup" and not report.passed and report.nodeid not in self._seen:
            self._seen.add(report.nodeid)
            op = Path(report.nodeid.split("::")[0]).stem.removeprefix("test_")
            kind = "SKIPPED" if report.skipped else "SETUP_ERROR"
            self.records.append(Record(report.nodeid.split("::")[-1], op, kind, False))


def _first_line(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}".strip()
    return text.splitlines()[0][:200] if text else type(error).__name__


_PASS_DELEGATED = "SUCCESS"
_PASS_UNDELEGATED = "SUCCESS_UNDELEGATED"
_NOT_BACKEND = {"SKIPPED", "UNKNOWN_FAIL"}  # the suite's own non-backend outcomes


def _column(result: str) -> str:
    if result == _PASS_DELEGATED:
        return "passed delegated"
    if result == _PASS_UNDELEGATED:
        return "passed undelegated"
    if result in _NOT_BACKEND:
        return "skipped"
    return "failed"


def render_summary(records: list[Record], selection: str, seed: int) -> str:
    columns = ["passed delegated", "passed undelegated", "failed", "skipped"]
    total = Counter(_column(r.result) for r in records)
    by_kind = Counter(r.result for r in records)
    per_op: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        per_op[r.op][_column(r.result)] += 1
    lines = [
        f"Selection: `{selection}`; seed {seed}; {len(records)} sub-tests.",
        "",
        "| total | " + " | ".join(columns) + " |",
        "|---|" + "---:|" * len(columns),
        f"| {len(records)} | " + " | ".join(str(total[c]) for c in columns) + " |",
        "",
        "By result kind: " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())) + ".",
        "",
        "| op | " + " | ".join(columns) + " |",
        "|---|" + "---:|" * len(columns),
    ]
    for op in sorted(per_op):
        lines.append(f"| {op} | " + " | ".join(str(per_op[op][c]) for c in columns) + " |")
    failures = [r for r in records if _column(r.result) == "failed"]
    lines += ["", f"Failures ({len(failures)}):", ""]
    lines += [
        f"- `{r.name}` ({r.op}, {'delegated' if r.delegated else 'undelegated'}): "
        f"{r.result} — {r.error}"
        for r in failures
    ] or ["- none"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", dest="keyword", help="pytest -k expression (e.g. 'add or relu')")
    parser.add_argument("--report", type=Path, help="also write pytest's per-test log here")
    parser.add_argument("--summary", type=Path, help="write the markdown summary here")
    parser.add_argument("--seed", type=int, default=0, help="the suite's input seed")
    args = parser.parse_args()

    _use_source_tree_with_native_parts()
    import executorch.backends.test.suite.operators as operators
    import pytest
    from executorch.backends.test.suite.reporting import (
        begin_test_session,
        complete_test_session,
    )
    from flow import register_ascend_flow

    register_ascend_flow()
    suite_dir = Path(operators.__file__).parent
    pytest_args = [
        str(suite_dir),
        "-m",
        "flow_ascend",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(suite_dir.parent),
        "-c",
        os.devnull,  # keep this repo's pytest settings out of the suite's run
        "-p",
        "no:warnings",
        "-v",  # names each test as it starts, so a native crash shows which one
        "-rs",  # and says why each skipped one was skipped
    ]
    if args.keyword:
        pytest_args += ["-k", args.keyword]
    if args.report:
        pytest_args += ["--junitxml", str(args.report)]
    selection = "operators, flow ascend" + (f", -k '{args.keyword}'" if args.keyword else "")
    progress = args.summary.with_suffix(".partial.md") if args.summary else None
    collector = Collector(progress, selection, args.seed)
    # Seeds the suite's input generation so runs are reproducible (no CSV: path None).
    begin_test_session(None, seed=args.seed)
    exit_code = pytest.main(pytest_args, plugins=[collector])
    complete_test_session()

    text = render_summary(collector.records, selection, args.seed)
    print(text)
    if args.summary:
        args.summary.write_text(text)
        if progress is not None:
            progress.unlink(missing_ok=True)
    # pytest's own code is 1 when any test failed; 2+ means the run itself broke.
    return 0 if exit_code in (0, 1) else int(exit_code)


if __name__ == "__main__":
    sys.exit(main())
