#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The wheels as a user gets them (docs/installing.md): builds the backend and
# emulator wheels, installs them with the pinned torch and executorch into a
# fresh venv outside the repository, hides Debian's onnx/protobuf runtime
# libraries from the loader, then, from a temporary folder with no path into
# the repository, lowers a small CNN through the installed package with the
# emulator's atc, runs it with executorch.runtime and with the ascend_runner on
# PATH, builds examples/cpp against the installed CMake package, runs that on
# the same program, and compares each result with eager PyTorch. Also checks
# that no RPATH/RUNPATH of an installed binary holds an absolute path.
#
# The wheels are built with --no-build-isolation from .venv (scripts/setup.sh),
# reusing its torch and executorch instead of downloading them into an
# isolated build environment: same pins, far less time. `pip install .` without
# the flag is the user's way and is covered by the build requirements in
# pyproject.toml. Build folders: build/emulator (the emulator's own, which
# setup.sh builds the same way, so this is incremental) and build/wheel-backend
# (the backend without tests); ASCEND_WHEEL_BUILD_ROOT=<dir> puts both there.
# Exits non-zero on any failure.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
step() { echo "[check_wheel] $(date +%T) $*"; }

# The part after the install, in a mount namespace where Debian's onnx and
# protobuf libraries are empty files (run by the outer part below).
installed_checks() {
  local work="$1" venv="$2" hidden="$3"
  cd "$work"
  unset PYTHONPATH
  export PATH="$venv/bin:$PATH"
  if [ "$hidden" = yes ]; then
    for f in /usr/lib/*/libonnx*.so* /usr/lib/*/libprotobuf*.so* /usr/lib/*/libdnnl*.so* /usr/lib/*/libisal*.so*; do
      [ -f "$f" ] && [ ! -L "$f" ] && mount --bind "$work/empty" "$f"
    done
    step "Debian's onnx/protobuf libraries hidden: $(ls -lL /usr/lib/*/libonnx.so.1 2>/dev/null | awk '{print $5 " bytes"}')"
  fi
  local site emu_atc
  site="$(python -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
  emu_atc="$site/executorch_ascend_emulator/bin/atc"
  # Whatever was hidden or not: atc takes onnx and protobuf from the wheel.
  local loaded lib count=0
  loaded="$(LD_DEBUG=libs "$emu_atc" --help 2>&1 >/dev/null |
            sed -n 's/.*calling init: \(.*lib\(onnx\|protobuf\).*\)/\1/p')"
  for lib in $loaded; do
    count=$((count + 1))
    case "$(readlink -f "$lib")" in
      "$site"/executorch_ascend_emulator/libs/*) ;;
      *) step "FAILED: atc loads $lib from outside the wheel"; exit 1 ;;
    esac
  done
  [ "$count" -eq 3 ] || { step "FAILED: atc loaded $count onnx/protobuf libraries, not 3"; exit 1; }
  step "atc runs from the wheel: $("$emu_atc" --help 2>&1 | head -1)"
  # libascendcl.so takes oneDNN (the kernels' GEMM) from the wheel's libs/ too,
  # through its own RPATH, even where Debian's libdnnl2 is installed.
  local acl_lib dnnl
  acl_lib="$site/executorch_ascend_emulator/lib64/libascendcl.so"
  dnnl="$(LD_DEBUG=libs python -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$acl_lib" 2>&1 >/dev/null |
          sed -n 's/.*calling init: \(.*libdnnl.*\)/\1/p' | head -1)"
  case "$(readlink -f "${dnnl:-none}")" in
    "$site"/executorch_ascend_emulator/libs/*) step "libascendcl.so loads oneDNN from the wheel" ;;
    *) step "FAILED: libascendcl.so loads oneDNN from '${dnnl:-nowhere}'"; exit 1 ;;
  esac

  step "lowering and running a small CNN through the installed package"
  python wheel_smoke.py lower "$work"

  step "building examples/cpp against the installed CMake package"
  local prefix
  prefix="$(python -c 'import importlib.util as u; print(u.find_spec("executorch_ascend").submodule_search_locations[0])')"
  cmake -S "$work/example" -B "$work/example-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >"$work/example-configure.log" 2>&1 ||
    { cat "$work/example-configure.log"; exit 1; }
  cmake --build "$work/example-build" -j2 >"$work/example-build.log" 2>&1 ||
    { cat "$work/example-build.log"; exit 1; }
  EXECUTORCH_ASCEND_ACL_LIB="$(python -c 'import executorch_ascend_emulator as e; print(e.acl_library())')" \
    "$work/example-build/ascend_app" "$work/model.pte" "$work/model.ptd" \
    --input "$work/input0.bin" --output-dir "$work/app"
  python wheel_smoke.py compare "$work/app/out0.bin" "$work/expected0.bin"
}

if [ "${1:-}" = "--installed-checks" ]; then
  shift
  installed_checks "$@"
  exit 0
fi

start=$SECONDS
PYTHON="${PYTHON:-$REPO_ROOT/.venv/bin/python}"
build_root="${ASCEND_WHEEL_BUILD_ROOT:-}"
emulator_build="${build_root:+$build_root/emulator}"
emulator_build="${emulator_build:-$REPO_ROOT/build/emulator}"
backend_build="${build_root:+$build_root/backend}"
backend_build="${backend_build:-$REPO_ROOT/build/wheel-backend}"
work="$(mktemp -d -t ascend-wheel-check.XXXXXX)"
trap 'rm -rf "$work"' EXIT

step "building the wheels (pip wheel --no-build-isolation, .venv's torch and executorch)"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
"$PYTHON" -m pip wheel -q --no-deps --no-build-isolation "$REPO_ROOT/emulator" \
  -w "$work/wheels" -C build-dir="$emulator_build"
"$PYTHON" -m pip wheel -q --no-deps --no-build-isolation "$REPO_ROOT" \
  -w "$work/wheels" -C build-dir="$backend_build"
ls -l "$work/wheels"

step "a fresh venv in $work/venv: torch, executorch, the two wheels, cmake and ninja"
"$PYTHON" -m venv "$work/venv"
venv="$work/venv"
# The log is shown only when pip fails (this machine's pip configuration warns once per package).
{ "$venv/bin/pip" install -q "torch==2.13.0" "executorch==1.5.1" &&
  "$venv/bin/pip" install -q "$work"/wheels/*.whl cmake ninja; } >"$work/pip.log" 2>&1 ||
  { cat "$work/pip.log"; step "FAILED: pip install"; exit 1; }

step "no absolute path in any RPATH/RUNPATH of the installed binaries"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')"
bad=0
while IFS= read -r -d '' f; do
  if head -c 4 "$f" | grep -q 'ELF'; then
    paths="$(readelf -d "$f" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p')"
    echo "  ${f#"$site"/}: ${paths:-(none)}"
    if tr ':' '\n' <<<"$paths" | grep -q '^/'; then bad=1; fi
  fi
done < <(find "$site/executorch_ascend" "$site/executorch_ascend_emulator" -type f -print0)
[ "$bad" -eq 0 ] || { step "FAILED: an absolute RPATH/RUNPATH"; exit 1; }

cp "$REPO_ROOT/scripts/wheel_smoke.py" "$work/"
cp -r "$REPO_ROOT/examples/cpp" "$work/example"
: >"$work/empty"
if [ "$(id -u)" -eq 0 ] && unshare --mount true 2>/dev/null; then
  step "hiding Debian's onnx/protobuf libraries (unshare --mount, an empty file bound over each)"
  env -u PYTHONPATH unshare --mount -- bash "$REPO_ROOT/scripts/check_wheel.sh" \
    --installed-checks "$work" "$venv" yes
else
  step "cannot hide the libraries (no root or no unshare): checking that atc loads them from the wheel"
  env -u PYTHONPATH bash "$REPO_ROOT/scripts/check_wheel.sh" --installed-checks "$work" "$venv" no
fi
step "passed in $((SECONDS - start)) s"
