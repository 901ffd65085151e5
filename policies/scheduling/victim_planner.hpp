#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "policies/scheduling/node_tally.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "sim/model/cluster_view.hpp"

namespace acme::policies {

/// Chooses running jobs to preempt so that a job of `gpus` GPUs fits: takes `candidates` in the order
/// given (only jobs the view shows running), adding their GPUs to the round's free GPUs, and stops at the
/// first prefix that makes room. A candidate is added only while the GPUs chosen so far are below
/// `budget_milli` (thousandths of GPUs). Victims of that prefix the job turns out not to need are dropped
/// again. Empty when no prefix makes room.
std::vector<model::JobId> plan_victims(std::uint32_t gpus, const FreeResources& free, const RunningJobs& running,
                                       const std::vector<model::JobId>& candidates,
                                       std::uint64_t budget_milli = std::numeric_limits<std::uint64_t>::max());

} // namespace acme::policies
