#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The long runs kept out of CI's 90 minutes (pytest marker `long`, deselected by
# scripts/test.sh): the model zoo in float16 (45 models, about 9 minutes on one core) and the
# whole zoo compiled and run as Ascend310P3 (scripts/zoo_on_chip.py, about 8 minutes). Run them
# before a change to the lowering, the precision rules or the fp16 kernels lands. Extra
# arguments go to pytest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
python -m pytest tests/python -q -p no:cacheprovider -m long "$@"
