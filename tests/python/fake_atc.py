# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""A test double of atc's --external_weight contract, for AOT tests that need no emulator.

It does with the files what the emulator's atc does: reads part.onnx and its
external data, and with --external_weight=1 writes each external-data initializer's bytes to
weight/weight_<sha256 of the bytes>, with 2 all of them, in model order and 64-byte aligned, to
one weight/weight_combined_<sha256>, with 0 none (the bytes stay in the .om). Its .om is not
runnable: "FAKE-EXTW-OM", the weight file names, then the ModelProto (mode 0: with the bytes).

FAKE_ATC_TRANSFORM=1 makes it write each file's bytes reversed, as a real atc that converts a
weight's layout would: no file then matches a graph constant. Run it through `script(path)`.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path

MAGIC = b"FAKE-EXTW-OM\n"


def main(argv: list[str]) -> int:
    import onnx
    from onnx.external_data_helper import load_external_data_for_model

    args = dict(a[2:].split("=", 1) for a in argv if a.startswith("--") and "=" in a)
    model_path = Path(args["model"])
    model = onnx.load(model_path, load_external_data=False)
    external = [
        t.name for t in model.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL
    ]
    load_external_data_for_model(model, str(model_path.parent))
    data = {t.name: t.raw_data for t in model.graph.initializer if t.name in external}
    if os.environ.get("FAKE_ATC_TRANSFORM") == "1":
        data = {k: v[::-1] for k, v in data.items()}
    mode = int(args.get("external_weight", "0"))
    files: dict[str, bytes] = {}
    if mode == 1:
        for name in external:
            files[f"weight_{hashlib.sha256(data[name]).hexdigest()}"] = data[name]
    elif mode == 2 and external:
        combined = b""
        for name in external:  # each at a 64-byte-aligned offset, zeros between
            combined += bytes(-len(combined) % 64) + data[name]
        files[f"weight_combined_{hashlib.sha256(combined).hexdigest()}"] = combined
    if files:
        folder = model_path.parent / "weight"
        folder.mkdir()
        for name, content in files.items():
            (folder / name).write_bytes(content)
        for t in model.graph.initializer:
            if t.name in external:
                t.ClearField("raw_data")
    listing = "".join(f"{name}\n" for name in sorted(files)).encode()
    Path(f"{args['output']}.om").write_bytes(MAGIC + listing + model.SerializeToString())
    print("ATC run success, welcome to the next use.")
    return 0


def script(path: Path) -> Path:
    """An executable at `path` that runs this file with this Python (PATH may be emptied)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\nexec {sys.executable} {Path(__file__).resolve()} "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
