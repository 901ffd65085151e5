#include "sim/core/checkpoint_model.hpp"

#include <algorithm>
#include <limits>

#include "sim/model/assert.hpp"
#include "sim/model/error.hpp"
#include "sim/model/units.hpp"

namespace acme::core {
namespace {
constexpr double INFINITE_S = std::numeric_limits<double>::infinity();
} // namespace

CheckpointModel::CheckpointModel(const config::FaultConfig& faults, const policies::CheckpointPolicy& policy,
                                 CheckpointCosts costs, TimerService& timer, IoService& io, JobTable& table,
                                 JobControl& control, model::ClusterRngs& stall_rng, metrics::EventTrace* trace)
    : faults_(faults)
    , policy_(policy)
    , costs_(costs)
    , timer_(timer)
    , io_(io)
    , table_(table)
    , control_(control)
    , stall_rng_(stall_rng)
    , trace_(trace) {}

void CheckpointModel::trace(model::JobId id, const JobRuntime& job, bool restore, std::string_view detail) const {
  if (trace_ == nullptr) {
    return;
  }
  const model::JobSpec& spec = table_.entry(id, job).spec;
  if (restore) {
    trace_->restore(timer_.now_s(), spec, detail);
  } else {
    trace_->checkpoint(timer_.now_s(), spec, detail);
  }
}

void CheckpointModel::admit(JobRuntime& job, const model::JobSpec& spec) const {
  CheckpointState& c = job.checkpoint;
  c.work_s = spec.duration_s;
  c.enabled = !spec.is_cpu_job() && faults_.checkpoint.applies(spec.type);
  if (c.enabled) {
    c.bytes = faults_.checkpoint.model_params_for(spec) * faults_.checkpoint.bytes_per_param;
  }
}

void CheckpointModel::estimate_costs(JobRuntime& job) {
  const ClusterRuntime& cluster = table_.cluster_of(job);
  CheckpointState& c = job.checkpoint;
  double path_Bps = std::min(cluster.storage_bw_Bps, cluster.storage_nic_bw_Bps * std::max(1u, job.nodes));
  double shard = c.bytes / std::max(1.0, job.allocated_gpus);
  if (c.cost_s <= 0.0) {
    double write_s = c.bytes / path_Bps;
    if (faults_.checkpoint.async) {
      c.persist_debt_s = write_s * costs_.async_slowdown; // until a write has been measured
      c.cost_s = shard / costs_.d2h_Bps + c.persist_debt_s;
    } else {
      c.cost_s = write_s;
    }
  }
  if (c.restart_cost_s <= 0.0) {
    c.restart_cost_s = c.bytes / path_Bps + shard / costs_.h2d_Bps;
  }
}

double CheckpointModel::mtbf_s(const JobRuntime& job) const {
  const auto& failures = faults_.failures;
  // One rate model: the random process's mean node rate, plus what a replayed failure trace shows.
  double rate_per_s = failures.enabled ? failures.mean_node_rate_per_day() / model::SECONDS_PER_DAY : 0.0;
  std::size_t cluster = model::to_index(job.cluster);
  if (cluster < traced_rate_per_node_s_.size()) {
    rate_per_s += traced_rate_per_node_s_[cluster];
  }
  double nodes = std::max<double>(1.0, job.nodes);
  return rate_per_s > 0.0 ? 1.0 / (rate_per_s * nodes) : INFINITE_S;
}

double CheckpointModel::interval_s(const JobRuntime& job, const model::JobSpec& spec) const {
  if (!job.checkpoint.enabled) {
    return INFINITE_S;
  }
  const CheckpointState& c = job.checkpoint;
  policies::CheckpointSituation s{&spec, job.nodes, c.cost_s, mtbf_s(job), c.restart_cost_s};
  double interval = policy_.interval_s(s);
  if (interval < c.cost_s) {
    // The job would spend more time checkpointing than training: refuse the config rather than crawl.
    const config::PolicySpec& policy = faults_.checkpoint.policy;
    throw ConfigError(policy.node.location(), "checkpoint.policy",
                      "job " + excerpt(spec.name) + " (" + std::to_string(job.nodes) +
                          " nodes) would checkpoint every " + number_text(interval) +
                          " s of training but one checkpoint takes " + number_text(c.cost_s) +
                          " s; expected an interval longer than a checkpoint (a longer interval, or for " +
                          "young_daly/daly lower failure rates)");
  }
  return interval;
}

TransferId CheckpointModel::start_transfer(model::JobId id, JobRuntime& job, IoDirection direction) {
  const model::JobEntry& entry = table_.entry(id, job);
  ACME_ASSERT(!entry.placement.empty(), "a job moving its checkpoint holds nodes");
  TransferRequest request;
  request.cluster = job.cluster;
  request.node = entry.placement.front().node;
  request.bytes = job.checkpoint.bytes;
  request.direction = direction;
  request.owner = id;
  if (entry.placement.size() > 1 && io_.stripes()) { // a list per transfer only where the network reads it
    request.stripe_nodes.reserve(entry.placement.size());
    for (const auto& share : entry.placement) {
      request.stripe_nodes.push_back(share.node);
    }
  }
  return io_.start(request);
}

void CheckpointModel::schedule_stall(model::JobId id, const JobRuntime& job, double stall_s) {
  timer_.schedule(timer_.now_s() + stall_s, StallEnded{id, job.generation});
}

void CheckpointModel::cancel_transfers(JobRuntime& job) {
  CheckpointState& c = job.checkpoint;
  if (c.transfer != 0) {
    io_.cancel(c.transfer);
    c.transfer = 0;
  }
  for (const auto& [t, progress] : c.persists) {
    io_.cancel(t);
  }
  c.persists.clear();
}

void CheckpointModel::resume(model::JobId id, JobRuntime& job) {
  if (!job.checkpoint.needs_restore) {
    begin_compute(id, job);
    return;
  }
  job.enter(JobStage::RESTORING, timer_.now_s());
  if (job.checkpoint.enabled) {
    job.checkpoint.transfer = start_transfer(id, job, IoDirection::READ);
    return;
  }
  schedule_stall(id, job, faults_.preemption.fallback_restore.sample(stall_rng_.of(job.cluster)));
}

void CheckpointModel::begin_compute(model::JobId id, JobRuntime& job) {
  const double now_s = timer_.now_s();
  const model::JobSpec& spec = table_.entry(id, job).spec;
  CheckpointState& c = job.checkpoint;
  if (job.failed_at_s >= 0.0) {
    // Downtime of a failure: every GPU of the job idle from the failure until it computes again, split
    // into its detection (until the recovery steps end) and its restart (new hosts, queue, restore).
    double detected_s = job.recovered_at_s >= job.failed_at_s ? job.recovered_at_s : now_s;
    job.accounting.lost_gpu_s += spec.gpu_share() * (now_s - job.failed_at_s);
    job.accounting.detection_gpu_s += spec.gpu_share() * (detected_s - job.failed_at_s);
    job.accounting.restart_gpu_s += spec.gpu_share() * (now_s - detected_s);
    job.failed_at_s = -1.0;
    job.recovered_at_s = -1.0;
  }
  c.needs_restore = false;
  if (slow_ != nullptr) {
    c.node_pace = slow_->pace(job.cluster, table_.entry(id, job).placement); // the placement may be new
  }
  if (c.next_checkpoint_s <= c.progress_s) {
    c.next_checkpoint_s = c.progress_s + interval_s(job, spec);
  }
  start_segment(id, job);
  if (hooks_ != nullptr) {
    hooks_->on_compute_begin(id, job);
  }
}

void CheckpointModel::start_segment(model::JobId id, JobRuntime& job) {
  const double now_s = timer_.now_s();
  CheckpointState& c = job.checkpoint;
  job.enter(JobStage::COMPUTING, now_s);
  c.segment_start_s = now_s;
  c.segment_stop_s = std::min(c.work_s, c.next_checkpoint_s);
  c.segment_debt_s = c.debt_s;
  c.debt_s = 0.0;
  timer_.schedule(now_s + (c.segment_stop_s - c.progress_s) / (c.rate * c.node_pace) + c.segment_debt_s,
                  SegmentEnded{id, job.generation});
}

void CheckpointModel::stop_progress(JobRuntime& job) const {
  if (job.stage != JobStage::COMPUTING) {
    return;
  }
  settle(job);
  job.checkpoint.segment_debt_s = 0.0;
  if (hooks_ != nullptr) {
    hooks_->on_compute_end(job);
  }
}

void CheckpointModel::on_segment_end(model::JobId id, JobRuntime& job) {
  CheckpointState& c = job.checkpoint;
  account_slowdown(job, timer_.now_s() - c.segment_start_s - c.segment_debt_s, c.segment_stop_s - c.progress_s);
  c.progress_s = c.segment_stop_s;
  if (hooks_ != nullptr) {
    hooks_->on_compute_end(job);
  }
  if (job.checkpoint.progress_s >= job.checkpoint.work_s) {
    control_.finish(id, job, table_.entry(id, job).spec.final_state, model::EndCause::WORKLOAD);
    return;
  }
  begin_checkpoint(id, job);
}

void CheckpointModel::begin_checkpoint(model::JobId id, JobRuntime& job) {
  if (!faults_.checkpoint.async) {
    job.enter(JobStage::CHECKPOINTING, timer_.now_s());
    job.checkpoint.transfer = start_transfer(id, job, IoDirection::WRITE);
    return;
  }
  if (job.checkpoint.persists.size() >= faults_.checkpoint.host_snapshots) {
    job.enter(JobStage::SLOT_WAIT, timer_.now_s()); // resumes when a persist frees a snapshot slot
    return;
  }
  begin_snapshot(id, job);
}

void CheckpointModel::begin_snapshot(model::JobId id, JobRuntime& job) {
  const model::JobSpec& spec = table_.entry(id, job).spec;
  job.enter(JobStage::SNAPSHOTTING, timer_.now_s());
  // Every GPU copies its shard of the state to host memory at once.
  double shard_bytes = job.checkpoint.bytes / std::max(1.0, spec.gpu_share());
  schedule_stall(id, job, shard_bytes / costs_.d2h_Bps);
}

void CheckpointModel::on_stall_end(model::JobId id, JobRuntime& job) {
  CheckpointState& c = job.checkpoint;
  double stall = timer_.now_s() - job.stage_start_s;
  switch (job.stage) {
  case JobStage::SNAPSHOTTING: {
    job.accounting.stall_s += stall;
    // Async: the write this snapshot starts will slow training as the last one did (C = stall + debt).
    c.cost_s = stall + c.persist_debt_s;
    c.snapshot_stall_s = stall;
    ++job.accounting.checkpoints;
    TransferId t = start_transfer(id, job, IoDirection::WRITE);
    c.persists.emplace_back(t, c.progress_s);
    c.next_checkpoint_s = c.progress_s; // recomputed in begin_compute
    begin_compute(id, job);
    return;
  }
  case JobStage::SAVING:
    saved(id, job);
    return;
  case JobStage::RESTORING:
    job.accounting.restore_s += stall;
    c.restart_cost_s = stall;
    trace(id, job, true, {});
    begin_compute(id, job);
    return;
  default:
    ACME_ASSERT(false, "stalls end only in snapshot, save and restore stages");
  }
}

void CheckpointModel::saved(model::JobId id, JobRuntime& job) {
  trace(id, job, false, "preemption save");
  job.checkpoint.persisted_s = job.checkpoint.progress_s;
  job.checkpoint.needs_restore = true;
  control_.end_attempt(id, job, model::JobPhase::QUEUED, model::JobState::CANCELLED, model::EndCause::PREEMPTED);
}

void CheckpointModel::on_transfer_done(model::JobId id, JobRuntime& job, const TransferDone& done) {
  CheckpointState& c = job.checkpoint;
  if (done.transfer != c.transfer) {
    on_persist_done(id, job, done);
    return;
  }
  ACME_ASSERT(done.ok, "transfers of running jobs fail only with their nodes, and those cancel them first");
  c.transfer = 0;
  if (job.stage == JobStage::CHECKPOINTING) {
    job.accounting.stall_s += done.duration_s;
    c.cost_s = done.duration_s;
    c.persisted_s = c.progress_s;
    ++job.accounting.checkpoints;
    trace(id, job, false, "sync");
    begin_compute(id, job);
    return;
  }
  if (job.stage == JobStage::RESTORING) {
    // After the read, every GPU copies its shard back to device memory.
    const model::JobSpec& spec = table_.entry(id, job).spec;
    schedule_stall(id, job, c.bytes / std::max(1.0, spec.gpu_share()) / costs_.h2d_Bps);
    return;
  }
  ACME_ASSERT(job.stage == JobStage::SAVING, "blocking transfers belong to checkpoint, restore or save stages");
  saved(id, job);
}

void CheckpointModel::on_persist_done(model::JobId id, JobRuntime& job, const TransferDone& done) {
  CheckpointState& c = job.checkpoint;
  auto it = std::find_if(c.persists.begin(), c.persists.end(), [&](const auto& p) { return p.first == done.transfer; });
  if (it == c.persists.end()) {
    return; // cancelled after it ended
  }
  ACME_ASSERT(done.ok, "transfers of running jobs fail only with their nodes, and those cancel them first");
  c.persisted_s = std::max(c.persisted_s, it->second);
  c.persists.erase(it);
  trace(id, job, false, "async");
  // Training ran slower while the background write shared the node (calibrated slowdown).
  double debt = done.duration_s * costs_.async_slowdown;
  job.accounting.stall_s += debt;
  c.persist_debt_s = debt;
  c.cost_s = c.snapshot_stall_s + debt; // C of an async checkpoint, as the policies see it
  if (job.stage == JobStage::COMPUTING) {
    settle(job); // the segment restarts with the new debt; the job goes on computing
    c.segment_debt_s = 0.0;
    c.debt_s += debt;
    begin_compute(id, job);
  } else {
    c.debt_s += debt;
  }
  if (job.stage == JobStage::SLOT_WAIT) {
    job.accounting.stall_s += timer_.now_s() - job.stage_start_s;
    begin_snapshot(id, job);
  }
}

void CheckpointModel::roll_back(JobRuntime& job, double gpu_share) const {
  CheckpointState& c = job.checkpoint;
  if (!faults_.failures.lose_work) {
    c.needs_restore = false; // the failure clock's switch: the job carries on from where it stopped
    return;
  }
  double rollback = c.progress_s - c.persisted_s;
  job.accounting.lost_work_s += rollback;
  job.accounting.lost_gpu_s += rollback * gpu_share;
  job.power.rollback_J += rollback * job.power.compute_W(); // the energy that work took, spent again
  c.progress_s = c.persisted_s;
  c.next_checkpoint_s = 0.0; // the next interval counts from the restored state
  c.needs_restore = c.persisted_s > 0.0;
}

void CheckpointModel::preempt(model::JobId id, JobRuntime& job, bool may_save) {
  CheckpointState& c = job.checkpoint;
  bool computed = c.progress_s > c.persisted_s;
  if (may_save && faults_.preemption.save_on_preempt && computed && job.stage != JobStage::STARTING) {
    job.enter(JobStage::SAVING, timer_.now_s());
    if (c.enabled) {
      c.transfer = start_transfer(id, job, IoDirection::WRITE);
    } else {
      schedule_stall(id, job, faults_.preemption.fallback_save.sample(stall_rng_.of(job.cluster)));
    }
    return;
  }
  job.accounting.lost_work_s += c.progress_s - c.persisted_s;
  c.progress_s = c.persisted_s;
  c.needs_restore = c.persisted_s > 0.0;
  control_.end_attempt(id, job, model::JobPhase::QUEUED, model::JobState::CANCELLED, model::EndCause::PREEMPTED);
}

} // namespace acme::core
