#include "policies/scheduling/queue_scheduler.hpp"

#include <algorithm>
#include <type_traits>

namespace acme::policies {

QueueScheduler::QueueScheduler(QueueSchedulerConfig config)
    : estimator_(config.estimator)
    , config_(std::move(config))
    , cadence_(config_.cadence) {
  if (config_.limits.any()) {
    limits_.emplace(config_.limits);
  }
}

std::vector<model::Decision> QueueScheduler::on_events(std::span<const model::Event> events,
                                                       const model::ClusterView& cluster) {
  now_s_ = cluster.now_s();
  if (!quota_ && config_.quota) {
    quota_.emplace(*config_.quota, cluster.total_gpus());
  }
  RoundChanges changes;
  for (const auto& event : events) {
    intake(event, cluster, changes);
  }
  changes.overrun = running_.extend_overruns(now_s_);
  std::erase_if(preempting_, [&](const auto& p) { return now_s_ - p.second > PREEMPTION_WAIT_LIMIT_S; });
  std::vector<model::Decision> out;
  note_arrivals(changes, out);
  free_.begin_round(cluster);
  passes_ran_ = true;
  cpu_behind_head_ = false;
  schedule_gpus(cluster, changes, out);
  if (passes_ran_) {
    start_cpu_jobs(cluster, out);
  } else if (cpu_behind_head_) {
    note_cpu_behind_head(cluster, out);
  }
  return out;
}

void QueueScheduler::note_arrivals(const RoundChanges& changes, std::vector<model::Decision>& out) {
  bool deferred = batch_deferred();
  model::WaitReason reason = deferred ? model::WaitReason::NONE : model::WaitReason::PRIORITY;
  for (model::JobId id : changes.arrived) {
    note_wait(id, reason, out); // until a pass examines it
    if (deferred) {
      unexamined_.push_back(id);
    }
  }
  if (deferred) { // CPU jobs start at once without a cadence; under one, with the passes
    for (model::JobId id : changes.cpu_arrived) {
      note_wait(id, reason, out);
    }
  }
}

void QueueScheduler::note_passed_over(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  for (model::JobId id : unexamined_) {
    if (noted_.get(id) == noted_code(model::WaitReason::NONE) && queued_entry(cluster, id) != nullptr) {
      note_wait(id, model::WaitReason::PRIORITY, out);
    }
  }
  unexamined_.clear();
}

void QueueScheduler::note_cpu_behind_head(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  for (const JobQueue::Item& queued : cpu_queue_.items()) {
    if (queued_entry(cluster, queued.job) != nullptr) {
      note_wait(queued.job, model::WaitReason::PRIORITY, out);
    }
  }
}

void QueueScheduler::intake(const model::Event& event, const model::ClusterView& cluster, RoundChanges& changes) {
  std::visit(
      [&](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        changes.triggered = changes.triggered || !std::is_same_v<E, model::WakeUp>;
        if constexpr (std::is_same_v<E, model::JobSubmitted>) {
          queue_again(cluster, e.job, changes);
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
  briefs_.erase(ended.job); // a queued job that ended keeps its key until a pass meets it, but no brief
  preempting_.erase(ended.job);
  if (auto job = running_.remove(ended.job)) {
    if (quota_) {
      quota_->on_stop(*job);
    }
    if (limits_) {
      limits_->on_stop(*job);
    }
    on_job_stopped(*job, ended.cause);
    if (ended.cause == model::EndCause::WORKLOAD && job->milli > 0) {
      double share = static_cast<double>(job->milli) / model::MILLI_PER_GPU;
      estimator_.observe(job->type, job->user, (now_s_ - job->start_s) + job->prior_gpu_s / share);
    }
  }
  if (ended.cause == model::EndCause::PREEMPTED) {
    queue_again(cluster, ended.job, changes);
  }
}

void QueueScheduler::queue_again(const model::ClusterView& cluster, model::JobId id, RoundChanges& changes) {
  const model::JobEntry* entry = queued_entry(cluster, id);
  if (entry == nullptr) {
    return;
  }
  if (entry->spec.is_cpu_job()) {
    cpu_queue_.insert(entry->spec.submit_time_s, id);
    changes.cpu_arrived.push_back(id);
    return;
  }
  enqueue(*entry);
  if (quota_) {
    quota_->on_queued(entry->spec);
  }
  changes.arrived.push_back(id);
}

void QueueScheduler::note_wait(model::JobId job, model::WaitReason reason, std::vector<model::Decision>& out) {
  std::uint8_t stored = noted_code(reason);
  if (noted_.get(job) == stored) {
    return;
  }
  noted_.set(job, stored);
  out.emplace_back(model::NoteWait{job, reason});
}

void QueueScheduler::dequeue(model::JobId job) {
  gpu_queue().drop(job);
  noted_.erase(job);
  briefs_.erase(job);
  if (quota_) {
    quota_->on_dequeued(job);
  }
}

void QueueScheduler::enqueue(const model::JobEntry& entry) {
  gpu_queue().add({entry.spec.submit_time_s, 0.0, entry.spec.id}, entry.spec);
}

bool QueueScheduler::prepare_round(const model::ClusterView&) {
  return false;
}

ArrivalsRound QueueScheduler::on_arrivals(const model::ClusterView&, const std::vector<QueueKey>&) {
  return ArrivalsRound::EXAMINE;
}

void QueueScheduler::begin_pass(PassKind) {}

void QueueScheduler::on_job_started(const RunningJob&) {}

void QueueScheduler::on_job_stopped(const RunningJob&, model::EndCause) {}

bool QueueScheduler::preemption_possible() const {
  return quota_ && quota_->params().reclaim && quota_->reclaimable_milli() > 0;
}

std::vector<model::JobId> QueueScheduler::plan_preemption(const model::JobEntry& entry) {
  return quota_ ? plan_reclaim(entry.spec, *quota_, running_, free_) : std::vector<model::JobId>{};
}

bool QueueScheduler::try_preempt(const model::JobEntry& entry, std::vector<model::Decision>& out) {
  if (!may_preempt() || entry.spec.gpus >= min_unpreemptable_) {
    return false;
  }
  std::vector<model::JobId> victims = plan_preemption(entry);
  if (victims.empty()) {
    min_unpreemptable_ = entry.spec.gpus;
    return false;
  }
  for (model::JobId victim : victims) {
    preempting_.emplace(victim, now_s_);
    out.emplace_back(model::PreemptJob{victim});
  }
  claimant_ = entry.spec.id;
  return true;
}

bool QueueScheduler::reject_if_never_admitted(const model::JobSpec& job, std::vector<model::Decision>& out) {
  if ((!quota_ || quota_->can_ever_run(job)) && (!limits_ || limits_->can_ever_run(job))) {
    if (auto brief = JobBrief::of(job); use_briefs_ && brief) {
      briefs_.set(job.id, *brief);
    }
    return false;
  }
  dequeue(job.id);
  out.emplace_back(model::RejectJob{job.id, model::RejectReason::BY_POLICY});
  return true;
}

std::optional<Step> QueueScheduler::decide_brief(const JobBrief&, PassKind) {
  return std::nullopt;
}

Admission QueueScheduler::admission(const model::JobSpec& job) const {
  return quota_ ? quota_->classify(job) : Admission::OWNED;
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

std::optional<model::Placement> QueueScheduler::place_unless_known_unfit(const model::JobEntry& entry) {
  if (known_unfit(entry.spec)) {
    return std::nullopt;
  }
  std::optional<model::Placement> where = try_place(entry);
  if (!where) {
    note_unfit(entry.spec);
  }
  return where;
}

void QueueScheduler::note_unfit(const model::JobSpec& job) {
  if (!job.is_fractional()) {
    min_unfit_ = job.gpus;
  }
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
  dequeue(job.id);
  if (quota_) {
    quota_->on_start(job);
  }
  if (limits_) {
    limits_->on_start(job);
  }
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
  if (preempting_.empty()) {
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
