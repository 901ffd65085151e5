// `acme-sim validate failures`: the failure process and automatic recovery against closed forms.
// Scenario: validate/failures/single_job.yaml; reference numbers and their sources: reference.yaml.
//
// 1. Expected time. One job of N nodes and L of compute, per-node failure rate r, a fixed restart R, no
//    lost work and no failures while it restarts (the failure clock's switches off): failures are Poisson
//    at N r over the compute time, so E[time] = L + L N r R. The mean over SEEDS runs is checked.
// 2. Lemon nodes. The same job with a share s of its nodes failing k times as often: m = round(s N)
//    lemons, E[failures] = L r (N - m + m k); checked within 3 standard errors of the seeds' mean.
#include "validate/failures/failure_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "validate/embedded_files.hpp"
#include "validate/failures/acme_checks.hpp"
#include "validate/failures/fleet_checks.hpp"
#include "validate/failures/hbd_checks.hpp"
#include "validate/failures/seed_stats.hpp"
#include "validate/validation_report.hpp"

namespace acme::validate {
namespace {

constexpr double HOUR_S = 3600.0;
constexpr double DAY_S = 86400.0;
constexpr int SEEDS = 10;
constexpr double WORK_S = 6144 * HOUR_S; // L: the example (9,639 h expected)
constexpr double LEMON_SHARE = 0.1;      // s
constexpr double LEMON_FACTOR = 10.0;    // k
constexpr std::uint32_t GPUS_PER_NODE = 8;

/// The scenario and the parameters the closed forms read from it.
struct SingleJob {
  std::string scenario_path;
  std::uint32_t nodes = 0; ///< N
  double rate_per_s = 0.0; ///< r, per node
  double restart_s = 0.0;  ///< R (detect_crash)
  std::string trace_path;
};

SingleJob load_single_job(const ValidationContext& ctx) {
  SingleJob s;
  s.scenario_path = write_scenario(ctx, "failures/single_job.yaml");
  config::Config cfg = config::load_config(s.scenario_path);
  s.nodes = cfg.clusters.at(0).nodes;
  s.rate_per_s = cfg.faults->failures.node_rate_per_day() / DAY_S;
  s.restart_s = cfg.faults->recovery.policy.node["detect_crash"].as_duration_s();
  std::string text = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                     "queue,gpu_time\n";
  std::uint32_t gpus = s.nodes * GPUS_PER_NODE;
  text += fmt::format("big,validator,{},{},{},Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,,{},,{}\n", s.nodes, gpus,
                      gpus, WORK_S, WORK_S * gpus);
  s.trace_path = input_dir(ctx, "single_job") + "/trace.csv";
  metrics::write_file_atomically(s.trace_path, text);
  return s;
}

/// The job's wall time and failure count in each seed's run.
std::vector<JobMeasure> run_seeds(const ValidationContext& ctx, const SingleJob& s, const std::string& tag,
                                  std::vector<config::Override> extra) {
  std::vector<JobMeasure> out;
  extra.push_back({"workload.path", s.trace_path});
  for (int seed = 1; seed <= SEEDS; ++seed) {
    ScenarioRun run{tag + "-s" + std::to_string(seed), static_cast<std::uint64_t>(seed), extra};
    out.push_back(run_scenario(ctx, s.scenario_path, run).jobs.at(0));
  }
  return out;
}

bool check_expected_time(const ValidationContext& ctx, const SingleJob& s, const ReferenceTable& refs,
                         ValidationReport& report) {
  auto jobs = run_seeds(ctx, s, "time", {});
  std::vector<double> walls;
  double failures = 0.0;
  for (const auto& j : jobs) {
    walls.push_back(j.wall_s);
    failures += j.failures / static_cast<double>(jobs.size());
  }
  auto [mean, se] = mean_and_se(walls);
  double expected = WORK_S + WORK_S * s.nodes * s.rate_per_s * s.restart_s;
  report.line("one job: N = %u nodes, L = %.0f h, r = %.4f per node-day, R = %.0f min; %d seeds: %.0f failures on "
              "average (expected %.0f), time %.1f h +- %.1f h (standard error)",
              s.nodes, WORK_S / HOUR_S, s.rate_per_s * DAY_S, s.restart_s / 60.0, SEEDS, failures,
              WORK_S * s.nodes * s.rate_per_s, mean / HOUR_S, se / HOUR_S);
  return report.check("mean time L + L N r R (h)", mean / HOUR_S, expected / HOUR_S,
                      refs.at("expected_time").tolerance);
}

bool check_lemons(const ValidationContext& ctx, const SingleJob& s, const ReferenceTable& refs,
                  ValidationReport& report) {
  auto jobs = run_seeds(
      ctx, s, "lemons",
      {{"failures.node_factor", fmt::format("{{lemon_share: {}, lemon_factor: {}}}", LEMON_SHARE, LEMON_FACTOR)}});
  std::vector<double> counts;
  for (const auto& j : jobs) {
    counts.push_back(j.failures);
  }
  auto [mean, se] = mean_and_se(counts);
  double lemons = std::round(LEMON_SHARE * s.nodes);
  double expected = WORK_S * s.rate_per_s * (s.nodes - lemons + lemons * LEMON_FACTOR);
  double limit = refs.at("lemon_failures").tolerance * se;
  report.line("lemons: %.0f of %u nodes at %.0fx the rate; %d seeds: %.1f failures +- %.1f (standard error), "
              "expected %.1f (%.0f without lemons)",
              lemons, s.nodes, LEMON_FACTOR, SEEDS, mean, se, expected, WORK_S * s.rate_per_s * s.nodes);
  return report.check_range("failures with lemons, within 3 standard errors", mean, expected - limit, expected + limit);
}

} // namespace

int check_failures(const ValidationContext& ctx, const std::string& default_config_path) {
  ValidationReport report("failures");
  ReferenceTable refs(validation_file("failures/reference.yaml"), "validate/failures/reference.yaml");
  SingleJob s = load_single_job(ctx);
  bool ok = check_expected_time(ctx, s, refs, report);
  ok = check_lemons(ctx, s, refs, report) && ok;
  ok = check_hbd_trace(ctx, report) && ok;
  ok = check_fleets(ctx, report) && ok;
  ok = check_acme_failures(ctx, default_config_path, report) && ok;
  return report.finish(ok);
}

} // namespace acme::validate
