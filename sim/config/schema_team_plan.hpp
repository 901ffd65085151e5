#pragma once

#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/node.hpp"
#include "sim/config/param_table.hpp"

namespace acme::config {

/// A list of job types such as [Pretrain, SFT] (the trace spellings); absent: `fallback`.
std::vector<model::JobType> parse_job_types(const Node& node, std::vector<model::JobType> fallback);

/// A list of job types ([Evaluation, Debug]) as a table parameter, shown as written.
template <class P>
Param<P> job_types_param(std::string key, std::vector<model::JobType> P::*field, std::string doc) {
  return {std::move(key), std::move(doc), [field](const Node& v, P& p) { p.*field = parse_job_types(v, p.*field); },
          [field](const P& p) {
            std::string out = "[";
            for (model::JobType type : p.*field) {
              out += (out.size() > 1 ? ", " : "") + std::string(model::to_string(type));
            }
            return out + "]";
          }};
}

/// A cluster's `team_plan:` section (TeamPlanConfig) for a cluster of `cluster_gpus` GPUs; absent: off.
TeamPlanConfig parse_team_plan(const Node& node, std::uint32_t cluster_gpus);

} // namespace acme::config
