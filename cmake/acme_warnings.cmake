# Warnings are set per target (STYLE C7), never globally.
function(acme_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
                                           -Woverloaded-virtual)
  if(ACME_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# A project library: C++20, warnings, includes by path from the repository root, an acme:: alias.
function(acme_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(acme::${name} ALIAS ${name})
  target_compile_features(${name} PUBLIC cxx_std_20)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  acme_set_warnings(${name})
endfunction()
