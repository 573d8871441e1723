#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The aarch64 build, cross-compiled here and run under QEMU's user mode
# (docs/installing.md, "aarch64"):
#   setup  (idempotent, as root or with sudo) Debian's cross compiler, qemu-user
#          and the arm64 libraries (multiarch), the arm64 oneDNN and ONNX
#          packages unpacked into build/aarch64/overlay (they cannot be
#          installed beside their amd64 twins), and the executorch 1.5.1
#          aarch64 wheel's C++ SDK unzipped into build/aarch64/executorch
#   build  the backend, ascend_runner, llm_runner and the emulator's
#          libascendcl.so for aarch64 (cmake/toolchains/aarch64-linux-gnu.cmake)
#          into build/aarch64/cmake; with ASCEND_AARCH64_ATC=1 also atc
#   run    the emulator's load-time CPU check on aarch64 (a probe built for
#          armv8.2-a+dotprod+fp16, under QEMU's max and cortex-a53 CPUs), then
#          scripts/aarch64_parity.py: the demo's ResNet and a small Llama
#          decoder exported here with the project's Python (.venv), run by the
#          x86-64 ascend_runner/llm_runner and by the aarch64 ones under
#          qemu-aarch64 (CPU models max and cortex-a72) on the aarch64
#          emulator, outputs compared; and the saved programs of the blob
#          corpus against their stored x86-64 outputs
#   all    the three (the default)
# CI runs `setup` in the foreground and `build run` beside the Python tests
# (scripts/test.sh). Needs scripts/setup.sh first (the venv, the x86 build).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

OUT="${ASCEND_AARCH64_DIR:-$REPO_ROOT/build/aarch64}"
TRIPLE=aarch64-linux-gnu
ET_VERSION=1.5.1
# The wheel's exact tag: the C++ SDK inside does not depend on the Python
# version, so one fixed tag serves every host Python.
ET_WHEEL="executorch-${ET_VERSION}-cp311-cp311-manylinux_2_28_aarch64.whl"
ET_SDK="$OUT/executorch"
OVERLAY="$OUT/overlay"
BUILD="$OUT/cmake"
PYTHON_BIN="${PYTHON_BIN:-$REPO_ROOT/.venv/bin/python}"
# cmake and ninja from the venv (scripts/setup.sh installs them), else from PATH.
VENV_BIN="$(dirname "$PYTHON_BIN")"
tool() { if [ -x "$VENV_BIN/$1" ]; then echo "$VENV_BIN/$1"; else command -v "$1"; fi; }
# QEMU runs the binaries with the multiarch glibc (libc6:arm64, installed by
# setup): its /lib/ld-linux-aarch64.so.1 and its libc.so.6 are one build.
# `-L /usr/aarch64-linux-gnu` would take the cross package's older ld.so
# (libc6-arm64-cross) while the host's ld.so.cache still hands it the
# multiarch libc.so.6; two glibc builds share private structures, and the
# first pthread_create then loops forever walking a thread-stack list.
QEMU=(qemu-aarch64)

# Installed with apt: all of them co-install with their amd64 twins.
APT_HOST=(g++-aarch64-linux-gnu qemu-user ccache)
APT_ARM64=(libc6-dev:arm64 libstdc++6:arm64 libgomp1:arm64 zlib1g-dev:arm64 libssl-dev:arm64
           libprotobuf-dev:arm64 libflatbuffers-dev:arm64 libdnnl2:arm64 libonnx1:arm64)
# Unpacked into the overlay with dpkg -x: their -dev packages refuse to
# co-install (oneapi/dnnl/dnnl_config.h and /usr/lib/libonnxifi.so differ by
# architecture). The runtime libraries are also in APT_ARM64, so a process
# under QEMU finds them in /usr/lib/aarch64-linux-gnu.
OVERLAY_DEBS=(libdnnl-dev libdnnl2 libonnx-dev libonnx1 libonnxifi)

log() { echo "[aarch64] $*"; }

do_setup() {
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  # The lock may be held by another set-up running beside this one.
  local apt=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
  local updated=0
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    log "adding the arm64 architecture (Debian multiarch)"
    $sudo dpkg --add-architecture arm64
    "${apt[@]}" update -qq
    updated=1
  fi
  local missing=() p
  for p in "${APT_HOST[@]}" "${APT_ARM64[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    [ "$updated" -eq 1 ] || "${apt[@]}" update -qq
    "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  # The overlay, once per package version: a stamp names what it holds.
  local want="" stamp="$OVERLAY/.debs"
  for p in "${OVERLAY_DEBS[@]}"; do
    want+="$p:arm64=$(apt-cache policy "$p:arm64" | awk '/Candidate:/ {print $2}') "
  done
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "unpacking into $OVERLAY: ${OVERLAY_DEBS[*]} (arm64)"
    rm -rf "$OVERLAY"
    mkdir -p "$OVERLAY"
    local tmp
    tmp="$(mktemp -d)"
    # (As root, apt warns that it downloads unsandboxed: harmless.)
    (cd "$tmp" && apt-get download -qq "${OVERLAY_DEBS[@]/%/:arm64}" 2>&1 | grep -v unsandboxed || true)
    for p in "$tmp"/*.deb; do dpkg -x "$p" "$OVERLAY"; done
    rm -rf "$tmp"
    echo "$want" >"$stamp"
  fi
  if [ ! -f "$ET_SDK/executorch/share/cmake/executorch-config.cmake" ]; then
    log "downloading $ET_WHEEL (its C++ SDK: libexecutorch.so, headers, CMake package)"
    mkdir -p "$OUT/wheel"
    "$PYTHON_BIN" -m pip download -q "executorch==$ET_VERSION" --no-deps --only-binary=:all: \
      --platform manylinux_2_28_aarch64 --python-version 3.11 --implementation cp --abi cp311 \
      -d "$OUT/wheel"
    rm -rf "$ET_SDK"
    "$PYTHON_BIN" -m zipfile -e "$OUT/wheel/$ET_WHEEL" "$ET_SDK"
  fi
  log "setup done"
}

do_build() {
  local targets=(executorch_backend_ascend ascend_runner llm_runner ascendcl
                 ascend_emu_cpu_check_probe)
  [ "${ASCEND_AARCH64_ATC:-0}" = 1 ] && targets+=(atc)
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache
                                            -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  if [ ! -f "$BUILD/build.ninja" ]; then
    log "configuring $BUILD"
    "$(tool cmake)" -G Ninja -S . -B "$BUILD" \
      -DCMAKE_MAKE_PROGRAM="$(tool ninja)" \
      -DCMAKE_TOOLCHAIN_FILE="$REPO_ROOT/cmake/toolchains/$TRIPLE.cmake" \
      -DEXECUTORCH_ASCEND_AARCH64_OVERLAY="$OVERLAY" \
      -Dexecutorch_DIR="$ET_SDK/executorch/share/cmake" \
      -DCMAKE_BUILD_TYPE=Release -DEXECUTORCH_ASCEND_BUILD_EMULATOR=ON "${launcher[@]}" \
      >"$OUT/configure.log" 2>&1 || { cat "$OUT/configure.log"; return 1; }
  fi
  log "building ${targets[*]} for aarch64 (-j2)"
  nice -n 10 "$(tool ninja)" -C "$BUILD" -j2 "${targets[@]}" >"$OUT/build.log" 2>&1 ||
    { tail -n 60 "$OUT/build.log"; return 1; }
  tail -n 1 "$OUT/build.log"
  file -L "$BUILD/emulator/acl/libascendcl.so" "$BUILD/tools/runner/ascend_runner" |
    sed "s|$REPO_ROOT/||; s|, BuildID.*||"
}

# The emulator's load-time CPU check on aarch64 (emulator/cpu_check/): the
# probe records armv8.2-a+dotprod+fp16; QEMU's max CPU has all of it, its
# cortex-a53 (armv8.0 with CRC32) lacks LSE atomics, FP16, RDM and DotProd,
# and the cap armv8-a takes them away on any CPU.
check_cpu_probe() {
  local probe="$BUILD/emulator/cpu_check/ascend_emu_cpu_check_probe" out status
  out="$("${QEMU[@]}" -cpu max "$probe" 2>&1)" ||
    { echo "$out"; log "FAILED: the CPU check refused QEMU's max CPU"; return 1; }
  [ "$out" = "cpu check passed" ] || { echo "$out"; return 1; }
  local cpu cap
  for cpu in cortex-a53 max; do
    cap=""
    [ "$cpu" = max ] && cap=armv8-a
    status=0
    out="$(EXECUTORCH_ASCEND_EMU_MAX_CPU_ISA=$cap "${QEMU[@]}" -cpu "$cpu" "$probe" 2>&1)" ||
      status=$?
    if [ "$status" -ne 1 ] ||
       ! grep -q "LSE atomics, FP16 scalar, FP16 vector, RDM, DotProd, which" <<<"$out"; then
      echo "$out"
      log "FAILED: the CPU check let -cpu $cpu${cap:+ (cap $cap)} run a build for armv8.2-a+dotprod+fp16"
      return 1
    fi
  done
  log "CPU check: max runs the armv8.2-a+dotprod+fp16 probe; cortex-a53 and the armv8-a cap refuse it:"
  echo "  ${out}"
}

do_run() {
  # The loader QEMU's binaries ask for must be the multiarch one (see QEMU).
  [ "$(dpkg-query -W -f '${Version}' libc6:arm64 2>/dev/null)" ] &&
    [ -e /lib/ld-linux-aarch64.so.1 ] ||
    { log "FAILED: libc6:arm64 is not installed; run: bash scripts/aarch64.sh setup"; return 1; }
  check_cpu_probe
  log "the demo's ResNet and a Llama decoder: x86-64 and aarch64 (qemu-aarch64) side by side"
  "$PYTHON_BIN" scripts/aarch64_parity.py --work-dir "$OUT/parity" \
    --qemu "${QEMU[*]}" \
    --acl-lib "$BUILD/emulator/acl/libascendcl.so" \
    --runner "$BUILD/tools/runner/ascend_runner" \
    --llm-runner "$BUILD/tools/llm_runner/llm_runner"
}

steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(all)
for step in "${steps[@]}"; do
  start=$SECONDS
  case "$step" in
    setup) do_setup ;;
    build) do_build ;;
    run) do_run ;;
    all) do_setup; do_build; do_run ;;
    *) echo "usage: scripts/aarch64.sh [setup|build|run|all]..." >&2; exit 2 ;;
  esac
  log "$step: $((SECONDS - start)) s"
done
