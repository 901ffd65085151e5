#include "sim/core/hbd_fault_trace.hpp"

#include <algorithm>
#include <deque>
#include <map>

#include "sim/config/faults.hpp"
#include "sim/config/node.hpp"
#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::core {
namespace {

bool contains(const std::string& text, const char* word) {
  return text.find(word) != std::string::npos;
}

/// Our category for a fault of the trace (the mapping documented in the header).
std::string category_of(const std::string& level, const std::string& kind, const std::string& desc) {
  if (level == "Software Failure") {
    return "software";
  }
  if (level != "Hardware Failure") {
    return "other";
  }
  if (kind == "GPU") {
    return contains(desc, "ECC") ? "ecc" : contains(desc, "P2P") ? "nvlink" : "cuda";
  }
  if (kind == "NIC" || kind == "Parameter Plane Cable") {
    return "network";
  }
  return kind == "File System" ? "storage" : "node";
}

struct Reader {
  const config::Config& config;
  std::vector<std::string> categories; ///< the config's node categories, by index
  std::map<std::string, std::uint32_t> node_of;
  std::map<std::uint32_t, std::deque<std::size_t>> open; ///< per node, its faults not ended yet (rows)
  std::vector<FailureTraceRow> rows;

  std::uint32_t node(const config::Node& event) {
    config::Node id = event["node_id"];
    auto [it, fresh] = node_of.try_emplace(id.as_string(), static_cast<std::uint32_t>(node_of.size()));
    if (fresh && it->second >= config.clusters.at(0).nodes) {
      id.fail("the trace has more servers than cluster \"" + config.clusters.at(0).name + "\" has nodes (" +
              std::to_string(config.clusters.at(0).nodes) + "); expected a cluster of at least as many nodes");
    }
    return it->second;
  }

  std::uint32_t category(const config::Node& type) {
    type.expect_keys({"Level", "Class", "Desc"});
    std::string name = category_of(type["Level"].as_string(), type["Class"].as_string(), type["Desc"].as_string());
    auto it = std::find(categories.begin(), categories.end(), name);
    if (it == categories.end()) {
      type.fail("maps onto failure category \"" + name + "\", which the config lacks; expected it declared, e.g. " +
                "failures.categories: {" + name + ": {new: true, rate_per_1000_node_days: 0}}");
    }
    return static_cast<std::uint32_t>(it - categories.begin());
  }

  void event(const config::Node& e) {
    if (!e.is_map()) {
      e.fail("expected an event {node_id, event_time, event_type, fault_type}");
    }
    e.expect_keys({"node_id", "event_time", "event_type", "fault_type"});
    double time_s = e["event_time"].as_double_in(0.0, model::limits::MAX_DURATION_S / model::SECONDS_PER_DAY,
                                                 "days since the trace's first event, at most 10 years") *
                    model::SECONDS_PER_DAY;
    std::uint32_t n = node(e);
    std::string kind = e["event_type"].as_string();
    if (kind == "fault_start") {
      open[n].push_back(rows.size());
      rows.push_back(
          FailureTraceRow{time_s, model::ClusterId{0}, n, category(e["fault_type"]), model::limits::MAX_DURATION_S});
    } else if (kind == "fault_end") {
      if (open[n].empty()) {
        e["event_type"].fail("a fault_end of a server with no fault open; expected a fault_start before it");
      }
      FailureTraceRow& start = rows[open[n].front()];
      open[n].pop_front();
      start.repair_s = std::max(0.0, time_s - start.time_s);
    } else {
      e["event_type"].fail("expected fault_start or fault_end, got \"" + excerpt(kind) + "\"");
    }
  }
};

} // namespace

std::vector<FailureTraceRow> load_hbd_fault_trace(const std::string& path, const config::Config& config) {
  config::Node root = config::load_json_text(
      config::read_input_file(path, "an InfiniteHBD-Trace JSON file (a list of fault events)"), path);
  if (!root.is_sequence()) {
    root.fail("expected a JSON list of fault events (InfiniteHBD-Trace format)");
  }
  Reader r{config, config.faults->failures.category_names(), {}, {}, {}};
  r.categories.pop_back(); // the switch category: never traced per node
  for (std::size_t i = 0; i < root.size(); ++i) {
    r.event(root.at(i));
  }
  std::stable_sort(r.rows.begin(), r.rows.end(), [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  return r.rows;
}

} // namespace acme::core
