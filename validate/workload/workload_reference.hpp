#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/model/job.hpp"
#include "validate/workload/workload_stats.hpp"

namespace acme::validate {

/// A CDF of the paper on its own grid: x values and y in percent.
struct PaperCdf {
  std::string file;
  std::vector<double> x;
  std::vector<double> y;
  /// y of the last point with x <= value (a step function; 0 before the first point).
  double at(double value) const;
  /// Where the curve may be at an integer `value`: a jump drawn between read points x0 < x1 more than one
  /// apart (e.g. 767 and 770) sits at an unknown integer in (x0, x1], so in between the curve lies
  /// anywhere from y(x0) to y(x1); at a read point it is y.
  std::pair<double, double> range_at(double value) const;
};

/// The paper's numbers for one workload type of a cluster.
struct PaperType {
  model::JobType type = model::JobType::OTHER;
  double count_pct = 0.0; ///< treemap_job_dist_shares.csv label
  double gpu_time_pct = 0.0;
  std::optional<PaperCdf> duration; ///< cdf_job_duration_queue_*_duration_<type>.csv (absent: no curve)
};

/// Everything `validate workload` compares one generated cluster with.
struct PaperCluster {
  std::string name; ///< "Seren" or "Kalos"
  // Table 2 (cluster_summary.csv): all jobs of the cluster
  double gpu_jobs = 0.0;
  double cpu_jobs = 0.0;
  double mean_run_s = 0.0;
  double median_run_s = 0.0;
  double mean_gpus = 0.0;
  double gpu_time_per_job_s = 0.0;
  double gpu_time_s = 0.0; ///< all GPU jobs' GPU time: the cluster's load
  /// GPU jobs the curves describe: the released trace, which holds Table 2's GPU time (data/README.md:
  /// 450,590 of Seren's 663,813 GPU jobs; Kalos's trace is complete)
  double released_gpu_jobs = 0.0;
  double cpu_mean_run_s = 0.0;
  double cpu_median_run_s = 0.0;
  std::array<double, END_STATES> cpu_state_pct{};
  // bar_job_state.csv
  std::array<double, END_STATES> state_count_pct{};
  std::array<double, END_STATES> state_gpu_time_pct{};
  std::vector<PaperType> types;
  PaperCdf duration_all; ///< cdf_job_duration_util_a_gpu_job_duration_<C>.csv
  PaperCdf cpu_duration; ///< cdf_job_jobtime_b_cpu_job_duration_<C>.csv
  PaperCdf gpu_count;    ///< cdf_job_gpunum_a_jobs_<C>.csv
  PaperCdf gpu_time;     ///< cdf_job_gpunum_b_gputime_<C>.csv
  // The same Table 2 statistics as the curves imply (for Seren they describe the released trace only)
  double curves_mean_run_s = 0.0;
  double curves_median_run_s = 0.0;
  double curves_mean_gpus = 0.0;
};

/// `preset` is "seren" or "kalos".
PaperCluster load_paper_cluster(const std::string& preset);

/// The treemap's and the curve files' spelling of a type.
const char* treemap_name(model::JobType type);

} // namespace acme::validate
