#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# Writes the fuzzers' seed corpora into <out_dir>:
#   onnx/  small ONNX models (make_seeds.py)         -> fuzz_atc_onnx
#   om/    those models compiled by the emulator atc -> fuzz_om_*, fuzz_acl_load
#   blob/  delegate blobs (docs/blob-format.md)      -> fuzz_blob_reader
#   external_data/ TensorProtos with external data   -> fuzz_atc_external_data
#   atc_command_line/ atc command lines, NUL-separated -> fuzz_atc_command_line
#   backend_init/ each blob with each .om, as the harness reads them
#                 ([u16 blob length][blob][.om])      -> fuzz_backend_init
#   program/ real lowered programs (tests/programs/make_test_programs.py),
#            as [u32 .pte length][.pte][.ptd]          -> fuzz_program
# Usage: make_seeds.sh <atc> <out_dir>   (python: $PYTHON, else the repo venv)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
atc="${1:?usage: make_seeds.sh <atc> <out_dir>}"
out="${2:?usage: make_seeds.sh <atc> <out_dir>}"
atc="$(cd "$(dirname "$atc")" && pwd)/$(basename "$atc")"  # the lowering runs it elsewhere
python="${PYTHON:-$here/../../.venv/bin/python}"

rm -rf "$out/onnx" "$out/om" "$out/blob" "$out/external_data" "$out/backend_init" \
  "$out/program" "$out/program_files" "$out/atc_command_line"
"$python" "$here/make_seeds.py" "$out"
mkdir -p "$out/om"
for model in "$out"/onnx/*.onnx; do
  name="$(basename "$model" .onnx)"
  gears=()
  # gear_*: a symbolic batch, compiled with shape gears (an .om gear table).
  case "$name" in
    gear_*) gears=(--input_shape=x:-1,3 --dynamic_batch_size=1,2,4) ;;
  esac
  # The ASan-built atc of the fuzz build leaks nothing, but keep its own
  # diagnostics from failing seed generation.
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$atc" --framework=5 \
    --model="$model" --output="$out/om/$name" --soc_version=Ascend910B1 \
    --precision_mode=must_keep_origin_dtype "${gears[@]}" >/dev/null
done
"$python" - "$out" <<'PY'
import pathlib, struct, sys
out = pathlib.Path(sys.argv[1])
(out / "backend_init").mkdir()
for blob in sorted((out / "blob").iterdir()):
    for om in sorted((out / "om").glob("*.om")):
        data = blob.read_bytes()
        seed = struct.pack("<H", len(data)) + data + om.read_bytes()
        (out / "backend_init" / f"{blob.stem}+{om.stem}").write_bytes(seed)
PY
# Lowered by the source tree's Python side with the atc given here.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" EXECUTORCH_ASCEND_EMULATOR_ATC="$atc" \
  PYTHONPATH="$here/../../src${PYTHONPATH:+:$PYTHONPATH}" \
  "$python" "$here/../programs/make_test_programs.py" "$out/program_files" \
  >"$out/program_files.log" 2>&1 || { tail -n 40 "$out/program_files.log"; exit 1; }
"$python" - "$out" <<'PY'
import pathlib, struct, sys
out = pathlib.Path(sys.argv[1])
files = out / "program_files"
(out / "program").mkdir()
for line in (files / "programs.txt").read_text().splitlines():
    name, ptd = line.split()[:2]
    pte = (files / f"{name}.pte").read_bytes()
    data = (files / ptd).read_bytes() if ptd != "-" else b""
    (out / "program" / name).write_bytes(struct.pack("<I", len(pte)) + pte + data)
PY
echo "seeds: $(ls "$out/onnx" | wc -l) onnx, $(ls "$out/om" | wc -l) om," \
  "$(ls "$out/blob" | wc -l) blob, $(ls "$out/external_data" | wc -l)" \
  "external_data, $(ls "$out/atc_command_line" | wc -l) atc_command_line," \
  "$(ls "$out/backend_init" | wc -l) backend_init," \
  "$(ls "$out/program" | wc -l) program in $out"
