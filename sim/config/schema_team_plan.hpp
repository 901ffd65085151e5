#pragma once

#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"

namespace acme::config {

/// A list of job types such as [Pretrain, SFT] (the trace spellings); absent: `fallback`.
std::vector<model::JobType> parse_job_types(const Node& node, std::vector<model::JobType> fallback);

/// A cluster's `team_plan:` section (TeamPlanConfig) for a cluster of `cluster_gpus` GPUs; absent: off.
TeamPlanConfig parse_team_plan(const Node& node, std::uint32_t cluster_gpus);

} // namespace acme::config
