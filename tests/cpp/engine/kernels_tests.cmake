# Tests of the emulator's reference kernels (emulator/engine/kernels),
# included by tests/cpp/engine/CMakeLists.txt.
add_executable(ascend_emu_kernels_test
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_basics.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_elementwise.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_matmul.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_pool.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_shape.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_reduce.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_softmax.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_gather.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_scatter.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_slice.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_norm.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_pad.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_resize.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_conv_transpose.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_noalloc.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_fuzz.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_unary.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_binary.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_cast.cc
  ${CMAKE_CURRENT_LIST_DIR}/kernels_test_fp16.cc
)
target_link_libraries(ascend_emu_kernels_test PRIVATE ascend_emu_kernels
                      GTest::gtest GTest::gtest_main)
gtest_discover_tests(ascend_emu_kernels_test DISCOVERY_MODE PRE_TEST)
