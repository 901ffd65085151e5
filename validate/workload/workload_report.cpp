#include "validate/workload/workload_report.hpp"

#include <algorithm>
#include <cmath>

namespace acme::validate {
namespace {

constexpr double PERCENT = 100.0;
constexpr const char* STATE_NAMES[] = {"completed", "cancelled", "failed"};

CheckRow judged(std::string label, double generated, double paper, CheckKind kind, double tolerance) {
  CheckRow row;
  row.label = std::move(label);
  row.generated = generated;
  row.paper = paper;
  row.kind = kind;
  row.tolerance = tolerance;
  if (kind == CheckKind::POINTS) {
    row.error = std::abs(generated - paper);
  } else if (kind == CheckKind::RELATIVE) {
    row.error = paper != 0.0 ? std::abs(generated / paper - 1.0) : 0.0;
  }
  row.pass = kind == CheckKind::INFO || row.error <= tolerance;
  return row;
}

CheckRow ks_row(std::string label, double distance) {
  CheckRow row = judged(std::move(label), distance, 0.0, CheckKind::KS, KS_TOLERANCE);
  row.error = distance;
  row.pass = distance <= KS_TOLERANCE;
  return row;
}

/// KS distance (fraction) between a generated CDF on the 2^k grid and the paper's curve on its points.
CheckRow ks_duration(std::string label, const std::array<double, DURATION_GRID_POINTS>& generated,
                     const PaperCdf& paper) {
  double worst = 0.0;
  for (std::size_t k = 0; k < paper.x.size() && k < DURATION_GRID_POINTS; ++k) {
    worst = std::max(worst, std::abs(generated[k] - paper.y[k]) / PERCENT);
  }
  return ks_row(std::move(label) + " (" + paper.file + ")", worst);
}

CheckRow ks_gpus(std::string label, const std::vector<double>& generated, const PaperCdf& paper) {
  double worst = 0.0;
  for (std::uint32_t g = 1; g <= MAX_GPUS; ++g) {
    auto [lo, hi] = paper.range_at(g);
    double gap = generated[g] < lo ? lo - generated[g] : (generated[g] > hi ? generated[g] - hi : 0.0);
    worst = std::max(worst, gap / PERCENT);
  }
  return ks_row(std::move(label) + " (" + paper.file + ")", worst);
}

double pct(double part, double whole) {
  return whole > 0.0 ? PERCENT * part / whole : 0.0;
}

void add_curves(const ClusterStats& s, const PaperCluster& p, std::vector<CheckRow>& rows) {
  for (const auto& t : p.types) {
    rows.push_back(
        ks_duration(std::string("duration CDF KS, ") + treemap_name(t.type), s.duration_cdf(t.type), *t.duration));
  }
  rows.push_back(ks_duration("duration CDF KS, all GPU jobs", s.duration_cdf_all(), p.duration_all));
  rows.push_back(ks_duration("duration CDF KS, CPU jobs", s.cpu_duration_cdf(), p.cpu_duration));
  rows.push_back(ks_gpus("GPU-count CDF KS, jobs", s.gpu_count_cdf(false), p.gpu_count));
  rows.push_back(ks_gpus("GPU-count CDF KS, GPU time", s.gpu_count_cdf(true), p.gpu_time));
}

void add_shares(const ClusterStats& s, const PaperCluster& p, std::vector<CheckRow>& rows) {
  auto jobs = static_cast<double>(s.gpu_jobs());
  double gpu_s = s.total_gpu_time();
  for (const auto& t : p.types) {
    std::string name = treemap_name(t.type);
    rows.push_back(judged("type share of GPU jobs %, " + name, pct(static_cast<double>(s.count(t.type)), jobs),
                          t.count_pct, CheckKind::POINTS, COUNT_SHARE_POINTS));
    rows.push_back(judged("type share of GPU time %, " + name, pct(s.gpu_time(t.type), gpu_s), t.gpu_time_pct,
                          CheckKind::POINTS, GPU_TIME_SHARE_POINTS));
  }
  for (std::size_t i = 0; i < END_STATES; ++i) {
    auto st = static_cast<EndState>(i);
    rows.push_back(judged(std::string("state share of GPU jobs %, ") + STATE_NAMES[i],
                          pct(static_cast<double>(s.state_count(st)), jobs), p.state_count_pct[i], CheckKind::POINTS,
                          COUNT_SHARE_POINTS));
    rows.push_back(judged(std::string("state share of GPU time %, ") + STATE_NAMES[i], pct(s.state_gpu_time(st), gpu_s),
                          p.state_gpu_time_pct[i], CheckKind::POINTS, GPU_TIME_SHARE_POINTS));
  }
}

void add_table2(const ClusterStats& s, const PaperCluster& p, double volume, double replicas,
                std::vector<CheckRow>& rows) {
  CheckRow mean =
      judged("Table 2 mean GPU-job run time s", s.mean_duration_s(), p.mean_run_s, CheckKind::RELATIVE, MEAN_RELATIVE);
  mean.curves = p.curves_mean_run_s;
  CheckRow median = judged("Table 2 median GPU-job run time s", s.median_duration_s(), p.median_run_s,
                           CheckKind::RELATIVE, MEDIAN_RELATIVE);
  median.curves = p.curves_median_run_s;
  CheckRow gpus = judged("Table 2 mean GPU demand", s.mean_gpus(), p.mean_gpus, CheckKind::RELATIVE, MEAN_RELATIVE);
  gpus.curves = p.curves_mean_gpus;
  rows.push_back(mean);
  rows.push_back(median);
  rows.push_back(gpus);
  rows.push_back(judged("Table 2 median CPU-job run time s", s.cpu_median_duration_s(), p.cpu_median_run_s,
                        CheckKind::RELATIVE, MEDIAN_RELATIVE));
  rows.push_back(judged("Table 2 mean CPU-job run time s (info: a few jobs)", s.cpu_mean_duration_s(), p.cpu_mean_run_s,
                        CheckKind::INFO, 0.0));
  auto cpu = static_cast<double>(s.cpu_jobs());
  for (std::size_t i = 0; i < END_STATES; ++i) {
    rows.push_back(judged(std::string("Table 2 CPU-job state %, ") + STATE_NAMES[i],
                          pct(static_cast<double>(s.cpu_state_count(static_cast<EndState>(i))), cpu),
                          p.cpu_state_pct[i], CheckKind::POINTS, COUNT_SHARE_POINTS));
  }
  rows.push_back(judged("Table 2 GPU time of GPU jobs, GPU-s per run (the load)", s.total_gpu_time() / replicas,
                        p.gpu_time_s * volume, CheckKind::RELATIVE, GPU_TIME_RELATIVE));
  rows.push_back(judged("GPU jobs per run (info: the released trace's count)",
                        static_cast<double>(s.gpu_jobs()) / replicas, p.released_gpu_jobs * volume, CheckKind::INFO,
                        0));
  rows.push_back(judged("CPU jobs per run (info)", cpu / replicas, p.cpu_jobs * volume, CheckKind::INFO, 0));
  rows.push_back(judged("GPU time per GPU job s (info)",
                        s.total_gpu_time() / std::max(1.0, static_cast<double>(s.gpu_jobs())), p.gpu_time_per_job_s,
                        CheckKind::INFO, 0));
}

} // namespace

std::vector<CheckRow> compare_cluster(const ClusterStats& stats, const PaperCluster& paper, double volume,
                                      std::size_t replicas) {
  std::vector<CheckRow> rows;
  add_curves(stats, paper, rows);
  add_shares(stats, paper, rows);
  add_table2(stats, paper, volume, static_cast<double>(replicas), rows);
  auto failed = static_cast<double>(stats.state_count(EndState::FAILED));
  rows.push_back(judged("infrastructure share of failed jobs % (info, data/README.md ~11)",
                        pct(static_cast<double>(stats.infra_failures()), failed), 11.0, CheckKind::INFO, 0));
  rows.push_back(judged("infrastructure share of failed GPU time % (info, data/README.md >82)",
                        pct(stats.infra_failure_gpu_time(), stats.state_gpu_time(EndState::FAILED)), 82.0,
                        CheckKind::INFO, 0));
  return rows;
}

void add_one_run_ranges(std::vector<CheckRow>& pooled, const std::vector<std::vector<CheckRow>>& replicas) {
  for (std::size_t i = 0; i < pooled.size(); ++i) {
    pooled[i].one_run_min = pooled[i].one_run_max = pooled[i].generated;
    for (const auto& rows : replicas) {
      pooled[i].one_run_min = std::min(pooled[i].one_run_min, rows.at(i).generated);
      pooled[i].one_run_max = std::max(pooled[i].one_run_max, rows.at(i).generated);
    }
  }
}

std::size_t print_rows(std::FILE* out, const std::string& title, const std::vector<CheckRow>& rows) {
  std::size_t failed = 0;
  std::fprintf(out, "%s\n", title.c_str());
  std::fprintf(out, "  %-84s %10s %10s %10s  %-21s %-12s %s\n", "check", "generated", "paper", "curves",
               "one run: min..max", "tolerance", "result");
  for (const auto& r : rows) {
    char tolerance[32] = "";
    if (r.kind == CheckKind::KS) {
      std::snprintf(tolerance, sizeof tolerance, "KS <= %.2f", r.tolerance);
    } else if (r.kind == CheckKind::POINTS) {
      std::snprintf(tolerance, sizeof tolerance, "+-%.1f pts", r.tolerance);
    } else if (r.kind == CheckKind::RELATIVE) {
      std::snprintf(tolerance, sizeof tolerance, "+-%.0f%%", r.tolerance * PERCENT);
    }
    char paper[32] = "-";
    if (r.kind != CheckKind::KS) {
      std::snprintf(paper, sizeof paper, "%.4g", r.paper);
    }
    char curves[32] = "";
    if (r.curves >= 0.0) {
      std::snprintf(curves, sizeof curves, "%.4g", r.curves);
    }
    char range[48];
    std::snprintf(range, sizeof range, "%.4g..%.4g", r.one_run_min, r.one_run_max);
    const char* result = r.kind == CheckKind::INFO ? "info" : (r.pass ? "ok" : "FAIL");
    failed += r.pass ? 0 : 1;
    std::fprintf(out, "  %-84s %10.4g %10s %10s  %-21s %-12s %s\n", r.label.c_str(), r.generated, paper, curves, range,
                 tolerance, result);
  }
  return failed;
}

} // namespace acme::validate
