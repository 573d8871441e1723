# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Writes the fuzzers' seed inputs: small ONNX models (opset 17, IR 8, the
ops the Python lowering emits), delegate blobs (docs/blob-format.md: written
here, and those of the programs in tests/data/blob_corpus/) and
TensorProtos stored as ONNX external data (fuzz_atc_external_data, whose
model folder holds data.bin, sub/inner.bin, empty.bin and the symlinks
link_in, link_out and link_abs) and atc command lines (fuzz_atc_command_line:
the arguments, each ended by a NUL byte).

The .om seeds are compiled from the ONNX files by make_seeds.sh with atc.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32 = TensorProto.FLOAT
# Programs saved by each release (docs/blob-format.md, Compatibility): real
# blobs of every version the reader reads.
BLOB_CORPUS = Path(__file__).resolve().parents[1] / "data" / "blob_corpus"


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[tuple[str, list[int | str]]],
    outputs: list[tuple[str, list[int | str]]],
    initializers: dict[str, np.ndarray] | None = None,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "seed",
        [helper.make_tensor_value_info(n, F32, s) for n, s in inputs],
        [helper.make_tensor_value_info(n, F32, s) for n, s in outputs],
        [numpy_helper.from_array(v, k) for k, v in (initializers or {}).items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def onnx_seeds() -> dict[str, onnx.ModelProto]:
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal((4,)).astype(np.float32)
    conv_w = rng.standard_normal((2, 1, 3, 3)).astype(np.float32)
    mk = helper.make_node
    return {
        "add_relu": _model(
            [mk("Add", ["x", "y"], ["s"]), mk("Relu", ["s"], ["z"])],
            [("x", [2, 3]), ("y", [2, 3])],
            [("z", [2, 3])],
        ),
        "sub_mul_div": _model(
            [
                mk("Sub", ["x", "c"], ["a"]),
                mk("Mul", ["a", "x"], ["m"]),
                mk("Div", ["m", "c"], ["z"]),
            ],
            [("x", [3])],
            [("z", [3])],
            {"c": np.array([1.0, 2.0, 4.0], np.float32)},
        ),
        "gemm": _model(
            [mk("Gemm", ["x", "w", "b"], ["z"], transB=1)],
            [("x", [2, 3])],
            [("z", [2, 4])],
            {"w": w, "b": b},
        ),
        "matmul_softmax": _model(
            [
                mk("MatMul", ["x", "wt"], ["m"]),
                mk("Softmax", ["m"], ["z"], axis=-1),
            ],
            [("x", [2, 3])],
            [("z", [2, 4])],
            {"wt": w.T.copy()},
        ),
        "conv_pool": _model(
            [
                mk("Conv", ["x", "cw"], ["c"], pads=[1, 1, 1, 1]),
                mk("MaxPool", ["c"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
                mk("AveragePool", ["p"], ["a"], kernel_shape=[2, 2]),
                mk("GlobalAveragePool", ["a"], ["g"]),
                mk("Flatten", ["g"], ["z"], axis=1),
            ],
            [("x", [1, 1, 6, 6])],
            [("z", [1, 2])],
            {"cw": conv_w},
        ),
        # A symbolic batch: make_seeds.sh compiles it with shape gears
        # (--dynamic_batch_size), so the .om seeds hold a gear table.
        "gear_matmul": _model(
            [mk("MatMul", ["x", "wt"], ["m"]), mk("Relu", ["m"], ["z"])],
            [("x", ["n", 3])],
            [("z", ["n", 4])],
            {"wt": w.T.copy()},
        ),
        "shape_ops": _model(
            [
                mk("Reshape", ["x", "shape"], ["r"]),
                mk("Transpose", ["r"], ["t"], perm=[1, 0]),
                mk("Concat", ["t", "t"], ["c"], axis=0),
                mk("ReduceMean", ["c"], ["z"], axes=[1], keepdims=0),
            ],
            [("x", [2, 3])],
            [("z", [4])],
            {"shape": np.array([3, 2], np.int64)},
        ),
    }


def _string(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<I", len(raw)) + raw


def blob(
    om_key: str,
    weights: tuple[tuple[str, str, int], ...] = (),
    states: tuple[tuple[str, int, int, int, str | None], ...] = (),
    version: int = 5,
    soc: str = "Ascend910B1",
    more_targets: tuple[tuple[str, str], ...] = (),
    source_key: str | None = None,
) -> bytes:
    """A delegate blob (docs/blob-format.md, version 5): targets (soc_version,
    om_key, then (name, key, size) per external weight file; `more_targets`
    are (soc, om_key) without weights), then (name, input, output, size,
    initial-value key or None for zeros) per device state, then the source."""
    out = b"ASCB" + struct.pack("<I", version) + struct.pack("<I", 1 + len(more_targets))
    out += _string(soc) + _string(om_key) + struct.pack("<I", len(weights))
    for name, key, size in weights:
        out += _string(name) + _string(key) + struct.pack("<Q", size)
    for other_soc, other_key in more_targets:
        out += _string(other_soc) + _string(other_key) + struct.pack("<I", 0)
    out += struct.pack("<I", len(states))
    for name, input_index, output_index, size, key in states:
        out += _string(name) + struct.pack("<IIQ", input_index, output_index, size)
        out += struct.pack("<I", 0) if key is None else struct.pack("<I", 1) + _string(key)
    out += (
        struct.pack("<I", 0) if source_key is None else struct.pack("<I", 1) + _string(source_key)
    )
    return out


def blob_seeds() -> dict[str, bytes]:
    digest = "ab" * 32
    return {
        "om_key": blob("ascend/om/" + digest),
        "short_key": blob("k"),
        # 16380 bytes: what fuzz_backend_init's named data holds for a weight.
        "one_weight": blob(
            "ascend/om/" + digest,
            (("weight_" + digest, "ascend/weight/" + digest, 16380),),
        ),
        "shared_key": blob(
            "ascend/om/x",
            (("weight_a", "ascend/weight/s", 32), ("weight_b", "ascend/weight/s", 32)),
        ),
        "zero_state": blob("ascend/om/" + digest, states=(("cache", 1, 1, 24, None),)),
        "initial_state": blob(
            "ascend/om/" + digest, states=(("total", 0, 0, 24, "ascend/state/" + digest),)
        ),
        "three_targets": blob(
            "ascend/om/" + digest,
            soc="Ascend310P3",
            more_targets=(("Ascend910B1", "ascend/om/" + digest), ("Ascend310B1", "ascend/om/x")),
            source_key="ascend/source/" + digest,
        ),
        "version_4": blob("ascend/om/x", version=4),
    } | {
        f"corpus_{path.parent.name}_{path.stem}": path.read_bytes()
        for path in sorted(BLOB_CORPUS.glob("v*/*.blob"))
    }


def _external(dtype: int, dims: list[int], **entries: str) -> bytes:
    tensor = TensorProto(name="w", data_type=dtype, dims=dims)
    tensor.data_location = TensorProto.EXTERNAL
    for key, value in entries.items():
        entry = tensor.external_data.add()
        entry.key, entry.value = key, value
    return tensor.SerializeToString()


def external_data_seeds() -> dict[str, bytes]:
    return {
        "whole_file": _external(F32, [32, 1024], location="data.bin"),
        "range": _external(F32, [4], location="data.bin", offset="64", length="16"),
        "nested": _external(TensorProto.INT64, [2], location="sub/inner.bin", length="16"),
        "link_in": _external(F32, [16], location="link_in", offset="4096", length="64"),
        "link_out": _external(F32, [4], location="link_out", length="16"),
        "dotdot": _external(F32, [4], location="sub/../data.bin", length="16"),
        "empty": _external(F32, [0], location="empty.bin"),
    }


_ATC = ["--framework=5", "--model=m.onnx", "--output=out", "--soc_version=Ascend910B1"]


def atc_command_line_seeds() -> dict[str, bytes]:
    """Command lines of the forms docs/atc.md describes, accepted and refused."""
    lines = {
        "build": [*_ATC, "--precision_mode=must_keep_origin_dtype"],
        "usual": [
            *_ATC,
            "--input_shape=x:1,3,224,224;y:2",
            "--input_format=ND",
            "--output_type=FP32",
            "--log=info",
            "--mode=0",
            "--external_weight=1",
        ],
        "apart": [
            "--framework",
            "5",
            "--model",
            "a.onnx",
            "--output",
            "a",
            "--soc_version",
            "Ascend310P3",
            "--precision_mode",
            "force_fp32",
        ],
        "cann_forms": [
            "-fram=5",
            "--mode",
            "3",
            "-model=m.onnx",
            "--soc=Ascend910B4-1",
            "--input-format=ND",
            "--input-shape",
            "x:2,3",
            "--precision_mode_v2=origin",
        ],
        "batch_gears": [*_ATC, "--input_shape=x:-1,3", "--dynamic_batch_size=1,2,4"],
        "dims_gears": [
            *_ATC,
            "--input_shape=a:2,-1;b:-1,2",
            "--input_format=ND",
            "--dynamic_dims=1,1;3,2;8,8",
        ],
        "no_effect": [
            *_ATC,
            "--op_select_implmode=high_precision",
            "--optypelist_for_implmode=Add,Mul",
            "--buffer_optimize=l1_optimize",
            "--keep_dtype=/etc/passwd",
            "--deterministic=1",
            "--op_debug_level=2",
            "--ac_parallel_enable=",
            "--buffer_optimize=l2_optimize",
        ],
        "model_info": ["--mode=6", "--om=m.om"],
        "help": ["--help=false", "-h"],
        "refused": [*_ATC, "--mode=x", "--external_weight=01", "--", "stray"],
        "not_emulated": [*_ATC, "--raw_ge_options_ignore_unsupported", "--modify_mixlist=a"],
        "shapes": [*_ATC, "--input_shape=x:0:1~8,3;s:;y:-2"],
    }
    return {name: b"".join(a.encode() + b"\0" for a in args) for name, args in lines.items()}


def main(out_dir: str) -> None:
    root = Path(out_dir)
    for sub in ("onnx", "blob", "external_data", "atc_command_line"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for name, model in onnx_seeds().items():
        onnx.save(model, str(root / "onnx" / f"{name}.onnx"))
    for name, data in blob_seeds().items():
        (root / "blob" / f"{name}.bin").write_bytes(data)
    for name, data in external_data_seeds().items():
        (root / "external_data" / f"{name}.pb").write_bytes(data)
    for name, data in atc_command_line_seeds().items():
        (root / "atc_command_line" / name).write_bytes(data)


if __name__ == "__main__":
    main(sys.argv[1])
