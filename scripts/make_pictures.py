#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Draw the documentation's pictures into docs/pictures/, from their sources in the repository.

    python scripts/make_pictures.py                 # every picture, into docs/pictures/
    python scripts/make_pictures.py --out DIR       # somewhere else (the tests draw into a tmp dir)
    python scripts/make_pictures.py --only NAME ... # some of them (names: --list)
    python scripts/make_pictures.py --check         # are the committed pictures current?

Pictures and what each is drawn from (one source of truth each):

- architecture.svg: docs/pictures/architecture.dot, by Graphviz `dot`.
- benchmarks-latency.svg, benchmarks-decode.svg: the tables of docs/benchmarks.md (matplotlib).
- backend-test-suite.svg: the per-op table of docs/backend-test-suite.md (matplotlib).
- partition-resnet.svg, partition-cnn-avgpool.svg: the partition pictures that
  `executorch-ascend explain MODULE:FACTORY --input ... --graph x.dot` draws of a transformers
  ResNet (examples/example_models.py) and of a CNN with one op Ascend refuses
  (docs/pictures/partition_models.py), rendered by `dot`.

Each SVG carries the data it was drawn from as JSON in a <metadata id="executorch-ascend-picture">
element, so `--check` (and tests/python/test_pictures.py) can tell a stale picture from a current
one without comparing drawings byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PICTURES = REPO / "docs" / "pictures"
GENERATOR = "scripts/make_pictures.py"
METADATA_ID = "executorch-ascend-picture"
RERUN = f"python {GENERATOR}"


# The Markdown tables the benchmark pictures are drawn from (scripts/markdown_tables.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from markdown_tables import Table, find_tables, first_number, measured_on, read_tables  # noqa: E402

# --------------------------------------------------------------------------------------------
# SVG metadata


def embed_metadata(svg: str, info: dict[str, Any]) -> str:
    """`svg` with `info` as JSON in a <metadata> element right after the <svg> start tag."""
    payload = html.escape(json.dumps(info, sort_keys=True), quote=False)
    element = f'<metadata id="{METADATA_ID}">{payload}</metadata>'
    m = re.search(r"<svg\b[^>]*>", svg)
    if not m:
        raise ValueError("not an SVG document")
    return svg[: m.end()] + "\n" + element + svg[m.end() :]


def read_metadata(svg_path: Path) -> dict[str, Any] | None:
    """The JSON a picture carries, or None for a picture without it."""
    text = svg_path.read_text(encoding="utf-8")
    m = re.search(rf'<metadata id="{METADATA_ID}">(.*?)</metadata>', text, re.S)
    return json.loads(html.unescape(m.group(1))) if m else None


def _info(name: str, sources: list[str], data: Any) -> dict[str, Any]:
    return {"generator": GENERATOR, "picture": name, "sources": sources, "data": data}


# --------------------------------------------------------------------------------------------
# Pictures


@dataclass
class Picture:
    name: str  # the file name in docs/pictures
    sources: list[str]  # repository paths it is drawn from
    data: Callable[[], Any]  # what it shows, as JSON-able data (compared by --check)
    draw: Callable[[Any, Path], str]  # writes the SVG text for that data


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# architecture.svg ---------------------------------------------------------------------------

ARCHITECTURE_DOT = "docs/pictures/architecture.dot"


def _architecture_data() -> dict[str, str]:
    return {"dot_sha256": _sha256(REPO / ARCHITECTURE_DOT)}


def _draw_architecture(_: Any, out: Path) -> str:
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError("Graphviz `dot` is not installed (Debian: apt-get install graphviz)")
    return subprocess.run(
        [dot, "-Tsvg", str(REPO / ARCHITECTURE_DOT)], capture_output=True, text=True, check=True
    ).stdout


# matplotlib set-up ----------------------------------------------------------------------------

COLORS = {
    "eager": "#8c8c8c",
    "ascend": "#c0392b",
    "ascend2": "#e6846f",
    "cpu": "#2e6da4",
    "cpu2": "#7fb0dc",
    "xnnpack": "#2e6da4",
}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams.update(
        {
            "svg.fonttype": "none",  # text stays text: searchable, and checked by the tests
            "svg.hashsalt": "executorch-ascend",  # stable element ids
            "font.family": "DejaVu Sans",
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, out: Path) -> str:
    fig.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    fig.clear()
    import matplotlib.pyplot as plt

    plt.close(fig)
    return out.read_text(encoding="utf-8")


def _label_bars(ax: Any, bars: Any, fmt: str = "{:g}") -> None:
    for bar in bars:
        width = bar.get_width()
        ax.annotate(
            fmt.format(width),
            (width, bar.get_y() + bar.get_height() / 2),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )


# benchmarks-latency.svg -------------------------------------------------------------------------

BENCHMARKS_MD = "docs/benchmarks.md"


def _latency_data() -> dict[str, Any]:
    table = find_tables(read_tables(REPO / BENCHMARKS_MD), ["model", "(a) eager PyTorch"])[0]
    return {
        "measured": measured_on(table),
        "paths": table.header[1:],
        "models": [row[0] for row in table.rows],
        "ms": [[first_number(c) for c in row[1:]] for row in table.rows],
    }


def _draw_latency(data: dict[str, Any], out: Path) -> str:
    plt = _pyplot()
    models, paths, ms = data["models"], data["paths"], data["ms"]
    colors = [COLORS["eager"], COLORS["ascend"], COLORS["ascend2"], COLORS["cpu"], COLORS["cpu2"]]
    fig, ax = plt.subplots(figsize=(9.5, 1.0 + 1.45 * len(models)))
    height = 0.8 / len(paths)
    for j, path in enumerate(paths):
        ys = [i - 0.4 + height / 2 + j * height for i in range(len(models))]
        bars = ax.barh(
            ys, [row[j] for row in ms], height, label=path, color=colors[j % len(colors)]
        )
        _label_bars(ax, bars)
    ax.set_xscale("log")
    ax.set_yticks(range(len(models)), models)
    ax.invert_yaxis()
    ax.set_xlabel("ms per call, log scale (median; min for the ascend_runner columns)")
    ax.set_xlim(right=max(max(r) for r in ms) * 8)
    ax.set_title(
        "Per-call latency of three small models: eager PyTorch, ExecuTorch + AscendBackend on the "
        "CANN emulator,\nand ExecuTorch CPU-only, on this project's 2-vCPU VM "
        f"(measured {data['measured']}, under load; 1 thread).\n"
        "The emulator's speed is that of CPU reference kernels, not an NPU's.",
        fontsize=10,
        loc="left",
    )
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, fontsize=8, frameon=False)
    ax.grid(axis="x", which="major", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    return _save(fig, out)


# benchmarks-decode.svg --------------------------------------------------------------------------


def _dtype_of(table: Table) -> str:
    m = re.search(r"\b(fp32|fp16|bf16)\b", table.header[0] + " " + table.before)
    return m.group(1) if m else "fp32"


def _decode_data() -> dict[str, Any]:
    tables = read_tables(REPO / BENCHMARKS_MD)
    now = find_tables(tables, ["path", "decode tokens/s (median)"], "the current code")
    before = [
        t
        for dtype in ("fp32", "fp16")
        for t in find_tables(tables, [f"path ({dtype})", "decode tokens/s (median)"], "Before")
    ]

    def rows(ts: list[Table]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for t in ts:
            h2d = t.column("host->device B/token")
            out[_dtype_of(t)] = [
                {
                    "path": r[0],
                    "tokens_per_s": first_number(r[1]),
                    "h2d_bytes": None if r[h2d] == "n/a" else first_number(r[h2d]),
                }
                for r in t.rows
            ]
        return out

    return {"measured": measured_on(now[0]), "now": rows(now), "before": rows(before)}


def _short_path(path: str) -> str:
    return (
        path.replace("ExecuTorch + AscendBackend (CANN emulator)", "AscendBackend\n(CANN emulator)")
        .replace("ExecuTorch + XnnpackBackend", "XNNPACK\n(ExecuTorch)")
        .replace("eager PyTorch (static cache, 1 thread)", "eager PyTorch\n(static cache)")
    )


def _draw_decode(data: dict[str, Any], out: Path) -> str:
    plt = _pyplot()
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.3, 1]}
    )
    dtypes = list(data["now"])
    paths = [r["path"] for r in data["now"][dtypes[0]]]
    height = 0.8 / len(dtypes)
    shades = [COLORS["cpu"], COLORS["cpu2"], "#b5cde6"]
    for j, dtype in enumerate(dtypes):
        values = {r["path"]: r["tokens_per_s"] for r in data["now"][dtype]}
        ys = [i - 0.4 + height / 2 + j * height for i in range(len(paths))]
        bars = left.barh(
            ys, [values[p] for p in paths], height, label=dtype, color=shades[j % len(shades)]
        )
        _label_bars(left, bars)
    left.set_yticks(range(len(paths)), [_short_path(p) for p in paths])
    left.invert_yaxis()
    left.set_xlabel("decode tokens/s (median of 3 runs; higher is faster)")
    left.set_xlim(right=max(r["tokens_per_s"] for rs in data["now"].values() for r in rs) * 1.2)
    left.legend(frameon=False, fontsize=8, loc="lower right")
    left.set_title("Decode speed, KV cache on the device", fontsize=10, loc="left")

    ascend = "ExecuTorch + AscendBackend (CANN emulator)"
    labels, values, colors = [], [], []
    for dtype in dtypes:
        for when, key, color in (
            ("before: cache as I/O", "before", COLORS["ascend2"]),
            ("now: cache as device state", "now", COLORS["ascend"]),
        ):
            row = next(
                (r for r in data[key].get(dtype, []) if r["path"] == ascend and r["h2d_bytes"]),
                None,
            )
            if row is not None:
                labels.append(f"{dtype}, {when}")
                values.append(row["h2d_bytes"])
                colors.append(color)
    bars = right.barh(range(len(values)), values, 0.6, color=colors)
    _label_bars(right, bars, "{:,.0f} B")
    right.set_xscale("log")
    right.set_xlim(right=max(values) * 20)
    right.set_yticks(range(len(labels)), labels)
    right.invert_yaxis()
    right.set_xlabel("host→device bytes per decode token, log scale")
    right.set_title("AscendBackend traffic per token", fontsize=10, loc="left")
    fig.suptitle(
        "Example decoder LLM (Llama, 2 layers, vocabulary 256) through llm_runner on this "
        f"2-vCPU VM (measured {data['measured']}, under load).\n"
        "The emulator computes on the CPU: this compares CPU kernels, not an NPU with a CPU.",
        fontsize=10,
        x=0.01,
        ha="left",
    )
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    return _save(fig, out)


# backend-test-suite.svg ---------------------------------------------------------------------------

SUITE_MD = "docs/backend-test-suite.md"
SUITE_OUTCOMES = ["passed delegated", "passed undelegated", "failed", "skipped"]
SUITE_COLORS = ["#2e8b57", "#7fb0dc", "#c0392b", "#cccccc"]


def _suite_data() -> dict[str, Any]:
    tables = read_tables(REPO / SUITE_MD)
    per_op = find_tables(tables, ["op", *SUITE_OUTCOMES])[0]
    totals = find_tables(tables, ["total", *SUITE_OUTCOMES])[0]
    return {
        "measured": measured_on(per_op),
        "totals": dict(
            zip(totals.header, (int(first_number(c)) for c in totals.rows[0]), strict=True)
        ),
        "ops": [row[0] for row in per_op.rows],
        "counts": [[int(first_number(c)) for c in row[1:5]] for row in per_op.rows],
    }


def _draw_suite(data: dict[str, Any], out: Path) -> str:
    plt = _pyplot()
    ops, counts = data["ops"], data["counts"]
    half = (len(ops) + 1) // 2
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.5 + 0.19 * half), sharex=True)
    top = max(sum(c) for c in counts)
    for ax, part in zip(axes, (range(0, half), range(half, len(ops))), strict=True):
        idx = list(part)
        left = [0] * len(idx)
        for k, (outcome, color) in enumerate(zip(SUITE_OUTCOMES, SUITE_COLORS, strict=True)):
            widths = [counts[i][k] for i in idx]
            ax.barh(range(len(idx)), widths, 0.75, left=left, color=color, label=outcome)
            left = [a + b for a, b in zip(left, widths, strict=True)]
        ax.set_yticks(range(len(idx)), [ops[i] for i in idx], fontsize=8)
        ax.set_ylim(half - 0.5, -0.5)
        ax.set_xlim(0, top * 1.05)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.set_xlabel("sub-tests", fontsize=9)
    t = data["totals"]
    fig.suptitle(
        "ExecuTorch's backend test suite (operators), ascend flow: each operator's sub-tests by "
        f"outcome.\n{t['total']} sub-tests: {t['passed delegated']} passed delegated, "
        f"{t['passed undelegated']} passed undelegated, {t['failed']} failed, "
        f"{t['skipped']} skipped. Seed 0, on the CANN emulator on this 2-vCPU VM "
        f"({data['measured']}).",
        fontsize=10,
        x=0.01,
        ha="left",
    )
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.035, 1, 0.94))
    return _save(fig, out)


# partition-<model>.svg ----------------------------------------------------------------------------
# `executorch-ascend explain MODULE:FACTORY --input ... --graph x.dot` (src/executorch_ascend/
# graph_picture.py) on a real program: the DOT it writes is the data, rendered here by `dot`.


@dataclass(frozen=True)
class PartitionModel:
    factory: str  # MODULE:FACTORY, importable from `folder`
    inputs: list[str]  # --input NAME:SHAPE:DTYPE
    folder: str  # the CLI's working folder, relative to the repository
    sources: list[str]


PARTITION_MODELS = {
    "partition-resnet.svg": PartitionModel(
        "example_models:small_resnet",
        ["pixel_values:1,3,64,64:float32"],
        "examples",
        ["examples/example_models.py"],
    ),
    "partition-cnn-avgpool.svg": PartitionModel(
        "partition_models:cnn_with_cpu_op",
        ["x:1,3,16,16:float32"],
        "docs/pictures",
        ["docs/pictures/partition_models.py"],
    ),
}
_partition_dots: dict[str, str] = {}


# One process runs the CLI's main() for every model in turn: the imports (torch, executorch.exir)
# are most of an explain's time, paid once.
_EXPLAIN_DRIVER = """
import json, os, sys
from executorch_ascend.cli import main
for folder, argv in json.loads(sys.argv[1]):
    os.chdir(folder)
    status = main(argv)
    if status:
        sys.exit(f"executorch-ascend {' '.join(argv)}: exit status {status}")
"""


def _explain_graphs(names: list[str]) -> dict[str, str]:
    """The DOT text `executorch-ascend explain MODULE:FACTORY --input ... --graph x.dot` writes
    for each named picture's model (this checkout's Python package first on the path)."""
    if not names:
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for i, name in enumerate(names):
            model = PARTITION_MODELS[name]
            inputs = [a for x in model.inputs for a in ("--input", x)]
            argv = ["explain", model.factory, *inputs, "--graph", f"{tmp}/{i}.dot"]
            runs.append((str(REPO / model.folder), argv))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(REPO / "src"), env.get("PYTHONPATH")) if p
        )
        done = subprocess.run(
            [sys.executable, "-c", _EXPLAIN_DRIVER, json.dumps(runs)],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-8:])
            raise RuntimeError(f"executorch-ascend explain --graph failed:\n{tail}")
        return {n: Path(f"{tmp}/{i}.dot").read_text(encoding="utf-8") for i, n in enumerate(names)}


def _partition_data(name: str) -> Callable[[], dict[str, Any]]:
    def data() -> dict[str, Any]:
        if name not in _partition_dots:
            _partition_dots.update(_explain_graphs([name]))
        dot = _partition_dots[name]
        title = re.search(r'^\s*label="([^"]*)";', dot, re.M)
        model = PARTITION_MODELS[name]
        return {
            "model": model.factory,
            "inputs": model.inputs,
            "summary": title.group(1) if title else "",
            "dot_sha256": hashlib.sha256(dot.encode()).hexdigest(),
        }

    return data


def _draw_partition(name: str) -> Callable[[Any, Path], str]:
    def draw(_: Any, out: Path) -> str:
        dot = shutil.which("dot")
        if dot is None:
            raise RuntimeError("Graphviz `dot` is not installed (Debian: apt-get install graphviz)")
        return subprocess.run(
            [dot, "-Tsvg"], input=_partition_dots[name], capture_output=True, text=True, check=True
        ).stdout

    return draw


PICTURE_LIST = [
    Picture("architecture.svg", [ARCHITECTURE_DOT], _architecture_data, _draw_architecture),
    Picture("benchmarks-latency.svg", [BENCHMARKS_MD], _latency_data, _draw_latency),
    Picture("benchmarks-decode.svg", [BENCHMARKS_MD], _decode_data, _draw_decode),
    Picture("backend-test-suite.svg", [SUITE_MD], _suite_data, _draw_suite),
] + [
    Picture(
        name,
        [*m.sources, "src/executorch_ascend/graph_picture.py"],
        _partition_data(name),
        _draw_partition(name),
    )
    for name, m in PARTITION_MODELS.items()
]
PICTURES_BY_NAME = {p.name: p for p in PICTURE_LIST}


def draw(picture: Picture, out_dir: Path) -> Path:
    """Draw one picture into `out_dir`, with its data embedded; return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / picture.name
    data = picture.data()
    svg = picture.draw(data, out)
    out.write_text(embed_metadata(svg, _info(picture.name, picture.sources, data)), "utf-8")
    return out


def stale(picture: Picture, pictures_dir: Path = PICTURES) -> str | None:
    """Why the committed picture does not show its sources' current data, or None if it does."""
    path = pictures_dir / picture.name
    if not path.is_file():
        return f"{path.relative_to(REPO)} is missing"
    meta = read_metadata(path)
    if meta is None:
        return f"{path.relative_to(REPO)} carries no {METADATA_ID} metadata"
    if meta.get("data") != picture.data():
        return f"{path.relative_to(REPO)} is older than {', '.join(picture.sources)}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=PICTURES, help="folder for the SVGs")
    parser.add_argument("--only", nargs="+", choices=sorted(PICTURES_BY_NAME), metavar="NAME")
    parser.add_argument("--list", action="store_true", help="list the pictures and exit")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if a committed picture is stale"
    )
    args = parser.parse_args(argv)
    if args.list:
        for p in PICTURE_LIST:
            print(f"{p.name}: from {', '.join(p.sources)}")
        return 0
    chosen = [PICTURES_BY_NAME[n] for n in args.only] if args.only else PICTURE_LIST
    # The partition pictures' explain runs, all in one process, before anything is drawn.
    _partition_dots.update(_explain_graphs([p.name for p in chosen if p.name in PARTITION_MODELS]))
    if args.check:
        problems = [why for p in chosen if (why := stale(p))]
        for why in problems:
            print(f"stale: {why}; run `{RERUN}`", file=sys.stderr)
        return 1 if problems else 0
    for p in chosen:
        print(f"[pictures] {draw(p, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
