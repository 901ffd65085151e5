#include "sim/config/schema_team_plan.hpp"

#include <string>

namespace acme::config {

std::vector<model::JobType> parse_job_types(const Node& node, std::vector<model::JobType> fallback) {
  if (!node.is_defined()) {
    return fallback;
  }
  if (!node.is_sequence()) {
    node.fail("expected a list of job types such as [Pretrain, SFT]");
  }
  std::vector<model::JobType> out;
  for (std::size_t i = 0; i < node.size(); ++i) {
    auto type = model::parse_job_type(node.at(i).as_string());
    if (!type) {
      node.at(i).fail("unknown job type \"" + node.at(i).as_string() +
                      "\"; expected one of: Pretrain, SFT, MLLM, Evaluation, Debug, Other");
    }
    out.push_back(*type);
  }
  return out;
}

TeamPlanConfig parse_team_plan(const Node& node, std::uint32_t cluster_gpus) {
  TeamPlanConfig plan;
  if (!node.is_defined()) {
    return plan;
  }
  node.expect_keys({"gpus", "types"});
  Node gpus = node["gpus"];
  if (!gpus.is_defined()) {
    node.fail("missing key \"gpus\": the GPUs the team plans its jobs against");
  }
  double value = gpus.as_double();
  if (!(value >= 1.0 && value <= cluster_gpus) || value != static_cast<double>(static_cast<std::uint32_t>(value))) {
    gpus.fail("expected a whole number of GPUs from 1 to the cluster's " + std::to_string(cluster_gpus) + ", got " +
              gpus.yaml().Scalar());
  }
  plan.gpus = static_cast<std::uint32_t>(value);
  plan.types = parse_job_types(node["types"], plan.types);
  if (plan.types.empty()) {
    node["types"].fail("expected at least one job type");
  }
  return plan;
}

} // namespace acme::config
