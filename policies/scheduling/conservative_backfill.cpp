#include "policies/scheduling/conservative_backfill.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

const ParamTable<ConservativeBackfillParams>& ConservativeBackfillParams::table() {
  static const ParamTable<ConservativeBackfillParams> t =
      ParamTable<ConservativeBackfillParams>{queue_depth_param(&ConservativeBackfillParams::queue_depth)}.include(
          &ConservativeBackfillParams::estimator, EstimatorParams::table());
  return t;
}

ConservativeBackfillScheduler::ConservativeBackfillScheduler(ConservativeBackfillParams params)
    : QueueScheduler({params.queue_depth, params.estimator, std::nullopt, model::WaitReason::QUOTA, {}, {}}) {}

ArrivalsRound ConservativeBackfillScheduler::on_arrivals(const model::ClusterView&,
                                                         const std::vector<QueueKey>& arrivals) {
  if (!planned_ || (!arrivals.empty() && arrivals.front() < last_examined_)) {
    return ArrivalsRound::FULL_PASS; // an arrival sorts before jobs already planned (a job back from a failure)
  }
  if (last_pass_end() != PassEnd::QUEUE_EXHAUSTED) {
    return ArrivalsRound::SKIP; // no GPU was free or the depth was reached: the arrivals queue behind
  }
  return ArrivalsRound::EXAMINE;
}

void ConservativeBackfillScheduler::begin_pass(PassKind kind) {
  if (kind == PassKind::ARRIVALS) {
    profile_.advance(free_, now_s());
    return;
  }
  profile_.begin(free_, running_, now_s());
  planned_ = true;
  reserved_at_.clear();
}

Step ConservativeBackfillScheduler::decide(const model::JobEntry& entry, PassKind kind,
                                           std::vector<model::Decision>& out) {
  if (kind == PassKind::ARRIVALS && no_room()) {
    return Step::BLOCKED; // the full pass stops there too
  }
  const model::JobSpec& job = entry.spec;
  last_examined_ = queue_.key_of(job.id);
  double duration_s = remaining_estimate_s(entry);
  auto where = place_unless_known_unfit(entry);
  if (where && profile_.fits_now(*where, duration_s)) {
    start(entry, std::move(*where), out);
    return Step::STARTED;
  }
  auto slot = profile_.earliest(job, duration_s);
  if (!slot) {
    return Step::WAITING; // cannot fit on the nodes that are up: no reservation
  }
  if (slot->start_s <= now_s() && !job.is_fractional()) {
    start(entry, std::move(slot->placement), out);
    return Step::STARTED;
  }
  profile_.reserve(*slot, duration_s);
  reserved_at_[job.id] = slot->start_s;
  return Step::WAITING;
}

std::unique_ptr<Scheduler> make_conservative_backfill(const ConservativeBackfillParams& params) {
  return std::make_unique<ConservativeBackfillScheduler>(params);
}

} // namespace acme::policies
