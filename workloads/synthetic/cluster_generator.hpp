#pragma once

#include <memory>
#include <optional>

#include "workloads/synthetic/job_streams.hpp"

namespace acme::workloads::synthetic {

class PretrainStream;

/// The synthetic workload of one cluster, in submission order: pretraining runs, evaluation batches,
/// other GPU jobs and CPU jobs, each its own stream with its own named random stream, merged by submit
/// time (ties: pretraining, evaluation, other GPU jobs, CPU jobs). Jobs are named "<cluster>-<n>" in
/// submission order. Times are Unix seconds. Not copyable or movable (the streams point into it).
class ClusterGenerator {
public:
  ClusterGenerator(ClusterModel model, ClusterPlan plan, const SyntheticOptions& options, model::NameTable& names);
  ~ClusterGenerator();
  ClusterGenerator(const ClusterGenerator&) = delete;
  ClusterGenerator& operator=(const ClusterGenerator&) = delete;

  std::optional<GeneratedJob> next();

private:
  ClusterModel model_;
  ClusterPlan plan_;
  SyntheticOptions options_;
  Rhythm rhythm_;
  UserPool users_;
  std::vector<std::unique_ptr<JobStream>> streams_;
  std::uint64_t sequence_ = 0;
};

/// Arrivals per second for each of the paper's jobs: Table 2 counted a cluster's jobs over
/// `period_days` (ClusterModel::period_days, from acme_params.txt: Seren 183, Kalos about 90); `scale`
/// multiplies the rate. A run of any length draws each cluster at its own recorded rate.
double arrivals_per_paper_job(double scale, double period_days);

} // namespace acme::workloads::synthetic
