// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// A structural check of a .ptd (ExecuTorch's FlatTensor file) before
// ExecuTorch reads it. ExecuTorch 1.5's FlatTensorDataMap::load checks the
// header, the identifier and the segment bounds, but runs no flatbuffer
// verifier: a corrupted table offset, a missing key or a tensor layout whose
// dim_order is shorter than its sizes is dereferenced as it is, and a crafted
// file crashes the process (fuzz_program found it in ExecuTorch's get_key; see
// docs/reliability.md). The runners call this first, as Program::load's
// InternalConsistency verification does for the .pte.
#pragma once

#include <cstddef>
#include <string>

namespace executorch::backends::ascend::tools {

// Empty when the FlatTensor part of `data` (the whole file, or at least its
// header and flatbuffer) is well formed; else what is wrong.
std::string check_ptd(const void* data, size_t size);

// The same for a file: reads only the header and the flatbuffer, not the
// segments (a .ptd of gigabytes costs a few kilobytes).
std::string check_ptd_file(const std::string& path);

// The runners' message for a --data file: empty when check_ptd_file passes,
// else "data file '<path>' is not a valid .ptd: <reason>".
std::string ptd_refusal(const std::string& path);

}  // namespace executorch::backends::ascend::tools
