#include "validate/workload/workload_reference.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"
#include "validate/workload/paper_data.hpp"

namespace acme::validate {
namespace {

constexpr double PERCENT = 100.0;
constexpr double HALF = 50.0;
constexpr double ROUND_UP_S = 0.5; // whole-second durations add half a second on average

PaperCdf load_cdf(const std::string& file) {
  PaperCdf c;
  c.file = file;
  for (auto [x, y] : paper_curve(file)) {
    c.x.push_back(x);
    c.y.push_back(std::max(0.0, y));
  }
  return c;
}

const char* curve_name(model::JobType type) {
  return type == model::JobType::EVAL ? "Evaluation" : treemap_name(type);
}

/// Mean of a duration CDF on the 2^k grid, log-uniform inside each bin, capped at the longest job.
double curve_mean(const PaperCdf& c, double max_s) {
  double mean = 0.0;
  double lo = 0.0;
  double prev = 0.0;
  for (std::size_t k = 0; k < c.x.size(); ++k) {
    double mass = (c.y[k] - prev) / PERCENT;
    double hi = std::min(c.x[k], max_s);
    if (mass > 0.0) {
      mean += mass * (lo <= 0.0 ? hi : (hi - lo) / std::log(hi / lo) + ROUND_UP_S);
    }
    lo = c.x[k];
    prev = std::max(prev, c.y[k]);
  }
  return mean;
}

/// Median of a duration CDF, log-linear between grid points.
double curve_median(const PaperCdf& c) {
  for (std::size_t k = 1; k < c.x.size(); ++k) {
    if (c.y[k] >= HALF && c.y[k - 1] < HALF) {
      double f = (HALF - c.y[k - 1]) / (c.y[k] - c.y[k - 1]);
      return c.x[k - 1] * std::pow(c.x[k] / c.x[k - 1], f);
    }
  }
  return c.x.front();
}

/// Mean GPU count of a GPU-count CDF (each step at the point where it is drawn).
double curve_mean_gpus(const PaperCdf& c) {
  double mean = 0.0;
  double prev = 0.0;
  for (std::size_t k = 0; k < c.x.size(); ++k) {
    mean += (c.y[k] - prev) / PERCENT * c.x[k];
    prev = std::max(prev, c.y[k]);
  }
  return mean;
}

// data/README.md: "the Seren curves describe the released Seren trace (450,590 GPU jobs)".
constexpr double SEREN_RELEASED_GPU_JOBS = 450590.0;

void load_table2(PaperCluster& p) {
  CsvTable t("cluster_summary.csv");
  const auto& r = t.row({{"id", p.name}});
  p.gpu_jobs = t.number(r, "gpu_job_num");
  p.cpu_jobs = t.number(r, "cpu_job_num");
  p.mean_run_s = t.number(r, "avg_run_time_gpu");
  p.median_run_s = t.number(r, "med_run_time_gpu");
  p.mean_gpus = t.number(r, "avg_gpu_num");
  p.gpu_time_s = t.number(r, "complete_gpu_time") + t.number(r, "cancel_gpu_time") + t.number(r, "fail_gpu_time");
  p.gpu_time_per_job_s = p.gpu_time_s / p.gpu_jobs;
  p.released_gpu_jobs = p.name == "Seren" ? SEREN_RELEASED_GPU_JOBS : p.gpu_jobs;
  p.cpu_mean_run_s = t.number(r, "avg_run_time_cpu");
  p.cpu_median_run_s = t.number(r, "med_run_time_cpu");
  p.cpu_state_pct = {PERCENT * t.number(r, "complete_rate_cpu"), PERCENT * t.number(r, "cancel_rate_cpu"),
                     PERCENT * t.number(r, "fail_rate_cpu")};
}

void load_states(PaperCluster& p) {
  CsvTable t("bar_job_state.csv");
  for (const auto& [metric, out] :
       {std::pair{"job_count", &p.state_count_pct}, std::pair{"gpu_time", &p.state_gpu_time_pct}}) {
    const auto& r = t.row({{"cluster", p.name}, {"metric", metric}});
    *out = {t.number(r, "completed_pct"), t.number(r, "cancelled_pct"), t.number(r, "failed_pct")};
  }
}

void load_types(PaperCluster& p, const std::string& prefix) {
  CsvTable t("treemap_job_dist_shares.csv");
  for (model::JobType type : model::ALL_JOB_TYPES) {
    for (const auto& r : t.rows()) {
      if (r.at(0) != p.name || r.at(1) != treemap_name(type)) {
        continue;
      }
      PaperType pt{type, t.number(r, "job_count_pct_label"), t.number(r, "gpu_time_pct_label"), std::nullopt};
      pt.duration = load_cdf("cdf_job_duration_queue_" + prefix + "_duration_" + curve_name(type) + ".csv");
      p.types.push_back(std::move(pt));
    }
  }
}

} // namespace

double PaperCdf::at(double value) const {
  double y_at = 0.0;
  for (std::size_t k = 0; k < x.size() && x[k] <= value; ++k) {
    y_at = y[k];
  }
  return y_at;
}

std::pair<double, double> PaperCdf::range_at(double value) const {
  for (std::size_t k = 0; k < x.size(); ++k) {
    if (x[k] == value) {
      return {y[k], y[k]};
    }
    if (x[k] > value) {
      double below = k == 0 ? 0.0 : y[k - 1];
      bool wide = k == 0 || x[k] - x[k - 1] > 1.0;
      return wide ? std::pair{below, y[k]} : std::pair{below, below};
    }
  }
  return {y.back(), y.back()};
}

const char* treemap_name(model::JobType type) {
  switch (type) {
  case model::JobType::PRETRAIN:
    return "Pretrain";
  case model::JobType::SFT:
    return "SFT";
  case model::JobType::MLLM:
    return "MLLM";
  case model::JobType::EVAL:
    return "Eval";
  case model::JobType::DEBUG:
    return "Debug";
  case model::JobType::OTHER:
    return "Other";
  }
  return "Other";
}

PaperCluster load_paper_cluster(const std::string& preset) {
  ACME_ASSERT(preset == "seren" || preset == "kalos", "the paper describes seren and kalos");
  PaperCluster p;
  p.name = preset == "seren" ? "Seren" : "Kalos";
  load_table2(p);
  load_states(p);
  load_types(p, preset == "seren" ? "a_seren" : "c_kalos");
  p.duration_all = load_cdf("cdf_job_duration_util_a_gpu_job_duration_" + p.name + ".csv");
  p.cpu_duration = load_cdf("cdf_job_jobtime_b_cpu_job_duration_" + p.name + ".csv");
  p.gpu_count = load_cdf("cdf_job_gpunum_a_jobs_" + p.name + ".csv");
  p.gpu_time = load_cdf("cdf_job_gpunum_b_gputime_" + p.name + ".csv");
  CsvTable t("cluster_summary.csv");
  p.curves_mean_run_s = curve_mean(p.duration_all, t.number(t.row({{"id", p.name}}), "max_run_time_gpu"));
  p.curves_median_run_s = curve_median(p.duration_all);
  p.curves_mean_gpus = curve_mean_gpus(p.gpu_count);
  return p;
}

} // namespace acme::validate
