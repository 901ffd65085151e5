// The InfiniteHBD part of `acme-sim validate failures` (scenarios: hbd_trace.yaml reads the trace,
// hbd_model.yaml simulates the fitted model).
//
// 1. Per-node fault counts of the trace's 400 servers (the 169 that never failed count 0) before and after
//    day 174.5 (its middle). 2. A two-class Poisson mixture (lemon share s, factor k, base rate) fitted on
//    the first half by EM, and a uniform rate (the first half's mean) beside it. 3. Each model simulated
//    over the second half's span, SEEDS times (its node_down events from events.csv). 4. Gated: the lemon
//    model is nearer the trace than the uniform rate, both in the share of the second half's faults on the
//    worst 10% of nodes and in the per-node distribution (bins 0, 1, 2, 3, 4+; chi-square). Reported, not
//    gated: whether the trace's share lies in the lemon model's 95% band over the seeds, and each
//    chi-square's p-value (4 degrees of freedom) against the conventional 1% threshold. At this commit the
//    two-class mixture misses both (share 0.576 against 0.521 +- 0.020, p = 0.001): the trace's faults are
//    more concentrated than two classes of node describe.
#include "validate/failures/hbd_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/core/hbd_fault_trace.hpp"
#include "sim/csv/csv_reader.hpp"
#include "sim/metrics/atomic_file.hpp"
#include "sim/model/limits.hpp"
#include "validate/failures/mixture_fit.hpp"

namespace acme::validate {
namespace {

constexpr double DAY_S = 86400.0;
constexpr double SPLIT_DAYS = 174.5; // the trace's middle (348.98 days)
constexpr int SEEDS = 20;
constexpr std::uint32_t LAST_BIN = 4; // bins 0, 1, 2, 3, 4+
constexpr double BAND_Z = 1.96;       // 95% band over the seeds
constexpr double P_THRESHOLD = 0.01;
constexpr const char* TRACE_FILE = "infinitehbd_fault_trace.json";

struct TraceCounts {
  std::vector<std::uint32_t> before;
  std::vector<std::uint32_t> after;
  double after_days = 0.0;
};

TraceCounts trace_counts(const ValidationContext& ctx) {
  std::string scenario = write_scenario(ctx, "failures/hbd_trace.yaml");
  std::filesystem::copy_file(std::filesystem::path(ACME_SOURCE_DIR) / "data" / "traces" / TRACE_FILE,
                             std::filesystem::path(scenario).parent_path() / TRACE_FILE,
                             std::filesystem::copy_options::overwrite_existing);
  config::Config cfg = config::load_config(scenario);
  std::uint32_t nodes = cfg.clusters.at(0).nodes;
  auto rows = core::load_hbd_fault_trace(cfg.resolve_path(cfg.faults->failures.trace_path), cfg);
  TraceCounts t{std::vector<std::uint32_t>(nodes, 0), std::vector<std::uint32_t>(nodes, 0), 0.0};
  double end_s = 0.0;
  for (const auto& row : rows) {
    (row.time_s < SPLIT_DAYS * DAY_S ? t.before : t.after)[row.node] += 1;
    bool ended = row.repair_s < model::limits::MAX_DURATION_S;
    end_s = std::max(end_s, row.time_s + (ended ? row.repair_s : 0.0));
  }
  t.after_days = end_s / DAY_S - SPLIT_DAYS;
  return t;
}

/// Per-node node_down counts of one run's events.csv before `span_s`.
std::vector<std::uint32_t> simulated_counts(const std::string& events_csv, std::uint32_t nodes, double span_s) {
  std::vector<std::uint32_t> counts(nodes, 0);
  std::ifstream in(events_csv);
  std::string line;
  std::getline(in, line); // header: time_s,cluster,job,event,nodes,detail
  while (std::getline(in, line)) {
    auto f = csv::split_line(line);
    if (f.size() >= 6 && f[3] == "node_down" && f[5] == "fault" && std::stod(f[0]) < span_s) {
      counts.at(std::stoul(f[4])) += 1;
    }
  }
  return counts;
}

struct ModelResult {
  std::vector<double> histogram; ///< mean over the seeds
  double worst_mean = 0.0;
  double worst_sd = 0.0;
};

ModelResult simulate(const ValidationContext& ctx, const LemonMixture& m, double days, std::uint32_t nodes,
                     const std::string& tag) {
  std::string scenario = write_scenario(ctx, "failures/hbd_model.yaml");
  std::string trace = input_dir(ctx, tag) + "/trace.csv";
  metrics::write_file_atomically(trace, fmt::format("job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,"
                                                    "start_time,end_time,duration,queue,gpu_time\nkeep,v,1,8,8,"
                                                    "Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,,{:.0f},,\n",
                                                    days * DAY_S));
  ModelResult r{std::vector<double>(LAST_BIN + 1, 0.0), 0.0, 0.0};
  std::vector<double> worst;
  for (int seed = 1; seed <= SEEDS; ++seed) {
    ScenarioRun run{
        tag + "-s" + std::to_string(seed),
        static_cast<std::uint64_t>(seed),
        {{"workload.path", trace},
         {"failures.categories.fault.rate_per_1000_node_days", fmt::format("{}", m.base_per_day * 1000)},
         {"failures.node_factor", fmt::format("{{lemon_share: {}, lemon_factor: {}}}", m.lemon_share, m.lemon_factor)}},
        false};
    run_scenario(ctx, scenario, run);
    std::string events = (std::filesystem::path(ctx.work_dir) / "runs" / run.id / "events.csv").string();
    auto counts = simulated_counts(events, nodes, days * DAY_S);
    auto h = count_histogram(counts, LAST_BIN);
    for (std::size_t b = 0; b < h.size(); ++b) {
      r.histogram[b] += h[b] / SEEDS;
    }
    worst.push_back(worst_tenth_share(counts));
  }
  for (double w : worst) {
    r.worst_mean += w / SEEDS;
  }
  for (double w : worst) {
    r.worst_sd += (w - r.worst_mean) * (w - r.worst_mean) / (SEEDS - 1);
  }
  r.worst_sd = std::sqrt(r.worst_sd);
  return r;
}

std::string bins_text(const std::vector<double>& h) {
  return fmt::format("{:.1f} / {:.1f} / {:.1f} / {:.1f} / {:.1f}", h[0], h[1], h[2], h[3], h[4]);
}

} // namespace

bool check_hbd_trace(const ValidationContext& ctx, ValidationReport& report) {
  TraceCounts t = trace_counts(ctx);
  auto nodes = static_cast<std::uint32_t>(t.before.size());
  LemonMixture lemon = fit_lemon_mixture(t.before, SPLIT_DAYS);
  double first = 0.0;
  for (auto c : t.before) {
    first += c;
  }
  LemonMixture uniform{first / nodes / SPLIT_DAYS, 0.0, 1.0};
  report.line("InfiniteHBD: %u servers; fit on days 0-%.1f: base %.3f per 1,000 node-days, %.1f%% lemons at %.1fx "
              "(uniform: %.3f)",
              nodes, SPLIT_DAYS, lemon.base_per_day * 1000, lemon.lemon_share * 100, lemon.lemon_factor,
              uniform.base_per_day * 1000);
  ModelResult with = simulate(ctx, lemon, t.after_days, nodes, "hbd-lemons");
  ModelResult without = simulate(ctx, uniform, t.after_days, nodes, "hbd-uniform");
  auto observed = count_histogram(t.after, LAST_BIN);
  double chi_with = chi_square(observed, with.histogram);
  double chi_without = chi_square(observed, without.histogram);
  report.line("days %.1f-%.1f, nodes with 0/1/2/3/4+ faults: trace %s; lemons %s; uniform %s", SPLIT_DAYS,
              SPLIT_DAYS + t.after_days, bins_text(observed).c_str(), bins_text(with.histogram).c_str(),
              bins_text(without.histogram).c_str());
  for (auto [name, chi] : {std::pair{"lemons", chi_with}, std::pair{"uniform", chi_without}}) {
    double p = chi_square_4_survival(chi);
    report.line("  %-8s chi-square %.1f (4 df), p = %.2g: %s at the %.0f%% level (reported, not gated)", name, chi, p,
                p >= P_THRESHOLD ? "not rejected" : "rejected", P_THRESHOLD * 100);
  }
  double share = worst_tenth_share(t.after);
  report.line("share of the faults on the worst 10%% of nodes: trace %.3f; lemons %.3f +- %.3f; uniform %.3f +- %.3f",
              share, with.worst_mean, with.worst_sd, without.worst_mean, without.worst_sd);
  double low = with.worst_mean - BAND_Z * with.worst_sd;
  double high = with.worst_mean + BAND_Z * with.worst_sd;
  report.line("  trace's share within the lemon model's 95%% band [%.3f, %.3f]: %s (reported, not gated)", low, high,
              share >= low && share <= high ? "yes" : "no");
  bool ok = report.check_range("worst-10% share: lemons nearer the trace than uniform (gap)",
                               std::fabs(share - with.worst_mean), 0.0, std::fabs(share - without.worst_mean));
  return report.check_range("chi-square: lemons below uniform", chi_with, 0.0, chi_without) && ok;
}

} // namespace acme::validate
