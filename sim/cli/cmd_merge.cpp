#include <cstdio>
#include <limits>

#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/study/plan.hpp"
#include "sim/study/plot_hint.hpp"
#include "sim/study/results.hpp"
#include "sim/study/study_dir.hpp"

namespace acme::cli {
namespace {

const char* const MERGE_HELP = R"(usage: acme-sim merge DIR... -o OUT [--quiet]

Combines study folders written by `acme-sim sweep --shard K/N` (or by several sweeps of one study)
into OUT: OUT/points/ gathers every point's folder (hard links where possible) and OUT/results.csv,
results.json and aggregate.csv are byte-identical to those of a single-machine sweep of the same
points. Every DIR must hold the same study (its study.json). OUT may be one of the DIRs.

options:
  -o, --output OUT   the merged study folder (required)
  --quiet            no summary
Exit codes: 0 every point of the study ok, 1 some point failed or is in no input, 2 bad input.
)";

} // namespace

int cmd_merge(std::vector<std::string> argv) {
  if (printed_help(argv, MERGE_HELP)) {
    return 0;
  }
  Args args(std::move(argv), "merge");
  bool quiet = args.flag("--quiet", "-q");
  auto out = args.value("--output", "-o");
  auto inputs = args.positionals(std::numeric_limits<std::size_t>::max());
  if (!out) {
    args.fail("missing -o OUT; expected acme-sim merge DIR... -o OUT");
  }
  if (inputs.empty()) {
    args.fail("missing the study folders to merge; expected acme-sim merge DIR... -o OUT");
  }
  study::StudyLock lock(*out);
  study::MergedStudy merged = study::read_merge_inputs(inputs);
  study::gather_points(merged, *out);
  study::write_plan(*out, merged.plan);
  study::ResultsInput input{merged.plan.name,   merged.plan.axes,   merged.plan.points,  merged.records,
                            merged.plan.values, merged.plan.labels, merged.plan.baseline};
  study::write_results(*out, input);
  auto counts = study::count_statuses(input);
  for (const auto& point : merged.plan.points) {
    if (merged.records.count(point.id) != 0) {
      continue;
    }
    if (auto damaged = merged.damaged.find(point.id); damaged != merged.damaged.end()) {
      std::fprintf(stderr, "point %s is damaged (missing): %s\n", point.id.c_str(), damaged->second.c_str());
    } else {
      std::fprintf(stderr, "point %s is in no input folder (missing)\n", point.id.c_str());
    }
  }
  if (!quiet) {
    std::printf("merged %zu folders into %s: %zu points, %zu ok, %zu failed, %zu missing\nplots: %s\n", inputs.size(),
                out->c_str(), input.points.size(), counts.ok, counts.failed, counts.missing,
                study::plot_command(*out).c_str());
  }
  return counts.failed + counts.missing > 0 ? 1 : 0;
}

} // namespace acme::cli
