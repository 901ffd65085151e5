#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/model/active_jobs.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"
#include "sim/model/node_bitset.hpp"

namespace acme::model {

/// The fixed shape of a cluster as policies see it.
struct ClusterShape {
  ClusterId id{};
  std::string name;
  std::uint32_t nodes = 0;
  std::uint32_t gpus_per_node = 0;         ///< GPUs of every node; with gpus_of_node: the most any node has
  std::vector<std::uint32_t> gpus_of_node; ///< GPUs of each node when nodes differ (empty: all gpus_per_node)
  std::uint32_t cpu_pool_cores = 0;        ///< cores shared by CPU jobs
  std::vector<std::uint32_t> leaf_of_node; ///< leaf switch of each node (empty: all under leaf 0)
  std::uint32_t leaves = 1;
  double utc_offset_s = 0.0; ///< local time = UTC + offset (daily rhythms, on-call hours)

  /// GPUs of one node (heterogeneous clusters: its own count; otherwise gpus_per_node).
  std::uint32_t gpus_of(NodeId node) const {
    return gpus_of_node.empty() ? gpus_per_node : gpus_of_node[to_index(node)];
  }
};

/// A node's power as the cluster's power policy set it. OFF and BOOTING nodes are out of service
/// (is_up() false) until their boot is over; a node that is ON may still be down (failed, spare).
enum class NodePower : std::uint8_t { ON, OFF, BOOTING };

/// Why a node is out of service (ClusterView::out_of_service): bits, as several reasons can hold at once.
struct OutOfService {
  static constexpr std::uint8_t REPAIR = 1;        ///< failed, under automatic repair
  static constexpr std::uint8_t MANUAL_REPAIR = 2; ///< failed, its repair escalated to a person (failures.repair)
  static constexpr std::uint8_t QUARANTINE = 4;    ///< kept out after repeated failures (recovery.quarantine)
  static constexpr std::uint8_t SWITCH = 8;        ///< its leaf switch is down
  static constexpr std::uint8_t SPARE = 16;        ///< held in the spare pool for restarts (recovery.spare_nodes)
  static constexpr std::uint8_t POWER = 32;        ///< powered off or booting (the power policy)
  /// Its own failure, at whatever stage of repair.
  static constexpr std::uint8_t FAILED = REPAIR | MANUAL_REPAIR | QUARANTINE;
};

/// Node time out of service up to now, integrated as reasons change (summary.json's node availability).
struct OutOfServiceTime {
  static constexpr std::size_t REASONS = 6;       ///< OutOfService bits, lowest first
  std::array<double, REASONS> by_reason_node_s{}; ///< a node out for several reasons counts in each
  double any_node_s = 0.0;                        ///< out for any reason
  double failed_node_s = 0.0;                     ///< out for its own failure or its switch (FAILED | SWITCH)
};

/// Read-only picture of one cluster handed to its policies. The engine owns and updates it; tests
/// build one by hand with the same mutators. Policies receive it as `const ClusterView&`.
class ClusterView {
public:
  explicit ClusterView(ClusterShape shape);

  // ---- queries (what policies use) ----
  const ClusterShape& shape() const { return shape_; }
  double now_s() const { return now_s_; }
  /// Whole GPUs of `node` that nothing uses (a shared GPU with any fractional use is not free).
  std::uint32_t free_gpus(NodeId node) const { return free_gpus_[to_index(node)]; }
  /// GPUs the node has.
  std::uint32_t gpus_of(NodeId node) const { return shape_.gpus_of(node); }
  bool is_up(NodeId node) const { return up_.test(to_index(node)); }
  /// Why the node is out of service: OutOfService bits (0 while in service).
  std::uint8_t out_of_service(NodeId node) const { return out_of_service_[to_index(node)]; }
  std::uint32_t leaf_of(NodeId node) const;
  /// Up nodes with exactly `k` free GPUs (0 <= k <= gpus_per_node), lowest index first.
  const NodeBitset& nodes_with_free_gpus(std::uint32_t k) const { return by_free_[k]; }
  /// Idle nodes: up nodes with at least one GPU, all of them free (no whole or shared use).
  const NodeBitset& idle_node_set() const { return idle_; }
  /// Up nodes with at least one shared GPU in use (partially used GPUs).
  const NodeBitset& nodes_with_shared_gpus() const { return shared_nodes_; }
  /// Milli-GPUs in use on shared GPU `gpu` of `node` (0: not open as a shared GPU).
  std::uint32_t shared_gpu_milli(NodeId node, std::uint32_t gpu) const;
  /// Shared GPUs in use on `node`.
  std::uint32_t shared_gpus(NodeId node) const { return shared_on_node_[to_index(node)]; }
  std::uint32_t up_nodes() const { return static_cast<std::uint32_t>(up_.count()); }
  NodePower power_of(NodeId node) const { return power_[to_index(node)]; }
  /// Nodes switched off by the power policy (not booting).
  const NodeBitset& powered_off_node_set() const { return off_; }
  std::uint32_t powered_off_nodes() const { return static_cast<std::uint32_t>(off_.count()); }
  std::uint32_t booting_nodes() const { return booting_; }
  std::uint32_t free_gpus_total() const { return free_gpus_up_; }
  /// GPUs not free: held whole by jobs or shared by fractional jobs (up and down nodes).
  std::uint32_t busy_gpus() const { return busy_gpus_; }
  /// GPUs allocated to jobs in thousandths: 1000 per whole GPU plus each fractional share.
  std::uint64_t allocated_gpu_milli() const { return allocated_milli_; }
  /// allocated_gpu_milli() in GPUs (equals busy_gpus() when no GPU is shared).
  double allocated_gpus() const { return static_cast<double>(allocated_milli_) / MILLI_PER_GPU; }
  /// Integral of allocated GPUs over simulated time up to now_s() (GPU-seconds allocated; a fractional
  /// job counts its share).
  double busy_gpu_seconds() const { return busy_gpu_seconds_at(now_s_); }
  /// The same integral up to `at_s` (not before now_s()), the allocation held as it is now.
  double busy_gpu_seconds_at(double at_s) const {
    return busy_gpu_seconds_ + allocated_gpus() * (at_s - integrated_s_);
  }
  std::uint32_t total_gpus() const { return total_gpus_; }
  std::uint32_t free_cpu_cores() const { return free_cpu_cores_; }
  const JobEntry* find_job(JobId id) const;
  const JobEntry& job(JobId id) const;
  /// Active jobs in id order (deterministic iteration).
  const std::map<JobId, JobEntry>& jobs() const { return jobs_.map(); }
  std::size_t queued_jobs() const { return queued_jobs_; }
  std::uint64_t queued_gpus() const { return queued_gpus_; }
  std::size_t running_jobs() const { return jobs_.size() - queued_jobs_ - held_jobs_; }
  std::size_t held_jobs() const { return held_jobs_; }
  /// Whether `placement` fits the free GPUs (and shared GPUs' spare milli) of up nodes right now.
  bool fits(const Placement& placement) const;

  // ---- mutators (the engine; tests building scenarios) ----
  void set_now(double now_s);
  JobEntry& add_job(JobSpec spec);
  JobEntry& mutable_job(JobId id);
  void start_job(JobId id, Placement placement);
  /// Frees the job's resources and puts it back in the queue.
  void stop_job(JobId id);
  /// Frees the job's resources and holds it out of the queue (recovery in progress).
  void hold_job(JobId id);
  /// Puts a held job back in the queue.
  void requeue_job(JobId id);
  /// Moves a running job's whole-GPU share from node `from` to up node `to` (a failed node replaced).
  void move_share(JobId id, NodeId from, NodeId to);
  /// Removes a queued or held job (it ended or was rejected).
  void remove_job(JobId id);
  void set_node_up(NodeId node, bool up);
  void set_out_of_service(NodeId node, std::uint8_t reasons);
  void set_node_power(NodeId node, NodePower power);
  /// Node time out of service from the start up to now (node-seconds).
  OutOfServiceTime out_of_service_time() const;

private:
  /// Adds the nodes out of service since the last change to out_of_service_time_ (before each change).
  void integrate_out_of_service();
  /// Adds the allocated GPUs since the last change to busy_gpu_seconds_ (before each change).
  void integrate_busy();
  void take_gpus(NodeId node, std::uint32_t gpus);
  void give_gpus(NodeId node, std::uint32_t gpus);
  void release(JobEntry& entry);
  void take_share(const NodeShare& share);
  void give_share(const NodeShare& share);
  void rebucket(NodeId node, std::uint32_t old_free);
  void update_sets(std::uint32_t n);
  std::uint32_t& slot(NodeId node, std::uint32_t gpu) { return slot_milli_[gpu_offset_[to_index(node)] + gpu]; }

  ClusterShape shape_;
  double now_s_ = 0.0;
  std::vector<std::uint32_t> free_gpus_;
  NodeBitset up_;
  std::vector<NodePower> power_;
  std::vector<std::uint8_t> out_of_service_;
  NodeBitset off_;
  std::uint32_t booting_ = 0;
  std::vector<NodeBitset> by_free_;
  NodeBitset idle_;
  NodeBitset shared_nodes_;
  std::vector<std::uint32_t> gpu_offset_; ///< first GPU of each node in slot_milli_
  std::vector<std::uint32_t> slot_milli_; ///< milli in use per GPU as a shared GPU (0: not shared)
  std::vector<std::uint32_t> shared_on_node_;
  std::uint32_t total_gpus_ = 0;
  std::uint32_t free_gpus_up_ = 0;
  std::uint32_t busy_gpus_ = 0;
  std::uint64_t allocated_milli_ = 0;
  double busy_gpu_seconds_ = 0.0;                                        ///< up to integrated_s_
  double integrated_s_ = 0.0;                                            ///< the last change of allocated_milli_
  std::array<std::uint32_t, OutOfServiceTime::REASONS> out_by_reason_{}; ///< nodes out now, per reason
  std::uint32_t out_any_ = 0;
  std::uint32_t out_failed_ = 0;
  OutOfServiceTime out_of_service_time_; ///< up to out_integrated_s_
  double out_integrated_s_ = 0.0;
  std::uint32_t free_cpu_cores_ = 0;
  ActiveJobs jobs_;
  std::size_t queued_jobs_ = 0;
  std::size_t held_jobs_ = 0;
  std::uint64_t queued_gpus_ = 0;
};

} // namespace acme::model
