#include <spdlog/logger.h>

#include <filesystem>
#include <set>

#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"
#include "sim/config/power_config.hpp"
#include "sim/log/log.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

// Top-level sections. Sections owned by other layers are validated by their owners.
const std::vector<std::string> TOP_KEYS = {"seed",        "clusters",   "interconnect", "policies",   "workload",
                                           "output",      "failures",   "checkpoint",   "preemption", "recovery",
                                           "calibration", "evaluation", "power"};

constexpr double DEFAULT_BACKBONE_GBITPS = 800.0; // assumption: 4 x HDR links between the clusters' spines
constexpr double DEFAULT_BACKBONE_LATENCY_S = 5e-6;
constexpr double DEFAULT_TIMESERIES_INTERVAL_S = model::SECONDS_PER_HOUR;

OutputConfig parse_output(const Node& node) {
  OutputConfig out;
  out.timeseries_interval_s = DEFAULT_TIMESERIES_INTERVAL_S;
  if (!node.is_defined()) {
    return out;
  }
  node.expect_keys({"timeseries_interval", "jobs_csv", "events"});
  out.timeseries_interval_s = node.get_or("timeseries_interval", out.timeseries_interval_s, &Node::as_duration_s);
  if (out.timeseries_interval_s <= 0.0) {
    node["timeseries_interval"].fail("expected a positive duration such as \"1h\"");
  }
  out.jobs_csv = node.get_or("jobs_csv", out.jobs_csv, &Node::as_bool);
  out.events = node.get_or("events", out.events, &Node::as_bool);
  return out;
}

InterconnectConfig parse_interconnect(const Node& node) {
  InterconnectConfig ic{model::gbps_to_Bps(DEFAULT_BACKBONE_GBITPS), DEFAULT_BACKBONE_LATENCY_S};
  if (!node.is_defined()) {
    return ic;
  }
  node.expect_keys({"bandwidth", "latency"});
  ic.bw_Bps = node.get_or("bandwidth", ic.bw_Bps, &Node::as_bandwidth_Bps);
  ic.latency_s = node.get_or("latency", ic.latency_s, &Node::as_duration_s);
  return ic;
}

std::vector<ClusterConfig> parse_clusters(const Node& root) {
  Node list = root["clusters"];
  if (!list.is_defined()) {
    root.fail("missing key \"clusters\"; expected a list of clusters");
  }
  if (!list.is_sequence() || list.size() == 0) {
    list.fail("expected a non-empty list of clusters");
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

Config parse_root(const Node& root, const std::string& file, const std::string& base_dir) {
  if (!root.is_map()) {
    root.fail("expected a mapping at the top of the config");
  }
  root.expect_keys(TOP_KEYS);
  Config cfg;
  cfg.file = file;
  cfg.base_dir = base_dir;
  cfg.root = root;
  Node seed = root["seed"];
  if (seed.is_defined()) {
    std::int64_t value = seed.as_int();
    if (value < 0) {
      seed.fail("expected a non-negative integer, got " + std::to_string(value));
    }
    cfg.seed = static_cast<std::uint64_t>(value);
  }
  cfg.clusters = parse_clusters(root);
  cfg.interconnect = parse_interconnect(root["interconnect"]);
  cfg.output = parse_output(root["output"]);
  cfg.workload = root["workload"];
  cfg.faults = std::make_shared<FaultConfig>(parse_fault_config(root));
  cfg.power = std::make_shared<PowerConfig>(parse_power_config(root));
  return cfg;
}

/// Reports errors in overridden values against the command-line argument, not the file.
Config parse_with_overrides(Node root, const std::string& file, const std::string& base_dir,
                            const std::vector<Override>& overrides) {
  spdlog::logger& log = log::get(log::Category::CONFIG);
  log.debug("loading {} (relative paths from \"{}\")", file, base_dir);
  YAML::Node tree = root.yaml();
  for (const auto& o : overrides) {
    log.debug("override {}={}", o.key_path, o.value);
    apply_override(tree, o);
  }
  try {
    Config cfg = parse_root(root, file, base_dir);
    log.debug("{}: {} cluster(s), seed {}, jobs.csv {}, events.csv {}", file, cfg.clusters.size(), cfg.seed,
              cfg.output.jobs_csv ? "on" : "off", cfg.output.events ? "on" : "off");
    return cfg;
  } catch (const ConfigError& e) {
    for (const auto& o : overrides) {
      const std::string& key = e.get_key_path();
      if (key == o.key_path || key.rfind(o.key_path + ".", 0) == 0 || key.rfind(o.key_path + "[", 0) == 0) {
        std::string message = e.what();
        std::string prefix = format_located(e.get_location(), key, "");
        throw ConfigError(Location{"--set " + o.key_path + "=" + o.value, 0, 0}, key, message.substr(prefix.size()));
      }
    }
    throw;
  }
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
  return parse_with_overrides(root, path, base_dir, overrides);
}

Config load_config_text(const std::string& text, const std::string& name, const std::string& base_dir,
                        const std::vector<Override>& overrides) {
  return parse_with_overrides(load_yaml_text(text, name), name, base_dir, overrides);
}

} // namespace acme::config
