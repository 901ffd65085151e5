// The real fleets of `acme-sim validate failures`: published figures of other LLM training fleets
// (data/fleets/reliability_figures.csv, row ids cited) as inputs -> outputs checks of the failure model,
// on validate/failures/fleet_job.yaml. Most figures are second-hand, so the fleets' own figures are
// reported beside the model's interval; what is gated is the machinery on the fleet's inputs.
//
// 1. Llama 3 (llama3_*): per-category rates from its Table 5 counts on 2,048 nodes over 54 days; one job on
//    all nodes for 54 days of compute must give the counts back within their Poisson bands (gated: 3
//    standard errors of the mean over the seeds), and the GPU share (llama3_gpu_share) is reported. The
//    GPU causes the file itemises (faulty GPU, HBM3) fall short of the GPU share; the rest of the GPU
//    share becomes one category, gpu_other, and what is left of the unexpected interruptions, other.
// 2. Meta RSC job MTTF at 8 and 1,024 GPUs (meta_mttf_8gpu, meta_mttf_1024gpu): the best-fit constant
//    per-node rate (least squares on log MTTF) with both residuals; the model's MTTF at that rate for
//    1-node and 128-node jobs is simulated (gated: within 3 standard errors of 1 / (N r), the errors of
//    Poisson counts of the expected failures).
// 3. Meta's ETTR closed form (meta_ettr_formula) for a 1,024-node job at meta_rsc1_rate, restart u0 the
//    middle of meta_restart_overhead, async checkpoints every 5 and 60 minutes, against the simulated
//    ETTR (gated within ETTR_TOLERANCE); the write stall w and each restart's restore are measured in the
//    runs and entered in the formula.
#include "validate/failures/fleet_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/csv/csv_reader.hpp"
#include "sim/csv/line_reader.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "validate/failures/seed_stats.hpp"

namespace acme::validate {
namespace {

constexpr double HOUR_S = 3600.0;
constexpr double DAY_S = 86400.0;
constexpr int SEEDS = 5;
constexpr std::uint32_t GPUS_PER_NODE = 8;
constexpr double SE_BAND = 3.0;
constexpr double PER_THOUSAND = 1000.0;
constexpr std::uint32_t LLAMA3_NODES = 2048; // 16,384 H100s, 8 per node (llama3_* rows' fleet)
constexpr double LLAMA3_DAYS = 54.0;         // the rows' conditions
constexpr std::uint32_t MTTF_NODES = 128;    // the larger MTTF figure: 1,024 GPUs
constexpr double MTTF_EXPECTED_FAILURES = 400.0;
constexpr std::uint32_t ETTR_NODES = 1024;
constexpr double ETTR_DAYS = 30.0;
constexpr double ETTR_TOLERANCE = 0.02; // absolute: the closed form is first order in N r (u0 + dt/2)
const char* const FIGURES = "data/fleets/reliability_figures.csv";

/// The figures of reliability_figures.csv by row id (value as written).
std::map<std::string, std::string> read_figures() {
  std::string path = (std::filesystem::path(ACME_SOURCE_DIR) / FIGURES).string();
  csv::CsvReader in(csv::LineReader::from_file(path));
  std::size_t id = in.require("id", "the figure's id");
  std::size_t value = in.require("value", "the figure");
  std::map<std::string, std::string> out;
  while (in.next()) {
    out[std::string(in.field(id))] = std::string(in.field(value));
  }
  return out;
}

double figure(const std::map<std::string, std::string>& figures, const std::string& id) {
  auto it = figures.find(id);
  if (it == figures.end() || it->second.empty()) {
    throw std::runtime_error(std::string(FIGURES) + ": no value for row \"" + id + "\"");
  }
  return std::stod(it->second);
}

/// "5-20" -> 12.5: the middle of a range written a-b.
double range_middle(const std::map<std::string, std::string>& figures, const std::string& id) {
  const std::string& text = figures.at(id);
  std::size_t dash = text.find('-');
  return dash == std::string::npos ? std::stod(text)
                                   : (std::stod(text.substr(0, dash)) + std::stod(text.substr(dash + 1))) / 2.0;
}

/// A trace of `jobs` pretraining jobs of `nodes` nodes and `work_s` each, all submitted at once.
std::string write_trace(const ValidationContext& ctx, const std::string& id, std::uint32_t jobs, std::uint32_t nodes,
                        double work_s) {
  std::string text = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                     "queue,gpu_time\n";
  std::uint32_t gpus = nodes * GPUS_PER_NODE;
  for (std::uint32_t j = 0; j < jobs; ++j) {
    text += fmt::format("j{},validator,{},{},{},Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,,{},,{}\n", j, nodes,
                        gpus, gpus, work_s, work_s * gpus);
  }
  std::string path = input_dir(ctx, id) + "/trace.csv";
  metrics::write_file_atomically(path, text);
  return path;
}

config::Override category(const std::string& name, double per_node_day) {
  return {"failures.categories." + name,
          fmt::format("{{new: true, rate_per_1000_node_days: {}, repair: 1s}}", per_node_day * PER_THOUSAND)};
}

struct Setting {
  std::string tag;
  std::uint32_t nodes = 0;
  std::string trace;
  std::vector<config::Override> overrides;
};

std::vector<RunMeasures> run_seeds(const ValidationContext& ctx, const std::string& scenario, const Setting& s) {
  std::vector<config::Override> extra = s.overrides;
  extra.push_back({"clusters[0].nodes", std::to_string(s.nodes)});
  extra.push_back({"workload.path", s.trace});
  std::vector<RunMeasures> out;
  for (int seed = 1; seed <= SEEDS; ++seed) {
    ScenarioRun run{"fleet-" + s.tag + "-s" + std::to_string(seed), static_cast<std::uint64_t>(seed), extra};
    out.push_back(run_scenario(ctx, scenario, run));
  }
  return out;
}

bool check_llama3(const ValidationContext& ctx, const std::string& scenario,
                  const std::map<std::string, std::string>& f, ValidationReport& report) {
  double total = figure(f, "llama3_interruptions_unexpected");
  double gpu = std::round(figure(f, "llama3_gpu_share") / 100.0 * total);
  std::vector<std::pair<std::string, double>> counts = {
      {"gpu_faulty", figure(f, "llama3_faulty_gpu")},
      {"gpu_hbm3", figure(f, "llama3_hbm3")},
      {"software", figure(f, "llama3_software_bug")},
      {"switch_cable", figure(f, "llama3_switch_cable")},
      {"gpu_other", gpu - figure(f, "llama3_faulty_gpu") - figure(f, "llama3_hbm3")}};
  double listed = 0.0;
  for (const auto& [name, n] : counts) {
    listed += n;
  }
  counts.emplace_back("other", total - listed);
  Setting s{"llama3", LLAMA3_NODES, write_trace(ctx, "fleet-llama3", 1, LLAMA3_NODES, LLAMA3_DAYS * DAY_S), {}};
  for (const auto& [name, n] : counts) {
    s.overrides.push_back(category(name, n / (LLAMA3_NODES * LLAMA3_DAYS)));
  }
  auto runs = run_seeds(ctx, scenario, s);
  report.line("Llama 3: %u nodes, %.0f days, %.0f unexpected interruptions in %zu categories; %d seeds", LLAMA3_NODES,
              LLAMA3_DAYS, total, counts.size(), SEEDS);
  bool ok = true;
  double gpu_sim = 0.0;
  double total_sim = 0.0;
  for (const auto& [name, n] : counts) {
    std::vector<double> sim;
    for (const auto& run : runs) {
      sim.push_back(run.metrics.at("clusters.fleet.fault_tolerance.failures_by_category." + name));
    }
    auto [mean, se] = mean_and_se(sim);
    total_sim += mean;
    gpu_sim += name.rfind("gpu_", 0) == 0 ? mean : 0.0;
    double band = SE_BAND * std::sqrt(n / SEEDS); // Poisson: a seed's count has variance n
    ok = report.check_range(fmt::format("Llama 3 {} interruptions (reported {:.0f}; seeds' SE {:.1f})", name, n, se),
                            mean, n - band, n + band) &&
         ok;
  }
  report.line("Llama 3 GPU share of unexpected interruptions: simulated %.1f%%, reported %.1f%% (llama3_gpu_share)",
              100.0 * gpu_sim / total_sim, figure(f, "llama3_gpu_share"));
  return ok;
}

/// Mean time to failure of the runs' jobs: compute time over failures, per seed.
std::vector<double> mttf_s(const std::vector<RunMeasures>& runs) {
  std::vector<double> out;
  for (const auto& run : runs) {
    double work = 0.0;
    double failures = 0.0;
    for (const auto& j : run.jobs) {
      work += j.work_s;
      failures += j.failures;
    }
    out.push_back(failures > 0.0 ? work / failures : 0.0);
  }
  return out;
}

bool check_meta_mttf(const ValidationContext& ctx, const std::string& scenario,
                     const std::map<std::string, std::string>& f, ValidationReport& report) {
  double one_node_s = figure(f, "meta_mttf_8gpu") * DAY_S;
  double big_s = figure(f, "meta_mttf_1024gpu") * HOUR_S;
  // log r = mean of -log(N MTTF) over the two figures: the least-squares constant rate on log MTTF.
  double rate_per_s = std::exp(-(std::log(one_node_s) + std::log(MTTF_NODES * big_s)) / 2.0);
  report.line("Meta RSC job MTTF: 1 node %.1f d, %u nodes %.1f h (meta_mttf_8gpu, meta_mttf_1024gpu); 1 node's "
              "figure alone implies %.1f h at %u nodes. Best constant rate %.2f per 1,000 node-days: residuals %+.1f%% "
              "and %+.1f%%",
              one_node_s / DAY_S, MTTF_NODES, big_s / HOUR_S, one_node_s / MTTF_NODES / HOUR_S, MTTF_NODES,
              rate_per_s * DAY_S * PER_THOUSAND, 100.0 * (1.0 / rate_per_s / one_node_s - 1.0),
              100.0 * (1.0 / (MTTF_NODES * rate_per_s) / big_s - 1.0));
  report.line("No constant rate gives both, and per-node heterogeneity cannot either: a job's compute time over its "
              "failures sees the fleet's mean rate at any size, so lemon nodes leave the ratio at N; group failures "
              "(one event, many nodes) count once per job and lengthen large jobs' MTTF. Large jobs failing faster "
              "than N r needs failures only multi-node jobs meet (the fabric: leaf switches, links).");
  double work_s = MTTF_EXPECTED_FAILURES / (MTTF_NODES * rate_per_s); // each setting expects ~400 failures
  bool ok = true;
  for (std::uint32_t nodes : {1u, MTTF_NODES}) {
    std::uint32_t jobs = MTTF_NODES / nodes; // every node busy, in jobs of `nodes`
    Setting s{fmt::format("mttf{}", nodes),
              MTTF_NODES,
              write_trace(ctx, fmt::format("fleet-mttf{}", nodes), jobs, nodes, work_s),
              {category("hardware", rate_per_s * DAY_S)}};
    auto [mean, se] = mean_and_se(mttf_s(run_seeds(ctx, scenario, s)));
    double expected = 1.0 / (nodes * rate_per_s);
    double measured = nodes == 1 ? one_node_s : big_s;
    report.line("  %u-node jobs: simulated MTTF %.2f h +- %.2f (SE), 1 / (N r) %.2f h, Meta %.2f h", nodes,
                mean / HOUR_S, se / HOUR_S, expected / HOUR_S, measured / HOUR_S);
    // The seeds' failures are Poisson with MTTF_EXPECTED_FAILURES each: the mean's relative SE is 1/sqrt(that x SEEDS).
    double band = SE_BAND * expected / std::sqrt(MTTF_EXPECTED_FAILURES * SEEDS);
    ok = report.check_range(
             fmt::format("MTTF of {}-node jobs at the best constant rate, within 3 Poisson SE (h)", nodes),
             mean / HOUR_S, (expected - band) / HOUR_S, (expected + band) / HOUR_S) &&
         ok;
  }
  return ok;
}

bool check_meta_ettr(const ValidationContext& ctx, const std::string& scenario,
                     const std::map<std::string, std::string>& f, ValidationReport& report) {
  double rate_per_s = figure(f, "meta_rsc1_rate") / PER_THOUSAND / DAY_S;
  double u0_s = range_middle(f, "meta_restart_overhead") * 60.0;
  std::string trace = write_trace(ctx, "fleet-ettr", 1, ETTR_NODES, ETTR_DAYS * DAY_S);
  bool ok = true;
  for (double dt_min : {5.0, 60.0}) {
    Setting s{fmt::format("ettr{}", dt_min),
              ETTR_NODES,
              trace,
              {category("hardware", rate_per_s * DAY_S),
               {"failures.during_restart", "true"},
               {"failures.lose_work", "true"},
               {"checkpoint", fmt::format("{{policy: {{name: fixed, interval: {}min}}, mode: async}}", dt_min)},
               {"recovery.policy.detect_crash", fmt::format("{}s", u0_s)}}};
    std::vector<double> ettr;
    std::vector<double> formula;
    for (const auto& run : run_seeds(ctx, scenario, s)) {
      const JobMeasure& j = run.jobs.at(0);
      double w = j.checkpoints > 0 ? j.stall_s / j.checkpoints : 0.0;
      double restarts = std::max(1.0, static_cast<double>(j.attempts) - 1.0);
      double u0 = u0_s + j.restore_s / restarts;
      double dt = dt_min * 60.0;
      ettr.push_back(j.work_s / j.wall_s);
      formula.push_back((1.0 - ETTR_NODES * rate_per_s * (u0 + dt / 2.0)) / (1.0 + w / dt));
    }
    auto [sim, se] = mean_and_se(ettr);
    auto [closed, closed_se] = mean_and_se(formula);
    report.line("Meta ETTR closed form, %u nodes at %.2f per 1,000 node-days, u0 %.1f min (+ restore), checkpoints "
                "every %.0f min: simulated %.4f +- %.4f (SE), formula %.4f +- %.4f%s",
                ETTR_NODES, rate_per_s * DAY_S * PER_THOUSAND, u0_s / 60.0, dt_min, sim, se, closed, closed_se,
                dt_min == 5.0 ? fmt::format(", Meta {:.2f} (meta_ettr_5min)", figure(f, "meta_ettr_5min")).c_str()
                              : "");
    ok = report.check_range(
             fmt::format("ETTR at {:.0f}-min checkpoints against the closed form (within {})", dt_min, ETTR_TOLERANCE),
             sim, closed - ETTR_TOLERANCE, closed + ETTR_TOLERANCE) &&
         ok;
  }
  return ok;
}

} // namespace

bool check_fleets(const ValidationContext& ctx, ValidationReport& report) {
  std::map<std::string, std::string> figures = read_figures();
  std::string scenario = write_scenario(ctx, "failures/fleet_job.yaml");
  bool ok = check_llama3(ctx, scenario, figures, report);
  ok = check_meta_mttf(ctx, scenario, figures, report) && ok;
  ok = check_meta_ettr(ctx, scenario, figures, report) && ok;
  return ok;
}

} // namespace acme::validate
