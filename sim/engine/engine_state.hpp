#pragma once

// Engine-internal state shared by the event loop's translation units. Not included outside sim/engine.

#include <cstdint>
#include <exception>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "policies/builtin.hpp"
#include "policies/scheduling/scheduler.hpp"
#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"
#include "sim/core/event_queue.hpp"
#include "sim/engine/failure_trace.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/simgrid_io.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/recorder.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/distribution.hpp"
#include "sim/model/event.hpp"
#include "sim/model/rng.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace acme::engine {

/// Where a job is in its life, as the engine drives it.
enum class JobStage : std::uint8_t {
  WAITING,        ///< queued or held (no resources)
  STARTING,       ///< resources allocated, launch latency running
  RESTORING,      ///< reading its checkpoint back
  COMPUTING,      ///< making progress
  CHECKPOINTING,  ///< synchronous checkpoint: stalled for the whole write
  SNAPSHOTTING,   ///< asynchronous checkpoint: stalled for the device-to-host copy
  SLOT_WAIT,      ///< asynchronous checkpoint due but host memory holds no free snapshot slot
  SAVING,         ///< preempted: saving before releasing its resources
  HUNG,           ///< hit by a failure that hangs it: holds its nodes, makes no progress
  RECOVERING,     ///< automatic recovery: holds its healthy nodes while the faulty one is found
  PLAN,           ///< running the steps of its task plan (evaluation)
  AWAITING_NODES, ///< automatic recovery done, holds its healthy nodes until a replacement frees up
};

/// Engine-private run-time state of an active job (the public part is the ClusterView's JobEntry).
struct JobRuntime {
  model::ClusterId cluster{};
  std::uint32_t generation = 0;
  std::uint32_t attempts = 0;
  double first_start_s = model::UNKNOWN_TIME_S;
  JobStage stage = JobStage::WAITING;
  // Progress, in seconds of computation: work (W), done (P), persisted in the last good checkpoint.
  double work_s = 0.0;
  double progress_s = 0.0;
  double persisted_s = 0.0;
  double segment_start_s = 0.0;   ///< when the current computing segment began
  double segment_stop_s = 0.0;    ///< progress at which it stops
  double segment_debt_s = 0.0;    ///< extra wall time in this segment (slowdown of background persists)
  double debt_s = 0.0;            ///< slowdown owed to the next segment
  double next_checkpoint_s = 0.0; ///< progress at which the next checkpoint is due
  bool checkpointing = false;     ///< the checkpoint model applies to this job
  bool needs_restore = false;     ///< the next launch starts by reading its checkpoint back
  double checkpoint_bytes = 0.0;
  double checkpoint_cost_s = 0.0; ///< C: stall of the last checkpoint (estimate before the first); async:
                                  ///< snapshot stall plus the slowdown its background write caused
  double snapshot_stall_s = 0.0;  ///< async: the last snapshot's stall
  double persist_debt_s = 0.0;    ///< async: the slowdown the last finished background write caused
  double restart_cost_s = 0.0;    ///< R: the last restore (estimate before the first)
  core::TransferId transfer = 0;  ///< blocking transfer in flight (sync write, restore, save), 0 if none
  std::vector<std::pair<core::TransferId, double>> persists; ///< async persists in flight: (id, progress)
  double stage_start_s = 0.0;
  double failed_at_s = -1.0; ///< last failure, until computation resumes
  // Accounting.
  double gpu_seconds = 0.0; ///< GPU time allocated, all attempts
  double stall_s = 0.0;     ///< checkpoint stalls (training paused)
  double restore_s = 0.0;
  double lost_work_s = 0.0; ///< computation redone after failures or kills
  double lost_gpu_s = 0.0;  ///< GPU time lost to failures: rollback + detection .. restart + re-queue
  std::uint32_t checkpoints = 0;
  std::uint32_t preemptions = 0;
  std::vector<std::uint16_t> failures; ///< per failure category (config order); empty until the first
  std::uint32_t leaves = 0;
  std::uint32_t nodes = 0;
  double gpu_busy_s = 0.0;              ///< GPU-seconds spent in GPU steps of its plan
  std::vector<std::uint32_t> lane_step; ///< next step of each plan lane (prologue: the last entry)
  std::uint32_t lanes_left = 0;
  std::vector<std::pair<core::TransferId, std::int32_t>> lane_transfers; ///< plan reads in flight: (id, lane)
  double allocated_gpus = 0.0; ///< GPUs held in the current attempt (a fractional job: its share)
  double allocated_since_s = 0.0;
};

/// Costs the checkpoint model takes from the calibration.
struct CheckpointCosts {
  double d2h_Bps = 0.0;        ///< device-to-host copy per GPU (pinned memory), for async snapshots
  double h2d_Bps = 0.0;        ///< host-to-device per GPU, after reading a checkpoint back
  double async_slowdown = 0.0; ///< share of compute lost while a background persist runs
};

struct ClusterRuntime {
  explicit ClusterRuntime(model::ClusterView v) : view(std::move(v)) {}

  model::ClusterView view;
  std::unique_ptr<policies::Scheduler> scheduler;
  std::vector<model::Event> pending;
  double busy_at_last_sample = 0.0;
  std::vector<std::vector<model::JobId>> jobs_on_node; ///< running jobs with a share on each node
  std::vector<std::uint16_t> down_reasons;             ///< per node: failures and switch outages holding it down
  std::vector<std::uint32_t> failure_generation;       ///< per node: invalidates a pending failure event
  model::Distribution launch_latency;                  ///< allocation to start (e.g. Kubernetes pod start)
  std::vector<model::NodeId> spares;                   ///< nodes held back for restarts after failures
  std::vector<model::JobId> awaiting_nodes;            ///< recovered jobs waiting for a replacement node
  double storage_bw_Bps = 0.0;
  double storage_nic_bw_Bps = 0.0; ///< per node
};

struct Simulation::Impl {
  Impl(const config::Config& config, const policies::PolicyRegistries& registries,
       std::unique_ptr<workloads::WorkloadSource> workload, metrics::Recorder& recorder, SimulationOptions options);

  // event_loop.cpp: the loop, the heap, the schedulers, samples
  RunResult run();
  void on_timer(double date);
  void process_instant(double now_s);
  void arm_timer();
  double next_time() const;
  void handle(const core::EngineEvent& event);
  void post_transfer_done(const core::TransferDone& done);
  void take_submissions(double now_s);
  void run_schedulers();
  void sample_until(double time_s, bool inclusive);
  void check_invariants() const;
  double cluster_launch_latency(ClusterRuntime& cluster);
  void estimate_costs(JobRuntime& job);

  // job_lifecycle.cpp: entering, starting, releasing, ending, rejecting, recording
  void submit(model::JobSpec spec);
  void apply(ClusterRuntime& cluster, const model::Decision& decision);
  void start_job(ClusterRuntime& cluster, const model::StartJob& start);
  void allocate(ClusterRuntime& cluster, model::JobId id, JobRuntime& job);
  void release(model::JobId id, JobRuntime& job, model::JobPhase next);
  void finish_job(model::JobId id, JobRuntime& job, model::JobState state, model::EndCause cause);
  void preempt_job(model::JobId id);
  void reject_job(ClusterRuntime& cluster, model::JobId id, model::RejectReason reason);
  void record(const model::JobEntry& entry, const JobRuntime& job, double end_s, model::JobState state,
              model::RejectReason reason);
  ClusterRuntime& cluster_of_job(const JobRuntime& job) { return clusters[model::to_index(job.cluster)]; }

  // job_progress.cpp: launch, restore, compute segments, checkpoints, saves
  void on_launched(model::JobId id, JobRuntime& job);
  void begin_compute(model::JobId id, JobRuntime& job);
  void on_segment_end(model::JobId id, JobRuntime& job);
  void begin_checkpoint(model::JobId id, JobRuntime& job);
  void begin_snapshot(model::JobId id, JobRuntime& job);
  void on_stall_end(model::JobId id, JobRuntime& job);
  void on_transfer_done(const core::TransferDone& done);
  void on_persist_done(model::JobId id, JobRuntime& job, const core::TransferDone& done);
  void stop_progress(JobRuntime& job);
  void cancel_transfers(JobRuntime& job);
  void enter(model::JobId id, JobRuntime& job, JobStage stage);
  double checkpoint_interval_s(const JobRuntime& job, const model::JobSpec& spec) const;
  double job_mtbf_s(const JobRuntime& job) const;
  core::TransferId start_transfer(model::JobId id, JobRuntime& job, core::IoDirection direction);

  // task_runner.cpp: jobs with a task plan (evaluation trials, trial coordinator node jobs)
  void begin_plan(model::JobId id, JobRuntime& job);
  void run_step(model::JobId id, JobRuntime& job, std::int32_t lane);
  void on_step_end(model::JobId id, JobRuntime& job, std::int32_t lane);
  void on_plan_transfer_done(model::JobId id, JobRuntime& job, const core::TransferDone& done);
  void spawn(const model::JobSpec& follow_up, const model::JobSpec& parent);

  // faults.cpp: failure injection, repairs, recovery
  void start_failure_processes();
  void draw_next_failure(model::ClusterId cluster, std::uint32_t node);
  void on_node_failure(const core::NodeFailed& event);
  void fail_node(model::ClusterId cid, std::uint32_t node, std::uint32_t category);
  void node_down(ClusterRuntime& cluster, model::ClusterId cid, std::uint32_t node);
  void node_up(ClusterRuntime& cluster, model::ClusterId cid, std::uint32_t node);
  void on_node_repaired(const core::NodeRepaired& event);
  void on_leaf_failure(const core::LeafFailed& event);
  void on_leaf_repaired(const core::LeafRepaired& event);
  void fail_job(model::JobId id, JobRuntime& job, std::uint32_t category);
  void on_hang_noticed(model::JobId id, JobRuntime& job, double recovered_at);
  void on_recovered(model::JobId id, JobRuntime& job);
  bool replace_down_nodes(model::JobId id, JobRuntime& job);
  void restart_awaiting_jobs();
  void set_aside_spares();

  const config::Config& config;
  const config::FaultConfig& faults;
  topology::ClusterGraph graph;
  Platform platform;
  SimgridIo io;
  std::unique_ptr<workloads::WorkloadSource> workload;
  metrics::Recorder& recorder;
  SimulationOptions options;
  std::unique_ptr<policies::CheckpointPolicy> checkpoint_policy;
  std::unique_ptr<policies::RecoveryPolicy> recovery_policy;
  CheckpointCosts costs;
  model::Rng failure_rng;  ///< node and switch failures
  model::Rng recovery_rng; ///< recovery delays
  model::Rng launch_rng;   ///< launch latencies

  std::vector<ClusterRuntime> clusters;
  std::unordered_map<model::JobId, JobRuntime> jobs;
  core::EventQueue queue;
  std::optional<model::JobSpec> next_job;
  double now_s = 0.0;
  double armed_at_s = -1.0;
  double next_sample_s = 0.0;
  double last_sample_s = 0.0;
  std::exception_ptr error;
  RunResult result;
  std::vector<model::Event> events_scratch;
  std::uint64_t next_spawned_id = std::uint64_t{1} << 62; ///< ids of jobs spawned by plans
  std::vector<model::JobSpec> spawned;                    ///< submitted at the end of the instant's events
};

} // namespace acme::engine
