// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the executorch-ascend authors.
// Running a oneDNN primitive prepared at load on each call's buffers: the
// float Conv (conv_onednn.cc) and the int8 Conv (conv_int8_onednn.cc) both
// point their memory objects at the call's pointers and execute through the
// C API, with the arguments in an array on the stack (the C++ execute()
// copies them into a map and a vector on every call).
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

namespace ascend_emu {
namespace kernels {

// Points `m` at `data` (a no-op when it already does).
inline void SetHandle(dnnl::memory& m, const void* data) {
  if (m.get_data_handle() != data) m.set_data_handle(const_cast<void*>(data));
}

inline void Execute(const dnnl::primitive& prim, const dnnl::stream& stream,
                    const dnnl_exec_arg_t* args, int nargs) {
  dnnl::error::wrap_c_api(
      dnnl_primitive_execute(prim.get(), stream.get(), nargs, args),
      "could not execute a primitive");
}

}  // namespace kernels
}  // namespace ascend_emu
