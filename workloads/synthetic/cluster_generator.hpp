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

/// Arrivals per second for each job of the paper's period: the paper's counts (Table 2) are over
/// PAPER_PERIOD_DAYS; `scale` multiplies them.
double arrivals_per_paper_job(double scale);
inline constexpr double PAPER_PERIOD_DAYS = 183.0; // AcmeTrace from 2023-03-01, six months (issue 3: 183 days)

} // namespace acme::workloads::synthetic
