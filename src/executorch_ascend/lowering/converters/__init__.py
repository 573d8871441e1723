"""Importing this package registers every converter family with the registry."""

from . import (  # noqa: F401
    activation,
    arithmetic,
    attention,
    conv,
    indexing,
    logical,
    matmul,
    movement,
    norm,
    pool,
    reduce,
    resample,
    shape,
    tuple_outputs,
    unary_math,
)
