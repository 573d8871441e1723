# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""What AscendBackend.preprocess writes for the runtime, and what reads it back.

- `blob`: the delegate blob (processed_bytes) and its compatibility rule (docs/blob-format.md);
- `weights`: the weight files atc wrote, as ExecuTorch named data keyed by their SHA-256;
- `states`: the buffers a partition keeps on the device (a KV cache), as blob entries;
- `source`: a partition's ONNX source, kept as named data for `executorch-ascend compile`;
- `debug_map`: which ATen/edge nodes each `.om` op came from, for ETDump.

The format's constants are data, `delegate_blob.json` in the package root, which the C++ reader
is generated from too.
"""
