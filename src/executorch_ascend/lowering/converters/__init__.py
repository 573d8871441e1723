# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Importing this package registers every converter family with the registry."""

from . import (  # noqa: F401
    _tuple_outputs,
    activation,
    arithmetic,
    attention,
    cast,
    concat_split,
    conv,
    gather,
    grid_sample,
    logical,
    matmul,
    normalization,
    pad,
    pool,
    quantized,
    reduction,
    resize,
    scatter,
    shape,
    slice,
    softmax,
    topk,
    unary_math,
)
