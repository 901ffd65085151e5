#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "policies/builtin.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/progress_line.hpp"
#include "sim/config/faults.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/recorder.hpp"
#include "workloads/workload_source.hpp"
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
)";

struct RunOptions {
  std::string config_path;
  std::string out_dir = "out";
  std::vector<config::Override> overrides;
  bool quiet = false;
  bool check_invariants = false;
};

RunOptions parse_run_args(std::vector<std::string> argv) {
  Args args(std::move(argv), "run");
  RunOptions o;
  o.quiet = args.flag("--quiet", "-q");
  o.check_invariants = args.flag("--check-invariants");
  if (auto out = args.value("--output", "-o")) {
    o.out_dir = *out;
  }
  for (const auto& s : args.values("--set")) {
    o.overrides.push_back(config::parse_override(s));
  }
  if (auto seed = args.value("--seed")) {
    o.overrides.push_back({"seed", std::to_string(parse_u64(args, "--seed", *seed))});
  }
  auto positionals = args.positionals(1);
  if (!positionals.empty()) {
    o.config_path = positionals[0];
  }
  return o;
}

void prepare_output(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || ::access(dir.c_str(), W_OK) != 0) {
    throw ConfigError(Location{"acme-sim run", 0, 0}, "",
                      "-o " + dir + ": cannot write to this folder" + (ec ? " (" + ec.message() + ")" : "") +
                          "; expected a writable output folder");
  }
}

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

int cmd_run(std::vector<std::string> argv) {
  for (const auto& a : argv) {
    if (a == "--help" || a == "-h") {
      std::fputs(RUN_HELP, stdout);
      return 0;
    }
  }
  RunOptions o = parse_run_args(std::move(argv));
  config::Config cfg = o.config_path.empty()
                           ? config::load_config_text(embedded_default_config(), "<embedded configs/acme.yaml>",
                                                      std::filesystem::current_path().string(), o.overrides)
                           : config::load_config(o.config_path, o.overrides);
  policies::PolicyRegistries registries = policies::make_builtin_registries();
  model::NameTable users;
  auto workload = workloads::make_workload(workloads::WorkloadContext{&cfg, &users});
  prepare_output(o.out_dir);
  metrics::RecorderOptions ro;
  ro.out_dir = o.out_dir;
  ro.epoch_unix_s = workload->epoch_unix_s();
  ro.seed = cfg.seed;
  ro.config_file = cfg.file;
  ro.write_jobs_csv = cfg.output.jobs_csv;
  ro.write_events = cfg.output.events;
  for (const auto& c : cfg.clusters) {
    ro.clusters.push_back({c.name, c.utc_offset_s, c.nodes, c.total_gpus(), c.storage.bw_Bps});
  }
  for (const auto& category : cfg.faults->failures.categories) {
    ro.failure_categories.push_back(category.name);
  }
  ro.failure_categories.emplace_back("switch");
  metrics::Recorder recorder(ro, users);
  ProgressLine progress(!o.quiet && ::isatty(STDERR_FILENO) != 0);
  engine::SimulationOptions so;
  so.check_invariants = o.check_invariants;
  so.on_progress = [&progress](const engine::Progress& p) { progress.update(p); };
  auto* workload_ptr = workload.get();
  engine::Simulation sim(cfg, registries, std::move(workload), recorder, so);
  if (!o.quiet) {
    print_banner(sim.platform_summary());
  }
  auto t0 = std::chrono::steady_clock::now();
  engine::RunResult result = sim.run();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  progress.clear();
  recorder.finish(metrics::RunInfo{result.end_time_s, result.jobs_submitted, workload_ptr->skipped_rows(), wall,
                                   result.storage_bytes_written, result.storage_bytes_read});
  if (!o.quiet) {
    std::string shown = o.out_dir.ends_with('/') ? o.out_dir : o.out_dir + "/";
    std::printf("simulated %llu jobs (%llu rejected) over %.1f days in %.2f s (%.0f jobs/s); results in %s\n",
                static_cast<unsigned long long>(result.jobs_submitted),
                static_cast<unsigned long long>(result.jobs_rejected), result.end_time_s / 86400.0, wall,
                wall > 0 ? static_cast<double>(result.jobs_submitted) / wall : 0.0, shown.c_str());
  }
  return 0;
}

} // namespace acme::cli
