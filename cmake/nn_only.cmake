# cmake/nn_only.cmake — HS_NN_ONLY=ON: only the net engine, for a machine
# (e.g. a bare GPU box) without the cluster's libraries (ZeroMQ, msgpack,
# LMDB, libarchive). Needs zlib only. Builds:
#   hs_core    core/*.c without the wire codec (core/wire*.c: msgpack)
#   hs_worker  worker/nn/*.c + the readers its features use (stability, tactics)
#              (+ the cuDNN backend, by the HS_CUDNN block of the top level)
#   tests      test_nn_cuda, test_nn_cuda_errors, test_nn_golden (CTest: nn_cuda, ...)
#   bench_net  where bench/bench_net.c exists
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)

file(GLOB _core CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/core/*.c")
list(FILTER _core EXCLUDE REGEX "/wire[^/]*\\.c$")
add_library(hs_core STATIC ${_core})
target_include_directories(hs_core PUBLIC "${CMAKE_SOURCE_DIR}")
target_link_libraries(hs_core PUBLIC Threads::Threads m)

file(GLOB _nn CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/worker/nn/*.c")
add_library(hs_worker STATIC ${_nn} "${CMAKE_SOURCE_DIR}/worker/stability.c"
            "${CMAKE_SOURCE_DIR}/worker/tactics.c")
target_link_libraries(hs_worker PUBLIC hs_core ZLIB::ZLIB)

# Called by the top level after the HS_CUDNN block (hs_worker complete).
function(hs_nn_only_programs)
  foreach(_t nn_cuda nn_cuda_errors nn_golden)
    add_executable(test_${_t} "${CMAKE_SOURCE_DIR}/tests/test_${_t}.c")
    target_include_directories(test_${_t} PRIVATE "${CMAKE_SOURCE_DIR}/tests")
    target_link_libraries(test_${_t} PRIVATE hs_worker hs_core)
    add_test(NAME ${_t} COMMAND test_${_t})
    set_tests_properties(${_t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                         ENVIRONMENT "HS_DATA_DIR=${HS_DATA_DIR}")
  endforeach()
  if(EXISTS "${CMAKE_SOURCE_DIR}/bench/bench_net.c")
    add_executable(bench_net "${CMAKE_SOURCE_DIR}/bench/bench_net.c")
    target_link_libraries(bench_net PRIVATE hs_worker hs_core)
  endif()
endfunction()
