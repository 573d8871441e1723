#!/usr/bin/env bash
# The main job: a transformers ResNet exported, lowered to Ascend, compiled by
# atc, saved as .pte + .ptd, run on the CANN emulator, compared with eager.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
python examples/demo.py --output-dir out/demo "$@"
