#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/model/job.hpp"
#include "sim/model/rng.hpp"
#include "workloads/synthetic/fitted_params.hpp"

namespace acme::workloads::synthetic {

/// A discrete distribution over indices 0..n-1, drawn by inverse CDF.
class DiscreteDistribution {
public:
  DiscreteDistribution() = default;
  explicit DiscreteDistribution(const std::vector<double>& weights);
  /// The index whose cumulative interval holds u in [0, 1).
  std::size_t pick(double u) const;
  std::size_t draw(model::Rng& rng) const { return pick(rng.uniform()); }
  std::size_t size() const { return cumulative_.size(); }
  double probability(std::size_t index) const;

private:
  std::vector<double> cumulative_; ///< normalised, last entry 1
};

/// Duration bins (lo, hi] of the paper's 2^k-second grid. A duration is log-uniform inside its bin and
/// rounded up to whole seconds, the traces' resolution; the first bin (0, 1] gives 1 s. So a generated
/// CDF evaluated on the grid is the bins' cumulative mass.
struct DurationBins {
  std::vector<double> lo_s;
  std::vector<double> hi_s;
  std::vector<double> mass; ///< marginal mass of each bin
  /// The duration at position u in (0, 1] of the bin (log-uniform), rounded up to whole seconds.
  double at(std::size_t bin, double u) const;
};

/// One workload type of one cluster: its GPU counts and the duration bins given the GPU count.
struct TypeModel {
  model::JobType type = model::JobType::OTHER;
  double count_share = 0.0;                          ///< share of the cluster's GPU jobs (treemap_job_dist_shares.csv)
  std::vector<std::uint32_t> gpus;                   ///< GPU counts it requests
  DiscreteDistribution gpu_dist;                     ///< over `gpus` (cdf_job_gpunum_a_jobs_*, box_gpu_num_stats.csv)
  DurationBins bins;                                 ///< cdf_job_duration_queue_*_duration_<type>.csv
  std::vector<DiscreteDistribution> bins_given_gpus; ///< per entry of `gpus` (joint fit, GPU-time CDF)
};

/// Final state of a GPU job given its GPUs g and duration d (bar_job_state.csv; data/README.md):
/// infrastructure failure with probability 1 - exp(-infra_base - infra_hazard_per_gpu_s * g * d); else
/// cancelled / failed early / completed by a multinomial logit in ln d (odds exp(a + b ln d) against
/// completed): short jobs fail early, long jobs are cancelled.
struct StateModel {
  double cancel_a = 0.0;
  double cancel_b = 0.0;
  double fail_a = 0.0;
  double fail_b = 0.0;
  double infra_hazard_per_gpu_s = 0.0;
  double infra_base = 0.0;
};

/// CPU jobs: durations (cdf_job_jobtime_b_cpu_job_duration_*), state rates (Table 2).
struct CpuModel {
  DurationBins bins;
  DiscreteDistribution bin_dist;
  double completed = 0.0;
  double cancelled = 0.0;
  double failed = 0.0;
};

/// Everything the generator knows about one of the paper's clusters.
struct ClusterModel {
  std::string name;      ///< "seren" or "kalos"
  double gpu_jobs = 0.0; ///< over the paper's period (Table 2)
  double cpu_jobs = 0.0;
  double period_days = 0.0;            ///< days over which Table 2 counted them (Kalos ran a shorter trace than Seren)
  double max_run_time_s = 0.0;         ///< longest GPU job (Table 2)
  double gpu_time_per_gpu_job_s = 0.0; ///< the joint fit's GPU time per GPU job
  std::vector<TypeModel> types;        ///< the types with jobs, in JobType order
  StateModel state;
  CpuModel cpu;
  DiscreteDistribution pretrain_run_gpus; ///< GPU count of a pretraining run, over the Pretrain type's gpus
  double pretrain_attempts_per_run = 1.0;

  const TypeModel* find(model::JobType type) const;
};

/// Names of the clusters the parameter file describes: "seren", "kalos".
std::vector<std::string> preset_cluster_names();
/// Reads one cluster's records (`cluster` is one of preset_cluster_names()).
ClusterModel load_cluster_model(const FittedParams& params, const std::string& cluster);

} // namespace acme::workloads::synthetic
