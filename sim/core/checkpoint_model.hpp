#pragma once

#include "policies/checkpoint/checkpoint_policy.hpp"
#include "sim/config/faults.hpp"
#include "sim/core/cluster_runtime.hpp"
#include "sim/core/io_service.hpp"
#include "sim/core/job_control.hpp"
#include "sim/core/slow_nodes.hpp"
#include "sim/core/timer_service.hpp"
#include "sim/metrics/event_trace.hpp"
#include "sim/model/cluster_rngs.hpp"
#include "sim/model/rng.hpp"

namespace acme::core {

/// Costs the checkpoint model takes from the calibration.
struct CheckpointCosts {
  double d2h_Bps = 0.0;        ///< device-to-host copy per GPU (pinned memory), for async snapshots
  double h2d_Bps = 0.0;        ///< host-to-device per GPU, after reading a checkpoint back
  double async_slowdown = 0.0; ///< share of compute lost while a background persist runs
};

/// Told when a job starts or stops computing (the network model puts its flows on the fabric then).
/// Both may be called more than once for one change; implementations ignore repeats.
class ComputeHooks {
public:
  virtual ~ComputeHooks() = default;
  virtual void on_compute_begin(model::JobId id, JobRuntime& job) = 0;
  virtual void on_compute_end(JobRuntime& job) = 0;
};

/// A job's computation and its checkpoints: computing segments between checkpoints, synchronous
/// writes or asynchronous snapshots persisted in the background through the contended storage path,
/// restores after a restart, saves on preemption, rollback to the last persisted checkpoint on a
/// failure. Its state is each job's CheckpointState.
///
/// Progress is in seconds of computation (the job's recorded service time is its work W). A
/// checkpoint persists the progress made when it started. A computing segment first pays its debt
/// (wall time lost to background persists), then progresses at the job's progress rate: 1, or less
/// while the network slows it (set_progress_rate stops progress at the change and reschedules the
/// segment's end).
class CheckpointModel {
public:
  /// `stall_rng` draws the fallback save and restore costs of jobs without a checkpoint model;
  /// `trace` (optional) receives a row per checkpoint persisted and per restore.
  CheckpointModel(const config::FaultConfig& faults, const policies::CheckpointPolicy& policy, CheckpointCosts costs,
                  TimerService& timer, IoService& io, JobTable& table, JobControl& control,
                  model::ClusterRngs& stall_rng, metrics::EventTrace* trace = nullptr);

  const CheckpointCosts& costs() const { return costs_; }
  /// Per cluster, the node failure rate a failure trace shows (its failures over its nodes and span), for
  /// the MTBF that Young/Daly read when failures come from a trace alone; 0 where none is known.
  void set_traced_rates(std::vector<double> rate_per_node_s) { traced_rate_per_node_s_ = std::move(rate_per_node_s); }
  /// Connects the network model (optional): told when jobs start and stop computing.
  void attach(ComputeHooks* hooks) { hooks_ = hooks; }
  /// A job enters the system: its work, whether the model applies, the size of its checkpoints.
  void admit(JobRuntime& job, const model::JobSpec& spec) const;
  /// First estimates of C and R once the job holds nodes, until measured: the transfer alone at
  /// the bottleneck of the storage path.
  void estimate_costs(JobRuntime& job);
  /// The job was launched: it reads its checkpoint back first when it has one, then computes.
  void resume(model::JobId id, JobRuntime& job);
  /// SegmentEnded: the work is done, or a checkpoint is due.
  void on_segment_end(model::JobId id, JobRuntime& job);
  /// StallEnded: a snapshot copy, a restore's device copy or a fallback save or restore is over.
  void on_stall_end(model::JobId id, JobRuntime& job);
  /// A transfer of the job ended (a write, a persist, a restore read or a save); stale ones are ignored.
  void on_transfer_done(model::JobId id, JobRuntime& job, const TransferDone& done);
  /// Brings the progress of a computing job up to now (before it is interrupted); it stops computing.
  void stop_progress(JobRuntime& job) const;
  /// From now on the job progresses `rate` (0..1] seconds of work per second of wall time. A computing
  /// job's segment is settled at the old rate and its end rescheduled; its unpaid debt carries over.
  void set_progress_rate(model::JobId id, JobRuntime& job, double rate);
  /// The job's slowest node computes at `pace` (failures.slow): as set_progress_rate, for its nodes.
  void set_node_pace(model::JobId id, JobRuntime& job, double pace);
  /// Fail-slow nodes whose pace a job takes when it starts computing (none: full speed).
  void attach_slow_nodes(const SlowNodes* slow) { slow_ = slow; }
  /// Drops the job's transfers in flight.
  void cancel_transfers(JobRuntime& job);
  /// A failure: the job falls back to its last persisted checkpoint (progress already stopped).
  void roll_back(JobRuntime& job, double gpu_share) const;
  /// A preempted job (progress stopped, transfers cancelled) saves first when configured and
  /// `may_save`, and its attempt ends once saved; otherwise it loses its unsaved progress and the
  /// attempt ends now.
  void preempt(model::JobId id, JobRuntime& job, bool may_save = true);

private:
  void begin_compute(model::JobId id, JobRuntime& job);
  /// A computing segment from now to the next stop (checkpoint due or work done).
  void start_segment(model::JobId id, JobRuntime& job);
  /// Brings progress up to now at the segment's rate (the wall time lost to a rate below 1 is counted).
  void settle(JobRuntime& job) const;
  /// Of `useful` wall time computing that gained `gained` progress, what the network (rate) and slow
  /// nodes (node_pace) cost the job.
  static void account_slowdown(JobRuntime& job, double useful, double gained);
  /// Sets one factor of the job's pace (its network rate or its nodes' pace): a computing job's segment is
  /// settled at the old pace and re-timed, its unpaid debt carried over.
  void change_pace(model::JobId id, JobRuntime& job, double CheckpointState::*factor, double value);
  void begin_checkpoint(model::JobId id, JobRuntime& job);
  void begin_snapshot(model::JobId id, JobRuntime& job);
  void on_persist_done(model::JobId id, JobRuntime& job, const TransferDone& done);
  void saved(model::JobId id, JobRuntime& job);
  double interval_s(const JobRuntime& job, const model::JobSpec& spec) const;
  double mtbf_s(const JobRuntime& job) const;
  TransferId start_transfer(model::JobId id, JobRuntime& job, IoDirection direction);
  void schedule_stall(model::JobId id, const JobRuntime& job, double stall_s);
  /// A checkpoint row (`restore` false) or a restore row in the event trace, if it is on.
  void trace(model::JobId id, const JobRuntime& job, bool restore, std::string_view detail) const;

  const config::FaultConfig& faults_;
  std::vector<double> traced_rate_per_node_s_; ///< per cluster (set_traced_rates); empty: none
  const policies::CheckpointPolicy& policy_;
  CheckpointCosts costs_;
  TimerService& timer_;
  IoService& io_;
  JobTable& table_;
  JobControl& control_;
  model::ClusterRngs& stall_rng_;
  metrics::EventTrace* trace_;
  ComputeHooks* hooks_ = nullptr;
  const SlowNodes* slow_ = nullptr;
};

} // namespace acme::core
