#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The main job: a transformers ResNet exported, lowered to Ascend, compiled by
# atc, saved as .pte + .ptd, run on the CANN emulator, compared with eager.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
python examples/demo.py --output-dir out/demo "$@"
