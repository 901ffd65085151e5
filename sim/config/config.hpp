#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/node.hpp"
#include "sim/model/distribution.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/parallel_layout.hpp"
#include "sim/model/units.hpp"

namespace acme::config {

template <class P>
class ParamTable;

/// A policy chosen in the config: `{name: fifo, <param>: <value>, ...}`. The policy parses its own
/// parameters from `node` (every key but `name`).
struct PolicySpec {
  std::string name;
  Node node;
};

struct GpuConfig {
  std::string model = "A100-SXM-80GB";
  double memory_bytes = 80.0 * model::GIB_BYTES; ///< A100-SXM-80GB
  double idle_power_W = 64.0;                    ///< data/acme/pkl_*_gpu_power_W.csv: middle of the 60-68 W idle mode
  double max_power_W = 400.0;                    ///< A100-SXM TDP
  /// Its keys (schema_cluster_parts.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<GpuConfig>& table();
};

/// A cluster's fabric: NICs per node, leaf switches, their uplinks to the spine layer.
struct NetworkConfig {
  std::uint32_t nics_per_node = 1;         ///< compute InfiniBand NICs per node
  double nic_bw_Bps = 0.0;                 ///< per compute NIC
  std::uint32_t storage_nics_per_node = 0; ///< 0: storage traffic shares the compute NICs
  double storage_nic_bw_Bps = 0.0;
  std::uint32_t nodes_per_leaf = 0;
  std::uint32_t uplinks_per_leaf = 0; ///< leaf-to-spine links of each leaf (down ports / oversubscription)
  double uplink_bw_Bps = 0.0;         ///< each leaf-to-spine link
  std::uint32_t spines = 0;           ///< spine switches; each leaf spreads its uplinks evenly over them
  double leaf_uplink_bw_Bps = 0.0;    ///< all of a leaf's uplinks together (the fluid model of ECMP)
  double link_latency_s = 0.0;

  /// Down-port bandwidth of a leaf over its uplink bandwidth (1: non-blocking).
  double oversubscription() const;
};

/// How a training job's own traffic is modelled (`network.model`).
enum class NetworkModelKind : std::uint8_t {
  NONE,  ///< not modelled: only storage transfers use the fabric
  FLUID, ///< multi-node jobs hold long-lived flows on the fabric; contention slows their progress
};

/// The top-level `network:` section: the traffic model and its assumptions about a training step.
struct NetworkModelConfig {
  NetworkModelKind model = NetworkModelKind::NONE;
  model::TrainingAssumptions training;
  bool fluid() const { return model == NetworkModelKind::FLUID; }
  /// Its keys (schema_network_model.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<NetworkModelConfig>& table();
};

struct StorageConfig {
  double bw_Bps = 100.0 * model::GIGA; ///< aggregate bandwidth, each direction (data/README.md: not published)
  double port_bw_Bps = 0.0;            ///< its attachment to the fabric (0: as fast as the storage itself)
  double latency_s = 1e-4;             ///< per storage request path (assumption)
  /// Its keys (schema_cluster_parts.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<StorageConfig>& table();
};

/// What a cluster's nodes are (`clusters[i].kind`).
enum class ClusterKind : std::uint8_t {
  GPU, ///< GPU nodes (default); `nodes_from` names a node list (Alibaba `sn,cpu_milli,memory_mib,gpu,model`)
  HPC, ///< N identical nodes of P processors (classic HPC logs, SWF); one processor is one GPU slot
};

/// Kubernetes' path from admission to running pods (a cluster's `pods:`; all off by default): the
/// scheduler's binding throughput and container image pulls on nodes that have not run the image.
struct PodConfig {
  double bind_rate_per_s = 0.0;  ///< pods kube-scheduler binds per second (0: at once)
  double image_bytes = 0.0;      ///< median container image (0: no pulls)
  double image_size_sigma = 0.0; ///< lognormal spread (of the log) of image sizes across images
  double pull_bw_Bps = 0.0;      ///< one node's pull from the registry
  double registry_bw_Bps = model::limits::MAX_BANDWIDTH_BPS; ///< the registry in all, shared by the nodes of
                                                             ///< one job pulling at once (default: no bound)
  std::uint32_t images_per_user = 1;                         ///< distinct images a user's jobs run (by job type)
  std::uint32_t cache_images = 1;                            ///< images a node keeps (least recently used evicted)
  std::uint32_t cpu_cache_images = 1;                        ///< images a CPU-pool server keeps (default: cache_images)

  bool pulls() const { return image_bytes > 0.0; }
  /// Its keys (schema_pods.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<PodConfig>& table();
};

/// A team that plans its jobs against a GPU budget (a cluster's `team_plan:`; off by default): it submits
/// a job of its types (a pretraining run's first attempt, a debug job) only when its jobs already submitted
/// and not ended, plus the new one, fit `gpus` (sim/core/team_plan.hpp).
struct TeamPlanConfig {
  std::uint32_t gpus = 0;                                         ///< 0: no plan
  std::vector<model::JobType> types = {model::JobType::PRETRAIN}; ///< the team's job types

  bool enabled() const { return gpus > 0; }
  /// Its keys (schema_team_plan.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<TeamPlanConfig>& table();
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
  PodConfig pods;                     ///< binding throughput and image pulls before the pod start
  TeamPlanConfig team_plan;           ///< a team holding its jobs back until its GPU budget has room

  /// GPUs (hpc: processors) of the whole cluster.
  std::uint32_t total_gpus() const;
};

struct FaultConfig;
struct PowerConfig;

struct InterconnectConfig {
  double bw_Bps = model::gbps_to_Bps(800.0); ///< the link joining the clusters' spine layers (assumption: 4 x HDR)
  double latency_s = 5e-6;                   ///< its latency (assumption)
  /// Its keys (schema_output.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<InterconnectConfig>& table();
};

struct OutputConfig {
  double timeseries_interval_s = 3600.0; ///< a timeseries.csv row per cluster this often
  Location timeseries_interval_where;    ///< of `output.timeseries_interval` (or `output`), for the row bound
  bool jobs_csv = true;
  bool events = false; ///< write events.csv (every submit, start, end, failure, checkpoint, node event)
  /// events.csv stops growing at this size: later events are counted, not written, and the run says so.
  double events_max_bytes = 2.0 * (1ULL << 30);
  /// Its keys (schema_output.cpp): parsing, `acme-sim list` and the config reference come from it.
  static const ParamTable<OutputConfig>& table();
};

/// One `--set key.path=value` override, applied to the YAML before validation.
struct Override {
  Override() = default;
  Override(std::string key, std::string text, Location given_at = {})
      : key_path(std::move(key))
      , value(std::move(text))
      , where(std::move(given_at)) {}

  std::string key_path;
  std::string value;
  Location where; ///< where it was given, for errors in its value; empty: "--set key.path=value"
};

/// A validated run configuration. Sections owned by other layers (workload, failures, ...) stay as
/// located nodes; their owners parse them.
struct Config {
  std::string file;                ///< the config's path (or "<embedded>")
  std::string base_dir;            ///< relative paths in the config are resolved against it
  std::string text_hash;           ///< content_hash() of the config's text as read, before overrides
  std::vector<Override> overrides; ///< applied to it, in order (`--set`, `--seed`, a study point's settings)
  std::uint64_t seed = 0;
  std::vector<ClusterConfig> clusters;
  InterconnectConfig interconnect;
  NetworkModelConfig network;
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

/// Loads, applies overrides, validates. Throws ConfigError (exit code 2 in the CLI).
Config load_config(const std::string& path, const std::vector<Override>& overrides = {});
/// Same, from text (the embedded default config, tests).
Config load_config_text(const std::string& text, const std::string& name, const std::string& base_dir,
                        const std::vector<Override>& overrides = {});

/// Parses "a.b[2].c=value"; throws ConfigError naming the CLI argument when malformed.
Override parse_override(const std::string& argument);

// Internal steps, exposed for tests.
/// The overrides with every `[*]` step (e.g. clusters[*].policies.scheduler.name=sjf) replaced by each
/// index of that list in `root`, in order; ConfigError when the path before `[*]` is not a list.
std::vector<Override> expand_overrides(const YAML::Node& root, const std::vector<Override>& overrides);
/// Puts the override's value into `root` and returns it (the node errors below it are located at).
YAML::Node apply_override(YAML::Node& root, const Override& override_value);
/// Where errors in the override's value are reported: its `where`, or "--set key.path=value".
Location override_location(const Override& override_value);
ClusterConfig parse_cluster(const Node& node, const Node& defaults);
NetworkConfig parse_network(const Node& node);
NetworkModelConfig parse_network_model(const Node& node);
PolicySpec parse_policy(const Node& node, const char* family, const char* default_name);

} // namespace acme::config
