# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
# Tests of the emulator's reference kernels (emulator/engine/kernels),
# included by emulator/tests/engine/CMakeLists.txt.
add_executable(ascend_emu_kernels_test
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_basics.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_aipp_dynamic.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_arithmetic.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_logical.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_unary_math.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_activation.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_matmul.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_reduction.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_topk.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_softmax.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv_fused.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv_depthwise.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv_transpose.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv3d.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_pool.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_normalization.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_shape.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_concat_split.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_slice.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_pad.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_gather.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_scatter.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_cast.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_resize.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_grid_sample.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_quant.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_quant_fast.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_int8.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_int8_fast.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv_dequant.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_matmul_dequant.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_requant_table.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_requant_computed.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_dynamic_quant.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_quant_batch_matmul.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_weight_quant.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_fp16.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_bf16.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_noalloc.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_fuzz.cc
)
# The kernels' own headers, for the tests that call a path directly
# (kernels_test_conv_depthwise.cc: depthwise_flat.h).
target_include_directories(ascend_emu_kernels_test PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/../../../emulator/engine/kernels)
target_link_libraries(ascend_emu_kernels_test PRIVATE ascend_emu_kernels
                      GTest::gtest GTest::gtest_main)
gtest_discover_tests(ascend_emu_kernels_test DISCOVERY_MODE PRE_TEST)
