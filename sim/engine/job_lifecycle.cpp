// Jobs entering, starting, releasing their resources, ending and being rejected: the engine side of
// the scheduler's decisions.
#include <algorithm>
#include <type_traits>

#include "sim/engine/engine_state.hpp"
#include "sim/model/assert.hpp"

namespace acme::engine {

void Simulation::Impl::submit(model::JobSpec spec) {
  ++result.jobs_submitted;
  ClusterRuntime& cluster = clusters.at(model::to_index(spec.cluster));
  if (spec.is_cpu_job() && spec.cpus == 0) {
    spec.cpus = 1; // a CPU job holds at least one core
  }
  JobRuntime job;
  job.cluster = spec.cluster;
  job.work_s = spec.duration_s;
  job.checkpointing = !spec.is_cpu_job() && faults.checkpoint.applies(spec.type);
  if (job.checkpointing) {
    job.checkpoint_bytes = faults.checkpoint.model_params_for(spec) * faults.checkpoint.bytes_per_param;
  }
  model::JobId id = spec.id;
  jobs.emplace(id, std::move(job));
  cluster.view.add_job(std::move(spec));
  const model::JobSpec& added = cluster.view.job(id).spec;
  if (added.gpus > cluster.view.total_gpus()) {
    reject_job(cluster, id, model::RejectReason::TOO_MANY_GPUS);
    return;
  }
  if (added.is_cpu_job() && added.cpus > cluster.view.shape().cpu_pool_cores) {
    reject_job(cluster, id, model::RejectReason::TOO_MANY_CPUS);
    return;
  }
  cluster.pending.emplace_back(model::JobSubmitted{id});
}

void Simulation::Impl::apply(ClusterRuntime& cluster, const model::Decision& decision) {
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, model::StartJob>) {
          start_job(cluster, d);
        } else if constexpr (std::is_same_v<D, model::RejectJob>) {
          reject_job(cluster, d.job, d.reason);
        } else if constexpr (std::is_same_v<D, model::PreemptJob>) {
          preempt_job(d.job);
        }
      },
      decision);
}

void Simulation::Impl::start_job(ClusterRuntime& cluster, const model::StartJob& start) {
  const model::JobEntry* entry = cluster.view.find_job(start.job);
  ACME_ASSERT(entry != nullptr && entry->phase == model::JobPhase::QUEUED, "schedulers start queued jobs only");
  ACME_ASSERT(cluster.view.fits(start.placement), "schedulers start jobs on free GPUs of up nodes only");
  cluster.view.start_job(start.job, start.placement);
  JobRuntime& job = jobs.at(start.job);
  ++job.attempts;
  allocate(cluster, start.job, job);
  enter(start.job, job, JobStage::STARTING);
  double latency = cluster_launch_latency(cluster);
  if (latency > 0.0) {
    queue.schedule(now_s + latency, core::JobLaunched{start.job, job.generation});
  } else {
    on_launched(start.job, job);
  }
}

void Simulation::Impl::allocate(ClusterRuntime& cluster, model::JobId id, JobRuntime& job) {
  const model::JobEntry& entry = cluster.view.job(id);
  std::vector<std::uint32_t> leaves;
  std::uint64_t milli = 0;
  for (const auto& share : entry.placement) {
    leaves.push_back(cluster.view.leaf_of(share.node));
    milli += model::share_milli(share);
    cluster.jobs_on_node[model::to_index(share.node)].push_back(id);
  }
  std::sort(leaves.begin(), leaves.end());
  job.leaves = static_cast<std::uint32_t>(std::unique(leaves.begin(), leaves.end()) - leaves.begin());
  job.nodes = static_cast<std::uint32_t>(entry.placement.size());
  job.allocated_gpus = static_cast<double>(milli) / model::MILLI_PER_GPU;
  job.allocated_since_s = now_s;
  if (job.checkpointing && job.nodes > 1) {
    io.widen_nic(job.cluster, entry.placement.front().node, job.nodes);
  }
  if (job.checkpointing) {
    estimate_costs(job);
  }
}

void Simulation::Impl::release(model::JobId id, JobRuntime& job, model::JobPhase next) {
  ClusterRuntime& cluster = cluster_of_job(job);
  const model::JobEntry& entry = cluster.view.job(id);
  ACME_ASSERT(entry.phase == model::JobPhase::RUNNING, "only running jobs release resources");
  cancel_transfers(job);
  job.gpu_seconds += job.allocated_gpus * (now_s - job.allocated_since_s);
  for (const auto& share : entry.placement) {
    auto& on_node = cluster.jobs_on_node[model::to_index(share.node)];
    on_node.erase(std::remove(on_node.begin(), on_node.end(), id), on_node.end());
  }
  if (job.checkpointing && job.nodes > 1 && !entry.placement.empty()) {
    io.widen_nic(job.cluster, entry.placement.front().node, 1);
  }
  if (next == model::JobPhase::HELD) {
    cluster.view.hold_job(id);
  } else {
    cluster.view.stop_job(id);
  }
  job.allocated_gpus = 0.0;
  enter(id, job, JobStage::WAITING);
}

void Simulation::Impl::finish_job(model::JobId id, JobRuntime& job, model::JobState state, model::EndCause cause) {
  ClusterRuntime& cluster = cluster_of_job(job);
  if (cluster.view.job(id).phase == model::JobPhase::RUNNING) {
    release(id, job, model::JobPhase::QUEUED);
  }
  cluster.pending.emplace_back(model::JobEnded{id, state, cause});
  record(cluster.view.job(id), job, now_s, state, model::RejectReason::NONE);
  cluster.view.remove_job(id);
  jobs.erase(id);
}

void Simulation::Impl::preempt_job(model::JobId id) {
  JobRuntime& job = jobs.at(id);
  if (job.stage == JobStage::PLAN) {
    // A task plan restarts from its beginning: its progress is lost.
    ++job.preemptions;
    cancel_transfers(job);
    release(id, job, model::JobPhase::QUEUED);
    cluster_of_job(job).pending.emplace_back(
        model::JobEnded{id, model::JobState::CANCELLED, model::EndCause::PREEMPTED});
    return;
  }
  bool running = job.stage == JobStage::STARTING || job.stage == JobStage::RESTORING ||
                 job.stage == JobStage::COMPUTING || job.stage == JobStage::CHECKPOINTING ||
                 job.stage == JobStage::SNAPSHOTTING || job.stage == JobStage::SLOT_WAIT;
  if (!running) {
    return; // already saving, hung or recovering: the preemption is moot
  }
  ++job.preemptions;
  stop_progress(job);
  cancel_transfers(job);
  bool computed = job.progress_s > job.persisted_s;
  if (faults.preemption.save_on_preempt && computed && job.stage != JobStage::STARTING) {
    enter(id, job, JobStage::SAVING);
    if (job.checkpointing) {
      job.transfer = start_transfer(id, job, core::IoDirection::WRITE);
    } else {
      queue.schedule(now_s + faults.preemption.fallback_save.sample(launch_rng), core::StallEnded{id, job.generation});
    }
    return;
  }
  job.lost_work_s += job.progress_s - job.persisted_s;
  job.progress_s = job.persisted_s;
  job.needs_restore = job.persisted_s > 0.0;
  release(id, job, model::JobPhase::QUEUED);
  cluster_of_job(job).pending.emplace_back(model::JobEnded{id, model::JobState::CANCELLED, model::EndCause::PREEMPTED});
}

void Simulation::Impl::reject_job(ClusterRuntime& cluster, model::JobId id, model::RejectReason reason) {
  const model::JobEntry& entry = cluster.view.job(id);
  ACME_ASSERT(entry.phase == model::JobPhase::QUEUED, "only queued jobs are rejected");
  ++result.jobs_rejected;
  record(entry, jobs.at(id), now_s, model::JobState::CANCELLED, reason);
  cluster.view.remove_job(id);
  jobs.erase(id);
}

void Simulation::Impl::record(const model::JobEntry& entry, const JobRuntime& job, double end_s, model::JobState state,
                              model::RejectReason reason) {
  metrics::JobRecord r;
  r.spec = &entry.spec;
  r.first_start_s = job.first_start_s;
  r.end_s = end_s;
  r.state = state;
  r.attempts = job.attempts;
  r.reject = reason;
  r.gpu_seconds = job.gpu_seconds;
  r.leaves = job.leaves;
  r.nodes = job.nodes;
  r.work_s = job.progress_s;
  r.stall_s = job.stall_s;
  r.restore_s = job.restore_s;
  r.lost_work_s = job.lost_work_s;
  r.lost_gpu_s = job.lost_gpu_s;
  r.checkpoints = job.checkpoints;
  r.preemptions = job.preemptions;
  r.failures = job.failures;
  r.gpu_busy_s = job.gpu_busy_s;
  recorder.on_job(r);
}

} // namespace acme::engine
