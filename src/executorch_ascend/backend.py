# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AscendBackend: the ExecuTorch BackendDetails that compiles a partition to an Ascend .om.

The class name is the backend id (`AscendBackend.__name__`) the C++ runtime registers.
"""

from __future__ import annotations

import hashlib
import logging
from typing import final

from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir.backend.backend_details import BackendDetails, PreprocessResult
from executorch.exir.backend.compile_spec_schema import CompileSpec
from torch.export import ExportedProgram

from . import blob
from .compile_spec import AscendCompileSpec
from .lowering import LoweredGraph, to_onnx
from .toolchain import compile_onnx

logger = logging.getLogger(__name__)

OM_KEY_PREFIX = "ascend/om/"
# The runtime hands the .om to ACL straight from the mapped .pte/.ptd; keep it cache-line aligned
# so the emulator can read its tables in place.
OM_ALIGNMENT = 64


def om_key(om: bytes) -> str:
    return OM_KEY_PREFIX + hashlib.sha256(om).hexdigest()


@final
class AscendBackend(BackendDetails):
    @staticmethod
    def preprocess(
        edge_program: ExportedProgram, compile_specs: list[CompileSpec]
    ) -> PreprocessResult:
        spec = AscendCompileSpec.from_compile_specs(compile_specs)
        lowered: LoweredGraph = to_onnx(edge_program)
        compiled = compile_onnx(
            lowered.model.SerializeToString(),
            spec,
            [v.name for v in lowered.inputs],
            [v.dims for v in lowered.inputs],
        )
        key = om_key(compiled.om)
        store = NamedDataStore()
        store.add_named_data(
            key, compiled.om, alignment=OM_ALIGNMENT, external_tag=spec.external_tag
        )
        # The SoC and device reach the runtime as compile specs, which ExecuTorch stores with the
        # delegate; the I/O signature is the .om's own.
        processed = blob.encode(blob.AscendBlob(om_key=key))
        logger.info(
            "AscendBackend: %d ONNX nodes -> %s (%s)",
            len(lowered.model.graph.node),
            key,
            compiled.atc.description,
        )
        return PreprocessResult(
            processed_bytes=processed,
            data_store_output=store.get_named_data_store_output(),
        )
