# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Every relative link in the project's Markdown resolves, anchors included, so links cannot rot.

Pages: README.md, CHANGELOG.md, CONTRIBUTING.md, docs/*.md and every other tracked *.md file.
A link's target must exist in the tree (a file or a folder); a `#anchor` must name a heading of
the target page, slugged by GitHub's rules, or an explicit `<a id=...>`/`<a name=...>`.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parents[2]

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target) and ![alt](target); text may hold one level of brackets; optional "title".
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
_EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...


def _pages() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pages = {REPO / f for f in out.split()}
    # New pages that are not tracked yet still count.
    pages |= set((REPO / "docs").glob("*.md"))
    pages |= {REPO / n for n in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md")}
    return sorted(p for p in pages if p.is_file() and "regressions" not in p.parts)


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """The numbered lines outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def github_slug(heading: str) -> str:
    """GitHub's anchor of a heading: markup and punctuation dropped, lower case, '-' for ' '."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links -> their text
    text = _CODE_SPAN.sub(lambda m: m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("*", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in ("L", "M", "N"))
    return kept.replace(" ", "-")


@cache
def _anchors(page: Path) -> frozenset[str]:
    text = page.read_text(encoding="utf-8")
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in _prose_lines(text):
        anchors.update(_HTML_ANCHOR.findall(line))
        m = _HEADING.match(line)
        if not m:
            continue
        slug = github_slug(m.group(2))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return frozenset(anchors)


def _links(page: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in _prose_lines(page.read_text(encoding="utf-8")):
        # Blank code spans, but keep a link whose text is a code span: [`x`](y).
        prose = _CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), line)
        found += [(number, m.group(1)) for m in _LINK.finditer(prose)]
        m = _REF_DEF.match(prose)
        if m:
            found.append((number, m.group(1)))
    return found


def _broken(page: Path) -> list[str]:
    problems = []
    for number, target in _links(page):
        if _EXTERNAL.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        where = f"{page.relative_to(REPO)}:{number}: {target}"
        if path_part.startswith("/"):
            problems.append(f"{where} (absolute path)")
            continue
        dest = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not dest.exists():
            problems.append(f"{where} (no such file)")
            continue
        try:
            rel = dest.relative_to(REPO)
        except ValueError:
            problems.append(f"{where} (outside the repository)")
            continue
        if rel.parts and rel.parts[0] in ("build", ".venv", "out"):
            problems.append(f"{where} (a build output, not a source file)")
            continue
        if anchor and dest.suffix == ".md" and unquote(anchor).lower() not in _anchors(dest):
            problems.append(f"{where} (no heading with anchor #{anchor} in {rel})")
    return problems


PAGES = _pages()


def test_the_pages_are_found() -> None:
    names = {p.relative_to(REPO).as_posix() for p in PAGES}
    assert {"README.md", "docs/architecture.md", "docs/troubleshooting.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    assert _broken(page) == []


def test_the_slug_follows_githubs_rules() -> None:
    assert (
        github_slug("Sanitizers and fuzzing in CI (`scripts/sanitize.sh`)")
        == "sanitizers-and-fuzzing-in-ci-scriptssanitizesh"
    )
    assert github_slug("`fuzz_program`: ExecuTorch's own loader") == (
        "fuzz_program-executorchs-own-loader"
    )
    assert github_slug("Load/unload cycles") == "loadunload-cycles"
    assert github_slug("Threads and layouts: the caller's part") == (
        "threads-and-layouts-the-callers-part"
    )
