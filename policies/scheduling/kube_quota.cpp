#include "policies/scheduling/kube_quota.hpp"

#include "policies/scheduling/ordered_params.hpp"

namespace acme::policies {

const ParamTable<KubeQuotaParams>& KubeQuotaParams::table() {
  using P = KubeQuotaParams;
  static const ParamTable<P> t =
      ParamTable<P>{}
          .include(&P::quota, QuotaParams::table())
          .add(choice_param("queueing", &P::strict_fifo, {{"strict_fifo", true}, {"best_effort_fifo", false}},
                            "strict_fifo: a queue's head that cannot be admitted blocks its queue; best_effort_fifo: "
                            "later jobs of the queue may go first (Kueue's default)"))
          .add(queue_depth_param(&P::queue_depth));
  return t;
}

KubeQuotaScheduler::KubeQuotaScheduler(KubeQuotaParams params)
    : QueueScheduler({params.queue_depth, EstimatorParams{}, params.quota, model::WaitReason::QUOTA, {}, {}})
    , params_(std::move(params))
    , queues_(params_.quota, params_.strict_fifo) {}

Step KubeQuotaScheduler::decide(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) {
  const model::JobSpec& job = entry.spec;
  // Every job queued before still waits; under strict FIFO an arrival behind one waits too.
  if (kind == PassKind::ARRIVALS && params_.strict_fifo && !queues_.is_first_of_its_queue(job.id)) {
    return Step::WAITING;
  }
  if (reject_if_never_admitted(job, out)) {
    return Step::SKIPPED;
  }
  Admission admit = admission(job);
  if (held_back(admit)) { // a queue's head at its borrowing limit waits like one the quotas block
    hold(quota_wait());
    return Step::WAITING;
  }
  if (auto where = place_unless_known_unfit(entry)) {
    start(entry, std::move(*where), out);
    return Step::STARTED;
  }
  return admit == Admission::OWNED && try_preempt(entry, out) ? Step::PREEMPTED : Step::WAITING;
}

std::unique_ptr<Scheduler> make_kube_quota(const KubeQuotaParams& params) {
  return std::make_unique<KubeQuotaScheduler>(params);
}

} // namespace acme::policies
