#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/param_table.hpp"
#include "sim/model/distribution.hpp"
#include "sim/model/job.hpp"

namespace acme::config {

/// One category of infrastructure failure of a node.
struct FailureCategoryConfig {
  std::string name;
  double rate_per_node_day = 0.0; ///< failures per node per day (config: per 1,000 node-days)
  model::Distribution repair;     ///< time until the node is back
  bool hang = false;              ///< the job hangs (noticed after a timeout) instead of crashing
  /// How long the failure stays silent before it shows (a link degrading until a collective times out):
  /// added before the recovery policy's own detection, which starts when it shows. Default 0.
  model::Distribution detect = model::Distribution::fixed(0.0);
};

/// `failures.node_factor:` how a node's rate departs from the fleet's: a share of "lemon" nodes fail
/// `lemon_factor` times as often as the rest (Meta RSC, HPCA'25: a few nodes cause a large part of the
/// failures; the defaults keep every node alike).
struct NodeFactorConfig {
  double lemon_share = 0.0;  ///< share of a cluster's nodes that are lemons (rounded to whole nodes)
  double lemon_factor = 1.0; ///< a lemon's rate over the base rate (>= 1)
  static const ParamTable<NodeFactorConfig>& table();

  /// The mean factor over a cluster's nodes (1 - s + s·k): what a policy that cannot tell nodes apart sees.
  double mean_factor() const { return 1.0 - lemon_share + lemon_share * lemon_factor; }
};

/// `failures.health_check`: a periodic check of the idle nodes that finds latent faults (off while
/// interval_s is 0). Each latent fault a check meets is found with probability `coverage`; the node goes
/// out of service `duration_s` after the check starts (the check runs between jobs: it holds no capacity).
struct HealthCheckConfig {
  double interval_s = 0.0;
  double duration_s = 0.0;
  double coverage = 1.0;
  static const ParamTable<HealthCheckConfig>& table();
};

/// `failures.repair:` what a failed node goes through before it is back in service. The automatic repair
/// takes the category's `repair` time; a share `escalate_share` of them cannot finish it and go to a person,
/// whose `manual` time follows; a share `fix_share` of repairs fix the node, the others return it with its
/// fault, which stays latent until a job starts there (the job fails at start) or a health check finds it.
/// Assumptions: data/ holds no repair figures; the defaults (no escalation, every repair fixes) are the
/// single automatic repair of earlier versions.
struct RepairConfig {
  double escalate_share = 0.0;
  model::Distribution manual{model::Distribution::Kind::LOGNORMAL, 2 * 86400.0, 1.0}; ///< assumption: 2 days
  double fix_share = 1.0;

  bool escalates() const { return escalate_share > 0.0; }
  bool can_fail() const { return fix_share < 1.0; }
  static const ParamTable<RepairConfig>& table();
};

/// `failures.hazard:` the law of a node's time between failures, a renewal process from the run's start
/// and from each repair (and from each redraw: a failure dropped while its job restarts or its node is
/// down). Weibull of shape k with the mean of the node's rate, so the long-run rate, Young/Daly and the
/// validation's closed forms keep the node's rate: k = 1 is the exponential (the default); k < 1 a higher
/// rate just after a repair that falls with the node's age (infant mortality); k > 1 wear-out.
/// Assumption: data/ holds no figure of the shape.
struct HazardConfig {
  double shape = 1.0;

  bool exponential() const { return shape == 1.0; }
  static const ParamTable<HazardConfig>& table();
};

/// `failures.slow:` fail-slow nodes, off by default (data/ holds no figure of them: every value is an
/// assumption). Each node turns slow at `rate_per_1000_node_days` (its own random stream), computes at
/// `speed` of its pace for `duration`, then recovers; a job computes at the pace of its slowest node
/// (synchronous training waits for its straggler), and the wall time it loses is reported. With
/// `evict_after_s` > 0, a slow node that has run a job that long is evicted: it goes out of service for the
/// rest of its slow period as a failure of the category "slow" (added to the categories, rate 0), and its
/// jobs fail and recover without it as their recovery policy says.
struct SlowConfig {
  double rate_per_1000_node_days = 0.0;
  double speed = 0.5;
  model::Distribution duration{model::Distribution::Kind::LOGNORMAL, 6 * 3600.0, 1.0};
  double evict_after_s = 0.0;       ///< 0: never evicted
  std::uint32_t category_index = 0; ///< of "slow" among the node categories, when evicting

  bool enabled() const { return rate_per_1000_node_days > 0.0; }
  bool evicts() const { return enabled() && evict_after_s > 0.0; }
  static const ParamTable<SlowConfig>& table();
};

/// `failures.group:` failures that take a group of nodes at once (a rack or a power domain: groups are
/// consecutive nodes, the last one possibly smaller), beside the per-node categories and the leaf-switch
/// blast radius. Each group fails at its rate; its nodes go down together as failures of `category`, each
/// job on them fails once, and all come back after one repair draw (then each node's repair pipeline).
/// Off by default: an assumption, data/ holds no group rate.
struct GroupFailureConfig {
  std::uint32_t size = 16;
  double rate_per_1000_group_days = 0.0;
  std::string category = "node";
  model::Distribution repair{model::Distribution::Kind::LOGNORMAL, 4 * 3600.0, 1.0};
  std::uint32_t category_index = 0; ///< of `category` among the node categories (resolved when parsed)

  bool enabled() const { return rate_per_1000_group_days > 0.0; }
  static const ParamTable<GroupFailureConfig>& table();
};

/// The failure category of a leaf switch: its index comes after every node category.
inline constexpr const char* SWITCH_FAILURE_CATEGORY = "switch";

/// `failures:` — infrastructure failure injection. Failure categories are numbered as this config
/// lists them (JobRecord::failures, the recorder's columns, recovery notices): the node categories in
/// order, then SWITCH_FAILURE_CATEGORY.
struct FailureConfig {
  Location where; ///< of the `failures` section, for errors found during the run
  bool enabled = false;
  std::vector<FailureCategoryConfig> categories;
  NodeFactorConfig node_factor;
  double leaf_rate_per_switch_day = 0.0;
  model::Distribution leaf_repair;
  double spine_link_rate_per_link_day = 0.0; ///< leaf-to-spine links; a failed one removes its capacity (0: off)
  model::Distribution spine_link_repair;
  std::string trace_path;               ///< optional replay of (time, cluster, node, category); "" = none
  bool isolated_until_operator = false; ///< isolated nodes wait for an operator instead of coming back after repair
  /// The failure clock (both true by default, as in a real fleet; off, single-job reliability models such as
  /// "time = L + L N r R" hold exactly): whether a node can fail while its job restarts (from a failure
  /// until it computes again), and whether a failure loses the work since the last persisted checkpoint.
  bool during_restart = true;
  bool lose_work = true;
  /// A fault that strikes a node no job holds stays latent (the node looks up) until a job starts on it
  /// (the job fails at start) or a health check finds it; off, it takes the node out at once.
  bool latent_when_idle = false;
  HealthCheckConfig health_check;
  RepairConfig repair;
  HazardConfig hazard;
  SlowConfig slow;
  GroupFailureConfig group;
  model::Distribution operator_return; ///< operator's delay to return an isolated, repaired node

  /// Whether faults can be latent (struck on an idle node, or left by a repair that did not fix the node):
  /// then a job that starts on a node finds its fault, and health checks run.
  bool has_latent_faults() const { return latent_when_idle || repair.can_fail(); }
  /// The base rate of one node (the categories' sum), before its own factor.
  double node_rate_per_day() const;
  /// The mean rate of a node over the cluster (base x node_factor.mean_factor()): the one rate that the
  /// failure process draws around and that Young/Daly and the validation read.
  double mean_node_rate_per_day() const;
  /// Index of the leaf-switch category (= the number of node categories).
  std::uint32_t switch_category() const;
  /// Number of categories, the switch included.
  std::size_t category_count() const;
  /// Name of category `index` (0..switch_category()).
  std::string category_name(std::uint32_t index) const;
  /// Every category's name by index, the switch last.
  std::vector<std::string> category_names() const;
};

/// `checkpoint:` — when and how training jobs save their state.
struct CheckpointConfig {
  PolicySpec policy;                 ///< none | fixed | young_daly | daly
  bool async = false;                ///< snapshot to host memory, persist in the background
  double bytes_per_param = 14.0;     ///< mixed-precision Adam: bf16 weights 2 + fp32 master 4 + moments 8
  std::uint32_t host_snapshots = 2;  ///< async snapshots host memory holds at once
  double gpus_per_pcie_switch = 2.0; ///< GPUs sharing one PCIe link to the host (HGX A100: 2)
  std::vector<model::JobType> applies_to{model::JobType::PRETRAIN};
  /// Model size assumed for a job that does not carry one, by its GPU count (ascending max_gpus).
  std::vector<std::pair<std::uint32_t, double>> params_by_gpus;

  bool applies(model::JobType type) const;
  double model_params_for(const model::JobSpec& job) const;
};

/// `preemption:` — what preempting a running job costs.
struct PreemptionConfig {
  bool save_on_preempt = true; ///< write a checkpoint before releasing (else lose work since the last)
  /// Save and restore costs of jobs without a checkpoint model (assumption: a minute each).
  model::Distribution fallback_save = model::Distribution::fixed(60.0);
  model::Distribution fallback_restore = model::Distribution::fixed(60.0);
  static const ParamTable<PreemptionConfig>& table();
};

/// `recovery.quarantine:` the lemon-node rule (Meta RSC, HPCA'25: isolating nodes that fail repeatedly cut
/// large jobs' failure rates): a node that fails `after_failures` times within `window_s` is kept out of
/// service for `release_after_s` once repaired. Off while after_failures is 0 (the default).
struct QuarantineConfig {
  std::uint32_t after_failures = 0;
  double window_s = 7 * 86400.0;         ///< assumption: a week
  double release_after_s = 30 * 86400.0; ///< assumption: a month of burn-in and vendor repair
  static const ParamTable<QuarantineConfig>& table();
};

/// `recovery.hosts:` where a restart's replacement nodes come from once the warm standbys
/// (`recovery.spare_nodes`, swapped in at once) do not cover its failed nodes. Assumptions, off by
/// default: ByteRobust reports warm standbys restarting 10.87x faster than a full requeue
/// (data/fleets/reliability_figures.csv, byterobust_warm_standby); Meta's RSC reports that 16% of the
/// goodput hardware failures cost comes from preempting other jobs (meta_second_order).
struct HostsConfig {
  model::Distribution selection = model::Distribution::fixed(0.0); ///< time to choose new hosts
  std::vector<model::JobType> preemptible; ///< running jobs a restart may take nodes from (none: waits)

  bool preempts() const { return !preemptible.empty(); }
  static const ParamTable<HostsConfig>& table();
};

/// `recovery:` — what happens after an infrastructure failure.
struct RecoveryConfig {
  PolicySpec policy; ///< manual | automatic
  std::vector<model::JobType> applies_to{model::JobType::PRETRAIN};
  std::uint32_t spare_nodes = 0; ///< per cluster, held back for restarts (a repaired node refills)
  Location spare_nodes_where;    ///< of `recovery.spare_nodes`, for errors found with the clusters
  QuarantineConfig quarantine;
  HostsConfig hosts;
  bool applies(model::JobType type) const;
};

struct FaultConfig {
  FailureConfig failures;
  CheckpointConfig checkpoint;
  PreemptionConfig preemption;
  RecoveryConfig recovery;
};

/// Parses the `failures`, `checkpoint`, `preemption` and `recovery` sections of `root` (all optional).
FaultConfig parse_fault_config(const Node& root);
/// The node category `group.category` names (its index into g), or a located error listing `categories`.
void resolve_group_category(const Node& group, GroupFailureConfig& g, const std::vector<FailureCategoryConfig>& cats);
/// Parses the `recovery` section (optional): sim/config/schema_recovery.cpp.
RecoveryConfig parse_recovery(const Node& node);

} // namespace acme::config
