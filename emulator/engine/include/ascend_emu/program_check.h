// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Semantic validation of a Program before anything runs it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ascend_emu/program.h"

namespace ascend_emu {

// Accepts `program` only if running it cannot touch memory outside the
// caller's I/O buffers, the arena and the weights:
//  - every tensor has a valid dtype and shape, and its region lies inside
//    the arena or the weight section (64-byte aligned), or it names a graph
//    input/output whose description matches it exactly;
//  - every op has a kernel, valid tensor indices, reads only tensors that
//    exist by then (graph inputs, weights, earlier outputs) and writes only
//    arena or graph-output tensors, each exactly once;
//  - each kernel's Infer, re-run on the recorded attributes and input
//    shapes (weights' bytes as constant data), reproduces the recorded output
//    dtypes and shapes, and its scratch fits the reserved arena region;
//  - an op's output regions overlap neither each other, its inputs nor its
//    scratch, and the arena is no larger than the plan needs.
// `weights` holds program.weights.size() bytes (the weight section, possibly
// copied to aligned memory); `external[i]` holds the bytes of
// program.external_weights[i] (memory the loader bound; external weight
// tensors must lie inside their file, 64-byte aligned, and the file list must
// have unique plain names of non-zero size). Returns "" or the first problem.
// The part of ValidateProgram a loader needs before binding memory: the
// external weight files have unique plain names and non-zero sizes.
std::string CheckExternalWeightFiles(const Program& program);

std::string ValidateProgram(const Program& program, const uint8_t* weights,
                            const std::vector<const uint8_t*>& external = {});
// The same for a program whose weight section is not in program.weights
// (ReadOmTables left it in the image; Model::Load copied it to `weights`):
// `weights` holds `weight_size` bytes.
std::string ValidateProgram(const Program& program, const uint8_t* weights,
                            uint64_t weight_size,
                            const std::vector<const uint8_t*>& external);

}  // namespace ascend_emu
