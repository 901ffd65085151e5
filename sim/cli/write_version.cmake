# Run at every build (cmake -P): writes version.cpp with the project version and the source tree's git
# commit (with "+changes" when the tree differs from it); configure_file rewrites it only when that changed,
# so an unchanged commit rebuilds nothing.
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD OUTPUT_VARIABLE ACME_COMMIT
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rev_failed)
if(rev_failed OR ACME_COMMIT STREQUAL "")
  set(ACME_COMMIT "unknown (not built from a git checkout)")
else()
  execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no OUTPUT_VARIABLE dirty
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    string(APPEND ACME_COMMIT "+changes")
  endif()
endif()
configure_file(${IN} ${OUT} @ONLY)
