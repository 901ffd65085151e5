#!/bin/sh
# Every tracked C++ file is formatted as .clang-format says (clang-format 14); exit 1 names the files that are not.
# `make format` rewrites them.
set -u
cd "$(dirname "$0")/../.."
files=$(git ls-files '*.cpp' '*.hpp')
bad=$(for f in $files; do
  [ -f "$f" ] || continue
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$bad" ]; then
  echo "format: these files differ from clang-format's output (run make format):" >&2
  echo "$bad" | sed 's/^/  /' >&2
  exit 1
fi
echo "format: ok ($(echo "$files" | wc -l) files)"
