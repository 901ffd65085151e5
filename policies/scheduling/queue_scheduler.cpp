#include "policies/scheduling/queue_scheduler.hpp"

#include <algorithm>
#include <type_traits>

namespace acme::policies {

std::vector<model::Decision> QueueScheduler::on_events(std::span<const model::Event> events,
                                                       const model::ClusterView& cluster) {
  now_s_ = cluster.now_s();
  RoundChanges changes;
  for (const auto& event : events) {
    intake(event, cluster, changes);
  }
  changes.overrun = running_.extend_overruns(now_s_);
  std::erase_if(preempting_, [&](const auto& p) { return now_s_ - p.second > PREEMPTION_WAIT_LIMIT_S; });
  std::vector<model::Decision> out;
  free_.begin_round(cluster);
  schedule_gpus(cluster, changes, out);
  start_cpu_jobs(cluster, out);
  return out;
}

void QueueScheduler::intake(const model::Event& event, const model::ClusterView& cluster, RoundChanges& changes) {
  std::visit(
      [&](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, model::JobSubmitted>) {
          const model::JobEntry* entry = queued_entry(cluster, e.job);
          if (entry == nullptr) {
            return;
          }
          if (entry->spec.is_cpu_job()) {
            cpu_queue_.insert(entry->spec.submit_time_s, e.job);
            return;
          }
          enqueue(*entry);
          changes.arrived.push_back(e.job);
        } else if constexpr (std::is_same_v<E, model::JobEnded>) {
          job_ended(e, cluster, changes);
        } else if constexpr (std::is_same_v<E, model::NodeDown>) {
          changes.nodes_down = true;
        } else if constexpr (std::is_same_v<E, model::NodeUp>) {
          changes.released = true;
        }
      },
      event);
}

void QueueScheduler::job_ended(const model::JobEnded& ended, const model::ClusterView& cluster, RoundChanges& changes) {
  changes.released = true;
  preempting_.erase(ended.job);
  if (auto job = running_.remove(ended.job)) {
    on_job_stopped(*job, ended.cause);
    if (ended.cause == model::EndCause::WORKLOAD && job->milli > 0) {
      double share = static_cast<double>(job->milli) / model::MILLI_PER_GPU;
      estimator_.observe(job->type, job->user, (now_s_ - job->start_s) + job->prior_gpu_s / share);
    }
  }
  if (ended.cause != model::EndCause::PREEMPTED) {
    return;
  }
  const model::JobEntry* entry = queued_entry(cluster, ended.job);
  if (entry == nullptr) {
    return;
  }
  if (entry->spec.is_cpu_job()) {
    cpu_queue_.insert(entry->spec.submit_time_s, ended.job);
    return;
  }
  enqueue(*entry);
  changes.arrived.push_back(ended.job);
}

const model::JobEntry* QueueScheduler::queued_entry(const model::ClusterView& cluster, model::JobId id) {
  const model::JobEntry* entry = cluster.find_job(id);
  return entry != nullptr && entry->phase == model::JobPhase::QUEUED ? entry : nullptr;
}

double QueueScheduler::remaining_estimate_s(const model::JobEntry& entry) const {
  double estimate_s = estimator_.estimate_s(entry.spec);
  if (entry.spec.gpus == 0 || entry.attained_gpu_s <= 0.0) {
    return estimate_s;
  }
  double done_s = entry.attained_gpu_s / entry.spec.gpu_share();
  return estimate_s > done_s ? estimate_s - done_s : std::max(done_s, OVERRUN_MIN_EXTENSION_S);
}

std::optional<model::Placement> QueueScheduler::try_place(const model::JobEntry& entry) {
  if (!may_fit(entry.spec)) {
    return std::nullopt;
  }
  return placement().place(entry.spec, free_);
}

void QueueScheduler::start(const model::JobEntry& entry, model::Placement placement,
                           std::vector<model::Decision>& out) {
  free_.take(placement);
  RunningJob job;
  job.id = entry.spec.id;
  job.type = entry.spec.type;
  job.user = entry.spec.user;
  job.gpus = entry.spec.gpus;
  job.milli = job_milli(entry.spec);
  job.start_s = now_s_;
  job.prior_gpu_s = entry.attained_gpu_s;
  job.est_end_s = now_s_ + remaining_estimate_s(entry);
  job.placement = placement;
  running_.add(job);
  on_job_started(*running_.find(job.id));
  if (claimant_ == job.id) {
    claimant_.reset();
  }
  out.emplace_back(model::StartJob{job.id, std::move(placement)});
}

bool QueueScheduler::serve_claimant(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  if (!claimant_) {
    return false;
  }
  const model::JobEntry* entry = queued_entry(cluster, *claimant_);
  if (entry == nullptr) {
    claimant_.reset();
    return false;
  }
  if (auto where = try_place(*entry)) {
    start(*entry, std::move(*where), out);
    return true;
  }
  if (!preemptions_outstanding()) {
    claimant_.reset();
    return false;
  }
  for (const auto& [victim, asked_s] : preempting_) {
    const RunningJob* job = running_.find(victim);
    if (job == nullptr) {
      continue;
    }
    for (const auto& share : job->placement) {
      if (std::uint32_t idle = free_.free_gpus(share.node); idle > 0) {
        free_.take({model::NodeShare{share.node, idle}});
      }
    }
  }
  return false;
}

void QueueScheduler::preempt(model::JobId job, std::vector<model::Decision>& out) {
  preempting_.emplace(job, now_s_);
  out.emplace_back(model::PreemptJob{job});
}

void QueueScheduler::start_cpu_jobs(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  while (!cpu_queue_.empty()) {
    const model::JobEntry* entry = queued_entry(cluster, cpu_queue_.front().job);
    if (entry == nullptr) {
      cpu_queue_.pop_front();
      continue;
    }
    if (entry->spec.cpus > free_.free_cpu_cores()) {
      return;
    }
    free_.take_cpus(entry->spec.cpus);
    out.emplace_back(model::StartJob{entry->spec.id, {}});
    cpu_queue_.pop_front();
  }
}

} // namespace acme::policies
