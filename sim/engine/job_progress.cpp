// A running job's progress: launch, restore, computing segments between checkpoints, synchronous and
// asynchronous checkpoints through the contended storage path, saves on preemption.
//
// Progress is in seconds of computation (the job's recorded service time is its work W). A
// checkpoint persists the progress made when it started; a failure rolls the job back to the last
// persisted checkpoint.
#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/engine/engine_state.hpp"
#include "sim/model/assert.hpp"

namespace acme::engine {
namespace {
constexpr double INFINITE_S = std::numeric_limits<double>::infinity();
} // namespace

void Simulation::Impl::enter(model::JobId id, JobRuntime& job, JobStage stage) {
  (void)id;
  ++job.generation; // events scheduled for the previous stage become stale
  job.stage = stage;
  job.stage_start_s = now_s;
}

double Simulation::Impl::job_mtbf_s(const JobRuntime& job) const {
  double rate_per_s = faults.failures.enabled ? faults.failures.node_rate_per_day() / model::SECONDS_PER_DAY : 0.0;
  double nodes = std::max<double>(1.0, job.nodes);
  return rate_per_s > 0.0 ? 1.0 / (rate_per_s * nodes) : INFINITE_S;
}

double Simulation::Impl::checkpoint_interval_s(const JobRuntime& job, const model::JobSpec& spec) const {
  if (!job.checkpointing) {
    return INFINITE_S;
  }
  policies::CheckpointSituation s{&spec, job.nodes, job.checkpoint_cost_s, job_mtbf_s(job), job.restart_cost_s};
  return checkpoint_policy->interval_s(s);
}

core::TransferId Simulation::Impl::start_transfer(model::JobId id, JobRuntime& job, core::IoDirection direction) {
  const model::JobEntry& entry = cluster_of_job(job).view.job(id);
  ACME_ASSERT(!entry.placement.empty(), "a job moving its checkpoint holds nodes");
  return io.start(
      core::TransferRequest{job.cluster, entry.placement.front().node, job.checkpoint_bytes, direction, id});
}

void Simulation::Impl::estimate_costs(JobRuntime& job) {
  // Before the first measurement: the transfer alone at the bottleneck of the storage path.
  const ClusterRuntime& cluster = cluster_of_job(job);
  double path_Bps = std::min(cluster.storage_bw_Bps, cluster.storage_nic_bw_Bps * std::max(1u, job.nodes));
  double shard = job.checkpoint_bytes / std::max(1.0, job.allocated_gpus);
  if (job.checkpoint_cost_s <= 0.0) {
    double write_s = job.checkpoint_bytes / path_Bps;
    if (faults.checkpoint.async) {
      job.persist_debt_s = write_s * costs.async_slowdown; // until a write has been measured
      job.checkpoint_cost_s = shard / costs.d2h_Bps + job.persist_debt_s;
    } else {
      job.checkpoint_cost_s = write_s;
    }
  }
  if (job.restart_cost_s <= 0.0) {
    job.restart_cost_s = job.checkpoint_bytes / path_Bps + shard / costs.h2d_Bps;
  }
}

void Simulation::Impl::cancel_transfers(JobRuntime& job) {
  if (job.transfer != 0) {
    io.cancel(job.transfer);
    job.transfer = 0;
  }
  for (const auto& [t, progress] : job.persists) {
    io.cancel(t);
  }
  job.persists.clear();
  for (const auto& [t, lane] : job.lane_transfers) {
    io.cancel(t);
  }
  job.lane_transfers.clear();
}

void Simulation::Impl::on_launched(model::JobId id, JobRuntime& job) {
  if (job.first_start_s == model::UNKNOWN_TIME_S) {
    job.first_start_s = now_s;
  }
  if (cluster_of_job(job).view.job(id).spec.plan) {
    begin_plan(id, job);
    return;
  }
  if (!job.needs_restore) {
    begin_compute(id, job);
    return;
  }
  enter(id, job, JobStage::RESTORING);
  if (job.checkpointing) {
    job.transfer = start_transfer(id, job, core::IoDirection::READ);
    return;
  }
  queue.schedule(now_s + faults.preemption.fallback_restore.sample(launch_rng), core::StallEnded{id, job.generation});
}

void Simulation::Impl::begin_compute(model::JobId id, JobRuntime& job) {
  const model::JobSpec& spec = cluster_of_job(job).view.job(id).spec;
  if (job.failed_at_s >= 0.0) {
    // Downtime of a failure: every GPU of the job idle from the failure until it computes again.
    job.lost_gpu_s += spec.gpu_share() * (now_s - job.failed_at_s);
    job.failed_at_s = -1.0;
  }
  job.needs_restore = false;
  if (job.next_checkpoint_s <= job.progress_s) {
    job.next_checkpoint_s = job.progress_s + checkpoint_interval_s(job, spec);
  }
  enter(id, job, JobStage::COMPUTING);
  job.segment_start_s = now_s;
  job.segment_stop_s = std::min(job.work_s, job.next_checkpoint_s);
  job.segment_debt_s = job.debt_s;
  job.debt_s = 0.0;
  queue.schedule(now_s + (job.segment_stop_s - job.progress_s) + job.segment_debt_s,
                 core::SegmentEnded{id, job.generation});
}

void Simulation::Impl::stop_progress(JobRuntime& job) {
  if (job.stage != JobStage::COMPUTING) {
    return;
  }
  // Wall time in the segment first pays its debt (slowdown), then makes progress.
  double useful = std::max(0.0, now_s - job.segment_start_s - job.segment_debt_s);
  job.progress_s = std::min(job.segment_stop_s, job.progress_s + useful);
  job.segment_debt_s = 0.0;
}

void Simulation::Impl::on_segment_end(model::JobId id, JobRuntime& job) {
  job.progress_s = job.segment_stop_s;
  if (job.progress_s >= job.work_s) {
    const model::JobSpec& spec = cluster_of_job(job).view.job(id).spec;
    finish_job(id, job, spec.final_state, model::EndCause::WORKLOAD);
    return;
  }
  begin_checkpoint(id, job);
}

void Simulation::Impl::begin_checkpoint(model::JobId id, JobRuntime& job) {
  if (!faults.checkpoint.async) {
    enter(id, job, JobStage::CHECKPOINTING);
    job.transfer = start_transfer(id, job, core::IoDirection::WRITE);
    return;
  }
  if (job.persists.size() >= faults.checkpoint.host_snapshots) {
    enter(id, job, JobStage::SLOT_WAIT); // resumes when a persist frees a snapshot slot
    return;
  }
  begin_snapshot(id, job);
}

void Simulation::Impl::begin_snapshot(model::JobId id, JobRuntime& job) {
  const model::JobSpec& spec = cluster_of_job(job).view.job(id).spec;
  enter(id, job, JobStage::SNAPSHOTTING);
  // Every GPU copies its shard of the state to host memory at once.
  double shard_bytes = job.checkpoint_bytes / std::max(1.0, spec.gpu_share());
  queue.schedule(now_s + shard_bytes / costs.d2h_Bps, core::StallEnded{id, job.generation});
}

void Simulation::Impl::on_stall_end(model::JobId id, JobRuntime& job) {
  double stall = now_s - job.stage_start_s;
  switch (job.stage) {
  case JobStage::SNAPSHOTTING: {
    job.stall_s += stall;
    // Async: the write this snapshot starts will slow training as the last one did (C = stall + debt).
    job.checkpoint_cost_s = stall + job.persist_debt_s;
    job.snapshot_stall_s = stall;
    ++job.checkpoints;
    core::TransferId t = start_transfer(id, job, core::IoDirection::WRITE);
    job.persists.emplace_back(t, job.progress_s);
    job.next_checkpoint_s = job.progress_s; // recomputed in begin_compute
    begin_compute(id, job);
    return;
  }
  case JobStage::SAVING:
    job.persisted_s = job.progress_s;
    job.needs_restore = true;
    release(id, job, model::JobPhase::QUEUED);
    cluster_of_job(job).pending.emplace_back(
        model::JobEnded{id, model::JobState::CANCELLED, model::EndCause::PREEMPTED});
    return;
  case JobStage::RESTORING:
    job.restore_s += stall;
    job.restart_cost_s = stall;
    begin_compute(id, job);
    return;
  default:
    ACME_ASSERT(false, "stalls end only in snapshot, save and restore stages");
  }
}

void Simulation::Impl::on_transfer_done(const core::TransferDone& done) {
  auto it = jobs.find(done.owner);
  if (it == jobs.end()) {
    return; // the job ended meanwhile
  }
  model::JobId id = done.owner;
  JobRuntime& job = it->second;
  core::TransferId transfer = done.transfer;
  double duration_s = done.duration_s;
  if (job.stage == JobStage::PLAN) {
    on_plan_transfer_done(id, job, done);
    return;
  }
  if (transfer != job.transfer) {
    on_persist_done(id, job, done);
    return;
  }
  ACME_ASSERT(done.ok, "transfers of running jobs fail only with their nodes, and those cancel them first");
  job.transfer = 0;
  if (job.stage == JobStage::CHECKPOINTING) {
    job.stall_s += duration_s;
    job.checkpoint_cost_s = duration_s;
    job.persisted_s = job.progress_s;
    ++job.checkpoints;
    begin_compute(id, job);
    return;
  }
  if (job.stage == JobStage::RESTORING) {
    // After the read, every GPU copies its shard back to device memory.
    const model::JobSpec& spec = cluster_of_job(job).view.job(id).spec;
    double h2d = job.checkpoint_bytes / std::max(1.0, spec.gpu_share()) / costs.h2d_Bps;
    queue.schedule(now_s + h2d, core::StallEnded{id, job.generation});
    return;
  }
  ACME_ASSERT(job.stage == JobStage::SAVING, "blocking transfers belong to checkpoint, restore or save stages");
  on_stall_end(id, job);
}

void Simulation::Impl::on_persist_done(model::JobId id, JobRuntime& job, const core::TransferDone& done) {
  auto it =
      std::find_if(job.persists.begin(), job.persists.end(), [&](const auto& p) { return p.first == done.transfer; });
  if (it == job.persists.end()) {
    return; // cancelled after it ended
  }
  ACME_ASSERT(done.ok, "transfers of running jobs fail only with their nodes, and those cancel them first");
  double duration_s = done.duration_s;
  job.persisted_s = std::max(job.persisted_s, it->second);
  job.persists.erase(it);
  // Training ran slower while the background write shared the node (calibrated slowdown).
  double debt = duration_s * costs.async_slowdown;
  job.stall_s += debt;
  job.persist_debt_s = debt;
  job.checkpoint_cost_s = job.snapshot_stall_s + debt; // C of an async checkpoint, as the policies see it
  if (job.stage == JobStage::COMPUTING) {
    stop_progress(job);
    job.debt_s += debt;
    begin_compute(id, job);
  } else {
    job.debt_s += debt;
  }
  if (job.stage == JobStage::SLOT_WAIT) {
    job.stall_s += now_s - job.stage_start_s;
    begin_snapshot(id, job);
  }
}

} // namespace acme::engine
