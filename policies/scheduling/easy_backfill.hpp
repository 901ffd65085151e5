#pragma once

#include <memory>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/ordered_scheduler.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001) over a first-come first-served queue: the
/// first job that does not fit gets a reservation at the earliest estimated time enough resources are
/// free for it (whole idle nodes for multi-node jobs); later jobs start now when they end before that
/// time or leave the head a place at it.
struct EasyBackfillParams {
  std::uint32_t queue_depth = DEFAULT_QUEUE_DEPTH;
  EstimatorParams estimator;

  static const ParamTable<EasyBackfillParams>& table();
  OrderedSchedulerConfig to_config() const;
};

std::unique_ptr<Scheduler> make_easy_backfill(const EasyBackfillParams& params);

} // namespace acme::policies
