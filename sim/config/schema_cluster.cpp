// Validation of one `clusters[i]` entry. Defaults describe an Acme node (A100-SXM-80GB x 8); each
// carries its source. Sources: "paper" = Hu et al., NSDI'24, as summarised in data/README.md.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "sim/config/cluster_nodes.hpp"
#include "sim/config/config.hpp"
#include "sim/config/distribution_parse.hpp"
#include "sim/config/schema_cluster_parts.hpp"
#include "sim/config/schema_pods.hpp"
#include "sim/config/schema_team_plan.hpp"
#include "sim/model/cluster_name.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

constexpr std::uint32_t DEFAULT_CPU_CORES_PER_NODE = 128; // paper: 16 CPU cores per GPU
// Assumption (not published): a quarter of each node's cores serve CPU-only jobs (the CPU pool).
constexpr std::uint32_t DEFAULT_CPU_JOB_CORES_PER_NODE = 32;
constexpr double DEFAULT_HOST_MEMORY_GIB = 2048.0; // paper: 2 TB host RAM (Kalos nodes)
constexpr double DEFAULT_NVLINK_GBPS = 600.0;      // NVIDIA A100 datasheet: NVLink3 600 GB/s

const std::vector<std::string> CLUSTER_KEYS = {"name",
                                               "kind",
                                               "utc_offset",
                                               "nodes",
                                               "nodes_from",
                                               "gpus_per_node",
                                               "processors_per_node",
                                               "cpu_cores_per_node",
                                               "cpu_job_cores_per_node",
                                               "host_memory",
                                               "nvlink_bandwidth",
                                               "gpu",
                                               "network",
                                               "storage",
                                               "policies",
                                               "launch_latency",
                                               "pods",
                                               "team_plan"};
const std::vector<std::string> CLUSTER_KINDS = {"gpu", "hpc"};

ClusterKind parse_kind(const Node& node) {
  if (!node.is_defined()) {
    return ClusterKind::GPU;
  }
  std::string kind = node.as_string();
  if (kind == "gpu") {
    return ClusterKind::GPU;
  }
  if (kind == "hpc") {
    return ClusterKind::HPC;
  }
  std::string msg = "unknown cluster kind \"" + kind + "\"; expected one of: " + join(CLUSTER_KINDS);
  if (auto hint = did_you_mean(kind, CLUSTER_KINDS); !hint.empty()) {
    msg += " (did you mean \"" + hint + "\"?)";
  }
  node.fail(msg);
}

/// A cluster's name: it names the cluster in every output and `gen`'s trace files, so it is printable text
/// without a path separator (model::cluster_name_problem).
std::string parse_cluster_name(const Node& node) {
  std::string name = node.as_string();
  if (std::string problem = model::cluster_name_problem(name); !problem.empty()) {
    node.fail(problem);
  }
  return name;
}

} // namespace

PolicySpec parse_policy(const Node& node, const char* family, const char* default_name) {
  PolicySpec spec{default_name, node};
  if (!node.is_defined()) {
    return spec;
  }
  if (node.is_scalar()) {
    spec.name = node.as_string();
    return spec;
  }
  node.expect_map();
  Node name = node["name"];
  if (!name.is_defined()) {
    node.fail(std::string("missing key \"name\"; expected the name of a ") + family + " policy");
  }
  spec.name = name.as_string();
  return spec;
}

ClusterConfig parse_cluster(const Node& node, const Node& defaults) {
  node.expect_keys(CLUSTER_KEYS);
  ClusterConfig c;
  c.where = node.location();
  Node name = node["name"];
  if (!name.is_defined()) {
    node.fail("missing key \"name\"; expected a cluster name such as \"seren\"");
  }
  c.name = parse_cluster_name(name);
  c.utc_offset_s = node.get_or("utc_offset", 0.0, &Node::as_utc_offset_s);
  c.kind = parse_kind(node["kind"]);
  if (c.kind == ClusterKind::HPC) {
    parse_hpc_nodes(node, c);
  } else {
    parse_gpu_nodes(node, c);
  }
  auto cores = [&node](const char* key, std::uint32_t fallback) {
    Node given = node[key];
    return given.is_defined() ? given.as_count_upto(model::limits::MAX_CPU_CORES_PER_NODE) : fallback;
  };
  c.cpu_cores_per_node = cores("cpu_cores_per_node", DEFAULT_CPU_CORES_PER_NODE);
  c.cpu_job_cores_per_node = cores("cpu_job_cores_per_node", DEFAULT_CPU_JOB_CORES_PER_NODE);
  if (c.cpu_job_cores_per_node > c.cpu_cores_per_node) {
    node["cpu_job_cores_per_node"].fail("expected at most cpu_cores_per_node (" + std::to_string(c.cpu_cores_per_node) +
                                        ")");
  }
  c.host_memory_bytes = node.get_or("host_memory", DEFAULT_HOST_MEMORY_GIB * model::GIB_BYTES, &Node::as_bytes);
  c.nvlink_bw_Bps = node.get_or("nvlink_bandwidth", DEFAULT_NVLINK_GBPS * model::GIGA, &Node::as_bandwidth_Bps);
  c.gpu = parse_gpu(node["gpu"]);
  c.network = parse_network(node["network"]);
  c.storage = parse_storage(node["storage"]);
  Node policies = node["policies"];
  if (policies.is_defined()) {
    policies.expect_keys({"scheduler", "placement", "power"});
  }
  auto pick = [&](const char* family, const char* fallback) {
    Node own = policies[family];
    return parse_policy(own.is_defined() ? own : defaults[family], family, fallback);
  };
  c.scheduler = pick("scheduler", "fifo");
  c.placement = pick("placement", "pack");
  c.power = pick("power", "none");
  if (Node latency = node["launch_latency"]; latency.is_defined()) {
    c.launch_latency = parse_duration_distribution(latency);
  }
  c.pods = parse_pods(node["pods"]);
  c.team_plan = parse_team_plan(node["team_plan"], c.total_gpus());
  return c;
}

std::uint32_t ClusterConfig::total_gpus() const {
  if (gpus_of_node.empty()) {
    return nodes * gpus_per_node;
  }
  return std::accumulate(gpus_of_node.begin(), gpus_of_node.end(), std::uint32_t{0});
}

} // namespace acme::config
