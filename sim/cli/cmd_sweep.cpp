#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/results_table.hpp"
#include "sim/config/config.hpp"
#include "sim/study/plan.hpp"
#include "sim/study/plot_hint.hpp"
#include "sim/study/point.hpp"
#include "sim/study/progress_bar.hpp"
#include "sim/study/results.hpp"
#include "sim/study/slurm_script.hpp"
#include "sim/study/study.hpp"
#include "sim/study/study_dir.hpp"
#include "sim/study/sweep_runner.hpp"
#include <unistd.h>

namespace acme::cli {
namespace {

namespace fs = std::filesystem;

const char* const SWEEP_HELP = R"(usage: acme-sim sweep STUDY.yaml [-j N] [-o DIR] [--shard K/N] [--quiet]
       acme-sim sweep STUDY.yaml --emit-slurm SCRIPT_DIR [--shards N] [--slurm-cpus C]
                      [--slurm-time T] [--slurm-partition P] [-o DIR]

Runs every point of a what-if study (base config x grid x zip x seeds; see configs/studies/), each
point an `acme-sim run` in its own process, at most N at a time. Each point writes DIR/points/<id>/
(jobs.csv, summary.json, timeseries.csv, point.json) when it has finished; running the sweep again
skips finished points whose inputs are unchanged and runs the rest (failed points; points whose base
config, trace, Python module or other input file changed since, by content hash: see docs/studies.md,
"Resuming"). The study writes, sorted by point id:
  DIR/results.csv    one row per point: its label, overrides and every number of its summary.json
  DIR/results.json   the same plus, per setting, the mean and 95% Student t interval across seeds
  DIR/aggregate.csv  one row per setting: mean and interval half width (.ci95) per metric
  DIR/paired.csv     per setting and metric, the difference from the baseline setting (the study's
                     `baseline:`, else every varied key at its first value) over the seeds both ran,
                     with its paired 95% t interval
A failing point (bad override, crash) is recorded with its error; the others go on.

options:
  -j, --jobs N            worker processes at once (default: the CPUs this process may use)
  -o, --output DIR        study folder (default: out/<study name>)
  --shard K/N             run only the K-th of N disjoint subsets of the points (for clusters)
  --quiet                 no progress bar and no summary
  --emit-slurm DIR        write DIR/sweep.sbatch (a job array, one task per shard, each writing
                          OUT/shard-K), DIR/merge.sbatch and DIR/README with the submit line; runs nothing
  --shards N              array tasks (default 4; never more than the study's points)
  --slurm-cpus C          CPUs per array task, also its -j (default 1)
  --slurm-time T          time limit per array task (default 01:00:00)
  --slurm-partition P     partition (default: the cluster's default)
Exit codes: 0 every point ok, 1 some point failed, 2 bad study file or command line.
)";

constexpr std::size_t DEFAULT_SLURM_SHARDS = 4;
constexpr std::size_t SWEEP_TABLE_ROWS = 24; // then "... N more rows": the files hold every setting

struct SweepOptions {
  std::string study_path;
  std::string out_dir;
  std::size_t jobs = 0;
  std::optional<study::Shard> shard;
  bool quiet = false;
  std::optional<std::string> emit_slurm;
  study::SlurmOptions slurm;
};

/// "-j4" -> "-j", "4" (the usual make/ninja spelling).
std::vector<std::string> split_short_jobs(std::vector<std::string> argv) {
  std::vector<std::string> out;
  for (auto& a : argv) {
    if (a.size() > 2 && a.rfind("-j", 0) == 0) {
      out.push_back("-j");
      out.push_back(a.substr(2));
    } else {
      out.push_back(std::move(a));
    }
  }
  return out;
}

std::size_t positive(const Args& args, const std::string& option, const std::string& text) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0) {
    args.fail(option + ": expected a positive integer, got \"" + text + "\"");
  }
  return static_cast<std::size_t>(value);
}

SweepOptions parse_sweep_args(std::vector<std::string> argv) {
  Args args(split_short_jobs(std::move(argv)), "sweep");
  SweepOptions o;
  o.quiet = args.flag("--quiet", "-q");
  o.out_dir = args.value("--output", "-o").value_or("");
  o.jobs = study::available_cpus();
  if (auto jobs = args.value("--jobs", "-j")) {
    o.jobs = positive(args, "-j", *jobs);
  }
  if (auto shard = args.value("--shard")) {
    o.shard = study::parse_shard(*shard);
  }
  o.emit_slurm = args.value("--emit-slurm");
  o.slurm.shards = positive(args, "--shards", args.value("--shards").value_or(std::to_string(DEFAULT_SLURM_SHARDS)));
  o.slurm.cpus = positive(args, "--slurm-cpus", args.value("--slurm-cpus").value_or("1"));
  o.slurm.time_limit = args.value("--slurm-time").value_or(o.slurm.time_limit);
  study::check_slurm_time(o.slurm.time_limit);
  o.slurm.partition = args.value("--slurm-partition").value_or("");
  auto positionals = args.positionals(1);
  if (positionals.empty()) {
    args.fail("missing the study file; expected acme-sim sweep STUDY.yaml");
  }
  o.study_path = positionals[0];
  return o;
}

std::string self_executable() {
  return fs::read_symlink("/proc/self/exe").string();
}

int emit_slurm(SweepOptions& o, const study::Study& s, std::size_t point_count) {
  o.slurm.script_dir = fs::absolute(*o.emit_slurm).lexically_normal().string();
  o.slurm.executable = self_executable();
  o.slurm.study_file = fs::absolute(o.study_path).lexically_normal().string();
  o.slurm.out_dir = fs::absolute(o.out_dir).lexically_normal().string();
  o.slurm.job_name = "acme-" + s.name;
  // An array task without a point would run nothing and its empty shard folder would still be merged.
  o.slurm.shards = std::max<std::size_t>(1, std::min(o.slurm.shards, point_count));
  study::write_slurm_scripts(o.slurm);
  if (!o.quiet) {
    std::printf("wrote %s/sweep.sbatch (%zu array tasks over %zu points), merge.sbatch and README\nsubmit: %s\n",
                o.slurm.script_dir.c_str(), o.slurm.shards, point_count, study::submit_command(o.slurm).c_str());
  }
  return 0;
}

void report(const SweepOptions& o, const study::ResultsInput& input, std::size_t ran, double wall_s) {
  auto counts = study::count_statuses(input);
  for (const auto& point : input.points) {
    auto it = input.records.find(point.id);
    if (it != input.records.end() && it->second.status == study::STATUS_FAILED) {
      std::fprintf(stderr, "point %s failed: %s\n", point.id.c_str(), it->second.error.c_str());
    }
  }
  if (o.quiet) {
    return;
  }
  std::printf(
      "sweep %s: %zu points%s: %zu ran, %zu already done, %zu ok, %zu failed in %.1f s (-j %zu)\n",
      input.study_name.c_str(), input.points.size(),
      o.shard ? (" (shard " + std::to_string(o.shard->index) + "/" + std::to_string(o.shard->count) + ")").c_str() : "",
      ran, input.points.size() - ran, counts.ok, counts.failed, wall_s, o.jobs);
  std::fputs(sweep_results_table(input, SWEEP_TABLE_ROWS).c_str(), stdout);
  std::printf("results: %s/{results.csv,results.json,aggregate.csv}\nplots: %s\nreport: acme-sim report %s -o %s\n",
              o.out_dir.c_str(), study::plot_command(o.out_dir).c_str(), study::shell_quote(o.out_dir).c_str(),
              study::shell_quote((fs::path(o.out_dir) / "report.html").string()).c_str());
}

/// The selected points without a finished run of their inputs as they are now (the base config, traces,
/// Python modules, ...; sim/config/provenance.hpp): a point that read another version of one runs again
/// (said unless --quiet, naming the first changed input).
std::vector<study::Point> points_to_run(const SweepOptions& o, const study::Study& s,
                                        const std::vector<study::Point>& selected, const std::string& points_dir) {
  auto done = study::read_point_records(points_dir, selected);
  config::FileHashCache cache;
  std::vector<study::Point> todo;
  std::size_t stale = 0;
  std::string first_change;
  for (const auto& point : selected) {
    auto it = done.find(point.id);
    bool ok = it != done.end() && it->second.status == study::STATUS_OK;
    std::string changed =
        ok ? study::changed_input(it->second.inputs, study::point_inputs(s.base_config, point, cache)) : std::string();
    stale += changed.empty() ? 0 : 1;
    first_change = first_change.empty() ? changed : first_change;
    if (!ok || !changed.empty()) {
      todo.push_back(point);
    }
  }
  if (stale > 0 && !o.quiet) {
    std::printf("sweep %s: %zu finished points ran with another version of their inputs (first: %s); they run "
                "again\n",
                s.name.c_str(), stale, first_change.c_str());
  }
  return todo;
}

int run_sweep(const SweepOptions& o, const study::Study& s, const std::vector<study::Point>& all) {
  auto selected = o.shard ? study::select_shard(all, *o.shard) : all;
  study::StudyLock lock(o.out_dir);
  std::string points_dir = (fs::path(o.out_dir) / study::POINTS_DIR).string();
  fs::create_directories(points_dir);
  study::remove_stale_temporaries(points_dir);
  std::string shard_text = o.shard ? std::to_string(o.shard->index) + "/" + std::to_string(o.shard->count) : "";
  study::write_plan(o.out_dir, study::make_plan(s, all, shard_text));
  std::vector<study::Point> todo = points_to_run(o, s, selected, points_dir);
  auto start = std::chrono::steady_clock::now();
  study::ProgressBar bar(!o.quiet && ::isatty(STDERR_FILENO) != 0, todo.size());
  study::PoolOptions pool{
      o.jobs,
      {self_executable(), {"run"}},
      s.base_config,
      points_dir,
      [&bar](const study::Point&, const study::PointRecord& r) { bar.point_done(r.status == study::STATUS_OK); }};
  study::run_points(todo, pool);
  bar.clear();
  // The results are rebuilt from the point folders alone, so they are the same whatever ran when.
  study::Plan plan = study::make_plan(s, selected, "");
  study::ResultsInput input{
      s.name,      study::axis_keys(s), selected,     study::read_point_records(points_dir, selected),
      plan.values, plan.labels,         plan.baseline};
  study::write_results(o.out_dir, input);
  report(o, input, todo.size(), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  auto counts = study::count_statuses(input);
  return counts.failed + counts.missing > 0 ? 1 : 0;
}

} // namespace

int cmd_sweep(std::vector<std::string> argv) {
  if (printed_help(argv, SWEEP_HELP)) {
    return 0;
  }
  SweepOptions o = parse_sweep_args(std::move(argv));
  study::Study s = study::load_study(o.study_path);
  if (o.out_dir.empty()) {
    o.out_dir = (fs::path("out") / s.name).string();
  }
  // A bad base config, fixed override or axis value is the study's fault (exit 2, located at the study's
  // line), not a point's: every setting's config is loaded once here. Errors only a run finds (a policy
  // parameter, a trace row) fail their points, which then name the study's line too.
  config::load_config(s.base_config, s.fixed);
  auto points = study::expand_points(s);
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i == 0 || points[i].group_id != points[i - 1].group_id) {
      config::load_config(s.base_config, points[i].overrides);
    }
  }
  if (o.emit_slurm) {
    return emit_slurm(o, s, points.size());
  }
  return run_sweep(o, s, points);
}

} // namespace acme::cli
