#include "policies/scheduling/kube_quota.hpp"

#include <algorithm>
#include <set>

#include "policies/scheduling/ordered_params.hpp"
#include "policies/scheduling/queue_order.hpp"

namespace acme::policies {
namespace {
constexpr std::uint32_t NO_LIMIT = std::numeric_limits<std::uint32_t>::max();
} // namespace

KubeQuotaParams KubeQuotaParams::parse(const config::Node& node) {
  expect_policy_keys(node, concat_keys({QuotaParams::keys(), {"queueing", "queue_depth"}}));
  KubeQuotaParams p;
  p.quota = QuotaParams::parse(node);
  p.strict_fifo = parse_choice(node, "queueing", p.strict_fifo, {{"strict_fifo", true}, {"best_effort_fifo", false}},
                               "queueing strategy");
  p.queue_depth = parse_queue_depth(node);
  return p;
}

std::vector<ParamDoc> KubeQuotaParams::docs() {
  return concat_docs({QuotaParams::docs(),
                      {{"queueing", "best_effort_fifo",
                        "strict_fifo: a queue's head that cannot be admitted blocks its queue; best_effort_fifo: "
                        "later jobs of the queue may go first (Kueue's default)"},
                       queue_depth_doc()}});
}

KubeQuotaScheduler::KubeQuotaScheduler(KubeQuotaParams params) : params_(std::move(params)) {}

OrderedQueue& KubeQuotaScheduler::queue_of(const model::JobSpec& job) {
  return queues_[QuotaBook::group_key(params_.quota, job.type, job.user)];
}

void KubeQuotaScheduler::enqueue(const model::JobEntry& entry) {
  queue_of(entry.spec).insert(FifoOrder{}.key(entry, now_s()));
}

void KubeQuotaScheduler::on_job_started(const RunningJob& job) {
  queues_[QuotaBook::group_key(params_.quota, job.type, job.user)].erase(job.id);
  quota_->on_start(job);
}

void KubeQuotaScheduler::on_job_stopped(const RunningJob& job, model::EndCause) {
  if (quota_) {
    quota_->on_stop(job);
  }
}

void KubeQuotaScheduler::schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes,
                                       std::vector<model::Decision>& out) {
  if (!quota_) {
    quota_.emplace(params_.quota, cluster.total_gpus());
  }
  bool claimant_started = serve_claimant(cluster, out);
  if (!claimant_started && changes.arrivals_only()) {
    arrivals_pass(cluster, changes, out);
    return;
  }
  full_pass(cluster, out);
}

void KubeQuotaScheduler::full_pass(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  min_unplaceable_ = NO_LIMIT;
  min_unreclaimable_ = NO_LIMIT;
  // The queues' current heads, oldest first; a queue advances once its head is dealt with.
  std::set<std::pair<QueueKey, std::uint64_t>> heads;
  for (const auto& [group, queue] : queues_) {
    if (!queue.empty()) {
      heads.emplace(*queue.begin(), group);
    }
  }
  std::uint32_t examined = 0;
  while (!heads.empty() && examined < params_.queue_depth) {
    if (no_room() && !may_reclaim()) {
      return;
    }
    auto [key, group] = *heads.begin();
    heads.erase(heads.begin());
    OrderedQueue& queue = queues_.at(group);
    const model::JobEntry* entry = queued_entry(cluster, key.job);
    Step step = Step::REJECTED;
    if (entry == nullptr) {
      queue.erase(key.job);
    } else {
      ++examined;
      step = consider(*entry, out);
    }
    if (step == Step::RECLAIMED) {
      return;
    }
    if (step == Step::WAITING && params_.strict_fifo) {
      continue; // the head blocks its queue
    }
    if (auto next = queue.after(key); next != queue.end()) {
      heads.emplace(*next, group);
    }
  }
}

void KubeQuotaScheduler::arrivals_pass(const model::ClusterView& cluster, const RoundChanges& changes,
                                       std::vector<model::Decision>& out) {
  std::vector<QueueKey> arrivals;
  for (model::JobId id : changes.arrived) {
    const model::JobEntry* entry = queued_entry(cluster, id);
    if (entry != nullptr && queue_of(entry->spec).contains(id)) {
      arrivals.push_back(queue_of(entry->spec).key_of(id));
    }
  }
  std::sort(arrivals.begin(), arrivals.end());
  min_unplaceable_ = NO_LIMIT;
  min_unreclaimable_ = NO_LIMIT;
  for (const QueueKey& key : arrivals) {
    const model::JobEntry* entry = queued_entry(cluster, key.job);
    if (entry == nullptr) {
      continue;
    }
    // Every job queued before still waits; under strict FIFO an arrival behind one waits too.
    if (params_.strict_fifo && queue_of(entry->spec).begin()->job != key.job) {
      continue;
    }
    if (consider(*entry, out) == Step::RECLAIMED) {
      return;
    }
  }
}

KubeQuotaScheduler::Step KubeQuotaScheduler::consider(const model::JobEntry& entry, std::vector<model::Decision>& out) {
  const model::JobSpec& job = entry.spec;
  if (!quota_->can_ever_run(job)) {
    queue_of(job).erase(job.id);
    out.emplace_back(model::RejectJob{job.id, model::RejectReason::BY_POLICY});
    return Step::REJECTED;
  }
  Admission admit = quota_->classify(job);
  if (admit == Admission::BLOCKED) {
    return Step::WAITING;
  }
  if (job.is_fractional() || job.gpus < min_unplaceable_) {
    if (auto where = try_place(entry)) {
      start(entry, std::move(*where), out);
      return Step::STARTED;
    }
    if (!job.is_fractional()) {
      min_unplaceable_ = job.gpus;
    }
  }
  if (admit != Admission::OWNED || !may_reclaim() || job.gpus >= min_unreclaimable_) {
    return Step::WAITING;
  }
  auto victims = plan_reclaim(job, *quota_, running_, free_);
  if (victims.empty()) {
    min_unreclaimable_ = job.gpus;
    return Step::WAITING;
  }
  for (model::JobId victim : victims) {
    preempt(victim, out);
  }
  claimant_ = job.id;
  return Step::RECLAIMED;
}

bool KubeQuotaScheduler::may_reclaim() const {
  return quota_->params().reclaim && quota_->reclaimable_milli() > 0 && !preemptions_outstanding() && !claimant_;
}

std::unique_ptr<Scheduler> make_kube_quota(const KubeQuotaParams& params) {
  return std::make_unique<KubeQuotaScheduler>(params);
}

} // namespace acme::policies
