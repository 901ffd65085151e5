// `acme-sim validate checkpoint`: the checkpoint and recovery model against closed forms, and the
// paper's asynchronous-checkpoint claim.
//
// 1. Expected wall time. Single-node jobs of work W checkpoint every T (cost C, a synchronous write
//    at the node's NIC speed, no storage contention) on an otherwise idle cluster; node failures are
//    exponential with mean M per node. After a failure the job waits D (detection, diagnosis,
//    isolation: its node is down, nothing else can fail) and restores for R on a healthy node (a
//    failure can strike then too). This is the model of Bougeret et al., SC'11, "Checkpointing
//    strategies for parallel jobs", Prop. 1 (also Herault & Robert, "Fault-Tolerance Techniques for
//    HPC", 2015, eq. 1.4): a segment of length L costs E(L) = e^(R/M) (M + D) (e^(L/M) - 1). With
//    R = 0 and D standing for the R it is E = (M + R)(e^((T+C)/M) - 1) per segment. A job is
//    W/T segments; the last one needs no checkpoint (L = T), the others L = T + C.
// 2. Young's and Daly's intervals: the engine's checkpoint count matches sqrt(2CM) and Daly's formula.
// 3. Sweeping T, the interval with the least mean wall time lies within 10% of Daly's interval.
// 4. Sync vs async checkpoint stalls for a 7B and a 123B model on Acme-like nodes, 30-minute interval.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "policies/checkpoint/checkpoint_policy.hpp"
#include "sim/cli/validate_subjects.hpp"
#include "sim/cli/validation_runs.hpp"

namespace acme::cli {
namespace {

constexpr double HOUR_S = 3600.0;
constexpr double DAY_S = 86400.0;
constexpr int JOBS = 1000; // independent single-node jobs per run
constexpr int SEEDS = 2;   // runs per point: 2,000 samples
constexpr double MTBF_S = 10 * HOUR_S;
constexpr double DOWNTIME_S = 600.0; // D: detection, diagnosis, isolation
constexpr double TOLERANCE_MEAN = 0.02;
constexpr double TOLERANCE_OPTIMUM = 0.10;

struct OracleSetup {
  double interval_s = HOUR_S;
  double work_s = 20 * HOUR_S;
  std::string policy = "fixed";
};

/// Runs the oracle scenario; returns per-job measurements of every seed.
std::vector<JobMeasure> run_oracle(const ValidationContext& ctx, const OracleSetup& setup, const std::string& tag) {
  std::vector<JobMeasure> all;
  for (int seed = 1; seed <= SEEDS; ++seed) {
    std::string dir = ctx.work_dir + "/" + tag + "-s" + std::to_string(seed);
    write_uniform_trace(dir + "/trace.csv", JOBS, 1, setup.work_s);
    std::string policy = setup.policy == "fixed" ? "{name: fixed, interval: " + std::to_string(setup.interval_s) + "s}"
                                                 : "{name: " + setup.policy + ", min_interval: 1s}";
    std::string config = oracle_config(2 * JOBS, seed, 1.0 / MTBF_S * DAY_S * 1000.0, DOWNTIME_S, policy);
    auto jobs = run_and_measure(ctx, dir, config);
    all.insert(all.end(), jobs.begin(), jobs.end());
  }
  return all;
}

double segment_cost_s(double length_s, double restore_s) {
  return std::exp(restore_s / MTBF_S) * (MTBF_S + DOWNTIME_S) * std::expm1(length_s / MTBF_S);
}

double expected_wall_s(double work_s, double interval_s, double cost_s, double restore_s) {
  double segments = std::round(work_s / interval_s);
  return (segments - 1.0) * segment_cost_s(interval_s + cost_s, restore_s) + segment_cost_s(interval_s, restore_s);
}

bool check_expectation(const ValidationContext& ctx, Report& report) {
  OracleSetup setup;
  auto jobs = run_oracle(ctx, setup, "expectation");
  Costs c = measured_costs(jobs);
  double expected = expected_wall_s(setup.work_s, setup.interval_s, c.checkpoint_s, c.restore_s);
  double mean = mean_wall_s(jobs);
  report.line("expected wall time, W=20h T=1h M=10h D=10min C=%.1fs R=%.1fs over %zu jobs", c.checkpoint_s, c.restore_s,
              jobs.size());
  return report.check("mean wall time (s)", mean, expected, TOLERANCE_MEAN);
}

bool check_intervals(const ValidationContext& ctx, Report& report) {
  bool ok = true;
  for (const char* name : {"young_daly", "daly"}) {
    OracleSetup setup;
    setup.policy = name;
    setup.work_s = 40 * HOUR_S;
    auto jobs = run_oracle(ctx, setup, name);
    Costs c = measured_costs(jobs);
    double formula = std::string(name) == "daly" ? policies::daly_interval_s(c.checkpoint_s, MTBF_S)
                                                 : policies::young_interval_s(c.checkpoint_s, MTBF_S);
    auto [low, high] = interval_bracket_s(jobs);
    report.line("%-10s C = %.1f s, M = %.0f s: formula %.1f s; failure-free jobs checkpointed every %.1f..%.1f s", name,
                c.checkpoint_s, MTBF_S, formula, low, high);
    ok = report.check_range(std::string(name) + " interval (s)", formula, low, high) && ok;
  }
  return ok;
}

bool check_optimum(const ValidationContext& ctx, Report& report) {
  OracleSetup probe;
  auto first = run_oracle(ctx, probe, "probe");
  Costs c = measured_costs(first);
  double daly = policies::daly_interval_s(c.checkpoint_s, MTBF_S);
  std::vector<double> factors = {0.4, 0.55, 0.7, 0.85, 1.0, 1.2, 1.45, 1.75, 2.1, 2.6};
  std::vector<double> intervals;
  std::vector<double> walls;
  for (double f : factors) {
    OracleSetup setup;
    setup.interval_s = daly * f;
    setup.work_s = 30 * HOUR_S;
    auto jobs = run_oracle(ctx, setup, "sweep" + std::to_string(static_cast<int>(f * 100)));
    intervals.push_back(setup.interval_s);
    walls.push_back(mean_wall_s(jobs));
    report.line("  T = %7.0f s (%.2f x Daly): mean wall %.0f s", setup.interval_s, f, walls.back());
  }
  double best = fitted_minimum(intervals, walls);
  return report.check("simulated optimal interval (s)", best, daly, TOLERANCE_OPTIMUM);
}

bool check_async_ratio(const ValidationContext& ctx, Report& report) {
  // Paper §6.1 (second-hand, data/README.md): async checkpointing cut checkpoint overhead by
  // 3.6x-58.7x for 7B-123B models at a 30-minute interval.
  constexpr double PAPER_LOW = 3.6;
  constexpr double PAPER_HIGH = 58.7;
  bool ok = true;
  struct Model {
    const char* name;
    std::uint32_t gpus;
  };
  for (Model m : {Model{"7B", 64}, Model{"123B", 1024}}) {
    double stall[2] = {0.0, 0.0};
    for (int async = 0; async < 2; ++async) {
      std::string dir = ctx.work_dir + "/ratio-" + m.name + (async != 0 ? "-async" : "-sync");
      write_uniform_trace(dir + "/trace.csv", 1, m.gpus, 12 * HOUR_S);
      auto jobs = run_and_measure(ctx, dir, acme_like_config(async != 0));
      stall[async] = jobs.at(0).stall_s;
    }
    double ratio = stall[0] / stall[1];
    report.line("%-5s on %4u GPUs: sync stall %.1f s, async stall %.1f s per 12 h: ratio %.1fx", m.name, m.gpus,
                stall[0], stall[1], ratio);
    ok = report.check_range(std::string(m.name) + " sync/async overhead ratio", ratio, PAPER_LOW, PAPER_HIGH) && ok;
  }
  return ok;
}

} // namespace

int validate_checkpoint(const ValidationContext& ctx) {
  Report report("checkpoint");
  bool ok = check_expectation(ctx, report);
  ok = check_intervals(ctx, report) && ok;
  ok = check_optimum(ctx, report) && ok;
  ok = check_async_ratio(ctx, report) && ok;
  return report.finish(ok);
}

} // namespace acme::cli
