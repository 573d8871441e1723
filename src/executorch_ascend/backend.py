# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""AscendBackend: the ExecuTorch BackendDetails that compiles a partition to an Ascend .om.

preprocess lowers the partition to ONNX (lowering/lower.py; large constants as external data),
runs atc (toolchain/atc.py), and stores the .om and the weight files atc wrote beside it as
named data (serialization/weights.py), and with keep_onnx the ONNX source too
(serialization/source.py); the blob it returns lists their keys (serialization/blob.py), the .om
as the one target of the compile spec's soc_version (`executorch-ascend compile` adds others).

The class name is the backend id (`AscendBackend.__name__`) the C++ runtime registers.
"""

from __future__ import annotations

import hashlib
import logging
from typing import final

from executorch.exir._serialize._cord import FileBackedData
from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir.backend.backend_details import BackendDetails, PreprocessResult
from executorch.exir.backend.compile_spec_schema import CompileSpec
from torch.export import ExportedProgram

from .aipp import aipp_config_text
from .cann_op_facts import check_quant_ops, int8_values
from .compile_spec import AscendCompileSpec
from .lowering import LoweredGraph
from .lowering.lower import lower_partition
from .partition_copy import copy_sharing_tensors
from .serialization import blob
from .serialization.debug_map import debug_handle_map
from .serialization.source import store_source
from .serialization.states import store_states
from .serialization.weights import store_weights
from .soc_dtypes import check_float32_ops, check_program
from .toolchain import atc_options as atc_table
from .toolchain.atc import WeightFile, compile_onnx

logger = logging.getLogger(__name__)

OM_KEY_PREFIX = "ascend/om/"
# The runtime hands the .om to ACL straight from the mapped .pte/.ptd; keep it cache-line aligned
# so the emulator can read its tables in place.
OM_ALIGNMENT = 64


def om_key(om: bytes | FileBackedData) -> str:
    """The .om's named-data key: its SHA-256 (of the file, in chunks, when it is one)."""
    if isinstance(om, FileBackedData):
        return OM_KEY_PREFIX + om.sha256().hex()
    return OM_KEY_PREFIX + hashlib.sha256(om).hexdigest()


@final
class AscendBackend(BackendDetails):
    @classmethod
    def copy_exported_program_for_preprocess(
        cls, edge_program: ExportedProgram, compile_specs: list[CompileSpec]
    ) -> ExportedProgram:
        # The partition without a second copy of its weights (partition_copy.py).
        return copy_sharing_tensors(edge_program)

    @staticmethod
    def preprocess(
        edge_program: ExportedProgram, compile_specs: list[CompileSpec]
    ) -> PreprocessResult:
        spec = AscendCompileSpec.from_compile_specs(compile_specs)
        # A subgraph tagged by another partitioner may hold bf16 for a chip without it.
        check_program(edge_program, spec.soc_version)
        # Large constants go to atc as ONNX external data, so no protobuf size limit applies.
        # With shape gears: one graph for every gear, and atc's gear options (lowering/lower.py).
        # Checked once, as the files atc gets (LoweredGraph.save), not also in memory.
        partition = lower_partition(edge_program, spec, spec.external_weight_threshold, check=False)
        lowered, gear_options = partition.graph, partition.gear_options
        # float32 ops the chip has no float32 kernel for, under a mode that keeps float32 (an
        # int8 Conv/Gemm computes from a float FX node, but not in float32).
        int8 = int8_values(lowered.model)
        check_float32_ops(
            [
                (n.op_type, lowered.sources.get(n.name, ""))
                for n in lowered.model.graph.node
                if not (n.input and n.input[0] in int8)
            ],
            {n.name: n for n in edge_program.graph.nodes},
            spec.soc_version,
            _effective_precision_mode(spec),
        )
        refused = check_quant_ops(lowered.model, spec.soc_version)
        if refused:
            raise ValueError(
                "AscendBackend: CANN does not run this quantized graph as lowered: "
                + "; ".join(refused[:3])
                + " (docs/quantization.md, 'What runs where')"
            )
        names, dims = [v.name for v in lowered.inputs], [v.dims for v in lowered.inputs]
        compiled = compile_onnx(
            lowered,
            spec,
            names,
            dims,
            gear_options=gear_options,
            keep_model=spec.keep_onnx,
            insert_op_conf=aipp_config_text(lowered.aipp),
        )
        _warn_if_tags_are_lost(lowered, spec, compiled.weights)
        key = om_key(compiled.om_file)
        store = NamedDataStore()
        # The .om follows the compile spec's tag only: per-constant tags name where weights go,
        # and the .om (graph and plan, no weights) stays in the .pte without one, as XNNPACK
        # keeps its blob there.
        store.add_named_data(
            key, compiled.om_file, alignment=OM_ALIGNMENT, external_tag=spec.external_tag
        )
        weights = store_weights(store, compiled.weights, lowered.constants, spec.external_tag)
        states = store_states(store, lowered.states, spec.external_tag)
        # The .om is the blob's one target, for the spec's SoC (the runtime loads the target of
        # the device's SoC); the device travels as a compile spec, which ExecuTorch stores with
        # the delegate; the I/O signature is the .om's own.
        source_key = (
            store_source(store, lowered, gear_options, spec.external_tag, compiled.model)
            if compiled.model is not None
            else None
        )
        target = blob.BlobTarget(spec.soc_version, key, weights)
        processed = blob.encode(blob.AscendBlob((target,), states, source_key))
        logger.info(
            "AscendBackend: %d ONNX nodes -> %s (%s), %d weight file(s), %d device state(s)",
            len(lowered.model.graph.node),
            key,
            compiled.atc.description,
            len(weights),
            len(states),
        )
        return PreprocessResult(
            processed_bytes=processed,
            # Per-op profiling: each .om op's name -> its edge nodes' handles
            # (serialization/debug_map.py).
            debug_handle_map=debug_handle_map(edge_program, lowered.sources, compiled.op_names),
            data_store_output=store.get_named_data_store_output(),
        )


def _effective_precision_mode(spec: AscendCompileSpec) -> str:
    """The mode atc compiles with: precision_mode_v2 replaces precision_mode when given
    ("origin" is must_keep_origin_dtype; the other v2 modes all lower some ops)."""
    v2 = dict(spec.atc_options).get(atc_table.PRECISION_MODE_V2)
    if v2 is None:
        return str(spec.precision_mode)
    v1 = atc_table.PRECISION_MODE_V2_AS_V1.get(v2)
    return v1 if v1 == "must_keep_origin_dtype" else f"precision_mode_v2={v2}"


def _warn_if_tags_are_lost(
    lowered: LoweredGraph, spec: AscendCompileSpec, weights: list[WeightFile]
) -> None:
    """Tagged constants compiled into the .om cannot go to their .ptd: say so, once."""
    tagged = {c.tag for c in lowered.constants if c.tag is not None}
    if tagged and not weights:
        logger.warning(
            "AscendBackend: constants tagged for %s stay inside the .om (which goes to %s): "
            "atc wrote no weight files (external_weight=%d, external_weight_threshold=%d)",
            ", ".join(sorted(f"{t}.ptd" for t in tagged)),
            f"{spec.external_tag}.ptd" if spec.external_tag else "the .pte",
            spec.external_weight,
            spec.external_weight_threshold,
        )
