#include "policies/scheduling/ordered_scheduler.hpp"

#include <algorithm>
#include <cmath>

namespace acme::policies {
namespace {

QueueSchedulerConfig skeleton_config(const OrderedSchedulerConfig& config) {
  QueueSchedulerConfig c;
  c.depth = config.depth;
  c.estimator = config.estimator;
  c.quota = config.quota;
  c.limits = config.limits;
  c.cadence = config.cadence;
  c.cadence.event_depth = config.depth;
  return c;
}

} // namespace

OrderedScheduler::OrderedScheduler(OrderedSchedulerConfig config)
    : QueueScheduler(skeleton_config(config))
    , config_(std::move(config)) {
  switch (config_.order) {
  case OrderKind::FIFO:
    order_ = std::make_unique<FifoOrder>();
    break;
  case OrderKind::SHORTEST_FIRST:
    order_ = std::make_unique<ShortestFirstOrder>([this](const model::JobEntry& e) { return remaining_estimate_s(e); });
    break;
  case OrderKind::PRIORITY: {
    auto priority = std::make_unique<PriorityOrder>(config_.priority);
    multifactor_ = std::make_unique<MultifactorQueue>(*priority);
    order_ = std::move(priority);
    break;
  }
  }
}

double OrderedScheduler::head_reservation_s(const model::ClusterView& view) const {
  const model::JobEntry* entry = head() ? view.find_job(*head()) : nullptr;
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
  if (multifactor_) {
    multifactor_->add(QueueKey{}, entry.spec);
    return;
  }
  queue_.insert(order_->key(entry, now_s()), QueuedJob::of(entry.spec));
}

void OrderedScheduler::on_job_started(const RunningJob& job) {
  order_->on_start(job, now_s());
}

void OrderedScheduler::on_job_stopped(const RunningJob& job, model::EndCause) {
  order_->on_stop(job, now_s());
}

bool OrderedScheduler::prepare_round(const model::ClusterView&) {
  if (!order_->refresh(now_s())) {
    return false;
  }
  if (multifactor_) {
    multifactor_->recalc(now_s());
    return true;
  }
  // A job that left the view unnoticed keeps a key; passes drop it when they meet it.
  queue_.rekey([&](const QueuedJob& job) { return order_->rekey(job, now_s()); });
  return true;
}

ArrivalsRound OrderedScheduler::on_arrivals(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals) {
  // Arrivals behind a blocked head are backfill candidates (EASY) or wait (strict order); an arrival
  // ahead of the head, or no head at all, needs a full pass.
  BackfillMode mode = backfill_in(PassKind::ARRIVALS);
  if (mode == BackfillMode::CONSERVATIVE) {
    return ArrivalsRound::FULL_PASS; // an arrival is planned among the jobs ahead of it: plan them all again
  }
  if (mode == BackfillMode::GREEDY || arrivals_behind_head(cluster, arrivals)) {
    return ArrivalsRound::EXAMINE;
  }
  return ArrivalsRound::FULL_PASS;
}

void OrderedScheduler::begin_pass(PassKind kind) {
  refused_sizes_.clear();
  if (backfill_in(kind) == BackfillMode::CONSERVATIVE) {
    plan_.begin(free_, running_, now_s());
  }
  if (kind != PassKind::ARRIVALS) {
    shadow_stale_ = true; // computed when the first backfill candidate needs it: nothing starts before that
  }
}

Step OrderedScheduler::decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) {
  BackfillMode mode = backfill_in(kind);
  if (kind == PassKind::ARRIVALS && mode == BackfillMode::NONE) {
    // Strict order: an arrival behind the head starts nothing; an owner may still reclaim its quota.
    hold(model::WaitReason::PRIORITY);
    return admission(entry.spec) == Admission::OWNED && try_preempt(entry, out) ? Step::PREEMPTED : Step::WAITING;
  }
  quota_held_ = false;
  bool backfilling = mode == BackfillMode::EASY && (kind == PassKind::ARRIVALS || head().has_value());
  Step step = consider(entry, backfilling, mode == BackfillMode::CONSERVATIVE, out);
  if (mode != BackfillMode::NONE) {
    return step;
  }
  return strict_order(step);
}

Step OrderedScheduler::strict_order(Step step) const {
  // The first job that waits is the head: with strict order it blocks the queue. So does a job the
  // quotas hold once no group has quota left: nothing behind it could start but by borrowing, and
  // borrowing behind it would jump the strict order (Slurm's main pass stops at a partition's first
  // job that cannot start; only backfill goes on). A job its group's borrowing limit holds does not:
  // the other groups may still borrow.
  bool held = step == Step::SKIPPED && quota_held_;
  return step == Step::WAITING || (held && !quota()->owner_room()) ? Step::BLOCKED : step;
}

std::optional<Step> OrderedScheduler::decide_brief(const JobBrief& job, PassKind kind) {
  // consider() for a job already found admissible, where it ends before placement: the quotas hold it,
  // or it cannot fit and cannot preempt. A conservative pass plans every job: it needs the entry.
  BackfillMode mode = backfill_in(kind);
  if (kind == PassKind::ARRIVALS || mode == BackfillMode::CONSERVATIVE) {
    return std::nullopt;
  }
  quota_held_ = false;
  std::uint32_t gpus = job.gpus();
  Admission admit = quota() ? quota()->classify(job.type(), job.user(), std::uint64_t{gpus} * model::MILLI_PER_GPU)
                            : Admission::OWNED;
  Step step = Step::WAITING;
  if (held_back(admit)) {
    quota_held_ = admit == Admission::BLOCKED;
    hold(quota_wait());
    step = Step::SKIPPED;
  } else if (auto limit = limit_hold(job)) {
    hold(*limit);
    step = Step::SKIPPED;
  } else if (may_fit_whole(gpus) || (admit == Admission::OWNED && may_preempt_for(gpus))) {
    return std::nullopt;
  }
  return mode == BackfillMode::NONE ? strict_order(step) : step;
}

BackfillMode OrderedScheduler::backfill_in(PassKind kind) const {
  // Under Slurm's cadence only the backfill pass backfills; the main and event passes keep strict order.
  bool plans = config_.backfill == BackfillMode::EASY || config_.backfill == BackfillMode::CONSERVATIVE;
  if (cadenced() && kind != PassKind::BACKFILL && plans) {
    return BackfillMode::NONE;
  }
  return config_.backfill;
}

Step OrderedScheduler::consider(const model::JobEntry& entry, bool backfilling, bool planning,
                                std::vector<model::Decision>& out) {
  // decide_brief() repeats the steps up to placement for jobs it can settle from their briefs: a change
  // here changes it too (brief_decisions_test compares the two).
  const model::JobSpec& job = entry.spec;
  if (reject_if_never_admitted(job, out)) {
    return Step::SKIPPED;
  }
  Admission admit = admission(job);
  if (held_back(admit)) {
    quota_held_ = admit == Admission::BLOCKED; // a group at its own borrowing limit holds only its jobs
    hold(quota_wait());
    return Step::SKIPPED;
  }
  if (auto limit = limit_hold(job)) {
    hold(*limit); // as in Slurm, a job a limit holds does not block the jobs behind it
    return Step::SKIPPED;
  }
  if (planning) {
    return consider_planned(entry, admit, out);
  }
  auto not_now = [&] { return admit == Admission::OWNED && try_preempt(entry, out) ? Step::PREEMPTED : Step::WAITING; };
  if (!may_fit(job) || known_unfit(job)) {
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
      return Step::WAITING;
    }
  }
  std::optional<model::Placement> where = try_place(entry);
  if (!where) {
    note_unfit(job);
    return not_now();
  }
  if (runs_past_shadow && !shadow_.admit(*where, end_s)) {
    refused_sizes_.push_back(job.gpus);
    return Step::WAITING;
  }
  refused_sizes_.clear();
  start(entry, std::move(*where), out);
  return Step::STARTED;
}

double OrderedScheduler::planned_duration_s(const model::JobEntry& entry) const {
  double resolution_s = config_.cadence.bf_resolution_s;
  double duration_s = remaining_estimate_s(entry);
  return resolution_s > 0.0 ? std::ceil(duration_s / resolution_s) * resolution_s : duration_s;
}

Step OrderedScheduler::consider_planned(const model::JobEntry& entry, Admission admit,
                                        std::vector<model::Decision>& out) {
  const model::JobSpec& job = entry.spec;
  double duration_s = planned_duration_s(entry);
  if (auto where = place_unless_known_unfit(entry); where && plan_.fits_now(*where, duration_s)) {
    start(entry, std::move(*where), out);
    return Step::STARTED;
  }
  auto slot = plan_.earliest(job, duration_s);
  if (slot && slot->start_s <= now_s() && !job.is_fractional()) {
    start(entry, std::move(slot->placement), out); // room now, on nodes the placement did not pick
    return Step::STARTED;
  }
  if (admit == Admission::OWNED && try_preempt(entry, out)) {
    return Step::PREEMPTED;
  }
  if (!slot || slot->start_s > now_s() + config_.cadence.bf_window_s) {
    return Step::WAITING; // never fits on the nodes that are up, or not within the window: no plan
  }
  plan_.reserve(*slot, duration_s);
  return Step::WAITING;
}

void OrderedScheduler::ensure_shadow() {
  if (shadow_stale_) {
    shadow_.compute(queued_entry(free_.view(), *head())->spec.gpus, free_, running_, now_s());
    shadow_stale_ = false;
  }
}

} // namespace acme::policies
