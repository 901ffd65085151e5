// Jobs entering, starting, ending and being rejected: the engine side of the scheduler's decisions.
#include "acme/engine/engine_state.hpp"
#include "acme/model/assert.hpp"

#include <algorithm>
#include <type_traits>

namespace acme::engine {

void Simulation::Impl::submit(model::JobSpec spec) {
  ++result.jobs_submitted;
  ClusterRuntime& cluster = clusters.at(model::to_index(spec.cluster));
  if (spec.is_cpu_job() && spec.cpus == 0) {
    spec.cpus = 1; // a CPU job holds at least one core
  }
  JobRuntime runtime;
  runtime.cluster = spec.cluster;
  runtime.remaining_work_s = spec.duration_s;
  model::JobId id = spec.id;
  jobs.emplace(id, runtime);
  cluster.view.add_job(std::move(spec));
  const model::JobSpec& job = cluster.view.job(id).spec;
  if (job.gpus > cluster.view.total_gpus()) {
    reject_job(cluster, id, model::RejectReason::TOO_MANY_GPUS);
    return;
  }
  if (job.is_cpu_job() && job.cpus > cluster.view.shape().cpu_pool_cores) {
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
          end_job(d.job, model::JobState::CANCELLED, model::EndCause::PREEMPTED);
        }
      },
      decision);
}

void Simulation::Impl::start_job(ClusterRuntime& cluster, const model::StartJob& start) {
  const model::JobEntry* entry = cluster.view.find_job(start.job);
  ACME_ASSERT(entry != nullptr && entry->phase == model::JobPhase::QUEUED, "schedulers start queued jobs only");
  ACME_ASSERT(cluster.view.fits(start.placement), "schedulers start jobs on free GPUs of up nodes only");
  cluster.view.start_job(start.job, start.placement);
  JobRuntime& runtime = jobs.at(start.job);
  ++runtime.attempts;
  ++runtime.generation;
  if (runtime.first_start_s == model::UNKNOWN_TIME_S) {
    runtime.first_start_s = now_s;
  }
  std::vector<std::uint32_t> leaves;
  for (const auto& share : start.placement) {
    leaves.push_back(cluster.view.leaf_of(share.node));
  }
  std::sort(leaves.begin(), leaves.end());
  runtime.leaves = static_cast<std::uint32_t>(std::unique(leaves.begin(), leaves.end()) - leaves.begin());
  runtime.nodes = static_cast<std::uint32_t>(start.placement.size());
  schedule(now_s + runtime.remaining_work_s, EventKind::JOB_END, model::to_index(start.job), runtime.generation);
}

void Simulation::Impl::end_job(model::JobId id, model::JobState state, model::EndCause cause) {
  JobRuntime& runtime = jobs.at(id);
  ClusterRuntime& cluster = clusters.at(model::to_index(runtime.cluster));
  const model::JobEntry& entry = cluster.view.job(id);
  ACME_ASSERT(entry.phase == model::JobPhase::RUNNING, "only running jobs end");
  std::uint32_t allocated = 0;
  for (const auto& share : entry.placement) {
    allocated += share.gpus;
  }
  double ran_s = now_s - entry.start_time_s;
  runtime.gpu_seconds += allocated * ran_s;
  runtime.remaining_work_s = std::max(0.0, runtime.remaining_work_s - ran_s);
  ++runtime.generation;
  cluster.view.stop_job(id);
  cluster.pending.emplace_back(model::JobEnded{id, state, cause});
  if (cause == model::EndCause::PREEMPTED) {
    return; // back in the queue; the scheduler re-queues it on JobEnded{PREEMPTED}
  }
  record(cluster.view.job(id), runtime, now_s, state, model::RejectReason::NONE);
  cluster.view.remove_job(id);
  jobs.erase(id);
}

void Simulation::Impl::reject_job(ClusterRuntime& cluster, model::JobId id, model::RejectReason reason) {
  const model::JobEntry& entry = cluster.view.job(id);
  ACME_ASSERT(entry.phase == model::JobPhase::QUEUED, "only queued jobs are rejected");
  ++result.jobs_rejected;
  record(entry, jobs.at(id), now_s, model::JobState::CANCELLED, reason);
  cluster.view.remove_job(id);
  jobs.erase(id);
}

void Simulation::Impl::record(const model::JobEntry& entry, const JobRuntime& runtime, double end_s,
                              model::JobState state, model::RejectReason reason) {
  metrics::JobRecord r;
  r.spec = &entry.spec;
  r.first_start_s = runtime.first_start_s;
  r.end_s = end_s;
  r.state = state;
  r.attempts = runtime.attempts;
  r.reject = reason;
  r.gpu_seconds = runtime.gpu_seconds;
  r.leaves = runtime.leaves;
  r.nodes = runtime.nodes;
  recorder.on_job(r);
}

} // namespace acme::engine
