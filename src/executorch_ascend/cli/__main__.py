# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""`python -m executorch_ascend.cli`: the `executorch-ascend` command."""

import sys

from . import main

sys.exit(main())
