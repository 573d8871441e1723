# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Write one C++17 file that compiles only if acl/acl_api.h agrees with CANN's own headers.

Why: the project declares the ACL C API itself (no CANN header may be copied), and nothing here
can compile against CANN. On a host with CANN installed, the file this script writes includes
CANN's `acl/acl.h` beside our declarations and `static_assert`s, one line per item, that each of
our functions has CANN's type, each constant (enumerator or `#define`) CANN's value, each typedef
and enum CANN's type, and each struct CANN's size, alignment and member offsets, sizes and types.
A declaration CANN lacks fails to compile, naming it. tools/abi_check/CMakeLists.txt compiles it.

How: our declarations are re-emitted in `namespace ours` (our `#define`s as constexprs) *before*
CANN's headers, whose macros would otherwise rewrite our names, and what the checks compare with
is captured under names no CANN macro can rewrite (`ours_abi::v_ACL_SUCCESS`). After CANN's
headers, function types are compared as our prototypes spell them, read with CANN's type names:
with every type name checked on its own, that is the same C ABI.

The parser knows exactly the forms acl_api.h uses and refuses anything else, so a new kind of
declaration cannot escape the check. A declaration preceded by a comment containing
`abi-check: not in CANN` is ours alone (a name for a fact CANN documents only in prose) and is
listed, not checked.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_HEADER = REPO / "acl" / "acl_api.h"
# acl/acl.h includes acl_rt.h (which includes acl_base.h and the error-code headers) and
# acl_mdl.h; acl/acl.h does not include acl/acl_prof.h, the profiling API (CANN's
# libmsprofiler.so): together every header our declarations live in.
CANN_HEADERS = ("acl/acl.h", "acl/acl_prof.h")
NOT_IN_CANN = "abi-check: not in CANN"
_MARK = "@ABI_NOT_IN_CANN@"
_IDENT = r"[A-Za-z_]\w*"


class GeneratorError(Exception):
    """acl_api.h holds something this generator cannot check."""


@dataclass(frozen=True)
class Member:
    name: str
    base: str  # the element type as spelled, e.g. "int64_t" for "int64_t dims[ACL_MAX_DIM_CNT]"
    rank: int


@dataclass(frozen=True)
class Decl:
    kind: str  # "define", "typedef", "opaque", "enum", "struct"
    name: str  # "" for an anonymous enum
    text: str  # what `namespace ours` gets
    target: str = ""  # a typedef's type
    enumerators: tuple[str, ...] = ()
    members: tuple[Member, ...] = ()
    string: bool = False  # a #define of a string literal
    not_in_cann: bool = False


@dataclass(frozen=True)
class Function:
    ret: str
    name: str
    params: str  # with its parentheses


@dataclass
class Api:
    decls: list[Decl] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)

    def constants(self) -> list[tuple[str, bool]]:
        """(name, not in CANN) of every #define and enumerator, in order."""
        out: list[tuple[str, bool]] = []
        for d in self.decls:
            if d.kind == "define":
                out.append((d.name, d.not_in_cann))
            out += [(e, d.not_in_cann) for e in d.enumerators]
        return out


def _strip_comments(text: str) -> str:
    """Comments out (newlines kept); a comment marking a declaration becomes a marker token."""

    def repl(m: re.Match[str]) -> str:
        keep = _MARK if NOT_IN_CANN in " ".join(m.group(0).replace("*", " ").split()) else ""
        return keep + "\n" * m.group(0).count("\n")

    return re.sub(r"/\*.*?\*/|//[^\n]*", repl, text, flags=re.S)


def _split_top(text: str, sep: str) -> list[str]:
    """Split at `sep` outside (), [] and {}."""
    parts, depth, cur = [], 0, []
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def _norm(text: str) -> str:
    return " ".join(text.split())


def _parse_decl(chunk: str, marked: bool) -> Decl:
    m = re.fullmatch(rf"(typedef\s+)?enum\s*(?:{_IDENT}\s*)?\{{(.*)\}}\s*({_IDENT})?", chunk, re.S)
    if m:
        if bool(m.group(1)) != bool(m.group(3)):
            raise GeneratorError(f"an enum is anonymous or a typedef, not this: {_norm(chunk)}")
        names = []
        for e in filter(str.strip, _split_top(m.group(2), ",")):
            if not (em := re.fullmatch(rf"\s*({_IDENT})\s*(=.*)?", e, re.S)):
                raise GeneratorError(f"enum {m.group(3)}: cannot check enumerator {_norm(e)!r}")
            names.append(em.group(1))
        return Decl(
            "enum", m.group(3) or "", chunk + ";", enumerators=tuple(names), not_in_cann=marked
        )
    m = re.fullmatch(rf"typedef\s+struct\s*(?:{_IDENT}\s*)?\{{(.*)\}}\s*({_IDENT})", chunk, re.S)
    if m:
        members = []
        for raw in _split_top(m.group(1), ";"):
            if not raw.strip():
                continue
            mm = re.fullmatch(rf"\s*([\w\s*]+?)\s*\b({_IDENT})\s*((?:\[[^\]]+\]\s*)*)", raw)
            if not mm:
                raise GeneratorError(f"struct {m.group(2)}: cannot check member {_norm(raw)!r}")
            members.append(Member(mm.group(2), _norm(mm.group(1)), mm.group(3).count("[")))
        return Decl("struct", m.group(2), chunk + ";", members=tuple(members), not_in_cann=marked)
    m = re.fullmatch(rf"typedef\s+struct\s+({_IDENT})\s+({_IDENT})", chunk.strip())
    if m:
        return Decl("opaque", m.group(2), chunk + ";", not_in_cann=marked)
    m = re.fullmatch(rf"typedef\s+([\w\s*]+?)\s*\b({_IDENT})", chunk.strip())
    if m:
        return Decl(
            "typedef", m.group(2), chunk + ";", target=_norm(m.group(1)), not_in_cann=marked
        )
    raise GeneratorError(f"cannot check this declaration: {_norm(chunk)}")


def parse_functions(def_text: str) -> list[Function]:
    """The ACL_FUNCTION(ret, name, (params), user, faults) rows of acl_functions.def."""
    text = _strip_comments(def_text).replace(_MARK, "")
    out = []
    for m in re.finditer(r"\bACL_FUNCTION\s*\(", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args = [a.strip() for a in _split_top(text[m.end() : i - 1], ",")]
        if len(args) != 5 or not args[2].startswith("("):
            raise GeneratorError(f"acl_functions.def: not a row: {_norm(text[m.start() : i])}")
        out.append(Function(_norm(args[0]), args[1], _norm(args[2])))
    return out


def parse(header: Path) -> Api:
    """Every declaration of acl_api.h, in order, and every function row of the list it includes."""
    api = Api()
    lines = _strip_comments(header.read_text()).replace("\\\n", " ").splitlines()
    code: list[str] = []  # C text since the last directive

    def flush() -> bool:
        """Parse the declarations in `code`; True if a marker is left for what comes next."""
        *chunks, rest = _split_top("\n".join(code), ";")
        code.clear()
        for chunk in chunks:
            c = chunk.strip()
            api.decls.append(_parse_decl(c.replace(_MARK, "").strip(), _MARK in c))
        if rest.replace(_MARK, "").strip():
            raise GeneratorError(f"acl_api.h: a directive inside a declaration: {_norm(rest)}")
        return _MARK in rest

    in_cplusplus = guarded = False
    for line in lines:
        s = line.replace(_MARK, "").strip()
        if in_cplusplus:  # extern "C" { and }
            in_cplusplus = not s.startswith("#endif")
            continue
        if not s.startswith("#"):
            code.append(line)
            continue
        marked = flush() or _MARK in line
        d = _norm(s[1:])
        if d == "ifdef __cplusplus":
            in_cplusplus = True
        elif re.fullmatch(rf"ifndef {_IDENT}", d) and not guarded:
            guarded = True
        elif d in ("endif", "undef ACL_FUNCTION") or re.fullmatch(r"include <\w+\.h>", d):
            pass
        elif m := re.fullmatch(r'include "(\w+\.def)"', d):
            api.functions = parse_functions((header.parent / m.group(1)).read_text())
        elif d.startswith("define ACL_FUNCTION("):
            if d != "define ACL_FUNCTION(ret, name, params, user, faults) ret name params;":
                raise GeneratorError(f"acl_api.h: ACL_FUNCTION is not the prototype: {s}")
        elif m := re.fullmatch(rf"define ({_IDENT})(?: (.+))?", d):
            if m.group(2) is not None:  # else the include guard
                name, value = m.group(1), m.group(2)
                text = f"constexpr auto {name} = {value};"
                string = value.startswith('"')
                api.decls.append(Decl("define", name, text, string=string, not_in_cann=marked))
                continue
        else:
            raise GeneratorError(f"acl_api.h: cannot check this directive: {s}")
        if marked:
            raise GeneratorError(f"acl_api.h: '{NOT_IN_CANN}' before a directive: {s}")
    flush()
    if not api.functions:
        raise GeneratorError("acl_api.h: no #include of the ACL_FUNCTION list")
    return api


_PRELUDE = """\
// Generated by tools/abi_check/generate_acl_abi_check.py from {header}: do not edit.
// Compiles only if our ACL declarations agree with CANN's headers; each failing check names its
// item ("ABI check: <item>: ..."), and a declaration CANN lacks fails as undeclared.
#include <cstddef>
#include <cstdint>
#include <type_traits>

// Ours, as our code compiles them; before CANN's headers, whose macros would rewrite our names.
namespace ours {{
{ours}
}}  // namespace ours

// What the checks compare with, under names no CANN macro can rewrite.
namespace ours_abi {{
template <typename T>
constexpr auto integer(T v) {{
  if constexpr (std::is_enum_v<T>) {{
    return static_cast<std::underlying_type_t<T>>(v);
  }} else {{
    return v;
  }}
}}
// The same integer, whatever the two types (an enumerator, an int, a uint32_t constant).
template <typename A, typename B>
constexpr bool same_value(A a, B b) {{
  auto x = integer(a);
  auto y = integer(b);
  static_assert(std::is_integral_v<decltype(x)> && std::is_integral_v<decltype(y)>);
  bool x_negative = std::is_signed_v<decltype(x)> && x < decltype(x){{0}};
  bool y_negative = std::is_signed_v<decltype(y)> && y < decltype(y){{0}};
  return x_negative == y_negative &&
         static_cast<unsigned long long>(x) == static_cast<unsigned long long>(y);
}}
constexpr bool same_string(const char* a, const char* b) {{
  while (*a != '\\0' && *a == *b) {{
    ++a;
    ++b;
  }}
  return *a == *b;
}}
{captured}
}}  // namespace ours_abi

{includes}

// The checks, one line per item.
"""


def generate(api: Api, header_name: str = "acl/acl_api.h") -> str:
    """The translation unit: our declarations, CANN's headers, then one check per line."""
    ours: list[str] = []
    captured: list[str] = []
    checks: list[tuple[str, str]] = []  # (item, C++ line)

    def check(item: str, cond: str, what: str) -> None:
        checks.append((item, f'static_assert({cond}, "ABI check: {item}: {what}");'))

    for d in api.decls:
        ours.append("\n".join(line for line in d.text.splitlines() if line.strip()))
        if d.not_in_cann:
            continue
        if d.kind == "define":
            captured.append(f"constexpr auto v_{d.name} = ours::{d.name};")
            how = "same_string" if d.string else "same_value"
            check(d.name, f"ours_abi::{how}({d.name}, ours_abi::v_{d.name})", "value differs")
        elif d.kind == "typedef":
            check(d.name, f"std::is_same_v<{d.name}, {d.target}>", f"not {d.target} in CANN")
        elif d.kind == "opaque":
            check(d.name, f"std::is_class_v<{d.name}>", "not a struct type in CANN")
        elif d.kind == "enum":
            if d.name:
                captured.append(f"constexpr std::size_t e_{d.name}_size = sizeof(ours::{d.name});")
                cond = f"std::is_enum_v<{d.name}> && sizeof({d.name}) == ours_abi::e_{d.name}_size"
                check(d.name, cond, "not an enum of the same size in CANN")
            for e in d.enumerators:
                captured.append(f"constexpr auto v_{e} = ours::{e};")
                check(e, f"ours_abi::same_value({e}, ours_abi::v_{e})", "value differs")
        elif d.kind == "struct":
            s = d.name
            captured.append(f"constexpr std::size_t s_{s}_size = sizeof(ours::{s});")
            captured.append(f"constexpr std::size_t s_{s}_align = alignof(ours::{s});")
            check(s, f"sizeof({s}) == ours_abi::s_{s}_size", "sizeof differs")
            check(s, f"alignof({s}) == ours_abi::s_{s}_align", "alignof differs")
            for mem in d.members:
                item, k = f"{s}::{mem.name}", f"m_{s}_{mem.name}"
                member = f"decltype({s}::{mem.name})"
                captured.append(
                    f"constexpr std::size_t {k}_offset = offsetof(ours::{s}, {mem.name});"
                )
                captured.append(f"constexpr std::size_t {k}_size = sizeof(ours::{s}::{mem.name});")
                check(item, f"offsetof({s}, {mem.name}) == ours_abi::{k}_offset", "offset differs")
                check(item, f"sizeof({s}::{mem.name}) == ours_abi::{k}_size", "size differs")
                elem = f"std::is_same_v<std::remove_all_extents_t<{member}>, {mem.base}>"
                check(item, elem, f"element type not {mem.base} in CANN")
                extents = [f"std::rank_v<{member}> == {mem.rank}"]
                for i in range(mem.rank):
                    captured.append(
                        f"constexpr std::size_t {k}_extent{i} = "
                        f"std::extent_v<decltype(ours::{s}::{mem.name}), {i}>;"
                    )
                    extents.append(f"std::extent_v<{member}, {i}> == ours_abi::{k}_extent{i}")
                check(item, " && ".join(extents), "array extents differ")
    for f in api.functions:
        ours_type = f"{f.ret}{f.params}"
        check(
            f.name,
            f"std::is_same_v<decltype({f.name}), {ours_type}>",
            f"function type differs from ours, {ours_type}",
        )
    text = _PRELUDE.format(
        header=header_name,
        ours="\n".join(ours),
        captured="\n".join(captured),
        includes="\n".join(f"#include <{h}>" for h in CANN_HEADERS),
    )
    return text + "".join(line + "\n" for _, line in checks)


_CHECK = re.compile(r'static_assert\(.*"ABI check: (.+?): ')
_DIAGNOSTIC = re.compile(r"([^\s:]+):(\d+):(?:\d+:)? (?:(fatal error|error): )?(.*)")


def failed_items(tu: Path, compiler_output: str) -> tuple[dict[str, str], list[str]]:
    """What a failed compile of the generated file says: {item: its first error}, other errors.

    Errors are matched to items by the line they point at (an error inside a helper template
    reaches its check line as "required from here"), so an item CANN lacks is named too.
    """
    lines = tu.read_text().splitlines()
    items = {i + 1: m.group(1) for i, line in enumerate(lines) if (m := _CHECK.match(line))}
    failed: dict[str, str] = {}
    other: list[str] = []
    last_error = ""
    for raw in re.sub(r"\x1b\[[0-9;]*m", "", compiler_output).splitlines():
        m = _DIAGNOSTIC.match(raw.strip())
        if not m:
            continue
        path, line, severity, message = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        if severity:
            last_error = message
        item = items.get(line) if Path(path).name == tu.name else None
        if item is not None:
            said = message if severity else last_error
            failed.setdefault(
                item, said.replace(f"static assertion failed: ABI check: {item}: ", "")
            )
        elif severity:
            other.append(raw.strip())
    return failed, other


def summary(api: Api) -> str:
    """One line: what the check covers, and what it leaves out as ours alone."""
    checked = [d for d in api.decls if not d.not_in_cann]
    skipped = [n for d in api.decls if d.not_in_cann for n in (d.name, *d.enumerators) if n]
    consts = sum(1 for _, mine in api.constants() if not mine)
    types = sum(
        1 for d in checked if d.kind in ("typedef", "opaque") or (d.kind == "enum" and d.name)
    )
    structs = sum(1 for d in checked if d.kind == "struct")
    line = f"{len(api.functions)} functions, {consts} constants, {types} types, {structs} structs"
    if skipped:
        line += f"; ours alone, not checked: {', '.join(skipped)}"
    return line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--header", type=Path, default=DEFAULT_HEADER, help="our acl_api.h")
    ap.add_argument("-o", "--output", type=Path, required=True, help="the C++ file to write")
    ap.add_argument(
        "--explain",
        type=Path,
        metavar="LOG",
        help="instead: name each item that the compiler output in LOG says differs",
    )
    args = ap.parse_args(argv)
    if args.explain:
        failed, other = failed_items(args.output, args.explain.read_text())
        for item, message in failed.items():
            print(f"  {item}: {message}")
        for line in other:
            print(f"  (not one item) {line}")
        return 0
    try:
        api = parse(args.header)
    except GeneratorError as e:
        print(f"generate_acl_abi_check: {e}", file=sys.stderr)
        return 1
    text = generate(api, f"{args.header.parent.name}/{args.header.name}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    if not args.output.exists() or args.output.read_text() != text:
        args.output.write_text(text)
    print(summary(api))
    return 0


if __name__ == "__main__":
    sys.exit(main())
