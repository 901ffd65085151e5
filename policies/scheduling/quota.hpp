#pragma once

#include <memory>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/ordered_scheduler.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// Reservations as GPU quotas per job class (or user) with borrowing and reclaim (QuotaParams), over a
/// priority or FIFO queue with optional EASY backfilling: Seren's setup is the default (multifactor
/// priority + a pretraining quota + EASY). Jobs the quotas hold back wait without blocking others.
struct QuotaSchedulerParams {
  QuotaParams quota;
  OrderKind order = OrderKind::PRIORITY;
  PriorityParams priority; ///< with order: priority
  BackfillMode backfill = BackfillMode::EASY;
  std::uint32_t queue_depth = DEFAULT_QUEUE_DEPTH;
  CadenceParams cadence; ///< Slurm's pass cadence (sched_interval, bf_interval, ...; none by default)
  LimitParams limits;    ///< Slurm's QoS and association limits (none by default)
  EstimatorParams estimator;

  static const ParamTable<QuotaSchedulerParams>& table();
  OrderedSchedulerConfig to_config() const;
};

std::unique_ptr<Scheduler> make_quota(const QuotaSchedulerParams& params);

} // namespace acme::policies
