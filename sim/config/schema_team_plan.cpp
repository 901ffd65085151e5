#include "sim/config/schema_team_plan.hpp"

#include <string>

#include "sim/model/limits.hpp"

namespace acme::config {
namespace {

/// A whole number of GPUs of at least 1 (the cluster's bound is checked once the section is read).
std::uint32_t whole_gpus(const Node& gpus) {
  double value = gpus.as_double();
  if (!(value >= 1.0 && value <= model::limits::MAX_COUNT) ||
      value != static_cast<double>(static_cast<std::uint32_t>(value))) {
    gpus.fail("expected a whole number of GPUs from 1 to the cluster's GPUs, got " + gpus.yaml().Scalar());
  }
  return static_cast<std::uint32_t>(value);
}

} // namespace

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

const ParamTable<TeamPlanConfig>& TeamPlanConfig::table() {
  using P = TeamPlanConfig;
  static const ParamTable<P> t = [] {
    ParamTable<P> table{
        Param<P>{"gpus", "the GPUs the team plans its jobs against (required; from 1 to the cluster's GPUs)",
                 [](const Node& v, P& p) { p.gpus = whole_gpus(v); },
                 [](const P& p) { return p.gpus == 0 ? std::string("(required)") : std::to_string(p.gpus); }},
        job_types_param("types", &P::types, "the team's job types: a job of them waits until the plan has room")};
    table.check([](const Node& node, const P& p) {
      if (!node["gpus"].is_defined()) {
        node.fail("missing key \"gpus\": the GPUs the team plans its jobs against");
      }
      if (p.types.empty()) {
        node["types"].fail("expected at least one job type");
      }
    });
    return table;
  }();
  return t;
}

TeamPlanConfig parse_team_plan(const Node& node, std::uint32_t cluster_gpus) {
  TeamPlanConfig plan = TeamPlanConfig::table().parse_section(node);
  if (plan.enabled() && plan.gpus > cluster_gpus) { // the cluster's own bound: not the table's to know
    Node gpus = node["gpus"];
    gpus.fail("expected a whole number of GPUs from 1 to the cluster's " + std::to_string(cluster_gpus) + ", got " +
              gpus.yaml().Scalar());
  }
  return plan;
}

} // namespace acme::config
