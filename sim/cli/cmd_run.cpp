#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/cli/results_table.hpp"
#include "sim/cli/run_command.hpp"
#include "sim/cli/run_guard.hpp"
#include "sim/metrics/output_set.hpp"
#include "sim/run/run_assembly.hpp"
#include <unistd.h>

namespace acme::cli {
namespace {

const char* const RUN_HELP = R"(usage: acme-sim run [CONFIG] [-o DIR] [--set key.path=value ...] [--seed N] [--quiet]

Simulates the datacenter CONFIG describes (default: the embedded configs/acme.yaml, with paths
relative to the current directory) and writes into DIR (default: out/):
  jobs.csv        one row per job: AcmeTrace columns plus cluster, run_id, attempts, reject_reason, ...
  summary.json    per cluster and job type: counts, queueing delay and JCT (mean, p50, p90, p99), GPU hours
  timeseries.csv  per interval and cluster: busy GPUs (time average), queued jobs and GPUs, running jobs
Files appear only when the run succeeds (written under a temporary name, then renamed).

options:
  -o, --output DIR        output folder (created if missing)
  --set key.path=value    override a config value, e.g. --set clusters[0].nodes=64 (repeatable)
  --seed N                the run's random seed (same config and seed: same bytes out)
  --quiet                 no progress line and no summary on the terminal
  --check-invariants      re-verify resource accounting after every simulated instant (slow)
  --max-time DURATION     stop (exit 2, nothing written) when the run takes longer, e.g. 10min
  --max-memory SIZE       stop (exit 2, nothing written) when the run's resident memory passes SIZE, e.g. 4GiB
)";

struct RunOptions {
  std::string config_path;
  std::vector<config::Override> overrides;
  RunFlags flags;
};

RunOptions parse_run_args(std::vector<std::string> argv) {
  Args args(std::move(argv), "run");
  RunOptions o;
  o.flags.quiet = args.flag("--quiet", "-q");
  o.flags.check_invariants = args.flag("--check-invariants");
  o.flags.max_time = args.value("--max-time");
  o.flags.max_memory = args.value("--max-memory");
  if (auto out = args.value("--output", "-o")) {
    o.flags.out_dir = *out;
  }
  for (const auto& s : args.values("--set")) {
    o.overrides.push_back(config::parse_override(s));
  }
  if (auto seed = args.value("--seed")) {
    o.overrides.push_back(
        {"seed", std::to_string(parse_u64(args, "--seed", *seed)), Location{"--seed " + *seed, 0, 0}});
  }
  auto positionals = args.positionals(1);
  if (!positionals.empty()) {
    o.config_path = positionals[0];
  }
  return o;
}

/// Blocks SIGINT, SIGTERM and SIGHUP for its lifetime; one that arrives meanwhile is delivered at its end.
class DeferredStopSignals {
public:
  DeferredStopSignals() {
    sigset_t stop;
    sigemptyset(&stop);
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
      sigaddset(&stop, signal_number);
    }
    ::sigprocmask(SIG_BLOCK, &stop, &previous_);
  }
  ~DeferredStopSignals() { ::sigprocmask(SIG_SETMASK, &previous_, nullptr); }
  DeferredStopSignals(const DeferredStopSignals&) = delete;
  DeferredStopSignals& operator=(const DeferredStopSignals&) = delete;

private:
  sigset_t previous_{};
};

void print_banner(const engine::PlatformSummary& p) {
  std::printf("platform:");
  for (std::size_t i = 0; i < p.clusters.size(); ++i) {
    const auto& c = p.clusters[i];
    std::printf("%s %s %u nodes x %u GPUs = %u GPUs (%u leaf switches)", i == 0 ? "" : ";", c.name.c_str(), c.nodes,
                c.nodes == 0 ? 0 : c.gpus / c.nodes, c.gpus, c.leaves);
  }
  std::printf("; total %u GPUs\n", p.total_gpus);
  std::fflush(stdout);
}

} // namespace

config::Config load_config_or_default(const std::string& path, const std::vector<config::Override>& overrides) {
  return path.empty() ? config::load_config_text(embedded_default_config(), "<embedded configs/acme.yaml>",
                                                 std::filesystem::current_path().string(), overrides)
                      : config::load_config(path, overrides);
}

int cmd_run(std::vector<std::string> argv) {
  if (printed_help(argv, RUN_HELP)) {
    return 0;
  }
  RunOptions o = parse_run_args(std::move(argv));
  RunGuard guard(o.flags.max_time, o.flags.max_memory); // --max-time counts from here: loading included
  guard.start_watchdog();
  config::Config cfg = load_config_or_default(o.config_path, o.overrides);
  return run_loaded(cfg, o.flags, guard);
}

int run_loaded(const config::Config& cfg, const RunFlags& o, RunGuard& guard) {
  ProgressLine progress(!o.quiet && ::isatty(STDERR_FILENO) != 0);
  run::RunSetup setup;
  setup.out_dir = o.out_dir;
  setup.simulation.check_invariants = o.check_invariants;
  setup.simulation.on_progress = [&progress, &guard](const engine::Progress& p) {
    guard.check(p);
    progress.update(p);
  };
  // A stopped run leaves the output folder as it was. Stop signals wait while the run is assembled (SimGrid
  // installs a SIGINT handler of its own then); ours go in after, and a signal that came meanwhile reaches them.
  std::unique_ptr<run::AssembledRun> assembled;
  {
    DeferredStopSignals deferred;
    assembled = run::make_run(cfg, std::move(setup));
    metrics::OutputSet::remove_staging_on_signal();
  }
  if (!o.quiet) {
    print_banner(assembled->platform_summary());
  }
  run::RunReport report = assembled->run();
  guard.stop_watchdog(); // the outputs are committed
  progress.clear();
  const engine::RunResult& result = report.result;
  double wall = report.wall_s;
  if (!o.quiet) {
    std::string shown = o.out_dir.ends_with('/') ? o.out_dir : o.out_dir + "/";
    std::printf("simulated %llu jobs (%llu rejected) over %.1f days in %.2f s (%.0f jobs/s); results in %s (%s, "
                "seed %llu)\n",
                static_cast<unsigned long long>(result.jobs_submitted),
                static_cast<unsigned long long>(result.jobs_rejected), result.end_time_s / 86400.0, wall,
                wall > 0 ? static_cast<double>(result.jobs_submitted) / wall : 0.0, shown.c_str(), cfg.file.c_str(),
                static_cast<unsigned long long>(cfg.seed));
    std::fputs(results_table((std::filesystem::path(o.out_dir) / "summary.json").string()).c_str(), stdout);
  }
  return 0;
}

} // namespace acme::cli
