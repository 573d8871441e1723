#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# Builds the libFuzzer harnesses (clang, ASan + UBSan + coverage on the whole
# tree) and runs each for N seconds, one at a time, on its seed corpus, then
# prints a summary. docs/fuzzing.md explains the targets and the output.
#
# Usage: tests/fuzz/run.sh [seconds=60] [target...]
#   targets: fuzz_blob_reader fuzz_om_reader fuzz_om_resealed fuzz_atc_onnx
#            fuzz_atc_external_data fuzz_atc_command_line fuzz_acl_load
#            fuzz_acl_execute fuzz_backend_init fuzz_program (default: all)
# Env: BUILD_DIR (default <repo>/build/fuzz), SKIP_CONFIGURE, JOBS (default 2),
#      PYTHON (default <repo>/.venv/bin/python), FUZZ_ARGS (extra libFuzzer flags)
# Exit status: 0 when no target found anything, 1 otherwise.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
seconds="${1:-60}"
shift || true
all_targets=(fuzz_blob_reader fuzz_om_reader fuzz_om_resealed fuzz_atc_onnx
             fuzz_atc_external_data fuzz_atc_command_line fuzz_acl_load
             fuzz_acl_execute fuzz_backend_init fuzz_program)
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=("${all_targets[@]}")
build="${BUILD_DIR:-$repo/build/fuzz}"
jobs="${JOBS:-2}"
export PYTHON="${PYTHON:-$repo/.venv/bin/python}"

# SKIP_CONFIGURE=1: BUILD_DIR is already configured with the fuzzers (the
# sanitizer build of scripts/sanitize.sh, -O0 and the tests in it too).
if [[ -z "${SKIP_CONFIGURE:-}" ]]; then
  flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  CC=clang CXX=clang++ cmake -S "$repo" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE="$PYTHON" \
    -DEXECUTORCH_ASCEND_BUILD_FUZZERS=ON -DEXECUTORCH_ASCEND_BUILD_TESTS=OFF \
    -DEXECUTORCH_ASCEND_BUILD_EMULATOR=ON \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
fi
cmake --build "$build" --target atc "${targets[@]}" -j"$jobs"

seeds="$build/fuzz-seeds"
"$here/make_seeds.sh" "$build/emulator/atc/atc" "$seeds"

seed_dir_for() {
  case "$1" in
    fuzz_blob_reader) echo "$seeds/blob" ;;
    fuzz_atc_onnx) echo "$seeds/onnx" ;;
    fuzz_atc_external_data) echo "$seeds/external_data" ;;
    fuzz_atc_command_line) echo "$seeds/atc_command_line" ;;
    fuzz_backend_init) echo "$seeds/backend_init" ;;
    fuzz_program) echo "$seeds/program" ;;
    *) echo "$seeds/om" ;;
  esac
}
extra_args_for() {
  case "$1" in
    # ET_LOG prints one line per rejected blob; keep the target's stderr
    # closed (libFuzzer and the sanitizers still report on their own fd).
    fuzz_blob_reader | fuzz_backend_init) echo "-close_fd_mask=2" ;;
    # ExecuTorch's own loader crashes on some programs (docs/fuzzing.md,
    # findings): fork mode keeps fuzzing past them; each crash is then sorted
    # by where it happened (upstream_only below).
    fuzz_program) echo "-close_fd_mask=2 -fork=1 -ignore_crashes=1" ;;
    # libonnx 1.12 crashes on some models (docs/fuzzing.md, findings): fork
    # mode records each crash and keeps fuzzing past it.
    fuzz_atc_onnx) echo "-dict=$here/dict/onnx.dict -fork=1 -ignore_crashes=1" ;;
    fuzz_atc_external_data) echo "-dict=$here/dict/external_data.dict" ;;
    fuzz_atc_command_line) echo "-dict=$here/dict/atc_command_line.dict" ;;
    *) echo "" ;;
  esac
}

# True when every artifact of target $1 crashes inside ExecuTorch's own
# libexecutorch.so: frame #0 of the sanitizer's report is there, or the
# process aborted through ExecuTorch's runtime_abort() called from ExecuTorch
# itself (an ET_CHECK on the mutated program, e.g. in Method::get_value;
# libFuzzer's "deadly signal" report then starts in its own handler). An
# upstream crash, reported and kept, not a finding in this project's code.
# Only for fuzz_program, the harness that drives ExecuTorch's loader.
upstream_only() {  # upstream_only <target> <bin> <artifacts dir>
  [[ "$1" == fuzz_program ]] || return 1
  local a report
  for a in "$3"/*; do
    report="$("$2" "$a" 2>&1 || true)"
    grep -qE '^ *#0 .*libexecutorch\.so\+' <<<"$report" && continue
    # The frame right after runtime_abort() must be ExecuTorch's too.
    awk '/in executorch::runtime::runtime_abort\(\)/ {getline; found = /libexecutorch\.so\+/}
         END {exit !found}' <<<"$report" || return 1
  done
}

summary=()
found=0
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/$t"
  corpus="$build/fuzz-corpus/$t"
  artifacts="$build/fuzz-artifacts/$t"
  log="$build/fuzz-logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  rm -f "$artifacts"/*  # this run's findings only
  regress="$here/regressions/$t"

  # Kept regression inputs first: each must still run clean.
  if [[ -d "$regress" ]] && compgen -G "$regress/*" >/dev/null; then
    echo "== $t: replaying $(ls "$regress" | wc -l) regression inputs"
    # One process per input, so a known crasher does not hide the others.
    for input in "$regress"/*; do
      if ! "$bin" $(extra_args_for "$t") "$input" >"$log.regress" 2>&1; then
        echo "!! $t: regression input fails: $input"
        summary+=("$(printf '%-18s REGRESSION FAILS: %s' "$t" "$(basename "$input")")")
        found=1
      fi
    done
  fi

  echo "== $t: fuzzing for ${seconds}s (log: $log)"
  dirs=("$corpus" "$(seed_dir_for "$t")")
  [[ -d "$regress" ]] && dirs+=("$regress")
  set +e
  # shellcheck disable=SC2046,SC2086
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    $(extra_args_for "$t") ${FUZZ_ARGS:-} "${dirs[@]}" >"$log" 2>&1
  rc=$?
  set -e
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
  last="$(grep -E '^#[0-9]+' "$log" | tail -1)"
  # -fork mode prints no stat:: lines; its status line has "#runs: ... exec/s N".
  [[ -z "$runs" ]] && runs="$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")"
  [[ -z "$speed" ]] && speed="$(sed -n 's/.* exec\/s \([0-9]*\).*/\1/p' <<<"$last")"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
  corp="$(sed -n 's/.* corp: \([0-9]*\(\/[0-9]*[a-zA-Z]*\)\?\).*/\1/p' <<<"$last")"
  # Edges the instrumented code has in all (harness + libraries under test).
  edges="$(sed -n 's/^INFO: Loaded [0-9]* modules *(\([0-9]*\) inline 8-bit counters).*/\1/p' "$log" | head -1)"
  result="clean"
  if compgen -G "$artifacts/*" >/dev/null && upstream_only "$t" "$bin" "$artifacts"; then
    result="clean; $(ls "$artifacts" | wc -l) crash(es) inside ExecuTorch itself, kept in $artifacts"
  elif [[ $rc -ne 0 ]] || compgen -G "$artifacts/*" >/dev/null; then
    result="FOUND: $(ls "$artifacts" | wc -l) artifact(s) in $artifacts"
    found=1
  fi
  summary+=("$(printf '%-18s runs %-9s exec/s %-6s cov %-12s ft %-6s corpus %-12s %s' \
    "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}/${edges:-?}" "${ft:-?}" "${corp:-?}" "$result")")
done

echo
echo "== fuzzing summary (${seconds}s per target; artifacts in $build/fuzz-artifacts)"
printf '%s\n' "${summary[@]}"
exit $found
