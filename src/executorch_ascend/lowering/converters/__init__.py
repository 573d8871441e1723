"""Importing this package registers every converter family with the registry."""

from . import conv, elementwise, matmul, norm, shape, tuple_outputs  # noqa: F401
