# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# The CMake package installed with the wheel (docs/cpp-integration.md):
#   site-packages/executorch_ascend/share/cmake/executorch_ascend/
#     executorch_ascendConfig.cmake         find_package(executorch_ascend CONFIG)
#     executorch_ascendConfigVersion.cmake  this release's version
#     executorch_ascendTargets.cmake        the imported backend library
# share/cmake/<name>/ under the package folder, so CMAKE_PREFIX_PATH set to
# site-packages/executorch_ascend (executorch_ascend.paths.cmake_prefix())
# finds it, the way ExecuTorch's own package is found.
include(CMakePackageConfigHelpers)

set(_ea_cmake_dir executorch_ascend/share/cmake/executorch_ascend)
if(DEFINED SKBUILD_PROJECT_VERSION)
  set(_ea_version ${SKBUILD_PROJECT_VERSION})
else()
  # A plain CMake build: the version from pyproject.toml, its one source.
  file(STRINGS ${PROJECT_SOURCE_DIR}/pyproject.toml _ea_version_line
       REGEX "^version = ")
  string(REGEX REPLACE "^version = \"([^\"]+)\".*" "\\1" _ea_version
                       "${_ea_version_line}")
endif()

# The ExecuTorch release the backend was compiled against: the config refuses
# another one, since ExecuTorch has no ABI stability across releases.
set(EXECUTORCH_ASCEND_EXECUTORCH_VERSION ${executorch_VERSION})
# executorch_ascend_acl_library()'s names (src/executorch_ascend/acl_library.json).
include(${CMAKE_CURRENT_LIST_DIR}/AclLibraryNames.cmake)
configure_file(${CMAKE_CURRENT_LIST_DIR}/executorch_ascendConfig.cmake.in
               ${CMAKE_CURRENT_BINARY_DIR}/package/executorch_ascendConfig.cmake
               @ONLY)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/package/executorch_ascendConfigVersion.cmake
  VERSION ${_ea_version} COMPATIBILITY SameMinorVersion)

install(EXPORT executorch_ascend_targets
        NAMESPACE executorch_ascend::
        FILE executorch_ascendTargets.cmake
        DESTINATION ${_ea_cmake_dir} COMPONENT runtime)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/package/executorch_ascendConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/package/executorch_ascendConfigVersion.cmake
        DESTINATION ${_ea_cmake_dir} COMPONENT runtime)
