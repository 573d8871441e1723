"""Importing this package registers every converter family with the registry."""

from . import (  # noqa: F401
    attention,
    binary,
    conv,
    elementwise,
    indexing,
    matmul,
    movement,
    norm,
    pool,
    reduce,
    resample,
    shape,
    tuple_outputs,
    unary,
)
