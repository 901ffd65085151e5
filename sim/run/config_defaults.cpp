#include "sim/run/config_defaults.hpp"

#include <algorithm>

#include "sim/config/faults.hpp"
#include "sim/config/section_docs.hpp"

namespace acme::run {
namespace {

/// The parameters of the policy `spec` names that its mapping leaves out, with their defaults.
template <class Policy>
void policy_defaults(std::vector<std::string>& out, const std::string& path, const config::PolicySpec& spec,
                     const policies::Registry<Policy>& registry) {
  auto entry = registry.entries().find(spec.name);
  if (entry == registry.entries().end()) {
    return; // e.g. a Python policy: its parameters are its own
  }
  for (const config::ParamDoc& p : entry->second.params) {
    if (!(spec.node.is_map() && spec.node[p.name].is_defined())) {
      out.push_back(path + "." + p.name + ": " + p.default_value);
    }
  }
}

/// The parameters of a table-declared section present or absent at `node` that it leaves out.
void section_defaults(std::vector<std::string>& out, const std::string& path, const config::Node& node,
                      const config::SectionDoc& doc) {
  bool needs_a_key = std::any_of(doc.params.begin(), doc.params.end(),
                                 [](const config::ParamDoc& p) { return p.default_value == "(required)"; });
  if (needs_a_key && !node.is_defined()) {
    return; // a section that is off unless given (a team plan): nothing of it applies
  }
  for (const config::ParamDoc& p : doc.params) {
    if (!(node.is_map() && node[p.name].is_defined())) {
      out.push_back(path + "." + p.name + ": " + p.default_value);
    }
  }
}

/// The node at a dotted path below `from` (undefined when a step is missing).
config::Node at_path(config::Node from, const std::string& dotted) {
  std::size_t begin = 0;
  while (begin <= dotted.size()) {
    std::size_t end = dotted.find('.', begin);
    std::string key = dotted.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (!from.is_map()) {
      return from[key]; // undefined below a scalar or a missing map
    }
    from = from[key];
    if (end == std::string::npos) {
      break;
    }
    begin = end + 1;
  }
  return from;
}

void sections(std::vector<std::string>& out, const config::Config& cfg) {
  const std::string per_cluster = "clusters[].";
  config::Node clusters = cfg.root["clusters"];
  for (const config::SectionDoc& doc : config::section_docs()) {
    if (doc.path.rfind(per_cluster, 0) != 0) {
      section_defaults(out, doc.path, at_path(cfg.root, doc.path), doc);
      continue;
    }
    std::string rest = doc.path.substr(per_cluster.size());
    for (std::size_t i = 0; i < clusters.size() && clusters.is_sequence(); ++i) {
      section_defaults(out, "clusters[" + std::to_string(i) + "]." + rest, at_path(clusters.at(i), rest), doc);
    }
  }
}

} // namespace

std::vector<std::string> unwritten_defaults(const config::Config& cfg, const policies::PolicyRegistries& registries) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < cfg.clusters.size(); ++i) {
    const config::ClusterConfig& c = cfg.clusters[i];
    std::string at = "clusters[" + std::to_string(i) + "].policies.";
    policy_defaults(out, at + "scheduler", c.scheduler, registries.schedulers);
    policy_defaults(out, at + "placement", c.placement, registries.placements);
    policy_defaults(out, at + "power", c.power, registries.powers);
  }
  policy_defaults(out, "checkpoint.policy", cfg.faults->checkpoint.policy, registries.checkpoints);
  policy_defaults(out, "recovery.policy", cfg.faults->recovery.policy, registries.recoveries);
  sections(out, cfg);
  return out;
}

} // namespace acme::run
