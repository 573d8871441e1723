"""Importing this package registers every converter family with the registry."""

from . import (  # noqa: F401
    activation,
    arithmetic,
    attention,
    concat_split,
    conv,
    indexing,
    logical,
    matmul,
    norm,
    pool,
    reduction,
    resample,
    shape,
    slice,
    softmax,
    tuple_outputs,
    unary_math,
)
