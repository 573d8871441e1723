# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# Where the backend finds ACL, from the one file src/executorch_ascend/toolchain/cann.py reads
# too (src/executorch_ascend/acl_library.json), as CMake variables:
#   EXECUTORCH_ASCEND_ACL_SOURCE             the facts' public source
#   EXECUTORCH_ASCEND_ACL_EXPLICIT_VARIABLE  EXECUTORCH_ASCEND_ACL_LIB
#   EXECUTORCH_ASCEND_ACL_HOME_VARIABLES     CANN's home variables, a list
#   EXECUTORCH_ASCEND_ACL_LIBRARY_FOLDER     lib64
#   EXECUTORCH_ASCEND_ACL_SINGLE_LIBRARY     libascendcl.so
#   EXECUTORCH_ASCEND_ACL_RUNTIME_LIBRARY    libacl_rt.so
#   EXECUTORCH_ASCEND_ACL_MODEL_LIBRARY      libacl_mdl.so
#   EXECUTORCH_ASCEND_ACL_PROFILER_LIBRARY   libmsprofiler.so
# Read by runtime/CMakeLists.txt (the header acl_library_data.h) and
# cmake/Package.cmake (executorch_ascend_acl_library() in the package config).
set(_acl_json ${PROJECT_SOURCE_DIR}/src/executorch_ascend/acl_library.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_acl_json})
file(READ ${_acl_json} _acl_text)
foreach(_key source explicit_variable library_folder single_library
        runtime_library model_library profiler_library)
  string(TOUPPER ${_key} _upper)
  string(JSON EXECUTORCH_ASCEND_ACL_${_upper} GET "${_acl_text}" ${_key})
endforeach()
# home_variables, ["A", "B"], as the list A;B.
string(JSON _acl_homes GET "${_acl_text}" home_variables)
string(REGEX MATCHALL "\"[^\"]+\"" _acl_homes "${_acl_homes}")
string(REPLACE "\"" "" EXECUTORCH_ASCEND_ACL_HOME_VARIABLES "${_acl_homes}")
