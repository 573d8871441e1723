# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# executorch_ascend_acl_abi_check(<CANN include folder>): at configure time, write the ABI check
# of acl/acl_api.h (generate_acl_abi_check.py beside this file) and compile it against CANN's
# headers in that folder (the one holding acl/acl.h). One STATUS line when every declaration
# agrees; FATAL_ERROR naming each item that does not. Used by tools/abi_check/CMakeLists.txt
# (standalone) and by the top-level EXECUTORCH_ASCEND_CANN_ABI_CHECK option.
set(_EXECUTORCH_ASCEND_ABI_CHECK_DIR ${CMAKE_CURRENT_LIST_DIR})

function(executorch_ascend_acl_abi_check cann_include_dir)
  set(_prefix "executorch-ascend ABI check")
  if(NOT EXISTS "${cann_include_dir}/acl/acl.h")
    message(FATAL_ERROR "${_prefix}: no acl/acl.h in '${cann_include_dir}': give CANN's "
                        "include folder, e.g. $ASCEND_HOME_PATH/include")
  endif()
  find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)
  set(_generator ${_EXECUTORCH_ASCEND_ABI_CHECK_DIR}/generate_acl_abi_check.py)
  get_filename_component(_acl ${_EXECUTORCH_ASCEND_ABI_CHECK_DIR}/../../acl ABSOLUTE)
  set(_work ${CMAKE_CURRENT_BINARY_DIR}/acl_abi_check)
  set(_tu ${_work}/acl_abi_check.cc)
  # Configure again when our declarations, the generator or CANN's top header change.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${_acl}/acl_api.h ${_acl}/acl_functions.def ${_generator} ${cann_include_dir}/acl/acl.h)

  execute_process(
    COMMAND ${Python3_EXECUTABLE} ${_generator} --header ${_acl}/acl_api.h -o ${_tu}
    OUTPUT_VARIABLE _summary ERROR_VARIABLE _error RESULT_VARIABLE _rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${_prefix}: cannot generate the check:\n${_error}")
  endif()

  # Every error, not the first 20 (clang's default limit); plain text for the report below.
  set(_flags)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    list(APPEND _flags -ferror-limit=0 -fno-color-diagnostics)
  elseif(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    list(APPEND _flags -fmax-errors=0 -fdiagnostics-color=never)
  endif()
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)  # nothing to link: the checks are static
  try_compile(_ok ${_work}/build ${_tu}
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${cann_include_dir}"
    COMPILE_DEFINITIONS ${_flags}
    CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
    OUTPUT_VARIABLE _output)
  if(_ok)
    message(STATUS "${_prefix} passed: acl/acl_api.h agrees with CANN's headers in "
                   "${cann_include_dir} (${_summary})")
    return()
  endif()
  file(WRITE ${_work}/compiler-output.txt "${_output}")
  execute_process(
    COMMAND ${Python3_EXECUTABLE} ${_generator} -o ${_tu} --explain ${_work}/compiler-output.txt
    OUTPUT_VARIABLE _items)
  message(FATAL_ERROR "${_prefix} FAILED: acl/acl_api.h differs from CANN's headers in "
                      "${cann_include_dir}; each line is one of our declarations "
                      "(acl/acl_api.h, acl/acl_functions.def):\n${_items}"
                      "The generated check: ${_tu}\n"
                      "The compiler's whole output: ${_work}/compiler-output.txt")
endfunction()
