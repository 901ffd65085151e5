#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/node.hpp"
#include "sim/model/distribution.hpp"

namespace acme::config {

/// A policy chosen in the config: `{name: fifo, <param>: <value>, ...}`. The policy parses its own
/// parameters from `node` (every key but `name`).
struct PolicySpec {
  std::string name;
  Node node;
};

struct GpuConfig {
  std::string model = "A100-SXM-80GB";
  double memory_bytes = 0.0;
  double idle_power_W = 0.0;
  double max_power_W = 0.0;
};

struct NetworkConfig {
  std::uint32_t nics_per_node = 1;         ///< compute InfiniBand NICs per node
  double nic_bw_Bps = 0.0;                 ///< per compute NIC
  std::uint32_t storage_nics_per_node = 0; ///< 0: storage traffic shares the compute NICs
  double storage_nic_bw_Bps = 0.0;
  std::uint32_t nodes_per_leaf = 0;
  std::uint32_t spines = 0;
  double leaf_uplink_bw_Bps = 0.0; ///< each leaf-to-spine link
  double link_latency_s = 0.0;
};

struct StorageConfig {
  double bw_Bps = 0.0;      ///< aggregate bandwidth of the storage system (each direction)
  double port_bw_Bps = 0.0; ///< the storage system's attachment to the fabric
  double latency_s = 0.0;
};

/// What a cluster's nodes are (`clusters[i].kind`).
enum class ClusterKind : std::uint8_t {
  GPU, ///< GPU nodes (default); `nodes_from` names a node list (Alibaba `sn,cpu_milli,memory_mib,gpu,model`)
  HPC, ///< N identical nodes of P processors (classic HPC logs, SWF); one processor is one GPU slot
};

struct ClusterConfig {
  std::string name;
  Location where; ///< of the cluster's entry, for later errors
  ClusterKind kind = ClusterKind::GPU;
  double utc_offset_s = 0.0;
  std::uint32_t nodes = 0;
  /// GPUs per node (hpc: processors per node); with gpus_of_node: the most any node has.
  std::uint32_t gpus_per_node = 0;
  std::vector<std::uint32_t> gpus_of_node; ///< GPUs of each node when they differ (from nodes_from); else empty
  std::string nodes_from;                  ///< resolved path of the file the nodes came from ("" when inline)
  std::uint32_t cpu_cores_per_node = 0;
  std::uint32_t cpu_job_cores_per_node = 0; ///< cores per node that serve CPU jobs (the CPU pool)
  double host_memory_bytes = 0.0;
  double nvlink_bw_Bps = 0.0;
  GpuConfig gpu;
  NetworkConfig network;
  StorageConfig storage;
  PolicySpec scheduler;
  PolicySpec placement;
  PolicySpec power;                   ///< which nodes to power off and on (`policies.power`; default: none)
  model::Distribution launch_latency; ///< from allocation to start (Kubernetes pod start); default 0

  /// GPUs (hpc: processors) of the whole cluster.
  std::uint32_t total_gpus() const;
};

struct FaultConfig;
struct PowerConfig;

struct InterconnectConfig {
  double bw_Bps = 0.0; ///< the link joining the clusters' spine layers
  double latency_s = 0.0;
};

struct OutputConfig {
  double timeseries_interval_s = 0.0;
  bool jobs_csv = true;
  bool events = false; ///< write events.csv (every submit, start, end, failure, checkpoint, node event)
};

/// A validated run configuration. Sections owned by other layers (workload, failures, ...) stay as
/// located nodes; their owners parse them.
struct Config {
  std::string file;     ///< the config's path (or "<embedded>")
  std::string base_dir; ///< relative paths in the config are resolved against it
  std::uint64_t seed = 0;
  std::vector<ClusterConfig> clusters;
  InterconnectConfig interconnect;
  OutputConfig output;
  Node workload;
  Node root;
  std::shared_ptr<const FaultConfig> faults; ///< failures, checkpoint, preemption, recovery (sim/config/faults.hpp)
  std::shared_ptr<const PowerConfig> power;  ///< what the hardware draws (sim/config/power_config.hpp)

  const ClusterConfig* find_cluster(const std::string& name) const;
  std::vector<std::string> cluster_names() const;
  /// `path` made absolute against base_dir (unless already absolute).
  std::string resolve_path(const std::string& path) const;
};

/// One `--set key.path=value` override, applied to the YAML before validation.
struct Override {
  std::string key_path;
  std::string value;
};

/// Loads, applies overrides, validates. Throws ConfigError (exit code 2 in the CLI).
Config load_config(const std::string& path, const std::vector<Override>& overrides = {});
/// Same, from text (the embedded default config, tests).
Config load_config_text(const std::string& text, const std::string& name, const std::string& base_dir,
                        const std::vector<Override>& overrides = {});

/// Parses "a.b[2].c=value"; throws ConfigError naming the CLI argument when malformed.
Override parse_override(const std::string& argument);

// Internal steps, exposed for tests.
void apply_override(YAML::Node& root, const Override& override_value);
ClusterConfig parse_cluster(const Node& node, const Node& defaults);
PolicySpec parse_policy(const Node& node, const char* family, const char* default_name);

} // namespace acme::config
