#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/core/engine_event.hpp"
#include "sim/core/job_accounting.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/parallel_layout.hpp"

namespace acme::core {

/// Where a job is in its life, as the engine drives it.
enum class JobStage : std::uint8_t {
  WAITING,         ///< queued or held (no resources)
  STARTING,        ///< resources allocated, launch latency running
  RESTORING,       ///< reading its checkpoint back
  COMPUTING,       ///< making progress
  CHECKPOINTING,   ///< synchronous checkpoint: stalled for the whole write
  SNAPSHOTTING,    ///< asynchronous checkpoint: stalled for the device-to-host copy
  SLOT_WAIT,       ///< asynchronous checkpoint due but host memory holds no free snapshot slot
  SAVING,          ///< preempted: saving before releasing its resources
  HUNG,            ///< hit by a failure that hangs it: holds its nodes, makes no progress
  RECOVERING,      ///< automatic recovery: holds its healthy nodes while the faulty one is found
  PLAN,            ///< running the steps of its task plan (evaluation)
  AWAITING_NODES,  ///< automatic recovery done, holds its healthy nodes until a replacement frees up
  SELECTING_HOSTS, ///< automatic recovery done, the standbys too few: holds its healthy nodes while new hosts are
                   ///< chosen
};

/// The job runs its own work on its nodes (starting, restoring, computing, checkpointing): a preemption can
/// take it off them. A task plan (PLAN) runs too, but restarts from its beginning (job_failures.cpp).
inline bool runs_own_work(JobStage stage) {
  return stage == JobStage::STARTING || stage == JobStage::RESTORING || stage == JobStage::COMPUTING ||
         stage == JobStage::CHECKPOINTING || stage == JobStage::SNAPSHOTTING || stage == JobStage::SLOT_WAIT;
}

/// A job's progress and checkpoints: the checkpoint model's state. Progress is in seconds of
/// computation: work W, done P, persisted in the last good checkpoint.
struct CheckpointState {
  bool enabled = false; ///< the checkpoint model applies to this job
  double bytes = 0.0;   ///< size of one checkpoint
  double work_s = 0.0;
  double progress_s = 0.0;
  double persisted_s = 0.0;
  double segment_start_s = 0.0;   ///< when the current computing segment began
  double segment_stop_s = 0.0;    ///< progress at which it stops
  double segment_debt_s = 0.0;    ///< extra wall time in this segment (slowdown of background persists)
  double rate = 1.0;              ///< progress per second of wall time after the debt (below 1: network slowdown)
  double node_pace = 1.0;         ///< its slowest node's speed (failures.slow): progress runs at rate x node_pace
  double debt_s = 0.0;            ///< slowdown owed to the next segment
  double next_checkpoint_s = 0.0; ///< progress at which the next checkpoint is due
  bool needs_restore = false;     ///< the next launch starts by reading its checkpoint back
  double cost_s = 0.0;            ///< C: stall of the last checkpoint (estimate before the first); async:
                                  ///< snapshot stall plus the slowdown its background write caused
  double snapshot_stall_s = 0.0;  ///< async: the last snapshot's stall
  double persist_debt_s = 0.0;    ///< async: the slowdown the last finished background write caused
  double restart_cost_s = 0.0;    ///< R: the last restore (estimate before the first)
  TransferId transfer = 0;        ///< blocking transfer in flight (sync write, restore, save), 0 if none
  std::vector<std::pair<TransferId, double>> persists; ///< async persists in flight: (id, progress)
};

/// A job's training traffic: its parallelism layout and, while it computes on several nodes under the
/// fluid network model, its flows on the fabric. The training traffic model's state.
struct TrafficState {
  model::ParallelLayout layout;
  bool modelled = false; ///< the fluid network model runs (its slowdown is reported)
  bool open = false;     ///< flows are on the fabric
  double dp_share = 1.0; ///< share of its cap the slowest DP flow achieves
  double pp_share = 1.0;
  std::vector<FlowId> dp_flows;
  std::vector<FlowId> pp_flows;
};

/// A job's run through its task plan: the task runner's state.
struct PlanState {
  std::vector<std::uint32_t> lane_step; ///< next step of each plan lane (prologue: the last entry)
  std::uint32_t lanes_left = 0;
  std::vector<std::pair<TransferId, std::int32_t>> transfers; ///< plan reads in flight: (id, lane)
};

/// A job's draw as the power meter keeps it (sim/core/power_meter.hpp): its energy, all attempts.
/// Time a job spent at one draw per GPU above idle: the power meter books it to the nodes the job holds
/// whole when it leaves them.
struct DrawLevel {
  double extra_W = 0.0;
  double seconds = 0.0;
};

struct JobPower {
  model::JobId id{};
  double busy_extra_W = 0.0;       ///< per GPU above its nodes' idle draw while computing (drawn once per job)
  double held_W = 0.0;             ///< wall draw of its held GPUs at idle plus its share of its nodes' idle base
  double per_extra_W = 0.0;        ///< wall watts per watt its GPUs draw above idle (its GPUs, with base and supplies)
  double extra_W = 0.0;            ///< current draw per GPU above its nodes' idle draw
  double since_s = 0.0;            ///< start of the current draw
  bool allocated = false;          ///< holds GPUs (or CPU-pool cores)
  bool stalled = false;            ///< the current draw is a checkpoint stall
  double energy_J = 0.0;           ///< all attempts
  double stall_J = 0.0;            ///< spent in checkpoint stalls
  double rollback_J = 0.0;         ///< spent on work that failures rolled back
  double carried_gpus = 0.0;       ///< GPUs of the nodes it holds whole and carries (each draws what it draws)
  double carried_wall_per_W = 0.0; ///< wall watts of those nodes per watt their GPUs draw above idle
  std::vector<std::uint32_t> carried_nodes;    ///< the nodes it carries, placement order
  std::vector<model::NodeShare> shared;        ///< while it carries nodes, its other shares (kept node by node)
  std::vector<DrawLevel> levels;               ///< time at each draw since it took its carried nodes
  std::vector<std::uint32_t> carried_by_class; ///< its carried nodes per power class (the power meter's)

  /// Wall watts of the job computing on its current nodes.
  double compute_W() const { return held_W + per_extra_W * busy_extra_W; }
};

struct JobRuntime;

/// Told of every change of what a job does (a new stage, a step of its plan): the power meter.
class ActivityListener {
public:
  virtual ~ActivityListener() = default;
  virtual void on_activity(JobRuntime& job, double now_s) = 0;
};

/// Engine-private run-time state of an active job (the public part is the ClusterView's JobEntry),
/// with one state struct per part of the engine.
struct JobRuntime {
  model::ClusterId cluster{};
  std::uint32_t generation = 0; ///< stage generation: events of an earlier stage are stale
  JobStage stage = JobStage::WAITING;
  double stage_start_s = 0.0;
  std::uint32_t nodes = 0;     ///< nodes of its current (last) placement
  std::uint32_t leaves = 0;    ///< leaf switches they span
  double allocated_gpus = 0.0; ///< GPUs held in the current attempt (a fractional job: its share)
  double allocated_since_s = 0.0;
  double failed_at_s = -1.0;    ///< last failure, until computation resumes
  double recovered_at_s = -1.0; ///< when its recovery steps (detection, diagnosis, isolation) ended, until it resumes
  std::uint32_t failures_without_progress = 0; ///< failures in a row that found no newer checkpoint
  double persisted_at_last_failure_s = -1.0;   ///< persisted progress the last failure rolled back to
  double pods_bound_s = -1.0;   ///< from start_job to its launch: pods bound, image pull begins (< 0: none)
  double image_pulled_s = -1.0; ///< from start_job to its launch: image on every node, pod start begins
  CheckpointState checkpoint;
  TrafficState traffic;
  PlanState plan;
  JobAccounting accounting;
  JobPower power;
  ActivityListener* listener = nullptr; ///< told of every change of stage or plan step

  /// Moves to `next` at `now_s`; events scheduled for the previous stage become stale.
  void enter(JobStage next, double now_s) {
    ++generation;
    stage = next;
    stage_start_s = now_s;
    notify(now_s);
  }
  /// What the job does changed within its stage at `now_s` (a step of its plan began or ended).
  void notify(double now_s) {
    if (listener != nullptr) {
      listener->on_activity(*this, now_s);
    }
  }
};

} // namespace acme::core
