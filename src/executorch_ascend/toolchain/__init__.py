# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""CANN's side of the ahead-of-time path: where CANN is, and its offline compiler.

- `cann`: the one resolver of the ACL library and of atc, and the switch to the emulator;
- `atc`: the atc driver (CANN's or the emulator's, one command line) that compiles an ONNX model
  to an `.om`;
- `atc_options`: atc's options as data, which the compile spec passes through or owns;
- `dump`: what atc got and gave, per partition, when a dump directory is asked for.

Import the modules themselves (`from executorch_ascend.toolchain.atc import compile_onnx`): this
file re-exports nothing, since `compile_spec` reads `atc_options` while `atc` reads
`compile_spec`. The facts are data in the package root (`atc_options.json`,
`acl_library.json`), where the emulator's and the runtime's builds read them too.
"""
