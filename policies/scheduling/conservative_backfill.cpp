#include "policies/scheduling/conservative_backfill.hpp"

#include <algorithm>

#include "policies/scheduling/ordered_params.hpp"
#include "policies/scheduling/queue_order.hpp"

namespace acme::policies {
namespace {
constexpr std::uint32_t NO_LIMIT = std::numeric_limits<std::uint32_t>::max();
} // namespace

ConservativeBackfillParams ConservativeBackfillParams::parse(const config::Node& node) {
  expect_policy_keys(node, concat_keys({{"queue_depth"}, EstimatorParams::keys()}));
  ConservativeBackfillParams p;
  p.queue_depth = parse_queue_depth(node);
  p.estimator = EstimatorParams::parse(node);
  return p;
}

std::vector<ParamDoc> ConservativeBackfillParams::docs() {
  return concat_docs({{queue_depth_doc()}, EstimatorParams::docs()});
}

ConservativeBackfillScheduler::ConservativeBackfillScheduler(ConservativeBackfillParams params)
    : QueueScheduler(params.estimator)
    , params_(params) {}

void ConservativeBackfillScheduler::enqueue(const model::JobEntry& entry) {
  queue_.insert(FifoOrder{}.key(entry, now_s()));
}

void ConservativeBackfillScheduler::schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes,
                                                  std::vector<model::Decision>& out) {
  if (changes.arrivals_only() && arrivals_pass(cluster, changes, out)) {
    return;
  }
  full_pass(cluster, out);
}

void ConservativeBackfillScheduler::full_pass(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  profile_.begin(free_, running_, now_s());
  planned_ = true;
  reserved_at_.clear();
  min_unplaceable_ = NO_LIMIT;
  std::uint32_t examined = 0;
  auto it = queue_.begin();
  while (it != queue_.end()) {
    if (examined == params_.queue_depth) {
      last_end_ = PassEnd::DEPTH;
      return;
    }
    if (no_room()) {
      last_end_ = PassEnd::NO_FREE_GPUS;
      return;
    }
    auto next = std::next(it);
    const model::JobEntry* entry = queued_entry(cluster, it->job);
    if (entry == nullptr) {
      queue_.erase(it);
      it = next;
      continue;
    }
    ++examined;
    last_examined_ = *it;
    consider(*entry, out);
    it = next;
  }
  last_end_ = PassEnd::QUEUE_EXHAUSTED;
}

bool ConservativeBackfillScheduler::arrivals_pass(const model::ClusterView& cluster, const RoundChanges& changes,
                                                  std::vector<model::Decision>& out) {
  std::vector<QueueKey> arrivals;
  for (model::JobId id : changes.arrived) {
    if (queue_.contains(id)) {
      arrivals.push_back(queue_.key_of(id));
    }
  }
  std::sort(arrivals.begin(), arrivals.end());
  if (!planned_ || (!arrivals.empty() && arrivals.front() < last_examined_)) {
    return false; // an arrival sorts before jobs already planned (a job back from a failure): replan
  }
  if (last_end_ != PassEnd::QUEUE_EXHAUSTED) {
    return true; // no GPU was free or the depth was reached: the arrivals queue behind
  }
  profile_.advance(free_, now_s());
  min_unplaceable_ = NO_LIMIT;
  for (const QueueKey& key : arrivals) {
    if (no_room()) {
      last_end_ = PassEnd::NO_FREE_GPUS;
      return true;
    }
    if (const model::JobEntry* entry = queued_entry(cluster, key.job)) {
      last_examined_ = key;
      consider(*entry, out);
    }
  }
  return true;
}

void ConservativeBackfillScheduler::consider(const model::JobEntry& entry, std::vector<model::Decision>& out) {
  const model::JobSpec& job = entry.spec;
  double duration_s = remaining_estimate_s(entry);
  if (job.is_fractional() || job.gpus < min_unplaceable_) {
    auto where = try_place(entry);
    if (where && profile_.fits_now(*where, duration_s)) {
      start(entry, std::move(*where), out);
      return;
    }
    if (!where && !job.is_fractional()) {
      min_unplaceable_ = job.gpus;
    }
  }
  auto slot = profile_.earliest(job, duration_s);
  if (!slot) {
    return; // cannot fit on the nodes that are up: no reservation
  }
  if (slot->start_s <= now_s() && !job.is_fractional()) {
    start(entry, std::move(slot->placement), out);
    return;
  }
  profile_.reserve(*slot, duration_s);
  reserved_at_[job.id] = slot->start_s;
}

std::unique_ptr<Scheduler> make_conservative_backfill(const ConservativeBackfillParams& params) {
  return std::make_unique<ConservativeBackfillScheduler>(params);
}

} // namespace acme::policies
