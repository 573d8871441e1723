# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Dumps of what atc got and gave, per partition (AscendCompileSpec.dump_dir or the environment
variable EXECUTORCH_ASCEND_DUMP_DIR; docs/atc.md#dumps).

Each compiled partition gets a folder `<dump_dir>/partition_<n>_<hash8>`: n counts the folders
already there (0, 1, ...), hash8 is the start of the ONNX model's sha256. It holds atc's working
folder as atc left it: the ONNX model (`part.onnx`, with its external data file), the copies of
file options atc read (`atc_option_files/<option>/<file>`), and what atc wrote (`part.om`,
`weight/`), plus `atc_command.txt` (the command line, runnable in that folder) and `atc.log`
(atc's stdout and stderr). A failed or timed-out atc is dumped too. The dump is a copy taken after
atc ran: it changes nothing that is compiled.
"""

from __future__ import annotations

import hashlib
import logging
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

from . import atc_options as atc_table

logger = logging.getLogger(__name__)

COMMAND_FILE = "atc_command.txt"
LOG_FILE = "atc.log"
FOLDER_PREFIX = "partition_"
MAX_FOLDERS = 100_000


def write(
    dump_dir: Path,
    workdir: Path,
    model_file: str,
    cmd: Sequence[str],
    log: str,
    outcome: str,
    options: Sequence[tuple[str, str]],
    atc_description: str,
) -> Path:
    """Copies `workdir` into a new partition folder under `dump_dir` and writes the command and
    the log beside it; returns the folder. `options` are the spec's atc_options (original paths).
    """
    with open(workdir / model_file, "rb") as f:  # in chunks: the model may hold its weights
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    dump_dir.mkdir(parents=True, exist_ok=True)
    folder = _new_folder(dump_dir, digest[:8])
    shutil.copytree(workdir, folder, symlinks=True, dirs_exist_ok=True)
    header = [
        f"# atc: {atc_description}",
        "# run in this folder (the model and option file paths are relative to it):",
    ]
    for name, value in options:
        content = atc_table.content_digest(name, value)
        if content is not None:
            header.append(f"# --{name}: {value} (sha256 {content})")
    lines = [*header, shlex.join(cmd), f"# {outcome}", ""]
    (folder / COMMAND_FILE).write_text("\n".join(lines), encoding="utf-8")
    (folder / LOG_FILE).write_text(log + ("\n" if log and not log.endswith("\n") else ""), "utf-8")
    logger.info("dumped the partition's ONNX model, atc command, log and .om to %s", folder)
    return folder


def _new_folder(dump_dir: Path, hash8: str) -> Path:
    """partition_<n>_<hash8> with the smallest n no folder has yet (mkdir claims it, so two
    lowerings dumping into one folder at once do not share one)."""
    taken = {
        p.name.split("_")[1]
        for p in dump_dir.glob(f"{FOLDER_PREFIX}*_*")
        if p.name.split("_")[1].isdigit()
    }
    for n in range(MAX_FOLDERS):
        if str(n) in taken:
            continue
        folder = dump_dir / f"{FOLDER_PREFIX}{n}_{hash8}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise OSError(f"{dump_dir} already holds {MAX_FOLDERS} partition dumps")
