# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The documentation's pictures: scripts/make_pictures.py draws each one, and the committed ones
in docs/pictures/ show their sources' current data.

Drawing needs Graphviz's `dot` (Debian: graphviz) and matplotlib; scripts/setup.sh installs both.
The partition pictures run `executorch-ascend explain --graph` on real programs (most of this
file's time: two processes importing torch and executorch.exir, side by side).
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "make_pictures.py"
SVG = "{http://www.w3.org/2000/svg}"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_pictures", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_pictures"] = module
    spec.loader.exec_module(module)
    return module


mp = _load_script()


def _texts(svg: Path) -> str:
    """All the text an SVG shows, one string (element text joined by newlines)."""
    root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG}svg", f"{svg.name} is not an SVG document"
    return "\n".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def _expected_labels(name: str, data: dict) -> list[str]:
    """What a picture must show; `data` is what it says it was drawn from."""
    if name == "architecture.svg":
        return ["AscendPartitioner", "AscendBackend", "atc", "libascendcl.so", "model.pte"]
    if name == "benchmarks-latency.svg":
        return data["models"] + data["paths"]
    if name == "benchmarks-decode.svg":
        return [*data["now"], "AscendBackend", "XNNPACK", "eager PyTorch"]
    if name == "backend-test-suite.svg":
        return data["ops"] + mp.SUITE_OUTCOMES
    if name == "partition-resnet.svg":
        return ["Ascend partition 0", "input pixel_values", "convolution", "linear", "outputs"]
    if name == "partition-cnn-avgpool.svg":
        return ["Ascend partition 0", "Ascend partition 1", "avg_pool2d", "count_include_pad"]
    raise AssertionError(f"no expected labels for {name}")


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every picture, drawn by the script as CI and a contributor run it, into a tmp folder."""
    missing = [n for n in ("dot",) if shutil.which(n) is None]
    if importlib.util.find_spec("matplotlib") is None:
        missing.append("matplotlib")
    assert not missing, f"{missing} not installed: scripts/setup.sh installs them"
    out = tmp_path_factory.mktemp("pictures")
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(out)], check=True, timeout=120)
    return out


def test_the_script_lists_each_picture() -> None:
    assert set(mp.PICTURES_BY_NAME) >= {
        "architecture.svg",
        "benchmarks-latency.svg",
        "benchmarks-decode.svg",
        "backend-test-suite.svg",
        "partition-resnet.svg",
        "partition-cnn-avgpool.svg",
    }


@pytest.mark.parametrize("name", sorted(mp.PICTURES_BY_NAME))
def test_each_picture_is_drawn_well_formed_with_its_labels(drawn: Path, name: str) -> None:
    svg = drawn / name
    assert svg.is_file()
    text = _texts(svg)
    meta = mp.read_metadata(svg)
    assert meta is not None and meta["picture"] == name
    assert meta["sources"] == mp.PICTURES_BY_NAME[name].sources
    missing = [label for label in _expected_labels(name, meta["data"]) if label not in text]
    assert missing == []


@pytest.mark.parametrize("name", sorted(mp.PICTURES_BY_NAME))
def test_the_committed_picture_is_current(drawn: Path, name: str) -> None:
    """The committed SVG shows the data the script draws from today's sources (not byte-exact:
    another matplotlib or Graphviz may draw the same data differently)."""
    committed = mp.PICTURES / name
    assert committed.is_file(), f"{committed} missing: run `python scripts/make_pictures.py`"
    _texts(committed)  # it parses
    meta = mp.read_metadata(committed)
    assert meta is not None, f"{committed} has no metadata: run `python scripts/make_pictures.py`"
    assert meta["data"] == mp.read_metadata(drawn / name)["data"], (
        f"{committed} is older than {mp.PICTURES_BY_NAME[name].sources}: "
        "run `python scripts/make_pictures.py` and commit it"
    )


def test_the_docs_show_the_pictures() -> None:
    shown = {
        "README.md": ["docs/pictures/architecture.svg"],
        "docs/architecture.md": ["pictures/architecture.svg", "pictures/partition-cnn-avgpool.svg"],
        "docs/benchmarks.md": ["pictures/benchmarks-latency.svg", "pictures/benchmarks-decode.svg"],
        "docs/backend-test-suite.md": ["pictures/backend-test-suite.svg"],
        "docs/troubleshooting.md": ["pictures/partition-cnn-avgpool.svg"],
    }
    for page, pictures in shown.items():
        text = (REPO / page).read_text(encoding="utf-8")
        assert [p for p in pictures if f"]({p})" not in text] == [], page


def test_tables_are_read_from_markdown(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## Results\n\nMeasured 2026-01-02 here.\n\n### fp16 run\n\n"
        "`--dtype fp16`:\n\n| path | tokens/s |\n|---|---:|\n| a | 1.5 / 2 |\n| b | 3 |\n\n"
        "```\n| not | a table |\n|---|---|\n```\n",
        encoding="utf-8",
    )
    (table,) = mp.read_tables(page)
    assert table.headings == ["Title", "Results", "fp16 run"]
    assert table.header == ["path", "tokens/s"]
    assert table.rows == [["a", "1.5 / 2"], ["b", "3"]]
    assert mp.measured_on(table) == "2026-01-02"
    assert mp._dtype_of(table) == "fp16"
    assert [mp.first_number(r[1]) for r in table.rows] == [1.5, 3.0]
    with pytest.raises(LookupError):
        mp.find_tables([table], ["model"])
