#include "policies/scheduling/ordered_scheduler.hpp"

#include <algorithm>
#include <limits>

namespace acme::policies {
namespace {
constexpr std::uint32_t NO_LIMIT = std::numeric_limits<std::uint32_t>::max();
} // namespace

OrderedScheduler::OrderedScheduler(OrderedSchedulerConfig config)
    : QueueScheduler(config.estimator)
    , config_(std::move(config)) {
  switch (config_.order) {
  case OrderKind::FIFO:
    order_ = std::make_unique<FifoOrder>();
    break;
  case OrderKind::SHORTEST_FIRST:
    order_ = std::make_unique<ShortestFirstOrder>([this](const model::JobEntry& e) { return remaining_estimate_s(e); });
    break;
  case OrderKind::PRIORITY:
    order_ = std::make_unique<PriorityOrder>(config_.priority);
    break;
  }
}

double OrderedScheduler::head_reservation_s(const model::ClusterView& view) const {
  const model::JobEntry* entry = head_ ? view.find_job(*head_) : nullptr;
  if (entry == nullptr) {
    return ShadowProfile::NEVER;
  }
  FreeResources free;
  free.begin_round(view);
  ShadowProfile profile;
  profile.compute(entry->spec.gpus, free, running_, view.now_s());
  return profile.shadow_s();
}

void OrderedScheduler::enqueue(const model::JobEntry& entry) {
  queue_.insert(order_->key(entry, now_s()), QueuedJob::of(entry.spec));
}

void OrderedScheduler::on_job_started(const RunningJob& job) {
  queue_.erase(job.id);
  order_->on_start(job, now_s());
  if (quota_) {
    quota_->on_start(job);
  }
}

void OrderedScheduler::on_job_stopped(const RunningJob& job, model::EndCause) {
  order_->on_stop(job, now_s());
  if (quota_) {
    quota_->on_stop(job);
  }
}

Admission OrderedScheduler::admission(const model::JobSpec& job) const {
  return quota_ ? quota_->classify(job) : Admission::OWNED;
}

void OrderedScheduler::schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes,
                                     std::vector<model::Decision>& out) {
  if (!quota_ && config_.quota) {
    quota_.emplace(*config_.quota, cluster.total_gpus());
  }
  bool rekeyed = order_->refresh(now_s());
  if (rekeyed) {
    // A job that left the view unnoticed keeps a key; passes drop it when they meet it.
    queue_.rekey([&](const QueuedJob& job) { return order_->rekey(job, now_s()); });
  }
  bool claimant_started = serve_claimant(cluster, out);
  if (!rekeyed && !claimant_started && changes.arrivals_only() && arrivals_pass(cluster, changes, out)) {
    return;
  }
  full_pass(cluster, out);
}

void OrderedScheduler::full_pass(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  head_.reset();
  refused_sizes_.clear();
  min_unplaceable_ = NO_LIMIT;
  min_unreclaimable_ = NO_LIMIT;
  std::uint32_t examined = 0;
  auto it = queue_.begin();
  while (it != queue_.end()) {
    if (examined == config_.depth || (no_room() && !may_reclaim())) {
      return;
    }
    auto next = queue_.next(it);
    const model::JobEntry* entry = queued_entry(cluster, it->job);
    if (entry == nullptr) {
      queue_.erase(it);
      it = next;
      continue;
    }
    ++examined;
    Step step = consider(*entry, head_.has_value(), out);
    if (step == Step::RECLAIMED) {
      return;
    }
    if (step == Step::NOT_NOW && !head_ && config_.backfill != BackfillMode::GREEDY) {
      head_ = entry->spec.id;
      if (config_.backfill == BackfillMode::NONE) {
        return;
      }
      shadow_stale_ = true; // computed when the first candidate needs it: nothing starts before that
    }
    it = next;
  }
}

bool OrderedScheduler::arrivals_pass(const model::ClusterView& cluster, const RoundChanges& changes,
                                     std::vector<model::Decision>& out) {
  std::vector<QueueKey> arrivals;
  for (model::JobId id : changes.arrived) {
    if (queue_.contains(id)) {
      arrivals.push_back(queue_.key_of(id));
    }
  }
  std::sort(arrivals.begin(), arrivals.end());
  if (config_.backfill != BackfillMode::GREEDY) {
    // Arrivals behind a blocked head are backfill candidates (EASY) or wait (strict order); an arrival
    // ahead of the head, or no head at all, needs a full pass.
    if (!head_ || queued_entry(cluster, *head_) == nullptr || !queue_.contains(*head_)) {
      return false;
    }
    if (!arrivals.empty() && arrivals.front() < queue_.key_of(*head_)) {
      return false;
    }
  }
  min_unplaceable_ = NO_LIMIT;
  min_unreclaimable_ = NO_LIMIT;
  refused_sizes_.clear();
  for (const QueueKey& key : arrivals) {
    const model::JobEntry* entry = queued_entry(cluster, key.job);
    if (entry == nullptr) {
      continue;
    }
    bool backfilling = config_.backfill == BackfillMode::EASY;
    if (config_.backfill == BackfillMode::NONE) {
      // Strict order: an arrival behind the head starts nothing; an owner may still reclaim its quota.
      if (admission(entry->spec) == Admission::OWNED && try_reclaim(*entry, out)) {
        return true;
      }
      continue;
    }
    if (consider(*entry, backfilling, out) == Step::RECLAIMED) {
      return true;
    }
  }
  return true;
}

OrderedScheduler::Step OrderedScheduler::consider(const model::JobEntry& entry, bool backfilling,
                                                  std::vector<model::Decision>& out) {
  const model::JobSpec& job = entry.spec;
  if (quota_ && !quota_->can_ever_run(job)) {
    queue_.erase(job.id);
    out.emplace_back(model::RejectJob{job.id, model::RejectReason::BY_POLICY});
    return Step::SKIPPED;
  }
  Admission admit = admission(job);
  if (admit == Admission::BLOCKED) {
    return Step::SKIPPED;
  }
  auto not_now = [&] { return admit == Admission::OWNED && try_reclaim(entry, out) ? Step::RECLAIMED : Step::NOT_NOW; };
  // A whole-GPU job needing at least as many GPUs as one that did not fit does not fit either (a
  // fractional job may still find room on a shared GPU).
  if (!may_fit(job) || (!job.is_fractional() && job.gpus >= min_unplaceable_)) {
    return not_now();
  }
  double end_s = 0.0;
  bool runs_past_shadow = false;
  if (backfilling) {
    ensure_shadow();
    end_s = now_s() + remaining_estimate_s(entry);
    runs_past_shadow = end_s > shadow_.shadow_s();
    // Nothing changed since a job of this size running past the shadow time was refused: the placement
    // would be the same, and so would the answer.
    if (runs_past_shadow && !job.is_fractional() &&
        std::find(refused_sizes_.begin(), refused_sizes_.end(), job.gpus) != refused_sizes_.end()) {
      return Step::NOT_NOW;
    }
  }
  std::optional<model::Placement> where = try_place(entry);
  if (!where) {
    if (!job.is_fractional()) {
      min_unplaceable_ = job.gpus;
    }
    return not_now();
  }
  if (runs_past_shadow && !shadow_.admit(*where, end_s)) {
    refused_sizes_.push_back(job.gpus);
    return Step::NOT_NOW;
  }
  refused_sizes_.clear();
  start(entry, std::move(*where), out);
  return Step::STARTED;
}

void OrderedScheduler::ensure_shadow() {
  if (shadow_stale_) {
    shadow_.compute(queued_entry(free_.view(), *head_)->spec.gpus, free_, running_, now_s());
    shadow_stale_ = false;
  }
}

bool OrderedScheduler::may_reclaim() const {
  return quota_ && quota_->params().reclaim && quota_->reclaimable_milli() > 0 && !preemptions_outstanding() &&
         !claimant_;
}

bool OrderedScheduler::try_reclaim(const model::JobEntry& entry, std::vector<model::Decision>& out) {
  if (!may_reclaim() || entry.spec.gpus >= min_unreclaimable_) {
    return false;
  }
  auto victims = plan_reclaim(entry.spec, *quota_, running_, free_);
  if (victims.empty()) {
    min_unreclaimable_ = entry.spec.gpus;
    return false;
  }
  for (model::JobId victim : victims) {
    preempt(victim, out);
  }
  claimant_ = entry.spec.id;
  return true;
}

} // namespace acme::policies
