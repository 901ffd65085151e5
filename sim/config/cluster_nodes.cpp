// Where a cluster's nodes come from: a count in the config, a node list (Alibaba's node CSV) or the
// header of an SWF log (kind: hpc).
#include "sim/config/cluster_nodes.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "sim/csv/csv_reader.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

constexpr std::uint32_t DEFAULT_GPUS_PER_NODE = 8; // paper: 8 A100 per node
// hpc clusters without a processors_per_node (config or SWF header MaxProcs / MaxNodes): every processor
// is a node of its own, the processor-pool model of classic SWF replay (Feitelson's Parallel Workloads
// Archive, "Standard Workload Format").
constexpr std::uint32_t DEFAULT_PROCESSORS_PER_NODE = 1;

std::string resolve_beside_config(const Node& node) {
  std::filesystem::path path(node.as_string());
  const std::string& file = node.file();
  if (path.is_absolute() || file.empty()) {
    return path.string();
  }
  // Embedded configs ("<embedded ...>") resolve against the working directory, as Config::resolve_path does.
  std::filesystem::path base =
      file.front() == '<' ? std::filesystem::current_path() : std::filesystem::path(file).parent_path();
  return (base / path).lexically_normal().string();
}

constexpr const char* NODE_LIST_SCHEMA = "sn,cpu_milli,memory_mib,gpu,model";

/// GPUs of each node of a node list (Alibaba cluster-trace-gpu-v2023 `sn,cpu_milli,memory_mib,gpu,model`;
/// columns matched by name, `sn` and `gpu` required). Bad rows fail with file:line and column.
std::vector<std::uint32_t> read_node_list(const Node& where, const std::string& path) {
  csv::LineReader file = csv::LineReader::from_file(path);
  if (!file.is_open()) {
    where.fail("cannot open \"" + path + "\": " + file.open_problem() + "; expected a node list such as " +
               NODE_LIST_SCHEMA);
  }
  csv::CsvReader in(std::move(file));
  if (!in.has_header()) {
    in.fail_at(in.lines_read(), std::string("empty node list; expected a header row ") + NODE_LIST_SCHEMA);
  }
  std::string expected = std::string("expected a node list header such as ") + NODE_LIST_SCHEMA;
  std::size_t sn = in.require("sn", expected);
  std::size_t gpu = in.require("gpu", expected);
  std::vector<std::uint32_t> gpus;
  std::unordered_map<std::string, std::size_t> seen;
  while (in.next()) {
    std::string_view text = in.field(gpu);
    auto count = csv::parse_number<std::uint32_t>(text);
    if (!count || *count > model::limits::MAX_GPUS_PER_NODE) {
      in.fail_column(gpu, "expected an integer in [0, " + std::to_string(model::limits::MAX_GPUS_PER_NODE) +
                              "], got \"" + std::string(text) + "\"");
    }
    std::string name(in.field(sn));
    if (name.empty()) {
      in.fail_column(sn, "expected a node name, got an empty field");
    }
    if (auto [it, inserted] = seen.emplace(name, in.line()); !inserted) {
      in.fail_column(sn, "node \"" + name + "\" is listed twice (first on line " + std::to_string(it->second) +
                             "); expected unique node names");
    }
    if (gpus.size() == model::limits::MAX_NODES_PER_CLUSTER) {
      in.fail("more than " + std::to_string(model::limits::MAX_NODES_PER_CLUSTER) +
              " nodes; expected at most that many per cluster");
    }
    gpus.push_back(*count);
  }
  if (gpus.empty()) {
    in.fail_at(in.lines_read(), "no nodes; expected one row per node after the header");
  }
  return gpus;
}

/// The `; Key: value` lines of an SWF header (Parallel Workloads Archive, Standard Workload Format
/// v2.2) that size a platform: MaxNodes and MaxProcs, with their line numbers.
class SwfPlatformHeader {
public:
  SwfPlatformHeader(const Node& where, const std::string& path) : path_(path) {
    csv::LineReader lines = csv::LineReader::from_file(path);
    if (!lines.is_open()) {
      where.fail("cannot open \"" + path + "\": " + lines.open_problem() +
                 "; expected an SWF log whose header gives MaxNodes and MaxProcs");
    }
    std::string_view line;
    while (lines.next(line)) {
      std::string_view text = trim(line);
      if (text.empty()) {
        continue;
      }
      if (text.front() != ';') {
        break; // the first job: the header is over
      }
      std::size_t colon = text.find(':');
      std::string key(colon == std::string_view::npos ? std::string_view{} : trim(text.substr(1, colon - 1)));
      if (key == "MaxNodes" || key == "MaxProcs") {
        fields_[key] = {std::string(trim(text.substr(colon + 1))), static_cast<int>(lines.line_number())};
      }
    }
  }

  /// The positive integer given for `key` (a trailing comment is allowed), nullopt when absent.
  std::optional<std::uint32_t> count(const std::string& key) const {
    auto it = fields_.find(key);
    if (it == fields_.end()) {
      return std::nullopt;
    }
    const std::string& text = it->second.first;
    std::uint32_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    bool tail_ok = end == text.data() + text.size() || *end == ' ' || *end == '\t';
    if (ec != std::errc() || !tail_ok || value == 0) {
      fail(key, "header " + key + ": expected a positive integer, got \"" + text + "\"");
    }
    return value;
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ConfigError(Location{path_, fields_.at(key).second, 0}, "", what);
  }

private:
  static std::string_view trim(std::string_view text) {
    std::size_t b = text.find_first_not_of(" \t");
    std::size_t e = text.find_last_not_of(" \t");
    return b == std::string_view::npos ? std::string_view{} : text.substr(b, e - b + 1);
  }

  std::string path_;
  std::unordered_map<std::string, std::pair<std::string, int>> fields_;
};

/// Processors per node of an hpc cluster without processors_per_node: MaxProcs / MaxNodes of the
/// header when both are given (they must divide), else one.
std::uint32_t header_processors_per_node(const SwfPlatformHeader& header) {
  std::optional<std::uint32_t> nodes = header.count("MaxNodes");
  std::optional<std::uint32_t> procs = header.count("MaxProcs");
  if (!nodes || !procs) {
    return DEFAULT_PROCESSORS_PER_NODE;
  }
  if (*procs % *nodes != 0) {
    header.fail("MaxProcs", "header MaxProcs (" + std::to_string(*procs) + ") is not a multiple of MaxNodes (" +
                                std::to_string(*nodes) + "); expected identical nodes, or set processors_per_node");
  }
  return *procs / *nodes;
}

} // namespace

/// kind: hpc. Nodes and processors per node from the config, else from the SWF header of nodes_from.
void parse_hpc_nodes(const Node& node, ClusterConfig& c) {
  if (Node gpn = node["gpus_per_node"]; gpn.is_defined()) {
    gpn.fail("an hpc cluster counts processors; expected processors_per_node instead of gpus_per_node");
  }
  Node nodes = node["nodes"];
  Node ppn = node["processors_per_node"];
  Node from = node["nodes_from"];
  if (!from.is_defined()) {
    if (!nodes.is_defined()) {
      node.fail("missing key \"nodes\"; expected the number of nodes, or nodes_from: an SWF log whose header "
                "gives MaxNodes and MaxProcs");
    }
    c.nodes = nodes.as_count_upto(model::limits::MAX_NODES_PER_CLUSTER);
    c.gpus_per_node =
        ppn.is_defined() ? ppn.as_count_upto(model::limits::MAX_GPUS_PER_NODE) : DEFAULT_PROCESSORS_PER_NODE;
    return;
  }
  c.nodes_from = resolve_beside_config(from);
  SwfPlatformHeader header(from, c.nodes_from);
  c.gpus_per_node =
      ppn.is_defined() ? ppn.as_count_upto(model::limits::MAX_GPUS_PER_NODE) : header_processors_per_node(header);
  if (nodes.is_defined()) {
    c.nodes = nodes.as_count_upto(model::limits::MAX_NODES_PER_CLUSTER);
  } else if (auto max_nodes = header.count("MaxNodes")) {
    c.nodes = *max_nodes;
  } else if (auto max_procs = header.count("MaxProcs")) {
    c.nodes = (*max_procs + c.gpus_per_node - 1) / c.gpus_per_node;
  } else {
    from.fail("the SWF header of \"" + c.nodes_from +
              "\" has neither MaxNodes nor MaxProcs; expected \"; MaxNodes: "
              "N\" and \"; MaxProcs: P\" lines, or nodes: and processors_per_node: in the config");
  }
  if (c.nodes > model::limits::MAX_NODES_PER_CLUSTER || c.gpus_per_node > model::limits::MAX_GPUS_PER_NODE) {
    from.fail("the SWF header of \"" + c.nodes_from + "\" gives " + std::to_string(c.nodes) + " nodes of " +
              std::to_string(c.gpus_per_node) + " processors; expected at most " +
              std::to_string(model::limits::MAX_NODES_PER_CLUSTER) + " nodes of at most " +
              std::to_string(model::limits::MAX_GPUS_PER_NODE) + " (or nodes: and processors_per_node: in the config)");
  }
}

/// kind: gpu. `nodes` x `gpus_per_node`, or every node of the node list nodes_from names.
void parse_gpu_nodes(const Node& node, ClusterConfig& c) {
  if (Node ppn = node["processors_per_node"]; ppn.is_defined()) {
    ppn.fail("processors_per_node is for kind: hpc; expected gpus_per_node on a GPU cluster");
  }
  Node from = node["nodes_from"];
  if (!from.is_defined()) {
    Node nodes = node["nodes"];
    if (!nodes.is_defined()) {
      node.fail("missing key \"nodes\"; expected the number of nodes (or nodes_from: a node list)");
    }
    c.nodes = nodes.as_count_upto(model::limits::MAX_NODES_PER_CLUSTER);
    Node gpus = node["gpus_per_node"];
    c.gpus_per_node = gpus.is_defined() ? gpus.as_count_upto(model::limits::MAX_GPUS_PER_NODE) : DEFAULT_GPUS_PER_NODE;
    return;
  }
  for (const char* key : {"nodes", "gpus_per_node"}) {
    if (Node given = node[key]; given.is_defined()) {
      given.fail("the nodes come from nodes_from; expected either nodes_from or nodes and gpus_per_node");
    }
  }
  c.nodes_from = resolve_beside_config(from);
  std::vector<std::uint32_t> gpus = read_node_list(from, c.nodes_from);
  auto [least, most] = std::minmax_element(gpus.begin(), gpus.end());
  if (*most == 0) {
    from.fail("no node of \"" + c.nodes_from + "\" has a GPU; expected at least one GPU node");
  }
  c.nodes = static_cast<std::uint32_t>(gpus.size());
  c.gpus_per_node = *most;
  if (*least != *most) {
    c.gpus_of_node = std::move(gpus);
  }
}

} // namespace acme::config
