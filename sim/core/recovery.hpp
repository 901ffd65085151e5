#pragma once

#include <cstdint>
#include <vector>

#include "policies/recovery/recovery_policy.hpp"
#include "sim/config/faults.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/core/io_service.hpp"
#include "sim/core/job_control.hpp"
#include "sim/core/node_availability.hpp"
#include "sim/core/timer_service.hpp"
#include "sim/model/cluster_rngs.hpp"
#include "sim/model/rng.hpp"

namespace acme::core {

/// What happens to a training job after an infrastructure failure, as its recovery policy plans it:
/// manual recovery releases the job and queues it again once the failure is detected, diagnosed and
/// the faulty node isolated; a hung job holds its nodes until the hang is noticed; automatic
/// recovery keeps the healthy nodes and restarts in place on a replacement node: warm standbys (spares)
/// at once; otherwise, after choosing new hosts (recovery.hosts.selection), idle nodes, then nodes of
/// preemptible jobs (recovery.hosts.preemptible), which are preempted; or it waits ahead of the queue.
class Recovery {
public:
  /// `epoch_unix_s`: Unix time of simulated time 0 (for the clusters' local time of day).
  Recovery(const config::FaultConfig& faults, const policies::RecoveryPolicy& policy, TimerService& timer,
           IoService& io, JobTable& table, JobControl& control, NodeAvailability& nodes, model::ClusterRngs& rng,
           double epoch_unix_s);

  /// Whether recovery applies to the job (otherwise a failure ends it).
  bool applies(const model::JobSpec& spec) const { return faults_.recovery.applies(spec.type); }
  /// Holds back each cluster's spare nodes (its last nodes), at the start of the run.
  void set_aside_spares();
  /// A repaired node refills its cluster's spare pool when the pool is short and no job holds it (a node
  /// still in a recovering, hung or waiting job's placement comes back to that job); true when taken.
  bool take_as_spare(model::ClusterId cluster, std::uint32_t node);
  /// A failure of `category` struck the job (its progress rolled back, its transfers cancelled).
  void on_failure(model::JobId id, JobRuntime& job, std::uint32_t category);
  /// HangNoticed: the hung job is killed; it is queued again at `requeue_at_s`.
  void on_hang_noticed(model::JobId id, JobRuntime& job, double requeue_at_s);
  /// JobRecovered: the recovery steps are done.
  void on_recovered(model::JobId id, JobRuntime& job);
  /// Jobs waiting for replacement nodes restart as nodes free up (first come, first served).
  void restart_awaiting_jobs();
  /// Spare nodes held back in `cluster`.
  const std::vector<model::NodeId>& spares(model::ClusterId cluster) const { return spares_[model::to_index(cluster)]; }

private:
  /// The policy's notice of a failure that shows at `shows_at_s` (after its category's silent time).
  policies::FailureNotice notice_of(const JobRuntime& job, const model::JobSpec& spec, std::uint32_t category,
                                    double shows_at_s) const;
  /// Moves the job off its down nodes onto spares (only those when `standbys_only`) or idle nodes and
  /// restarts it; false when too few.
  bool replace_down_nodes(model::JobId id, JobRuntime& job, bool standbys_only);
  /// New hosts for the job: spares and idle nodes, else nodes of preemptible jobs (recovery.hosts),
  /// which are preempted; false when too few.
  bool take_new_hosts(model::JobId id, JobRuntime& job);
  /// Jobs to preempt so that enough nodes free up for the job's down nodes; empty when they cannot.
  std::vector<model::JobId> victims_for(model::JobId id, const JobRuntime& job) const;
  /// Whether a restart may preempt the job: running, of a type recovery.hosts.preemptible names.
  bool preemptible(model::JobId id) const;
  /// Spares of `cluster` ready to take (the pool alone holds them down).
  std::size_t ready_spares(model::ClusterId cluster) const;
  bool spare_ready(model::ClusterId cluster, model::NodeId spare) const;

  const config::FaultConfig& faults_;
  const policies::RecoveryPolicy& policy_;
  TimerService& timer_;
  IoService& io_;
  JobTable& table_;
  JobControl& control_;
  NodeAvailability& nodes_;
  model::ClusterRngs& rng_;
  double epoch_unix_s_;
  std::vector<std::vector<model::NodeId>> spares_;  ///< per cluster: nodes held back for restarts
  std::vector<std::vector<model::JobId>> awaiting_; ///< per cluster: recovered jobs waiting for a node
};

} // namespace acme::core
