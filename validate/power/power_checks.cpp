// `acme-sim validate power`: the energy model against the paper's power data (Hu et al., NSDI'24;
// data/README.md, "Power") and a closed form. The simulations run through the study point runner, each an
// `acme-sim run` in its own process; the reference numbers and their sources are in
// validate/power/reference.yaml.
//
// 1. Per-GPU power of each cluster at the load of the samples (CONFIG, default: the embedded
//    configs/acme.yaml, 183 days, the cluster alone with its arrival rate scaled to the samples' busy
//    share; run_at_sampled_load), every GPU's draw weighted by time, against the authors' DCGM samples
//    (pkl_{seren,kalos}_gpu_power_W.csv):
//    KS distance of the CDFs on 60..450 W every 10 W <= 0.10; median and mean within 15%; the share at
//    or below 70 W within 15% of 30%.
// 2. Servers (Seren, IPMI): GPU servers median 2,520 W and mean 2,930 W, CPU servers median 546 W, GPU
//    servers drawing ~5x CPU servers, all within 15%. The paper's breakdown (GPUs ~2/3, CPUs 11.2%,
//    supplies 9.6%) cannot describe the average server: with DCGM's mean of 169 W the eight GPUs draw
//    1,352 W, 46% of 2,930 W. It is read as a loaded server's (every GPU at gpu.max_power, the base at
//    its busy draw) and checked on the config's numbers (a closed form).
// 3. Closed form: an idle cluster (validate/power/idle.yaml, one CPU job of a day) draws exactly
//    nodes x (base + 8 x idle GPU power) / supply efficiency.
#include "validate/power/power_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <utility>

#include "sim/config/power_config.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "validate/embedded_files.hpp"
#include "validate/validation_report.hpp"
#include "validate/workload/paper_data.hpp"

namespace acme::validate {
namespace {

constexpr int GRID_FROM_W = 60; // the summary's gpu_W.cdf grid (sim/metrics/power_stats.cpp)
constexpr int GRID_TO_W = 450;
constexpr int GRID_STEP_W = 10;
constexpr double PERCENT = 100.0;
constexpr double SAMPLED_LOAD_TOLERANCE = 0.02; // of utilisation: 2 points off the samples' busy share
constexpr std::uint64_t SAMPLED_SEEDS = 3;      // seeds of the sampled-load run the checks average
constexpr int SAMPLED_LOAD_RUNS = 4;
constexpr double SECONDS_PER_DAY = 86400.0;
constexpr double JOULES_PER_KWH = 3.6e6;
constexpr const char* IDLE_TRACE =
    "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,gpu_time\n"
    "1,u01,0,0,16,Other,COMPLETED,2023-03-01 00:00:00+08:00,2023-03-01 00:00:00+08:00,2023-03-02 00:00:00+08:00,"
    "86400,0,0\n";

/// The paper's CDF (0..1) at `x_W`, interpolated between its points.
double paper_cdf(const std::vector<std::pair<double, double>>& curve, double x_W) {
  if (x_W < curve.front().first) {
    return 0.0;
  }
  auto it = std::upper_bound(curve.begin(), curve.end(), x_W, [](double x, const auto& p) { return x < p.first; });
  if (it == curve.end()) {
    return curve.back().second / PERCENT;
  }
  auto prev = std::prev(it);
  double f = it->first > prev->first ? (x_W - prev->first) / (it->first - prev->first) : 1.0;
  return (prev->second + f * (it->second - prev->second)) / PERCENT;
}

/// KS distance of a run's per-GPU power CDF from the paper's on the summary's grid, and where it is largest.
std::pair<double, double> power_ks(const RunMeasures& run, const std::string& cluster) {
  auto curve = paper_curve("pkl_" + cluster + "_gpu_power_W.csv");
  std::string at = "clusters." + cluster + ".power.gpu_W.";
  double ks = 0.0;
  double worst_W = 0.0;
  for (int w = GRID_FROM_W; w <= GRID_TO_W; w += GRID_STEP_W) {
    double d = std::fabs(run.metrics.at(at + "cdf." + std::to_string(w)) - paper_cdf(curve, w));
    if (d > ks) {
      ks = d;
      worst_W = w;
    }
  }
  return {ks, worst_W};
}

/// The default run at its own load (Table 2's): reported, not checked. A GPU no job holds draws its idle
/// power (60-68 W, at or below 70 W), so the run's CDF at 70 W is at least its unallocated share, where the
/// paper's August samples have 30%: that gap bounds the KS distance from below whatever the busy draws.
void report_default_load(const RunMeasures& run, const std::string& cluster, ValidationReport& report) {
  constexpr double IDLE_CEILING_W = 70.0; // data/README.md: idle GPUs draw ~60 W (60-68 W in the samples)
  double utilisation = run.metrics.at("clusters." + cluster + ".gpu_utilisation");
  double paper_at_70 = paper_cdf(paper_curve("pkl_" + cluster + "_gpu_power_W.csv"), IDLE_CEILING_W);
  auto [ks, worst_W] = power_ks(run, cluster);
  report.line("%s at the default run's own load (utilisation %.1f%%, Table 2's GPU time): per-GPU power KS %.3f "
              "(largest gap at %.0f W), reported, not checked: %.1f%% of its GPU-time is unallocated and draws at "
              "most 70 W where the samples have %.1f%%, so no busy draw brings the KS below %.3f",
              cluster.c_str(), utilisation * PERCENT, ks, worst_W, (1.0 - utilisation) * PERCENT, paper_at_70 * PERCENT,
              std::max(0.0, 1.0 - utilisation - paper_at_70));
}

bool check_gpu_power(const RunMeasures& run, const std::string& cluster, const ReferenceTable& refs,
                     ValidationReport& report) {
  auto curve = paper_curve("pkl_" + cluster + "_gpu_power_W.csv");
  std::string at = "clusters." + cluster + ".power.gpu_W.";
  auto [ks, worst_W] = power_ks(run, cluster);
  report.line("%s per-GPU power: p10 %.0f, p25 %.0f, p50 %.0f, p75 %.0f, p90 %.0f W (paper %.0f, %.0f, %.0f, %.0f, "
              "%.0f W); largest CDF gap at %.0f W",
              cluster.c_str(), run.metrics.at(at + "p10"), run.metrics.at(at + "p25"), run.metrics.at(at + "p50"),
              run.metrics.at(at + "p75"), run.metrics.at(at + "p90"), paper_quantile(curve, 0.10),
              paper_quantile(curve, 0.25), paper_quantile(curve, 0.50), paper_quantile(curve, 0.75),
              paper_quantile(curve, 0.90), worst_W);
  bool ok = report.check_range(cluster + " per-GPU power CDF, KS", ks, refs.at("gpu_power_ks"));
  ok = report.check(cluster + " per-GPU power median (W)", run.metrics.at(at + "p50"),
                    refs.at(cluster + "_gpu_power_median_W")) &&
       ok;
  ok = report.check(cluster + " per-GPU power mean (W)", run.metrics.at(at + "mean"),
                    refs.at(cluster + "_gpu_power_mean_W")) &&
       ok;
  return report.check(cluster + " share of samples <= 70 W", run.metrics.at(at + "cdf.70"), refs.at("share_at_70W")) &&
         ok;
}

bool check_servers(const RunMeasures& run, const ReferenceTable& refs, ValidationReport& report) {
  const std::string at = "clusters.seren.power.";
  double gpu_mean = run.metrics.at(at + "gpu_server_W.mean");
  double cpu_mean = run.metrics.at(at + "cpu_server_W.mean");
  bool ok = report.check("Seren GPU server median (W)", run.metrics.at(at + "gpu_server_W.p50"),
                         refs.at("gpu_server_median_W"));
  ok = report.check("Seren GPU server mean (W)", gpu_mean, refs.at("gpu_server_mean_W")) && ok;
  ok = report.check("Seren CPU server median (W)", run.metrics.at(at + "cpu_server_W.p50"),
                    refs.at("cpu_server_median_W")) &&
       ok;
  return report.check("GPU server / CPU server, mean", gpu_mean / cpu_mean, refs.at("gpu_to_cpu_server_ratio")) && ok;
}

/// The breakdown of a loaded GPU server under the config's numbers: every GPU at max_power.
bool check_breakdown(const config::Config& cfg, const ReferenceTable& refs, ValidationReport& report) {
  const config::ClusterConfig& c = cfg.clusters.at(0);
  const config::NodeBasePower& base = cfg.power->node;
  double gpus_W = c.gpus_per_node * c.gpu.max_power_W;
  double wall_W = (gpus_W + base.cpu_busy_W + base.other_busy_W) / base.psu_efficiency;
  report.line("a loaded GPU server: %.0f W at the wall = GPUs %.0f + CPUs %.0f + other %.0f + supplies %.0f W", wall_W,
              gpus_W, base.cpu_busy_W, base.other_busy_W, wall_W * (1.0 - base.psu_efficiency));
  bool ok = report.check("GPU share of a loaded server", gpus_W / wall_W, refs.at("gpu_share_loaded"));
  ok = report.check("CPU share of a loaded server", base.cpu_busy_W / wall_W, refs.at("cpu_share_loaded")) && ok;
  return report.check("supply share of a loaded server", 1.0 - base.psu_efficiency, refs.at("psu_share_loaded")) && ok;
}

bool check_idle(const ValidationContext& ctx, const ReferenceTable& refs, ValidationReport& report) {
  std::string scenario = write_scenario(ctx, "power/idle.yaml");
  metrics::write_file_atomically((std::filesystem::path(scenario).parent_path() / "trace.csv").string(), IDLE_TRACE);
  config::Config cfg = config::load_config(scenario);
  ScenarioRun run{"idle", 1, {}, false};
  RunMeasures m = run_scenario(ctx, scenario, run);
  const config::ClusterConfig& c = cfg.clusters.at(0);
  const config::NodeBasePower& base = cfg.power->node;
  double node_W = (base.cpu_idle_W + base.other_idle_W + c.gpus_per_node * c.gpu.idle_power_W) / base.psu_efficiency;
  double expected_kWh = c.nodes * node_W * SECONDS_PER_DAY / JOULES_PER_KWH;
  double simulated_kWh =
      m.metrics.at("clusters.seren.power.gpu_kWh") + m.metrics.at("clusters.seren.power.node_base_kWh");
  report.line("idle cluster, %u nodes for a day: GPU servers %.6f kWh, closed form %u x %.3f W x 24 h = %.6f kWh",
              c.nodes, simulated_kWh, c.nodes, node_W, expected_kWh);
  return report.check("idle cluster: relative error", std::fabs(simulated_kWh - expected_kWh) / expected_kWh,
                      refs.at("idle_closed_form"));
}

/// The DCGM samples are of August 2023 (data/README.md), a busier month than the trace's average: their
/// utilisation CDF (pkl_<cluster>_gpu_util.csv) has 68.6% (Seren) and 74.2% (Kalos) of GPU samples above
/// 0%, where Table 2's GPU time fills 56% and 28% of the GPUs in the default run. The power model maps a
/// load to a power distribution, so it is checked at the sampled load: the cluster alone
/// (workload.preset), its arrival rate scaled so that its GPU utilisation becomes the samples' busy share.
/// Utilisation is not proportional to the rate once queues form, so a run that misses the share by more
/// than SAMPLED_LOAD_TOLERANCE is rerun: rescaled by the ratio it missed by, then along the secant of the
/// last two runs while it rises (else by the ratio again), at most SAMPLED_LOAD_RUNS runs in all.
std::pair<RunMeasures, double> run_at_sampled_load(const ValidationContext& ctx, const std::string& config_path,
                                                   std::uint64_t seed, const std::string& cluster,
                                                   const RunMeasures& base, ValidationReport& report) {
  double busy = 1.0 - paper_cdf(paper_curve("pkl_" + cluster + "_gpu_util.csv"), 0.0);
  double utilisation = base.metrics.at("clusters." + cluster + ".gpu_utilisation");
  double scale = utilisation > 0.0 ? busy / utilisation : 1.0;
  report.line("%s at the samples' load: %.1f%% of GPU samples busy (pkl_%s_gpu_util.csv) against utilisation "
              "%.1f%% of the default run: workload.scale %.3f",
              cluster.c_str(), busy * PERCENT, cluster.c_str(), utilisation * PERCENT, scale);
  RunMeasures run;
  double used_scale = scale;
  double last_scale = 0.0;
  double last_reached = 0.0;
  for (int attempt = 0; attempt < SAMPLED_LOAD_RUNS; ++attempt) {
    used_scale = scale;
    std::vector<config::Override> set = {{"workload.preset", cluster},
                                         {"workload.scale", fmt::format("{:.6f}", scale)}};
    run = run_scenario(ctx, config_path, ScenarioRun{"sampled_" + cluster, seed, set, false});
    double reached = run.metrics.at("clusters." + cluster + ".gpu_utilisation");
    report.line("%s utilisation at workload.scale %.3f: %.1f%%", cluster.c_str(), scale, reached * PERCENT);
    if (reached <= 0.0 || std::fabs(reached - busy) <= SAMPLED_LOAD_TOLERANCE) {
      break;
    }
    // The secant only while utilisation grew with the rate at least half as fast as in proportion: two
    // runs at nearly the same utilisation (a seed's noise) give a flat or falling secant that sends the
    // next run far off (66.3% and 66.4% at 1.29 and 1.34 sent it to 2.2, 90%).
    double slope = attempt > 0 && scale != last_scale ? (reached - last_reached) / (scale - last_scale) : 0.0;
    double proportional = reached / scale;
    double next = slope >= proportional / 2.0 ? scale + (busy - reached) / slope : scale * busy / reached;
    last_scale = std::exchange(scale, next > 0.0 ? next : scale * busy / reached);
    last_reached = reached;
  }
  return {run, used_scale};
}

/// The sampled-load run at more seeds: a cluster's busy draws are drawn once per job and a few pretraining
/// jobs hold most GPU time, so one seed's CDF moves by several KS points (Kalos at workload.scale 2.890 and
/// 2.890053: 0.085 and 0.123). The checks read the mean of every metric over SAMPLED_SEEDS seeds.
RunMeasures mean_over_seeds(const ValidationContext& ctx, const std::string& config_path, std::uint64_t seed,
                            const std::string& cluster, std::pair<RunMeasures, double> first,
                            ValidationReport& report) {
  std::map<std::string, double> sum = first.first.metrics;
  report.line("%s per-GPU power KS at seed %llu: %.3f", cluster.c_str(), static_cast<unsigned long long>(seed),
              power_ks(first.first, cluster).first);
  for (std::uint64_t k = 1; k < SAMPLED_SEEDS; ++k) {
    std::vector<config::Override> set = {{"workload.preset", cluster},
                                         {"workload.scale", fmt::format("{:.6f}", first.second)}};
    RunMeasures run = run_scenario(ctx, config_path,
                                   ScenarioRun{"sampled_" + cluster + "_" + std::to_string(k), seed + k, set, false});
    report.line("%s per-GPU power KS at seed %llu: %.3f (utilisation %.1f%%)", cluster.c_str(),
                static_cast<unsigned long long>(seed + k), power_ks(run, cluster).first,
                run.metrics.at("clusters." + cluster + ".gpu_utilisation") * PERCENT);
    for (auto& [name, value] : sum) {
      auto it = run.metrics.find(name);
      value += it != run.metrics.end() ? it->second : value / static_cast<double>(k);
    }
  }
  for (auto& entry : sum) {
    entry.second /= static_cast<double>(SAMPLED_SEEDS);
  }
  report.line("%s: the checks below read the mean over %llu seeds", cluster.c_str(),
              static_cast<unsigned long long>(SAMPLED_SEEDS));
  return RunMeasures{{}, std::move(sum)};
}

} // namespace

double paper_quantile(const std::vector<std::pair<double, double>>& curve, double q) {
  for (const auto& [x, y] : curve) {
    if (y >= q * PERCENT) {
      return x;
    }
  }
  return curve.back().first;
}

int check_power(const ValidationContext& ctx, const std::string& config_path) {
  auto start = std::chrono::steady_clock::now();
  ValidationReport report("power");
  ReferenceTable refs(validation_file("power/reference.yaml"), "validate/power/reference.yaml");
  config::Config cfg = config::load_config(config_path);
  report.line("the default run (%s), every GPU's draw weighted by time:", config_path.c_str());
  RunMeasures run = run_scenario(ctx, config_path, ScenarioRun{"default", cfg.seed, {}, false});
  bool ok = true;
  for (const std::string cluster : {"seren", "kalos"}) {
    report_default_load(run, cluster, report);
    RunMeasures sampled =
        mean_over_seeds(ctx, config_path, cfg.seed, cluster,
                        run_at_sampled_load(ctx, config_path, cfg.seed, cluster, run, report), report);
    ok = check_gpu_power(sampled, cluster, refs, report) && ok;
    if (cluster == "seren") {
      ok = check_servers(sampled, refs, report) && ok;
    }
  }
  ok = check_breakdown(cfg, refs, report) && ok;
  ok = check_idle(ctx, refs, report) && ok;
  std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  report.line("(%.1f s of wall time)", wall.count());
  return report.finish(ok);
}

} // namespace acme::validate
