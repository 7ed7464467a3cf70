# d2s_module(NAME DEPS...): a module folder as one static library from its *.cpp
# (tests under tests/ excluded), plus its GoogleTest binary from tests/*_test.cpp.
function(d2s_module name)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(sources)
    add_library(${name} STATIC ${sources})
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} PUBLIC ${ARGN} PRIVATE d2s_warnings)
  else()
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} INTERFACE ${ARGN})
  endif()
  d2s_add_tests(${name}_tests ${name})
endfunction()

# Every test of the calling directory runs d2s with D2S_VERIFY_EACH=1: the pass driver
# (convert/pass_manager.h) then verifies the graph after each pass, as --verify-each
# does, in Release builds too (docs/ci.md). Call it at the end of a CMakeLists.txt that
# adds tests; GoogleTest binaries get it from d2s_add_tests.
set(D2S_TEST_ENVIRONMENT D2S_VERIFY_EACH=1)
function(d2s_verify_each_in_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  if(tests)
    set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT ${D2S_TEST_ENVIRONMENT})
  endif()
endfunction()
