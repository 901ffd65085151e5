#pragma once

#include <memory>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/ordered_scheduler.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// Slurm-like multifactor priority (job class per type, age, fair share per user; see PriorityParams)
/// with EASY backfilling by default.
struct PrioritySchedulerParams {
  PriorityParams priority;
  BackfillMode backfill = BackfillMode::EASY;
  std::uint32_t queue_depth = DEFAULT_QUEUE_DEPTH;
  CadenceParams cadence; ///< Slurm's pass cadence (sched_interval, bf_interval, ...; none by default)
  LimitParams limits;    ///< Slurm's QoS and association limits (none by default)
  EstimatorParams estimator;

  static const ParamTable<PrioritySchedulerParams>& table();
  OrderedSchedulerConfig to_config() const;
};

std::unique_ptr<Scheduler> make_priority(const PrioritySchedulerParams& params);

} // namespace acme::policies
