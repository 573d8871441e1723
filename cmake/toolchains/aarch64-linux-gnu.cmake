# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# Cross build for aarch64 Linux (Kunpeng hosts, Atlas boards) on a Debian or
# Ubuntu x86_64 machine with the distribution's cross compiler
# (g++-aarch64-linux-gnu) and Debian multiarch arm64 libraries
# (libprotobuf-dev:arm64, zlib1g-dev:arm64, ...; docs/installing.md,
# "aarch64"). scripts/aarch64.sh installs all of it and uses this file:
#
#   cmake -G Ninja -S . -B build/aarch64/cmake \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#     -Dexecutorch_DIR=<unzipped aarch64 executorch wheel>/executorch/share/cmake
#
# EXECUTORCH_ASCEND_AARCH64_OVERLAY (cache or environment variable): a folder
# holding arm64 packages unpacked with `dpkg -x` (libdnnl-dev:arm64 and
# libonnx-dev:arm64 cannot be installed beside their amd64 twins: their
# headers differ by architecture), searched before the system's folders.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(_triple aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${_triple}-gcc)
set(CMAKE_CXX_COMPILER ${_triple}-g++)
# Debian's multiarch folders (/usr/lib/aarch64-linux-gnu): where find_library
# and find_package look, instead of the host's x86_64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE ${_triple})

if(NOT EXECUTORCH_ASCEND_AARCH64_OVERLAY AND DEFINED ENV{EXECUTORCH_ASCEND_AARCH64_OVERLAY})
  set(EXECUTORCH_ASCEND_AARCH64_OVERLAY "$ENV{EXECUTORCH_ASCEND_AARCH64_OVERLAY}")
endif()
if(EXECUTORCH_ASCEND_AARCH64_OVERLAY)
  set(EXECUTORCH_ASCEND_AARCH64_OVERLAY "${EXECUTORCH_ASCEND_AARCH64_OVERLAY}" CACHE PATH
      "arm64 packages unpacked with dpkg -x, searched first")
  list(PREPEND CMAKE_PREFIX_PATH "${EXECUTORCH_ASCEND_AARCH64_OVERLAY}/usr")
  # The linker resolves the overlay's libraries' own dependencies there too.
  set(CMAKE_EXE_LINKER_FLAGS_INIT
      "-Wl,-rpath-link,${EXECUTORCH_ASCEND_AARCH64_OVERLAY}/usr/lib/${_triple}")
  set(CMAKE_SHARED_LINKER_FLAGS_INIT "${CMAKE_EXE_LINKER_FLAGS_INIT}")
endif()

# pkg-config (FindOpenSSL asks it) reads the arm64 .pc files, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${_triple}/pkgconfig:/usr/share/pkgconfig")

# Programs the build runs (flatc, protoc) are the host's; libraries and
# headers are the target's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# try_run and ctest run aarch64 programs under QEMU's user mode, with the
# cross glibc of libc6-arm64-cross.
find_program(EXECUTORCH_ASCEND_QEMU_AARCH64 qemu-aarch64)
if(EXECUTORCH_ASCEND_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${EXECUTORCH_ASCEND_QEMU_AARCH64} -L /usr/${_triple})
endif()
