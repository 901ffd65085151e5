#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/core/engine_event.hpp"
#include "sim/core/timer_service.hpp"
#include "sim/metrics/job_record.hpp"
#include "sim/model/cluster_rngs.hpp"

namespace acme::core {

using FaultCounts = metrics::FaultCounts;

/// Faults on idle nodes (failures.latent_when_idle) and the health checks that find them
/// (failures.health_check). A latent fault leaves its node up in every view; it is found when a job
/// starts there (the job fails at once) or, with probability `coverage`, by the next health check (the
/// node goes out `duration` after the check began). Found, it is a failure like any other: a
/// TracedFailure of its category at that instant, with a repair drawn from the category.
class LatentFaults {
public:
  LatentFaults(const config::FailureConfig& config, const std::vector<std::uint32_t>& nodes_per_cluster,
               TimerService& timer, model::ClusterRngs& rng);

  bool latent_when_idle() const { return config_.latent_when_idle; }
  /// Schedules each cluster's first health check (when checks are on).
  void start();
  /// A fault of `category` struck `node`, which no job holds: it stays latent.
  void strike(model::ClusterId cluster, std::uint32_t node, std::uint32_t category);
  /// A job starts on `node`: a latent fault there is found now.
  void job_lands(model::ClusterId cluster, std::uint32_t node);
  void on(const HealthCheck& event);
  const FaultCounts& counts(model::ClusterId cluster) const { return counts_.at(model::to_index(cluster)); }

private:
  void reveal(model::ClusterId cluster, std::uint32_t node, double at_s, TracedFailure::Found found);

  const config::FailureConfig& config_;
  TimerService& timer_;
  model::ClusterRngs& rng_;
  std::vector<std::vector<std::int32_t>> category_; ///< per cluster, per node: the latent fault's; -1: none
  std::vector<std::vector<std::uint32_t>> latent_;  ///< per cluster: nodes with a latent fault, in strike order
  std::vector<FaultCounts> counts_;
};

} // namespace acme::core
