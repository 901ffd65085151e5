#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/config/node.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "sim/study/metrics_flatten.hpp"
#include "sim/study/regression_check.hpp"

namespace acme::cli {
namespace {

namespace fs = std::filesystem;

const char* const CHECK_HELP = R"(usage: acme-sim check RUN_DIR --baseline BASELINE.json
                      [--tolerance FILE | --rel R --abs DURATION --abs-util U] [--update] [--quiet]

Compares a run's queueing delay (mean, p50, p90, p99), JCT (same) and energy per cluster and job type
and GPU utilisation and energy per cluster (from RUN_DIR/summary.json) with a baseline, and prints
every metric with its baseline, current value, delta, allowed band and verdict. A metric regresses
when it moves the bad way (delays and energy up, utilisation down) by more than
max(abs, rel x |baseline|); improvements are reported, not failed.

options:
  --baseline FILE     the baseline (JSON: metrics and the tolerance they are checked with)
  --tolerance FILE    tolerances (YAML): delay: {rel: 0.05, abs: 1s}, utilisation: {rel: 0.05, abs: 0.001},
                      energy: {rel: 0.05, abs: 1} (kWh),
                      metrics: {"clusters.*.by_type.Debug.*": {rel: 0.5, abs: 10min}} (first match wins)
  --rel R             relative tolerance for every metric (default: the baseline's, else 0.05)
  --abs DURATION      absolute tolerance for delays and JCT, e.g. 1s, 2min (default: the baseline's, else 1s)
  --abs-util U        absolute tolerance for utilisation, a fraction (default: the baseline's, else 0.001)
  --update            write the run's metrics as the new baseline (with the tolerance in effect); exit 0
  --quiet             print only regressions and the verdict line
Exit codes: 0 no regression, 1 regression (or a baseline metric the run lacks), 2 bad input.
)";

struct CheckOptions {
  std::string run_dir;
  std::string baseline_path;
  std::optional<std::string> tolerance_file;
  std::optional<std::string> rel;
  std::optional<std::string> abs;
  std::optional<std::string> abs_util;
  bool update = false;
  bool quiet = false;
};

CheckOptions parse_check_args(std::vector<std::string> argv) {
  Args args(std::move(argv), "check");
  CheckOptions o;
  o.update = args.flag("--update");
  o.quiet = args.flag("--quiet", "-q");
  o.baseline_path = args.value("--baseline").value_or("");
  o.tolerance_file = args.value("--tolerance");
  o.rel = args.value("--rel");
  o.abs = args.value("--abs");
  o.abs_util = args.value("--abs-util");
  auto positionals = args.positionals(1);
  if (positionals.empty() || o.baseline_path.empty()) {
    args.fail("expected acme-sim check RUN_DIR --baseline BASELINE.json");
  }
  if (o.tolerance_file && (o.rel || o.abs || o.abs_util)) {
    args.fail("--tolerance FILE and --rel/--abs/--abs-util exclude each other");
  }
  o.run_dir = positionals[0];
  return o;
}

double parse_option(const std::string& option, const std::string& text, bool duration) {
  config::Node node = config::load_yaml_text(text, option + " " + text);
  return duration ? node.as_duration_s() : node.as_nonnegative();
}

study::ToleranceSet tolerance_in_effect(const CheckOptions& o, const std::optional<study::Baseline>& baseline) {
  if (o.tolerance_file) {
    return study::load_tolerance_file(*o.tolerance_file);
  }
  study::ToleranceSet set = baseline ? baseline->tolerance : study::ToleranceSet{};
  if (o.rel) {
    set.delay.rel = set.utilisation.rel = set.energy.rel = parse_option("--rel", *o.rel, false);
  }
  if (o.abs) {
    set.delay.abs = parse_option("--abs", *o.abs, true);
  }
  if (o.abs_util) {
    set.utilisation.abs = parse_option("--abs-util", *o.abs_util, false);
  }
  return set;
}

std::string number(const std::optional<double>& value, bool sign = false) {
  if (!value) {
    return "-";
  }
  constexpr std::size_t SIZE = 32; // "%+.6g" of any double fits
  std::array<char, SIZE> text{};
  std::snprintf(text.data(), text.size(), sign ? "%+.6g" : "%.6g", *value);
  return text.data();
}

void print_table(const std::vector<study::CheckRow>& rows, bool only_failures) {
  std::size_t width = std::string("metric").size();
  for (const auto& row : rows) {
    width = std::max(width, row.metric.size());
  }
  const int w = static_cast<int>(width);
  std::printf("%-*s %14s %14s %14s %12s  %s\n", w, "metric (delays in s)", "baseline", "current", "delta", "allowed",
              "verdict");
  for (const auto& row : rows) {
    if (only_failures && !study::is_failure(row)) {
      continue;
    }
    bool compared = row.baseline && row.current;
    std::printf("%-*s %14s %14s %14s %12s  %s\n", w, row.metric.c_str(), number(row.baseline).c_str(),
                number(row.current).c_str(), compared ? number(row.delta, true).c_str() : "-",
                row.baseline ? number(row.allowed).c_str() : "-", study::verdict_name(row.verdict));
  }
}

std::string summary_path(const std::string& run) {
  return fs::is_directory(run) ? (fs::path(run) / "summary.json").string() : run;
}

/// What a run's summary.json says produced it: its config (else the path itself) and its seed (none when
/// it records none). One read of the file serves both.
struct SummaryIdentity {
  std::string source;
  std::optional<std::uint64_t> seed;
};

SummaryIdentity summary_identity(const std::string& path) {
  config::Node json = config::load_yaml_file(path);
  return {json["config"].is_scalar() ? json["config"].as_string() : path,
          json["seed"].is_scalar() ? std::optional<std::uint64_t>(json["seed"].as_u64()) : std::nullopt};
}

/// A run of another seed than its baseline's: its figures differ by the seed's draws, not by a change
/// (the default at seed 2 fails 39 of 148 metrics of seed 1's baseline), so the check refuses it.
void check_same_seed(const std::string& summary, const study::Baseline& baseline, const std::string& baseline_path) {
  std::optional<std::uint64_t> seed = summary_identity(summary).seed;
  if (baseline.seed && seed && *seed != *baseline.seed) {
    throw ConfigError(Location{summary, 0, 0}, "seed",
                      "the run's seed " + std::to_string(*seed) + " is not the seed " + std::to_string(*baseline.seed) +
                          " of the baseline " + baseline_path + "; expected a run at seed " +
                          std::to_string(*baseline.seed) + " (or --update for a baseline of this seed)");
  }
}

/// The baseline to compare with; with --update a missing or garbled one is simply replaced.
std::optional<study::Baseline> existing_baseline(const CheckOptions& o) {
  if (o.update && !fs::exists(o.baseline_path)) {
    return std::nullopt;
  }
  try {
    return study::load_baseline(o.baseline_path);
  } catch (const ConfigError&) {
    if (!o.update) {
      throw; // a missing or garbled baseline is bad input (exit 2)
    }
  }
  return std::nullopt;
}

/// Prints the comparison; returns the number of failing metrics.
std::size_t compare_and_report(const CheckOptions& o, const std::string& summary, const study::Baseline& baseline,
                               const std::vector<study::Metric>& current, const study::ToleranceSet& tolerance) {
  auto rows = study::compare_with_baseline(baseline, current, tolerance);
  auto failures = static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), study::is_failure));
  print_table(rows, o.quiet);
  auto improved =
      std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.verdict == study::Verdict::IMPROVED; });
  std::printf("check %s against %s: %zu metrics, %zu regressed or missing, %td improved\n", summary.c_str(),
              o.baseline_path.c_str(), rows.size(), failures, improved);
  return failures;
}

} // namespace

int cmd_check(std::vector<std::string> argv) {
  if (printed_help(argv, CHECK_HELP)) {
    return 0;
  }
  CheckOptions o = parse_check_args(std::move(argv));
  std::string summary = summary_path(o.run_dir);
  auto current = study::select_check_metrics(study::load_summary_metrics(summary));
  if (current.empty()) {
    throw ConfigError(Location{summary, 0, 0}, "",
                      "holds no queueing-delay metrics; expected a summary.json written by acme-sim run");
  }
  std::optional<study::Baseline> baseline = existing_baseline(o);
  study::ToleranceSet tolerance = tolerance_in_effect(o, baseline);
  if (baseline && !o.update) {
    check_same_seed(summary, *baseline, o.baseline_path);
  }
  std::size_t failures = baseline ? compare_and_report(o, summary, *baseline, current, tolerance) : 0;
  if (o.update) {
    SummaryIdentity identity = summary_identity(summary);
    study::Baseline fresh{identity.source, identity.seed, tolerance, current};
    metrics::write_file_atomically(o.baseline_path, study::baseline_json_text(fresh));
    std::printf("baseline %s updated: %zu metrics from %s\n", o.baseline_path.c_str(), current.size(), summary.c_str());
    return 0;
  }
  return failures > 0 ? 1 : 0;
}

} // namespace acme::cli
