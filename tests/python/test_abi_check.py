# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""The ABI self-check (tools/abi_check) on two hand-written fake CANN include folders.

tests/abi_check/cann_matching agrees with acl/acl_api.h; tests/abi_check/cann_mismatching is wrong
on purpose in the items MISMATCHES lists (its lines say MISMATCH). The check must pass on the
first, and on the second fail naming exactly those items. The generator's parsing is checked
against the header and the function list by plain regular expressions of its own.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOL = REPO / "tools" / "abi_check"
MATCHING = REPO / "tests" / "abi_check" / "cann_matching"
MISMATCHING = REPO / "tests" / "abi_check" / "cann_mismatching"
CXX = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or "c++"

# Every deliberate difference of cann_mismatching, as the check names it.
MISMATCHES = {
    "aclrtSetDevice",  # a parameter's type
    "aclmdlGetCurOutputDims",  # a function CANN lacks
    "ACL_BF16",  # an enumerator's value
    "ACL_ERROR_RT_CONTEXT_NULL",  # an error code's value (a #define in CANN)
    "ACL_ERROR_COMPILING_STUB_MODE",  # a constant CANN lacks
    "ACL_MDL_LOAD_FROM_MEM_WITH_Q",  # a #define's value
    "ACL_DYNAMIC_TENSOR_NAME",  # a string #define's value
    "aclrtMemAttr",  # an enum's size
    "aclmdlIODims",  # a struct's size ...
    "aclmdlIODims::name",  # ... a member's size ...
    "aclmdlIODims::dimCount",  # ... and the offsets it moves
    "aclmdlIODims::dims",
    "aclmdlBatch::batchCount",  # a member's type, hidden by padding from the struct's size
}


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_acl_abi_check", TOOL / "generate_acl_abi_check.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gen = _generator()


def _needs(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"no {tool}")


@pytest.fixture(scope="module")
def tu(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("abi") / "acl_abi_check.cc"
    path.write_text(gen.generate(gen.parse(REPO / "acl" / "acl_api.h")))
    return path


_CHECK = re.compile(r'^static_assert\(.*"ABI check: (.+?): ', re.M)


def _checked_items(tu: Path) -> set[str]:
    return set(_CHECK.findall(tu.read_text()))


def _compile(tu: Path, include: Path) -> subprocess.CompletedProcess[str]:
    _needs(CXX)
    version = subprocess.run([CXX, "--version"], capture_output=True, text=True).stdout
    every_error = "-ferror-limit=0" if "clang" in version else "-fmax-errors=0"
    cmd = [CXX, "-std=c++17", "-fsyntax-only", "-fdiagnostics-color=never", every_error]
    cmd += [f"-I{include}", str(tu)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_every_function_constant_type_and_member_is_checked(tu: Path) -> None:
    header = (REPO / "acl" / "acl_api.h").read_text()
    rows = re.findall(
        r"^ACL_FUNCTION\(\s*[^,]+,\s*(\w+),", (REPO / "acl" / "acl_functions.def").read_text(), re.M
    )
    defines = re.findall(r"^#define (ACL_\w+) ", header, re.M)
    enumerators = re.findall(r"^\s+(ACL_\w+) = ", header, re.M)
    types = re.findall(r"^(?:typedef [^;{]*\b|} )(acl\w+);", header, re.M)
    members = re.findall(r"^  [\w ]+?\b(\w+)(?:\[\w+\])?;", header, re.M)
    assert len(rows) > 60 and len(defines) > 10 and len(enumerators) > 80 and len(types) > 10
    ours_alone = {"ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT"}  # marked "abi-check: not in CANN"
    items = _checked_items(tu)
    assert items >= set(rows) | set(types) | (set(defines + enumerators) - ours_alone)
    assert not items & ours_alone
    assert {i.split("::")[1] for i in items if "::" in i} == set(members)
    api = gen.parse(REPO / "acl" / "acl_api.h")
    assert [f.name for f in api.functions] == rows
    assert gen.summary(api).startswith(f"{len(rows)} functions, ")
    assert "ours alone, not checked: ACL_EXTERNAL_WEIGHT_SIZE_ALIGNMENT" in gen.summary(api)


def test_matching_fake_cann_passes(tu: Path) -> None:
    result = _compile(tu, MATCHING)
    assert result.returncode == 0, result.stderr


def test_mismatching_fake_cann_fails_naming_exactly_its_mismatches(tu: Path) -> None:
    result = _compile(tu, MISMATCHING)
    assert result.returncode != 0
    failed, other = gen.failed_items(tu, result.stderr)
    assert set(failed) == MISMATCHES, failed
    assert other == []
    for item in MISMATCHES:  # what a user reads: every name is in the compiler's own output
        assert item in result.stderr
    assert "function type differs from ours, aclError(int32_t deviceId)" in failed["aclrtSetDevice"]
    assert re.search("not declared|undeclared", failed["aclmdlGetCurOutputDims"])


def _cmake(source: Path, build: Path, *defines: str) -> subprocess.CompletedProcess[str]:
    _needs("cmake")
    cmd = ["cmake", "-S", source, "-B", build, *defines]
    env = {
        k: v for k, v in os.environ.items() if k not in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")
    }
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)


def test_standalone_cmake_project_is_the_one_command(tmp_path: Path) -> None:
    ok = _cmake(TOOL, tmp_path / "ok", f"-DEXECUTORCH_ASCEND_CANN_INCLUDE_DIR={MATCHING}")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    passed = [line for line in ok.stdout.splitlines() if "ABI check passed" in line]
    assert len(passed) == 1, ok.stdout
    assert re.search(r"\(\d+ functions, \d+ constants, \d+ types, 2 structs", passed[0])

    # The same build folder, configured again for another CANN (the cache keeps the compiler).
    bad = _cmake(TOOL, tmp_path / "ok", f"-DEXECUTORCH_ASCEND_CANN_INCLUDE_DIR={MISMATCHING}")
    assert bad.returncode != 0
    assert "ABI check FAILED" in bad.stderr
    reported = set(re.findall(r"^    (\S+): ", bad.stderr, re.M))
    assert reported == MISMATCHES, bad.stderr

    missing = _cmake(TOOL, tmp_path / "none")
    assert missing.returncode != 0
    assert "EXECUTORCH_ASCEND_CANN_INCLUDE_DIR" in missing.stderr


def test_top_level_option_fails_the_build_before_anything_else(tmp_path: Path) -> None:
    result = _cmake(REPO, tmp_path, f"-DEXECUTORCH_ASCEND_CANN_ABI_CHECK={MISMATCHING}")
    assert result.returncode != 0
    assert "ABI check FAILED" in result.stderr
    assert "aclrtSetDevice" in result.stderr
    assert "ExecuTorch" not in result.stdout  # failed before looking for it


@pytest.mark.parametrize(
    "declaration",
    [
        "int aclSomething;",  # a variable
        "typedef aclError (*aclCallback)(void* data);",  # a function pointer type
        "typedef struct aclThing { int a : 3; } aclThing;",  # a bit-field
        "union aclU { int a; };",
    ],
)
def test_the_generator_refuses_what_it_cannot_check(tmp_path: Path, declaration: str) -> None:
    (tmp_path / "list.def").write_text("ACL_FUNCTION(aclError, aclInit, (void), RUNTIME, FAULTS)\n")
    (tmp_path / "api.h").write_text(
        "typedef int aclError;\n"
        f"{declaration}\n"
        "#define ACL_FUNCTION(ret, name, params, user, faults) ret name params;\n"
        '#include "list.def"\n'
        "#undef ACL_FUNCTION\n"
    )
    with pytest.raises(gen.GeneratorError, match="cannot check"):
        gen.parse(tmp_path / "api.h")


def test_a_declaration_marked_ours_alone_is_listed_not_checked(tmp_path: Path) -> None:
    (tmp_path / "list.def").write_text("ACL_FUNCTION(aclError, aclInit, (void), RUNTIME, FAULTS)\n")
    (tmp_path / "api.h").write_text(
        "typedef int aclError;\n"
        "/* A name of ours (abi-check: not in\n * CANN). */\n"
        "#define ACL_OURS 32\n"
        "#define ACL_THEIRS 1\n"
        "#define ACL_FUNCTION(ret, name, params, user, faults) ret name params;\n"
        '#include "list.def"\n'
    )
    api = gen.parse(tmp_path / "api.h")
    items = set(_CHECK.findall(gen.generate(api)))
    assert items == {"aclError", "ACL_THEIRS", "aclInit"}
    assert gen.summary(api) == (
        "1 functions, 1 constants, 1 types, 0 structs; ours alone, not checked: ACL_OURS"
    )
