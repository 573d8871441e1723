# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# EXECUTORCH_ASCEND_SANITIZE: instrument the whole tree (backend, emulator,
# runner, tests) with the sanitizers named, e.g. "address,undefined" or
# "thread" (scripts/sanitize.sh builds both, docs/reliability.md). Any
# undefined-behaviour finding stops the process, so ctest fails on it.
#
# With gcc the sanitizer runtimes are shared libraries every instrumented
# object links, so the emulator's libascendcl.so keeps its --no-undefined and
# a dlopen from an instrumented process finds the runtime already loaded.
# ExecuTorch's prebuilt libraries stay uninstrumented (they come from the
# wheel); ASan still checks every access our code makes into their memory.
set(EXECUTORCH_ASCEND_SANITIZE "" CACHE STRING
    "Sanitizers for the whole tree: empty, address,undefined, or thread")
if(EXECUTORCH_ASCEND_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "EXECUTORCH_ASCEND_SANITIZE needs gcc or clang")
  endif()
  if(EXECUTORCH_ASCEND_SANITIZE MATCHES "thread" AND
     EXECUTORCH_ASCEND_SANITIZE MATCHES "address")
    message(FATAL_ERROR "thread and address sanitizers cannot be combined")
  endif()
  set(_san -fsanitize=${EXECUTORCH_ASCEND_SANITIZE} -fno-omit-frame-pointer)
  if(EXECUTORCH_ASCEND_SANITIZE MATCHES "undefined")
    list(APPEND _san -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${_san})
  add_link_options(${_san})
  message(STATUS "executorch-ascend: sanitizers ${EXECUTORCH_ASCEND_SANITIZE}")
endif()
