#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/config/power_config.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/metrics/power_report.hpp"
#include "sim/model/cluster_view.hpp"

namespace acme::core {

/// The energy model of every cluster: what each GPU, GPU server, CPU server, switch and storage system
/// draws (config `power:` and each cluster's gpu.idle_power / max_power), integrated exactly between
/// the changes that move it. Power is piecewise constant between events (a job's stage or plan step, an
/// allocation, a node switched off or on), so energy is a sum of power x duration over those intervals,
/// never a per-second loop. It never changes what happens to jobs.
///
/// A GPU draws its node's idle power unless its job computes (the job's busy draw, by type), stalls for
/// a checkpoint, restores or loads a model; a node's base (CPUs, memory, NICs, fans) rises linearly with
/// its GPUs' draw above idle; the supplies lose 1 - psu_efficiency of it all. A job is charged its GPUs'
/// draw and its share of its nodes' base (by GPUs held, plus the base its own load adds).
///
/// A large job carries the nodes it holds whole: such a node draws what the job draws, so a change of the
/// job's draw moves the cluster's sums by one product, and the job's time at each draw is booked to those
/// nodes' histograms when it leaves them. A checkpoint of a 4,096-node job then costs what one of a
/// single-node job costs.
class PowerMeter final : public ActivityListener {
public:
  /// `table` holds the clusters (their views give placements, shapes and the time).
  PowerMeter(const config::Config& config, JobTable& table);

  /// A job enters: its busy draw is drawn (stream "engine/power", by job id) and its activity is watched.
  void admit(model::JobId id, JobRuntime& job, const model::JobSpec& spec);
  /// The job holds its placement (the view shows it): its GPUs and base share count from now.
  void allocated(JobRuntime& job);
  /// The job is about to free its placement (the view still shows it).
  void releasing(JobRuntime& job);
  /// The job's placement changed while it drew idle (a failed node replaced).
  void placement_changed(JobRuntime& job, const std::vector<model::NodeSwap>& swaps);
  /// Its stage or plan step changed: its draw follows.
  void on_activity(JobRuntime& job, double now_s) override;
  /// The power policy switched a node off, started its boot, or its boot ended (ON).
  void set_node_power(model::ClusterId cluster, std::uint32_t node, model::NodePower power, double now_s);

  /// Total energy of a cluster from time 0 to `at_s` (not before its last change), joules.
  double energy_J(model::ClusterId cluster, double at_s) const;
  /// Total power of a cluster now, watts.
  double power_W(model::ClusterId cluster) const;
  /// A node's GPUs' idle draw, per GPU (idle_power plus the node's offset within idle_spread).
  double node_idle_W(model::ClusterId cluster, std::uint32_t node) const;
  /// Closes every account at `now_s` (the end of the run) and reports each cluster.
  std::vector<metrics::ClusterPowerReport> finish(double now_s);

private:
  struct NodeMeter {
    std::uint32_t gpus = 0;
    double idle_W = 0.0;      ///< per GPU
    double slope = 0.0;       ///< DC base watts per GPU watt above idle
    double extra_W = 0.0;     ///< its GPUs' draw above idle (jobs)
    double active_gpus = 0.0; ///< GPUs drawing above idle
    double since_s = 0.0;     ///< last change
    model::NodePower power = model::NodePower::ON;
    bool carried = false;          ///< held whole by a job that books it from its ledger when it leaves
    std::uint64_t stamp = 0;       ///< the last placement that held it whole (take_placement)
    std::uint32_t power_class = 0; ///< nodes of one class draw alike (ClusterMeter::classes)
  };
  struct ClusterMeter {
    std::vector<NodeMeter> nodes;
    std::vector<NodeMeter> classes; ///< one node of each power class (idle draw, GPUs)
    double idle_W = 0.0;            ///< gpu.idle_power
    double base_idle_W = 0.0;       ///< DC base of a node at idle
    double efficiency = 1.0;        ///< of the supplies
    double node_off_W = 0.0;        ///< a switched-off node
    double fixed_W = 0.0;           ///< switches and storage
    double network_W = 0.0;         ///< switches
    std::uint32_t cpu_servers = 0;
    double cpu_idle_W = 0.0;     ///< per CPU server
    double cpu_per_core_W = 0.0; ///< per busy pool core, above idle
    double cpu_used_cores = 0.0;
    std::uint64_t draw_seed = 0; ///< of the busy draws: the run seed and the cluster's name
    std::uint64_t gpu_jobs = 0;  ///< GPU jobs admitted so far: a job's draw is keyed by its rank here
    double gpu_W = 0.0;          ///< sums now: GPUs (DC), GPU servers (wall), CPU servers (wall)
    double nodes_W = 0.0;
    double cpu_W = 0.0;
    double last_s = 0.0; ///< sums integrated up to here
    double gpu_J = 0.0;
    double nodes_J = 0.0;
    double cpu_J = 0.0;
    metrics::ClusterPowerReport report;
  };

  ClusterMeter make_cluster(const config::ClusterConfig& cc, const model::ClusterView& view) const;
  ClusterMeter& meter_of(const JobRuntime& job) { return clusters_[model::to_index(job.cluster)]; }
  double node_wall_W(const ClusterMeter& c, const NodeMeter& n) const;
  /// The wall draw of a powered node whose GPUs draw `extra_W` above idle in all.
  double node_wall_at_W(const ClusterMeter& c, const NodeMeter& n, double extra_W) const;
  /// The job's shares kept node by node: all of its placement, or the ones it does not carry.
  const std::vector<model::NodeShare>& node_by_node_shares(const JobRuntime& job) const;
  /// The job's draw sums for `placement`: nodes it now holds whole join its ledger, nodes it left are booked.
  void take_placement(ClusterMeter& c, JobPower& p, const std::vector<model::NodeShare>& placement, double now_s);
  /// The placement after `swaps` when the job carries every node swapped out and each swap is of whole
  /// nodes alike: each node left is booked and each node joined starts, at a cost independent of the
  /// job's size. False (nothing changed) otherwise: take_placement then walks the whole placement.
  bool swap_carried(ClusterMeter& c, JobPower& p, const std::vector<model::NodeSwap>& swaps, double now_s);
  /// Books and hands back the carried nodes the placement just taken (take_placement) no longer holds.
  void book_nodes_left(ClusterMeter& c, JobPower& p, double now_s);
  /// Books the job's ledger (since the node joined it) to one node it carries and hands it back.
  void book_node(ClusterMeter& c, JobPower& p, std::uint32_t index, double now_s);
  /// Books the job's ledger to `count` nodes of power class `n` that it carried from the ledger's start.
  void book_class(ClusterMeter& c, const JobPower& p, const NodeMeter& n, double count);
  /// Books the job's ledger to the nodes it carries and hands them back to per-node keeping.
  void book_carried(ClusterMeter& c, JobPower& p, double now_s);
  double node_gpu_W(const NodeMeter& n) const;
  /// Integrates the cluster's sums up to `now_s`.
  void advance(ClusterMeter& c, double now_s);
  /// Books the node's draw since its last change (histograms, time off).
  void touch(ClusterMeter& c, NodeMeter& n, double now_s);
  /// Changes a node's job draw by `extra_W` on `gpus` GPUs (`active` GPUs start or stop drawing above idle).
  void shift_node(ClusterMeter& c, NodeMeter& n, double extra_W, double active, double now_s);
  /// Books the job's energy and its GPUs' draw since its last change.
  void close_segment(ClusterMeter& c, JobRuntime& job, double now_s);
  /// Moves the job to draw `extra_W` per GPU above idle from `now_s`.
  void redraw(JobRuntime& job, double extra_W, bool stalled, double now_s);
  double extra_for(const JobRuntime& job) const;
  double plan_extra(const JobRuntime& job) const;
  void set_cpu_cores(ClusterMeter& c, double delta_cores, double now_s);

  const config::PowerConfig& power_;
  JobTable& table_;
  std::uint64_t seed_;
  std::vector<ClusterMeter> clusters_;
  std::uint64_t stamp_ = 0; ///< counts take_placement calls
  /// Per job (by id), the nodes that joined its ledger after it began, with the ledger as it was then.
  std::unordered_map<std::uint64_t, std::vector<std::pair<std::uint32_t, std::vector<DrawLevel>>>> joined_;
};

} // namespace acme::core
