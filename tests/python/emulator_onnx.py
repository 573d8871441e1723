# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Compiles an ONNX model with the emulator's atc and runs the .om through the emulator's ACL
(libascendcl.so through ctypes), without ExecuTorch: the shortest path from an ONNX graph to the
emulator's kernels, for differential tests against onnxruntime (random_onnx_graphs.py)."""

from __future__ import annotations

import ctypes
import os
import subprocess
from pathlib import Path

import numpy as np
import onnx

_ACL_SUCCESS = 0
_ACL_ERROR_REPEAT_INITIALIZE = 100002
_MALLOC_HUGE_FIRST = 0
_HOST_TO_DEVICE = 1
_DEVICE_TO_HOST = 2


class AtcError(RuntimeError):
    """atc refused or failed to compile the model; its output is the message."""


class EmulatorOnnx:
    """One process-wide ACL session on the emulator's libascendcl.so (aclInit runs once)."""

    def __init__(self, atc: Path, acl_library: Path, soc_version: str = "Ascend910B1") -> None:
        self.atc = atc
        self.soc_version = soc_version
        acl = ctypes.CDLL(str(acl_library))
        vp, sz = ctypes.c_void_p, ctypes.c_size_t
        acl.aclmdlCreateDesc.restype = vp
        acl.aclmdlCreateDataset.restype = vp
        acl.aclCreateDataBuffer.restype = vp
        acl.aclCreateDataBuffer.argtypes = [vp, sz]
        acl.aclmdlGetDesc.argtypes = [vp, ctypes.c_uint32]
        acl.aclmdlDestroyDesc.argtypes = [vp]
        acl.aclmdlDestroyDataset.argtypes = [vp]
        acl.aclDestroyDataBuffer.argtypes = [vp]
        acl.aclmdlAddDatasetBuffer.argtypes = [vp, vp]
        acl.aclmdlGetNumInputs.argtypes = [vp]
        acl.aclmdlGetNumInputs.restype = sz
        acl.aclmdlGetNumOutputs.argtypes = [vp]
        acl.aclmdlGetNumOutputs.restype = sz
        for fn in ("aclmdlGetInputSizeByIndex", "aclmdlGetOutputSizeByIndex"):
            getattr(acl, fn).argtypes = [vp, sz]
            getattr(acl, fn).restype = sz
        acl.aclrtMalloc.argtypes = [ctypes.POINTER(vp), sz, ctypes.c_int]
        acl.aclrtFree.argtypes = [vp]
        acl.aclrtMemcpy.argtypes = [vp, sz, vp, sz, ctypes.c_int]
        acl.aclmdlLoadFromFile.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)]
        acl.aclmdlUnload.argtypes = [ctypes.c_uint32]
        acl.aclmdlExecute.argtypes = [ctypes.c_uint32, vp, vp]
        acl.aclGetRecentErrMsg.restype = ctypes.c_char_p
        self.acl = acl
        status = acl.aclInit(None)
        if status not in (_ACL_SUCCESS, _ACL_ERROR_REPEAT_INITIALIZE):
            raise RuntimeError(f"aclInit failed: {status}")
        self._check(acl.aclrtSetDevice(0), "aclrtSetDevice")

    def _check(self, status: int, what: str) -> None:
        if status != _ACL_SUCCESS:
            message = self.acl.aclGetRecentErrMsg() or b""
            raise RuntimeError(f"{what} failed ({status}): {message.decode(errors='replace')}")

    def compile(self, model: onnx.ModelProto, work: Path, external_weight: bool = False) -> Path:
        """atc --framework=5 as the backend runs it; returns the .om path. external_weight: the
        initializers go to ONNX external data and atc runs with --external_weight=1."""
        onnx_path = work / "net.onnx"
        if external_weight:
            model = onnx.ModelProto.FromString(model.SerializeToString())
            onnx.save(
                model,
                onnx_path,
                save_as_external_data=True,
                size_threshold=0,
                location="net.onnx.data",
            )
        else:
            onnx.save(model, onnx_path)
        done = subprocess.run(
            [
                str(self.atc),
                "--framework=5",
                f"--model={onnx_path}",
                f"--output={work / 'net'}",
                f"--soc_version={self.soc_version}",
                "--precision_mode=must_keep_origin_dtype",
                f"--external_weight={int(external_weight)}",
            ],
            capture_output=True,
            text=True,
            check=False,
            # A sanitizer runtime preloaded into Python (for an ASan libascendcl.so) must not
            # reach atc, which links its own.
            env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"},
        )
        if done.returncode != 0:
            raise AtcError(done.stdout + done.stderr)
        return work / "net.om"

    def run(
        self, om: Path, inputs: list[np.ndarray], outputs: list[tuple[tuple[int, ...], np.dtype]]
    ) -> list[np.ndarray]:
        """Loads the .om, runs it once on `inputs`, returns outputs of the given shapes/dtypes."""
        acl = self.acl
        model_id = ctypes.c_uint32()
        self._check(acl.aclmdlLoadFromFile(str(om).encode(), ctypes.byref(model_id)), "load")
        desc = acl.aclmdlCreateDesc()
        owned: list[int] = []
        buffers: list[int] = []
        datasets = [acl.aclmdlCreateDataset(), acl.aclmdlCreateDataset()]
        try:
            self._check(acl.aclmdlGetDesc(desc, model_id.value), "aclmdlGetDesc")
            assert acl.aclmdlGetNumInputs(desc) == len(inputs)
            assert acl.aclmdlGetNumOutputs(desc) == len(outputs)
            device_outputs: list[tuple[int, int]] = []
            for which, arrays in ((0, inputs), (1, outputs)):
                for index, item in enumerate(arrays):
                    size = (
                        acl.aclmdlGetInputSizeByIndex(desc, index)
                        if which == 0
                        else acl.aclmdlGetOutputSizeByIndex(desc, index)
                    )
                    pointer = ctypes.c_void_p()
                    self._check(
                        acl.aclrtMalloc(ctypes.byref(pointer), max(size, 1), _MALLOC_HUGE_FIRST),
                        "aclrtMalloc",
                    )
                    owned.append(pointer.value)
                    if which == 0:
                        host = np.ascontiguousarray(item)
                        assert host.nbytes == size, (index, host.nbytes, size)
                        self._check(
                            acl.aclrtMemcpy(pointer, size, host.ctypes.data, size, _HOST_TO_DEVICE),
                            "aclrtMemcpy",
                        )
                    else:
                        device_outputs.append((pointer.value, size))
                    buffer = acl.aclCreateDataBuffer(pointer, size)
                    buffers.append(buffer)
                    self._check(acl.aclmdlAddDatasetBuffer(datasets[which], buffer), "add")
            self._check(acl.aclmdlExecute(model_id.value, datasets[0], datasets[1]), "execute")
            results = []
            for (pointer, size), (shape, dtype) in zip(device_outputs, outputs, strict=True):
                host = np.empty(shape, dtype=dtype)
                assert host.nbytes == size, (shape, dtype, size)
                self._check(
                    acl.aclrtMemcpy(host.ctypes.data, size, pointer, size, _DEVICE_TO_HOST),
                    "aclrtMemcpy",
                )
                results.append(host)
            return results
        finally:
            for buffer in buffers:
                acl.aclDestroyDataBuffer(buffer)
            for dataset in datasets:
                acl.aclmdlDestroyDataset(dataset)
            for pointer in owned:
                acl.aclrtFree(pointer)
            acl.aclmdlDestroyDesc(desc)
            acl.aclmdlUnload(model_id.value)
