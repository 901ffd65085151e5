// The fault-tolerance sections: failures, checkpoint, preemption, recovery.
//
// Default failure rates. Total: 3.8 infrastructure interruptions per 1,000 node-days of 8-GPU nodes,
// from the Llama 3 report (Dubey et al. 2024, §3.3.4: 419 unexpected interruptions in 54 days on
// 16,384 GPUs = 2,048 nodes), within the 2-7 per 1,000 node-days of public large-scale studies.
// Split by Acme's shares of infrastructure-failed GPU time (data/README.md, second-hand from the
// paper: NVLink 30.25%, CUDA 15.77%, node failure 14.30%, ECC 11.00%); the remaining 28.68% is split
// equally between network/NCCL, storage and connection errors (assumption: no published split).
// Repair times are assumptions (not published): hardware faults take a day, software-like ones minutes.
#include <algorithm>
#include <cctype>
#include <iterator>

#include "sim/config/distribution_parse.hpp"
#include "sim/config/faults.hpp"
#include "sim/config/schema_team_plan.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

constexpr double PER_THOUSAND = 1000.0;
constexpr std::size_t MAX_CATEGORY_CHARS = 32;
constexpr double TOTAL_PER_1000_NODE_DAYS = 3.8;
constexpr double HOUR = model::SECONDS_PER_HOUR;
constexpr double MINUTE = model::SECONDS_PER_MINUTE;
constexpr double REPAIR_SIGMA = 1.0;
constexpr double REST_SHARE = (100.0 - 30.25 - 15.77 - 14.30 - 11.00) / 3.0;

struct DefaultCategory {
  const char* name;
  double share_pct;
  double repair_median_s;
  bool hang;
};
const DefaultCategory DEFAULT_CATEGORIES[] = {{"nvlink", 30.25, 24 * HOUR, false},
                                              {"cuda", 15.77, 30 * MINUTE, false},
                                              {"node", 14.30, 24 * HOUR, false},
                                              {"ecc", 11.00, 12 * HOUR, false},
                                              {"network", REST_SHARE, 2 * HOUR, true},
                                              {"storage", REST_SHARE, 1 * HOUR, false},
                                              {"connection", REST_SHARE, 30 * MINUTE, false}};

// Leaf switch failures: assumption, an order of magnitude rarer than node failures.
constexpr double LEAF_PER_1000_SWITCH_DAYS = 0.3;
constexpr double LEAF_REPAIR_MEDIAN_S = 4 * HOUR;
constexpr double SPINE_LINK_REPAIR_MEDIAN_S = 2 * HOUR; // assumption: a cable or transceiver swap
constexpr double OPERATOR_RETURN_MEDIAN_S = 8 * HOUR;   // assumption: next working shift

model::Distribution lognormal(double median_s) {
  return model::Distribution{model::Distribution::Kind::LOGNORMAL, median_s, REPAIR_SIGMA};
}

/// Evicted slow nodes fail as the category "slow" (declared by the user, or added at rate 0).
void add_slow_category(FailureConfig& f) {
  auto it = std::find_if(f.categories.begin(), f.categories.end(), [](const auto& c) { return c.name == "slow"; });
  if (it == f.categories.end()) {
    f.categories.push_back({"slow", 0.0, model::Distribution::fixed(0.0), false});
    it = std::prev(f.categories.end());
  }
  f.slow.category_index = static_cast<std::uint32_t>(it - f.categories.begin());
}

/// A failure rate per 1,000 node-days (or switch-days: `per`), at most limits::MAX_FAILURES_PER_1000_NODE_DAYS.
double parse_rate(const Node& rate, const char* per = "node-days") {
  return rate.as_double_in(0.0, model::limits::MAX_FAILURES_PER_1000_NODE_DAYS,
                           "a rate in [0, " + number_text(model::limits::MAX_FAILURES_PER_1000_NODE_DAYS) +
                               "] per 1,000 " + per) /
         PER_THOUSAND;
}

FailureCategoryConfig parse_category(const Node& node, FailureCategoryConfig c) {
  node.expect_keys({"rate_per_1000_node_days", "repair", "hang", "detect", "new"});
  if (Node rate = node["rate_per_1000_node_days"]; rate.is_defined()) {
    c.rate_per_node_day = parse_rate(rate);
  }
  if (Node repair = node["repair"]; repair.is_defined()) {
    c.repair = parse_duration_distribution(repair);
  }
  c.hang = node.get_or("hang", c.hang, &Node::as_bool);
  if (Node detect = node["detect"]; detect.is_defined()) {
    c.detect = parse_duration_distribution(detect);
  }
  return c;
}

/// A category that is not a default one must say `new: true`, so that a misspelt default ("nvlnk") is an
/// error and not a category of its own; its name becomes a column of outputs: letters, digits, '_', '-'.
void check_new_category(const Node& categories, const std::string& name,
                        const std::vector<FailureCategoryConfig>& known) {
  Node entry = categories[name];
  Node flag = entry["new"];
  if (!flag.is_defined() || !flag.as_bool()) {
    std::vector<std::string> names;
    for (const auto& c : known) {
      names.push_back(c.name);
    }
    std::string msg = "unknown failure category \"" + name + "\"; expected one of: " + join(names);
    if (auto hint = did_you_mean(name, names); !hint.empty()) {
      msg += " (did you mean \"" + hint + "\"?)";
    }
    entry.fail(msg + ", or `new: true` to add a category");
  }
  bool plain = !name.empty() && name.size() <= MAX_CATEGORY_CHARS && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (!plain || name == SWITCH_FAILURE_CATEGORY) {
    entry.fail("a new failure category needs a name of letters, digits, '_' or '-' (at most 32) other than \"" +
               std::string(SWITCH_FAILURE_CATEGORY) + "\", got \"" + name + "\"");
  }
}

FailureConfig parse_failures(const Node& node) {
  FailureConfig f;
  for (const auto& d : DEFAULT_CATEGORIES) {
    f.categories.push_back(
        {d.name, TOTAL_PER_1000_NODE_DAYS * d.share_pct / 100.0 / PER_THOUSAND, lognormal(d.repair_median_s), d.hang});
  }
  f.leaf_rate_per_switch_day = LEAF_PER_1000_SWITCH_DAYS / PER_THOUSAND;
  f.leaf_repair = lognormal(LEAF_REPAIR_MEDIAN_S);
  f.spine_link_repair = lognormal(SPINE_LINK_REPAIR_MEDIAN_S);
  f.operator_return = lognormal(OPERATOR_RETURN_MEDIAN_S);
  if (!node.is_defined()) {
    return f;
  }
  node.expect_keys({"enabled", "categories", "node_factor", "leaf_switch", "spine_link", "trace",
                    "isolated_until_operator", "operator_return", "during_restart", "lose_work", "latent_when_idle",
                    "health_check", "repair", "hazard", "slow", "group"});
  f.where = node.location();
  f.trace_path = node.get_or("trace", std::string(), &Node::as_string);
  // Random failures are on when the section is present, unless it only replays a trace.
  f.enabled = node.get_or("enabled", f.trace_path.empty(), &Node::as_bool);
  if (Node cats = node["categories"]; cats.is_defined()) {
    cats.expect_map();
    for (const auto& name : cats.keys()) {
      auto it = std::find_if(f.categories.begin(), f.categories.end(), [&](const auto& c) { return c.name == name; });
      if (it == f.categories.end()) {
        check_new_category(cats, name, f.categories);
        f.categories.push_back(parse_category(cats[name], {name, 0.0, lognormal(HOUR), false}));
      } else {
        *it = parse_category(cats[name], *it);
      }
    }
  }
  f.node_factor = NodeFactorConfig::table().parse_section(node["node_factor"]);
  if (Node leaf = node["leaf_switch"]; leaf.is_defined()) {
    leaf.expect_keys({"rate_per_1000_switch_days", "repair"});
    if (Node rate = leaf["rate_per_1000_switch_days"]; rate.is_defined()) {
      f.leaf_rate_per_switch_day = parse_rate(rate, "switch-days");
    }
    if (Node repair = leaf["repair"]; repair.is_defined()) {
      f.leaf_repair = parse_duration_distribution(repair);
    }
  }
  if (Node link = node["spine_link"]; link.is_defined()) {
    // Off unless given a rate: a lost link only removes capacity (no node goes down).
    link.expect_keys({"rate_per_1000_link_days", "repair"});
    if (Node rate = link["rate_per_1000_link_days"]; rate.is_defined()) {
      f.spine_link_rate_per_link_day = rate.as_nonnegative() / PER_THOUSAND;
    }
    if (Node repair = link["repair"]; repair.is_defined()) {
      f.spine_link_repair = parse_duration_distribution(repair);
    }
  }
  f.isolated_until_operator = node.get_or("isolated_until_operator", false, &Node::as_bool);
  f.during_restart = node.get_or("during_restart", true, &Node::as_bool);
  f.lose_work = node.get_or("lose_work", true, &Node::as_bool);
  f.latent_when_idle = node.get_or("latent_when_idle", false, &Node::as_bool);
  f.health_check = HealthCheckConfig::table().parse_section(node["health_check"]);
  f.repair = RepairConfig::table().parse_section(node["repair"], f.repair);
  f.group = GroupFailureConfig::table().parse_section(node["group"], f.group);
  if (Node group = node["group"]; group.is_defined()) {
    resolve_group_category(group, f.group, f.categories);
  }
  f.slow = SlowConfig::table().parse_section(node["slow"], f.slow);
  if (f.slow.evicts()) {
    add_slow_category(f);
  }
  f.hazard = HazardConfig::table().parse_section(node["hazard"], f.hazard);
  if (Node op = node["operator_return"]; op.is_defined()) {
    f.operator_return = parse_duration_distribution(op);
  }
  return f;
}

// Model size assumed from a job's GPU count when the workload does not carry it (assumption,
// following the paper's range of 7B-123B pretraining runs: larger jobs train larger models).
const std::vector<std::pair<std::uint32_t, double>> DEFAULT_PARAMS_BY_GPUS = {
    {64, 7e9}, {256, 20e9}, {512, 70e9}, {1u << 30, 123e9}};

CheckpointConfig parse_checkpoint(const Node& node) {
  CheckpointConfig c;
  c.params_by_gpus = DEFAULT_PARAMS_BY_GPUS;
  c.policy = parse_policy(node.is_defined() ? node["policy"] : node, "checkpoint", "none");
  if (!node.is_defined()) {
    return c;
  }
  node.expect_keys({"policy", "mode", "bytes_per_param", "host_snapshots", "gpus_per_pcie_switch", "applies_to"});
  std::string mode = node.get_or("mode", std::string("sync"), &Node::as_string);
  if (mode != "sync" && mode != "async") {
    node["mode"].fail("expected \"sync\" or \"async\", got \"" + mode + "\"");
  }
  c.async = mode == "async";
  if (Node b = node["bytes_per_param"]; b.is_defined()) {
    c.bytes_per_param = b.as_double();
    if (c.bytes_per_param <= 0.0) {
      b.fail("expected a positive number of bytes per parameter");
    }
  }
  c.host_snapshots = node.get_or("host_snapshots", c.host_snapshots, &Node::as_count);
  // NVIDIA DGX A100 user guide: four PCIe Gen4 switches, two A100 GPUs (and two NICs) under each.
  c.gpus_per_pcie_switch = node.get_or("gpus_per_pcie_switch", 2u, &Node::as_count);
  c.applies_to = parse_job_types(node["applies_to"], c.applies_to);
  return c;
}

} // namespace

double FailureConfig::node_rate_per_day() const {
  double total = 0.0;
  for (const auto& c : categories) {
    total += c.rate_per_node_day;
  }
  return total;
}

double FailureConfig::mean_node_rate_per_day() const {
  return node_rate_per_day() * node_factor.mean_factor();
}

std::uint32_t FailureConfig::switch_category() const {
  return static_cast<std::uint32_t>(categories.size());
}

std::size_t FailureConfig::category_count() const {
  return categories.size() + 1;
}

std::string FailureConfig::category_name(std::uint32_t index) const {
  return index < categories.size() ? categories[index].name : SWITCH_FAILURE_CATEGORY;
}

std::vector<std::string> FailureConfig::category_names() const {
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < category_count(); ++i) {
    names.push_back(category_name(i));
  }
  return names;
}

bool CheckpointConfig::applies(model::JobType type) const {
  return std::find(applies_to.begin(), applies_to.end(), type) != applies_to.end();
}

double CheckpointConfig::model_params_for(const model::JobSpec& job) const {
  if (job.model_params > 0.0) {
    return job.model_params;
  }
  for (const auto& [max_gpus, params] : params_by_gpus) {
    if (job.gpus <= max_gpus) {
      return params;
    }
  }
  return params_by_gpus.empty() ? 0.0 : params_by_gpus.back().second;
}

bool RecoveryConfig::applies(model::JobType type) const {
  return std::find(applies_to.begin(), applies_to.end(), type) != applies_to.end();
}

FaultConfig parse_fault_config(const Node& root) {
  return FaultConfig{parse_failures(root["failures"]), parse_checkpoint(root["checkpoint"]),
                     PreemptionConfig::table().parse_section(root["preemption"]), parse_recovery(root["recovery"])};
}

} // namespace acme::config
