#include <fmt/format.h>
#include <spdlog/logger.h>

#include <filesystem>
#include <set>

#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"
#include "sim/config/power_config.hpp"
#include "sim/config/provenance.hpp"
#include "sim/config/schema_output.hpp"
#include "sim/log/log.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

// Top-level sections. Sections owned by other layers are validated by their owners.
const std::vector<std::string> TOP_KEYS = {"seed",     "clusters",    "interconnect", "network",    "policies",
                                           "workload", "output",      "failures",     "checkpoint", "preemption",
                                           "recovery", "calibration", "evaluation",   "power"};

std::vector<ClusterConfig> parse_clusters(const Node& root) {
  Node list = root["clusters"];
  if (!list.is_defined()) {
    root.fail("missing key \"clusters\"; expected a list of clusters");
  }
  if (!list.is_sequence() || list.size() == 0) {
    list.fail("expected a non-empty list of clusters");
  }
  if (list.size() > model::limits::MAX_CLUSTERS) {
    list.fail("expected at most " + std::to_string(model::limits::MAX_CLUSTERS) + " clusters, got " +
              std::to_string(list.size()));
  }
  Node defaults = root["policies"];
  if (defaults.is_defined()) {
    defaults.expect_keys({"scheduler", "placement", "power"});
  }
  std::vector<ClusterConfig> clusters;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    ClusterConfig c = parse_cluster(list.at(i), defaults);
    if (!names.insert(c.name).second) {
      list.at(i)["name"].fail("duplicate cluster name \"" + c.name + "\"; expected unique names");
    }
    clusters.push_back(std::move(c));
  }
  return clusters;
}

/// Spare nodes are held back on every cluster: each must keep at least one node for jobs.
void check_spares(const Config& cfg) {
  std::uint32_t spares = cfg.faults->recovery.spare_nodes;
  for (const auto& c : cfg.clusters) {
    if (spares >= c.nodes) {
      throw ConfigError(cfg.faults->recovery.spare_nodes_where, "recovery.spare_nodes",
                        std::to_string(spares) + " spares would hold back every node of cluster \"" + c.name + "\" (" +
                            std::to_string(c.nodes) + " nodes); expected fewer spares than nodes");
    }
  }
}

Config parse_root(const Node& root, const std::string& file, const std::string& base_dir) {
  if (!root.is_map()) {
    root.fail("expected a mapping at the top of the config");
  }
  root.expect_keys(TOP_KEYS);
  Config cfg;
  cfg.file = file;
  cfg.base_dir = base_dir;
  cfg.root = root;
  if (Node seed = root["seed"]; seed.is_defined()) {
    cfg.seed = seed.as_u64();
  }
  cfg.clusters = parse_clusters(root);
  cfg.interconnect = InterconnectConfig::table().parse_section(root["interconnect"]);
  cfg.network = parse_network_model(root["network"]);
  cfg.output = parse_output(root["output"]);
  cfg.workload = root["workload"];
  cfg.faults = std::make_shared<FaultConfig>(parse_fault_config(root));
  check_spares(cfg);
  cfg.power = std::make_shared<PowerConfig>(parse_power_config(root));
  return cfg;
}

/// A `--set policies.FAMILY...` that a cluster's own `policies.FAMILY` shadows: an error when every cluster
/// shadows it (the override would change nothing), a warning naming the clusters when some do.
void check_shadowed(const YAML::Node& tree, const std::vector<Override>& overrides) {
  if (!tree.IsMap()) {
    return; // not a config at all: parse_root says so
  }
  const YAML::Node clusters = tree["clusters"];
  for (const auto& o : overrides) {
    std::size_t dot = o.key_path.find('.');
    std::string family = o.key_path.substr(dot == std::string::npos ? 0 : dot + 1);
    family = family.substr(0, family.find_first_of(".["));
    if (!o.key_path.starts_with("policies.") || !clusters || !clusters.IsSequence() || clusters.size() == 0) {
      continue;
    }
    std::string shadowing;
    std::size_t count = 0;
    for (std::size_t i = 0; i < clusters.size(); ++i) {
      const YAML::Node own = clusters[i].IsMap() ? clusters[i]["policies"] : YAML::Node();
      if (own && own.IsMap() && own[family]) {
        const YAML::Node name = clusters[i]["name"];
        shadowing += fmt::format("{}clusters[{}] ({})", count == 0 ? "" : ", ", i,
                                 name && name.IsScalar() ? name.Scalar() : "unnamed");
        ++count;
      }
    }
    std::string rest = o.key_path.substr(std::string("policies.").size());
    if (count == clusters.size()) {
      throw ConfigError(override_location(o), o.key_path,
                        "every cluster sets its own policies." + family + " (" + shadowing +
                            "), so this override changes nothing; expected clusters[*].policies." + rest +
                            " (every cluster) or clusters[N].policies." + rest + " (one)");
    }
    if (count > 0) {
      log::get(log::Category::CONFIG)
          .warn("{}={} does not reach {}, which set their own policies.{}; use clusters[N].policies.{} there",
                o.key_path, o.value, shadowing, family, rest);
    }
  }
}

/// Applies the overrides, then validates. An error in an overridden value (or below it) names the
/// override (`--set key=value`, or the study's line), not the file: the nodes carry where they came from.
Config parse_with_overrides(const Node& root, const std::string& file, const std::string& base_dir,
                            const std::vector<Override>& overrides) {
  spdlog::logger& log = log::get(log::Category::CONFIG);
  log.debug("loading {} (relative paths from \"{}\")", file, base_dir);
  YAML::Node tree = root.yaml();
  auto roots = std::make_shared<OverrideRoots>();
  for (const auto& o : expand_overrides(tree, overrides)) {
    log.debug("override {}={}", o.key_path, o.value);
    roots->push_back({apply_override(tree, o), override_location(o)});
  }
  check_shadowed(tree, overrides);
  Config cfg = parse_root(root.with_overrides(std::move(roots)), file, base_dir);
  cfg.overrides = overrides;
  log.debug("{}: {} cluster(s), seed {}, jobs.csv {}, events.csv {}", file, cfg.clusters.size(), cfg.seed,
            cfg.output.jobs_csv ? "on" : "off", cfg.output.events ? "on" : "off");
  return cfg;
}

} // namespace

const ClusterConfig* Config::find_cluster(const std::string& name) const {
  for (const auto& c : clusters) {
    if (c.name == name) {
      return &c;
    }
  }
  return nullptr;
}

std::vector<std::string> Config::cluster_names() const {
  std::vector<std::string> names;
  for (const auto& c : clusters) {
    names.push_back(c.name);
  }
  return names;
}

std::string Config::resolve_path(const std::string& path) const {
  std::filesystem::path p(path);
  if (p.is_absolute() || base_dir.empty()) {
    return p.string();
  }
  return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

Config load_config(const std::string& path, const std::vector<Override>& overrides) {
  Node root = load_yaml_file(path);
  std::string base_dir = std::filesystem::path(path).parent_path().string();
  Config cfg = parse_with_overrides(root, path, base_dir, overrides);
  cfg.text_hash = file_hash(path);
  return cfg;
}

Config load_config_text(const std::string& text, const std::string& name, const std::string& base_dir,
                        const std::vector<Override>& overrides) {
  Config cfg = parse_with_overrides(load_yaml_text(text, name), name, base_dir, overrides);
  cfg.text_hash = content_hash(text);
  return cfg;
}

} // namespace acme::config
