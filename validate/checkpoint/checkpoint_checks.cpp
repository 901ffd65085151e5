// `acme-sim validate checkpoint`: the checkpoint and recovery model against closed forms, and the
// paper's asynchronous-checkpoint claim. Scenarios: validate/checkpoint/*.yaml; reference numbers and
// their sources: validate/checkpoint/reference.yaml.
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
#include "validate/checkpoint/checkpoint_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "policies/checkpoint/checkpoint_policy.hpp"
#include "sim/config/faults.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "validate/checkpoint/interval_fit.hpp"
#include "validate/embedded_files.hpp"
#include "validate/validation_report.hpp"

namespace acme::validate {
namespace {

constexpr double MINUTE_S = 60.0;
constexpr double HOUR_S = 3600.0;
constexpr double DAY_S = 86400.0;
constexpr int SEEDS = 2; // runs per point: 2 x the scenario's jobs samples
constexpr std::uint32_t GPUS_PER_TRACE_NODE = 8;

/// The oracle scenario (validate/checkpoint/oracle.yaml) and the parameters the closed forms read from it.
struct Oracle {
  std::string scenario_path;
  double mtbf_s = 0.0;     ///< M: mean time between failures of one node
  double downtime_s = 0.0; ///< D: detection (diagnosis, pair tests and humans are off)
  int jobs = 0;            ///< jobs per run: half the nodes, so a restart never waits for a node
};

Oracle load_oracle(const ValidationContext& ctx) {
  Oracle o;
  o.scenario_path = write_scenario(ctx, "checkpoint/oracle.yaml");
  config::Config cfg = config::load_config(o.scenario_path);
  o.mtbf_s = DAY_S / cfg.faults->failures.mean_node_rate_per_day();
  o.downtime_s = cfg.faults->recovery.policy.node["detect_crash"].as_duration_s();
  o.jobs = static_cast<int>(cfg.clusters.at(0).nodes / 2);
  return o;
}

struct Costs {
  double checkpoint_s = 0.0; ///< C, as the simulation measured it
  double restore_s = 0.0;    ///< R, as the simulation measured it
};

Costs measured_costs(const std::vector<JobMeasure>& jobs) {
  double stall = 0.0;
  double checkpoints = 0.0;
  double restore = 0.0;
  double restores = 0.0;
  for (const auto& j : jobs) {
    stall += j.stall_s;
    checkpoints += j.checkpoints;
    restore += j.restore_s;
    restores += j.attempts > 0 ? j.attempts - 1 : 0;
  }
  return Costs{checkpoints > 0 ? stall / checkpoints : 0.0, restores > 0 ? restore / restores : 0.0};
}

/// The interval of the failure-free jobs, bracketed by their checkpoint count: [W/(n+1), W/n].
std::pair<double, double> interval_bracket_s(const std::vector<JobMeasure>& jobs) {
  for (const auto& j : jobs) {
    if (j.failures == 0 && j.checkpoints > 0) {
      return {j.work_s / (j.checkpoints + 1), j.work_s / j.checkpoints};
    }
  }
  return {0.0, 0.0};
}

/// An AcmeTrace file of `jobs` identical Pretrain jobs of `gpus` GPUs and `work_s` seconds; returns its path.
std::string write_uniform_trace(const std::string& dir, int jobs, std::uint32_t gpus, double work_s) {
  std::string text = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,"
                     "gpu_time\n";
  for (int i = 0; i < jobs; ++i) {
    text += fmt::format("v{},validator,{},{},{},Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,,{},,{}\n", i,
                        (gpus + GPUS_PER_TRACE_NODE - 1) / GPUS_PER_TRACE_NODE, gpus, gpus, work_s, work_s * gpus);
  }
  std::string path = dir + "/trace.csv";
  metrics::write_file_atomically(path, text);
  return path;
}

struct OracleSetup {
  double interval_s = HOUR_S;
  double work_s = 20 * HOUR_S;
  std::string policy = "fixed";
};

/// Runs the oracle scenario; returns per-job measurements of every seed.
std::vector<JobMeasure> run_oracle(const ValidationContext& ctx, const Oracle& oracle, const OracleSetup& setup,
                                   const std::string& tag) {
  std::string trace = write_uniform_trace(input_dir(ctx, tag), oracle.jobs, 1, setup.work_s);
  std::string policy = setup.policy == "fixed" ? "{name: fixed, interval: " + std::to_string(setup.interval_s) + "s}"
                                               : "{name: " + setup.policy + ", min_interval: 1s}";
  std::vector<JobMeasure> all;
  for (int seed = 1; seed <= SEEDS; ++seed) {
    ScenarioRun run{tag + "-s" + std::to_string(seed),
                    static_cast<std::uint64_t>(seed),
                    {{"workload.path", trace}, {"checkpoint.policy", policy}}};
    auto jobs = run_scenario(ctx, oracle.scenario_path, run).jobs;
    all.insert(all.end(), jobs.begin(), jobs.end());
  }
  return all;
}

double segment_cost_s(const Oracle& o, double length_s, double restore_s) {
  return std::exp(restore_s / o.mtbf_s) * (o.mtbf_s + o.downtime_s) * std::expm1(length_s / o.mtbf_s);
}

double expected_wall_s(const Oracle& o, double work_s, double interval_s, double cost_s, double restore_s) {
  double segments = std::round(work_s / interval_s);
  return (segments - 1.0) * segment_cost_s(o, interval_s + cost_s, restore_s) +
         segment_cost_s(o, interval_s, restore_s);
}

bool check_expectation(const ValidationContext& ctx, const Oracle& oracle, const ReferenceTable& refs,
                       ValidationReport& report) {
  OracleSetup setup;
  auto jobs = run_oracle(ctx, oracle, setup, "expectation");
  Costs c = measured_costs(jobs);
  double expected = expected_wall_s(oracle, setup.work_s, setup.interval_s, c.checkpoint_s, c.restore_s);
  report.line("expected wall time, W=%.0fh T=%.0fh M=%.0fh D=%.0fmin C=%.1fs R=%.1fs over %zu jobs",
              setup.work_s / HOUR_S, setup.interval_s / HOUR_S, oracle.mtbf_s / HOUR_S, oracle.downtime_s / MINUTE_S,
              c.checkpoint_s, c.restore_s, jobs.size());
  return report.check("mean wall time (s)", mean_wall_s(jobs), expected, refs.at("expected_wall_time").tolerance);
}

bool check_intervals(const ValidationContext& ctx, const Oracle& oracle, ValidationReport& report) {
  bool ok = true;
  for (const char* name : {"young_daly", "daly"}) {
    OracleSetup setup;
    setup.policy = name;
    setup.work_s = 40 * HOUR_S;
    auto jobs = run_oracle(ctx, oracle, setup, name);
    Costs c = measured_costs(jobs);
    double formula = std::string(name) == "daly" ? policies::daly_interval_s(c.checkpoint_s, oracle.mtbf_s)
                                                 : policies::young_interval_s(c.checkpoint_s, oracle.mtbf_s);
    auto [low, high] = interval_bracket_s(jobs);
    report.line("%-10s C = %.1f s, M = %.0f s: formula %.1f s; failure-free jobs checkpointed every %.1f..%.1f s", name,
                c.checkpoint_s, oracle.mtbf_s, formula, low, high);
    ok = report.check_range(std::string(name) + " interval (s)", formula, low, high) && ok;
  }
  return ok;
}

bool check_optimum(const ValidationContext& ctx, const Oracle& oracle, const ReferenceTable& refs,
                   ValidationReport& report) {
  auto first = run_oracle(ctx, oracle, OracleSetup{}, "probe");
  double daly = policies::daly_interval_s(measured_costs(first).checkpoint_s, oracle.mtbf_s);
  std::vector<double> factors = {0.4, 0.55, 0.7, 0.85, 1.0, 1.2, 1.45, 1.75, 2.1, 2.6};
  std::vector<double> intervals;
  std::vector<double> walls;
  for (double f : factors) {
    OracleSetup setup;
    setup.interval_s = daly * f;
    setup.work_s = 30 * HOUR_S;
    auto jobs = run_oracle(ctx, oracle, setup, "sweep" + std::to_string(static_cast<int>(f * 100)));
    intervals.push_back(setup.interval_s);
    walls.push_back(mean_wall_s(jobs));
    report.line("  T = %7.0f s (%.2f x Daly): mean wall %.0f s", setup.interval_s, f, walls.back());
  }
  double best = fitted_minimum(intervals, walls);
  return report.check("simulated optimal interval (s)", best, daly, refs.at("optimal_interval").tolerance);
}

bool check_async_ratio(const ValidationContext& ctx, const ReferenceTable& refs, ValidationReport& report) {
  std::string scenario = write_scenario(ctx, "checkpoint/acme_like.yaml");
  bool ok = true;
  struct Model {
    const char* name;
    std::uint32_t gpus;
  };
  for (Model m : {Model{"7B", 64}, Model{"123B", 1024}}) {
    std::string trace = write_uniform_trace(input_dir(ctx, std::string("ratio-") + m.name), 1, m.gpus, 12 * HOUR_S);
    double stall[2] = {0.0, 0.0};
    for (int async = 0; async < 2; ++async) {
      const char* mode = async != 0 ? "async" : "sync";
      ScenarioRun run{
          std::string("ratio-") + m.name + "-" + mode, 1, {{"workload.path", trace}, {"checkpoint.mode", mode}}};
      stall[async] = run_scenario(ctx, scenario, run).jobs.at(0).stall_s;
    }
    double ratio = stall[0] / stall[1];
    report.line("%-5s on %4u GPUs: sync stall %.1f s, async stall %.1f s per 12 h: ratio %.1fx", m.name, m.gpus,
                stall[0], stall[1], ratio);
    ok = report.check_range(std::string(m.name) + " sync/async overhead ratio", ratio,
                            refs.at("async_overhead_ratio")) &&
         ok;
  }
  return ok;
}

} // namespace

int check_checkpoint(const ValidationContext& ctx) {
  ValidationReport report("checkpoint");
  ReferenceTable refs(validation_file("checkpoint/reference.yaml"), "validate/checkpoint/reference.yaml");
  Oracle oracle = load_oracle(ctx);
  bool ok = check_expectation(ctx, oracle, refs, report);
  ok = check_intervals(ctx, oracle, report) && ok;
  ok = check_optimum(ctx, oracle, refs, report) && ok;
  ok = check_async_ratio(ctx, refs, report) && ok;
  return report.finish(ok);
}

} // namespace acme::validate
