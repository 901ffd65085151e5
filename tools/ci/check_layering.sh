#!/bin/sh
# The include rules of STYLE C1, checked over the tracked sources (run from anywhere; exit 1 on a breach):
#   only sim/engine/ includes SimGrid (<simgrid/...>, <xbt/...>);
#   sim/model/ includes nothing of the project but sim/model/;
#   policies/ and workloads/ never include the engine, the metrics, the CLI, the studies or run assembly.
set -u
cd "$(dirname "$0")/../.."
status=0
breach() {
  echo "layering: $1" >&2
  echo "$2" | sed 's/^/  /' >&2
  status=1
}
sources=$(git ls-files '*.cpp' '*.hpp' '*.cu' '*.in')
hits=$(echo "$sources" | grep -v '^sim/engine/' | xargs grep -nE '#include <(simgrid|xbt)/' 2>/dev/null)
[ -n "$hits" ] && breach "only sim/engine/ may include SimGrid" "$hits"
hits=$(echo "$sources" | grep '^sim/model/' | xargs grep -nE '#include "' 2>/dev/null | grep -v '#include "sim/model/')
[ -n "$hits" ] && breach "sim/model/ includes only sim/model/ and the standard library" "$hits"
hits=$(echo "$sources" | grep -E '^(policies|workloads)/' | xargs grep -nE '#include "sim/(engine|metrics|cli|study|run)/' 2>/dev/null)
[ -n "$hits" ] && breach "policies/ and workloads/ never include sim/engine, sim/metrics, sim/cli, sim/study or sim/run" "$hits"
hits=$(echo "$sources" | xargs grep -nE '#include "acme/' 2>/dev/null)
[ -n "$hits" ] && breach "includes name the real path from the repository root, not acme/..." "$hits"
[ $status -eq 0 ] && echo "layering: ok"
exit $status
