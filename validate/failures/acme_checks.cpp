// `acme-sim validate failures`, Acme part: the default config (configs/acme.yaml) with its infrastructure
// failures on, over SEEDS seeds, as AcmeTrace would record its jobs (summary.json fault_tolerance.
// trace_states: each attempt a failure ended is a FAILED row).
//
// Gated: the share of failed jobs' GPU time held by infrastructure failures, both clusters pooled, which
// the failure rate is fitted to (tools/fit_failure_rate.py; data/README.md: >82%, a lower bound): the
// seeds' mean plus 3 standard errors must reach 0.82. Reported with their intervals beside the paper's
// figures: the category shares of that GPU time (the rates are split by them), the failed shares by count
// and by GPU time per cluster (bar_job_state.csv), and the held-out infrastructure share of failed jobs by
// count (data/README.md: ~11%), which nothing is fitted to (with failures on, the workload draws no
// infrastructure failures: every one comes from the failure process).
#include "validate/failures/acme_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "validate/failures/seed_stats.hpp"
#include "validate/validation_report.hpp"

namespace acme::validate {
namespace {

constexpr int SEEDS = 5;
constexpr double INFRA_GPU_SHARE = 0.82;   // data/README.md, "Failures": >82% of failed jobs' GPU time
constexpr double INFRA_COUNT_SHARE = 0.11; // data/README.md: ~11% of failed jobs
constexpr double STANDARD_ERRORS = 3.0;
const char* const CLUSTERS[] = {"seren", "kalos"};
// bar_job_state.csv: failed shares by count and by GPU time (percent).
const std::map<std::string, std::pair<double, double>> PAPER_FAILED_PCT = {{"seren", {42.9, 12.4}},
                                                                           {"kalos", {39.7, 8.0}}};
// data/README.md (second-hand): shares of infrastructure-failed GPU time.
const std::map<std::string, double> PAPER_CATEGORY_PCT = {
    {"nvlink", 30.25}, {"cuda", 15.77}, {"node", 14.30}, {"ecc", 11.00}};

struct Figure {
  std::vector<double> values;
  void add(double v) { values.push_back(v); }
  double mean() const { return mean_and_se(values).first; }
  double se() const { return mean_and_se(values).second; }
  std::string text(double scale = 100.0, int digits = 1) const {
    return fmt::format("{:.{}f} +- {:.{}f}", scale * mean(), digits, scale * STANDARD_ERRORS * se(), digits);
  }
};

double metric(const RunMeasures& run, const std::string& cluster, const std::string& key) {
  auto it = run.metrics.find("clusters." + cluster + ".fault_tolerance.trace_states." + key);
  return it == run.metrics.end() ? 0.0 : it->second;
}

} // namespace

bool check_acme_failures(const ValidationContext& ctx, const std::string& config_path, ValidationReport& report) {
  Figure infra_gpu;
  Figure drawn_count;
  std::map<std::string, Figure> failed_count;
  std::map<std::string, Figure> failed_gpu;
  std::map<std::string, Figure> category;
  for (int seed = 1; seed <= SEEDS; ++seed) {
    RunMeasures run = run_scenario(
        ctx, config_path, ScenarioRun{"acme-s" + std::to_string(seed), static_cast<std::uint64_t>(seed), {}, false});
    double infra_h = 0.0;
    double failed_h = 0.0;
    double failed_rows = 0.0;
    double infra_rows = 0.0;
    for (const char* c : CLUSTERS) {
      infra_h += metric(run, c, "infrastructure_gpu_hours");
      failed_h += metric(run, c, "failed_gpu_hours");
      failed_rows += metric(run, c, "failed_rows");
      infra_rows += metric(run, c, "infrastructure_rows");
      failed_count[c].add(metric(run, c, "failed_share"));
      failed_gpu[c].add(metric(run, c, "failed_gpu_time_share"));
    }
    infra_gpu.add(infra_h / failed_h);
    drawn_count.add(infra_rows / failed_rows);
    for (const auto& [name, pct] : PAPER_CATEGORY_PCT) {
      double seren = metric(run, "seren", "infrastructure_gpu_time_by_category." + name) *
                     metric(run, "seren", "infrastructure_gpu_hours");
      double kalos = metric(run, "kalos", "infrastructure_gpu_time_by_category." + name) *
                     metric(run, "kalos", "infrastructure_gpu_hours");
      category[name].add((seren + kalos) / infra_h);
    }
  }
  report.line("Acme default (configs/acme.yaml), failures on, %d seeds, jobs as AcmeTrace rows; mean +- 3 SE (%%):",
              SEEDS);
  for (const char* c : CLUSTERS) {
    report.line("  %s: failed share of GPU jobs %s (bar_job_state.csv %.1f), of GPU time %s (%.1f)", c,
                failed_count[c].text().c_str(), PAPER_FAILED_PCT.at(c).first, failed_gpu[c].text().c_str(),
                PAPER_FAILED_PCT.at(c).second);
  }
  for (const auto& [name, pct] : PAPER_CATEGORY_PCT) {
    report.line("  %-6s share of infrastructure-failed GPU time %s (data/README.md %.2f)", name.c_str(),
                category[name].text().c_str(), pct);
  }
  report.line("  infrastructure share of failed jobs by count %s (data/README.md ~%.0f; held out, not fitted: "
              "reported, not gated)",
              drawn_count.text(100.0, 2).c_str(), 100 * INFRA_COUNT_SHARE);
  report.line("  infrastructure share of failed GPU time %s (data/README.md >%.0f, fitted)", infra_gpu.text().c_str(),
              100 * INFRA_GPU_SHARE);
  return report.check_range("Acme: infrastructure share of failed GPU time, mean + 3 SE reaches 0.82",
                            infra_gpu.mean() + STANDARD_ERRORS * infra_gpu.se(), INFRA_GPU_SHARE, 1.0 + 1e-9);
}

} // namespace acme::validate
