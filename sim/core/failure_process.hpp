#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "sim/config/faults.hpp"
#include "sim/core/failure_trace.hpp"
#include "sim/core/latent_faults.hpp"
#include "sim/core/node_availability.hpp"
#include "sim/core/node_factors.hpp"
#include "sim/core/timer_service.hpp"
#include "sim/metrics/node_report.hpp"
#include "sim/model/cluster_rngs.hpp"
#include "sim/model/rng.hpp"

namespace acme::core {

/// What a failure does to the jobs (JobLifecycle implements it; tests fake it).
class FailureHooks {
public:
  virtual ~FailureHooks() = default;
  /// A node failed (before it goes down): the jobs running on it fail with `category`.
  virtual void fail_node_jobs(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) = 0;
  /// The node's leaf switch failed: its running jobs fail, unless a failure hit them this instant.
  virtual void fail_switch_jobs(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) = 0;
  /// A failed node is repaired: it comes back into service (or refills the spare pool).
  virtual void node_repaired(model::ClusterId cluster, std::uint32_t node) = 0;
  /// Whether a job on the node is restarting: hit by a failure and not computing again yet.
  virtual bool node_restarting(model::ClusterId cluster, std::uint32_t node) const = 0;
  /// Whether a job holds `node` (a fault on an idle node may stay latent).
  virtual bool node_busy(model::ClusterId cluster, std::uint32_t node) const = 0;
};

/// A cluster's shape as the failure process sees it.
struct FailureShape {
  std::uint32_t nodes = 0;
  std::vector<std::vector<model::NodeId>> nodes_of_leaf; ///< the nodes under each leaf switch
};

/// Infrastructure failures: per node, a random failure process by category (exponential times at
/// the categories' total rate), repairs, leaf switch outages that take their nodes down, and the
/// failures of a failure trace. A failed node fails again only once repaired.
class FailureProcess {
public:
  FailureProcess(const config::FailureConfig& config, std::vector<FailureShape> clusters, TimerService& timer,
                 model::ClusterRngs& rng, NodeAvailability& nodes, FailureHooks& hooks);

  /// Each node's factor on the base rate (draw_node_factors); before start(). Without, every node has 1.
  void set_node_factors(NodeFactors factors) { factors_ = std::move(factors); }
  /// The factor of a node on the base rate.
  double node_factor(model::ClusterId cluster, std::uint32_t node) const {
    return factors_.empty() ? 1.0 : factors_[model::to_index(cluster)][node];
  }
  /// The lemon-node rule (recovery.quarantine); before start(). Off unless after_failures > 0.
  void set_quarantine(const config::QuarantineConfig& rule) { quarantine_ = rule; }
  /// What failures did to every node up to `now_s`, in cluster and node order (nodes.csv).
  std::vector<metrics::NodeRecord> node_records(double now_s) const;
  /// Schedules the trace's failures and the first draws of every node and leaf switch.
  void start(const std::vector<FailureTraceRow>& trace);
  void on(const NodeFailed& event);
  void on(const NodeRepaired& event);
  void on(const LeafFailed& event);
  void on(const LeafRepaired& event);
  /// A slow node is evicted (failures.slow.evict_after): it fails as the "slow" category, its jobs with
  /// it, and is back after `remaining_s` (the rest of its slow period).
  void evict_slow(model::ClusterId cluster, std::uint32_t node, double remaining_s) {
    fail_node(cluster, node, config_.slow.category_index, metrics::Detection::SLOW_EVICTION, remaining_s);
  }
  /// GroupFailed: the group's nodes fail together (each job on them once), one repair draw for all.
  void on(const GroupFailed& event);
  void on(const TracedFailure& event);
  void on(const HealthCheck& event) { latent_.on(event); }
  /// A job starts on `node`: a latent fault there is found (the job fails at start).
  void job_lands(model::ClusterId cluster, std::uint32_t node) { latent_.job_lands(cluster, node); }
  /// Whether a job starting on a node can find a latent fault there (failures.latent_when_idle, or repairs
  /// that do not fix).
  bool has_latent_faults() const { return config_.has_latent_faults(); }
  /// The cluster's latent faults and repairs.
  FaultCounts fault_counts(model::ClusterId cluster) const;
  /// The failure category of switch outages (after the node categories).
  std::uint32_t switch_category() const { return static_cast<std::uint32_t>(config_.categories.size()); }

private:
  void draw_next_failure(model::ClusterId cluster, std::uint32_t node);
  /// A node's time to its next failure at mean `mean_s`, by failures.hazard (exponential or Weibull).
  double time_to_failure_s(model::ClusterId cluster, double mean_s);
  void draw_next_leaf_failure(model::ClusterId cluster, std::uint32_t leaf);
  void draw_next_group_failure(model::ClusterId cluster, std::uint32_t group);
  /// `how`: how the fault showed (counted per category). `repair_s` negative: drawn from the category's
  /// repair distribution. `jobs_failed`: its jobs were failed already (a group failure fails each job once).
  void fail_node(model::ClusterId cluster, std::uint32_t node, std::uint32_t category, metrics::Detection how,
                 double repair_s = -1.0, bool jobs_failed = false);
  /// How a fault striking the node now shows: under a job (crash or hang, by category), or on an idle node.
  metrics::Detection detection_now(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) const;
  std::uint32_t draw_category(model::ClusterId cluster);
  /// Whether the node's failures within the quarantine window reach the rule's count (this one included).
  bool reaches_quarantine(model::ClusterId cluster, std::uint32_t node);
  void begin_quarantine(model::ClusterId cluster, std::uint32_t node);
  /// The repair time of a failure: the category's automatic repair, then a manual one for a share.
  double repair_time_s(model::ClusterId cluster, std::uint32_t node, std::uint32_t category);
  /// Whether a finished repair fixed the node (failures.repair.fix_share; drawn only when below 1).
  bool repair_fixes(model::ClusterId cluster);

  /// What failures did to one node (nodes.csv).
  struct NodeTally {
    std::vector<std::uint32_t> failures; ///< by category, the switch last
    double down_s = 0.0;
    double down_since_s = -1.0; ///< out of service for a failure since (negative: in service)
    std::uint32_t repairs = 0;
    std::uint32_t manual_repairs = 0;
    std::uint32_t unfixed = 0;
    std::uint32_t fault_category = 0; ///< of its last failure: what an unfixed repair leaves on it
    std::uint32_t quarantines = 0;
    double quarantine_s = 0.0;
    double quarantined_since_s = -1.0;
    std::uint32_t avoided = 0;
    std::deque<double> recent_s; ///< its failure times within the quarantine window
  };
  NodeTally& tally(model::ClusterId cluster, std::uint32_t node) { return tally_[model::to_index(cluster)][node]; }

  const config::FailureConfig& config_;
  std::vector<FailureShape> clusters_;
  TimerService& timer_;
  model::ClusterRngs& rng_;
  NodeAvailability& nodes_;
  FailureHooks& hooks_;
  std::vector<std::vector<std::uint32_t>> generation_; ///< per cluster, per node: invalidates older draws
  NodeFactors factors_;                                ///< per cluster, per node; empty: all 1
  config::QuarantineConfig quarantine_;
  std::vector<std::vector<NodeTally>> tally_; ///< per cluster, per node
  /// Per cluster, per category: faults that took a node out, by how they showed.
  std::vector<std::vector<std::array<std::uint64_t, metrics::DETECTION_COUNT>>> detected_;
  LatentFaults latent_;
};

} // namespace acme::core
