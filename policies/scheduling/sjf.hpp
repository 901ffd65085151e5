#pragma once

#include <memory>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/ordered_scheduler.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// Shortest (estimated) job first, non-preemptive: the queue is ordered by estimated remaining service
/// and every job that fits starts, in that order (a job that does not fit blocks nothing).
struct SjfParams {
  std::uint32_t queue_depth = DEFAULT_QUEUE_DEPTH;
  EstimatorParams estimator;

  static const ParamTable<SjfParams>& table();
  OrderedSchedulerConfig to_config() const;
};

std::unique_ptr<Scheduler> make_sjf(const SjfParams& params);

} // namespace acme::policies
