# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Shape gears: one ONNX graph (and one .om) for a program with bounded symbolic dims.

CANN compiles a model with `--dynamic_batch_size` / `--dynamic_dims` and -1 in `--input_shape`
for a fixed list of shapes ("gears"), inferring every gear from the one ONNX graph. The converters
read static shapes, so a program with symbolic dims is lowered once per gear (lowering/lower.py
drives it), each job in its own module:

- plan.py: which gears the program has (`plan_gears`), and atc's options for them;
- specialize.py: a copy of the program at one gear, sizes bound (`specialize`);
- merge.py: the per-gear ONNX graphs merged into one with symbolic input dims (`merge_gears`);
- formula.py: the integer formulas of the gear symbols that merged graphs compute sizes with;
- partitioning.py: the partitioner's decisions at every gear (`analyze_at_gears`).

docs/shape-gears.md says what a user sees.
"""
