#pragma once

#include "policies/param_table.hpp"
#include "policies/scheduling/ordered_scheduler.hpp"
#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {

// Keys shared by the single-queue schedulers.

/// `queue_depth`: jobs examined per pass (default DEFAULT_QUEUE_DEPTH).
template <class P>
Param<P> queue_depth_param(std::uint32_t P::*field) {
  return count_param("queue_depth", field,
                     "queued jobs examined per scheduling pass (Slurm default_queue_depth); arrivals are examined "
                     "when they arrive");
}

/// `backfill: easy | conservative | none`.
template <class P>
Param<P> backfill_param(BackfillMode P::*field) {
  return choice_param(
      "backfill", field,
      {{"easy", BackfillMode::EASY}, {"conservative", BackfillMode::CONSERVATIVE}, {"none", BackfillMode::NONE}},
      "easy: later jobs start when they do not delay the first blocked job's reservation; "
      "conservative: every tested job that cannot start is planned its earliest start within "
      "bf_window, and later jobs start only when they delay none of those plans (Slurm's "
      "sched/backfill); none: strict order");
}

/// `order: fifo | priority`.
template <class P>
Param<P> order_param(OrderKind P::*field) {
  return choice_param("order", field, {{"fifo", OrderKind::FIFO}, {"priority", OrderKind::PRIORITY}},
                      "queue order: priority (multifactor, the priority keys) or fifo");
}

} // namespace acme::policies
